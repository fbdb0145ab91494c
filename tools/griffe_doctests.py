"""A griffe extension (mkdocs.yml, mkdocstrings' ``extensions``): doctests as code blocks,
Sphinx roles as code.

The docstrings' examples are doctests (``>>>`` lines and their output) that pytest runs
with ``--doctest-modules``. Outside an ``Examples:`` section, Markdown would read them as
prose, and an output such as ``[21, 18, 16, 10]`` as a link; this extension fences every
run of doctest lines, up to the blank line that ends it, as a ``pycon`` code block. The
docstrings themselves are unchanged. The docstrings' Sphinx roles (``:func:`f```,
``:data:`~primero.engine.cards.DECK```) are shown as the code they name.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

#: A Sphinx cross-reference role: ``:func:`x```, ``:py:class:`~a.b.C```.
ROLE = re.compile(r":(?:py:)?(?:func|data|class|mod|meth|attr|exc|obj|const):`(~?)([^`]+)`")


def plain_roles(text: str) -> str:
    r"""``text`` with each Sphinx role written as inline code (``~`` keeps the last name).

    >>> plain_roles("see :func:`parse_card` and :data:`~primero.engine.cards.DECK`")
    'see `parse_card` and `DECK`'
    """
    return ROLE.sub(lambda m: f"`{m[2].rsplit('.', 1)[-1] if m[1] else m[2]}`", text)


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
    """Fence the doctests of every docstring griffe reads and plain its roles
    (:func:`fence_doctests`, :func:`plain_roles`)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite ``obj``'s docstring, if it has one."""
        if obj.docstring is not None:
            obj.docstring.value = plain_roles(fence_doctests(obj.docstring.value))
