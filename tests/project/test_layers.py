"""The package's shape beyond its layers: no import circles, private names kept private.

The layers themselves (architecture.md) are import-linter contracts in pyproject.toml,
checked by ``lint-imports`` in the README's test command and by the first test here.
Imports are read from the source (module level, ``if TYPE_CHECKING:`` blocks and imports
inside functions alike), so a lazy import counts as much as an eager one.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

SRC = ROOT / "src"
PACKAGE = SRC / "primero"


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str) -> bool:
    path = SRC / Path(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def imports_of(path: Path) -> set[str]:
    """Every ``primero`` module ``path`` imports, anywhere in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("primero")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            if target.startswith("primero"):
                submodules = [
                    f"{target}.{alias.name}"
                    for alias in node.names
                    if is_module(f"{target}.{alias.name}")
                ]
                found.update(submodules)  # "from primero.server import api": the module api
                if len(submodules) < len(node.names):  # a name defined by the package itself
                    found.add(target)
    found.discard(name)
    return found


GRAPH = {module_name(p): imports_of(p) for p in sorted(PACKAGE.rglob("*.py"))}


def test_the_import_contracts_hold() -> None:
    """The layers of pyproject.toml's [tool.importlinter] contracts (engine at the
    bottom, front ends on top) are kept."""
    beside = Path(sys.executable).with_name("lint-imports")
    lint_imports = str(beside) if beside.exists() else shutil.which("lint-imports")
    assert lint_imports, "lint-imports (import-linter, the test extra) is not installed"
    done = subprocess.run(
        [lint_imports], cwd=SRC.parent, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def reaches(start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        m = todo.pop()
        for nxt in GRAPH.get(m, ()):
            if nxt == goal:
                return True
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("primero.engine.state", "primero.engine.legal"),
        ("primero.play.cheatsheet", "primero.play.cheatsheet_pdf"),
    ],
)
def test_no_circle(a: str, b: str) -> None:
    assert not (reaches(a, b) and reaches(b, a)), f"{a} and {b} import each other"


#: Circles known and left to their owners: the OpenSpiel game's modules import each
#: other's types under ``if TYPE_CHECKING:`` (research interfaces). New circles
#: fail this test.
KNOWN_CIRCLES = {
    "primero.research.openspiel.game",
    "primero.research.openspiel.observer",
    "primero.research.openspiel.resample",
}


def test_no_module_imports_itself_through_others() -> None:
    circles = sorted(m for m in GRAPH if any(reaches(n, m) for n in GRAPH[m]))
    assert not set(circles) - KNOWN_CIRCLES, circles


def test_private_names_stay_in_their_package() -> None:
    # A leading underscore is private to its package (the odds package's submodules
    # share theirs); the evaluator's table is public as hands.value_by_mask().
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        name = module_name(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("primero"):
                source_package = (node.module or "").rpartition(".")[0]
                same = name.rpartition(".")[0] == source_package and source_package != "primero"
                private = [
                    a.name
                    for a in node.names
                    if a.name.startswith("_") and not a.name.endswith("__")
                ]
                if private and not same:
                    offenders.append((name, node.module, private))
    assert not offenders, offenders
