"""A griffe extension (mkdocs.yml, mkdocstrings' ``extensions``): doctests as code blocks.

The docstrings' examples are doctests (``>>>`` lines and their output) that pytest runs
with ``--doctest-modules``. Outside an ``Examples:`` section, Markdown would read them as
prose, and an output such as ``[21, 18, 16, 10]`` as a link; this extension fences every
run of doctest lines, up to the blank line that ends it, as a ``pycon`` code block. The
docstrings themselves are unchanged.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    r"""``text`` with each doctest (a ``>>>`` line, then lines up to a blank one) fenced.

    >>> fence_doctests("Points:\n>>> [1, 2][0]\n1\n\nEnd.").split("\n")
    ['Points:', '```pycon', '>>> [1, 2][0]', '1', '```', '', 'End.']
    """
    out: list[str] = []
    indent: str | None = None  # the open block's indentation, or None outside a block
    for line in text.split("\n"):
        stripped = line.lstrip()
        if indent is None and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
        elif indent is not None and not stripped:
            out.append(f"{indent}```")
            indent = None
        out.append(line)
    if indent is not None:
        out.append(f"{indent}```")
    return "\n".join(out)


class FenceDoctests(griffe.Extension):
    """Fence the doctests of every docstring griffe reads (see :func:`fence_doctests`)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite ``obj``'s docstring, if it has one and it holds a doctest."""
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
