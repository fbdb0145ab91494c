"""CONTRIBUTING.md tells the truth about the build: its list of compiled modules is
setup.py's :data:`COMPILED`, in the same order."""

from __future__ import annotations

import ast
import re

from tests.paths import ROOT


def compiled_in_setup() -> list[str]:
    """The literal list assigned to ``COMPILED`` in setup.py (read, not imported: importing
    setup.py would run setuptools)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    target: ast.expr
    value: ast.expr | None
    for node in tree.body:
        if isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id == "COMPILED" and value is not None:
            found = ast.literal_eval(value)
            assert isinstance(found, list)
            return [str(v) for v in found]
    raise AssertionError("setup.py assigns no COMPILED list")


def compiled_in_contributing() -> list[str]:
    """The bullets under CONTRIBUTING.md's ``### Compiled modules`` heading."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = re.search(r"^### Compiled modules\n(.*?)(?=^#)", text, re.M | re.S)
    assert section is not None, "CONTRIBUTING.md has no '### Compiled modules' section"
    return re.findall(r"^- (\S+\.py)$", section.group(1), re.M)


def test_contributing_lists_the_compiled_modules_of_setup_py() -> None:
    listed = compiled_in_contributing()
    assert len(listed) == 19  # rulebook, the flow, the lines, pots, the kernel, the vector batch…
    assert listed == compiled_in_setup(), "copy setup.py's COMPILED into CONTRIBUTING.md"


def test_every_compiled_module_exists() -> None:
    for path in compiled_in_setup():
        assert (ROOT / path).is_file(), path
