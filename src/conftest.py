"""Doctest collection of the package (``pytest --doctest-modules``, configured in
pyproject.toml): every module's docstring examples run with the tests.

A module is left out of doctest collection when it, or the ``__init__.py`` of a package
above it, imports at module level an optional module that is missing here (pyspiel,
pettingzoo, fpdf ...). Each need left out becomes one test item that follows the suite's
one rule (tests/needs.py): skipped with the line that names the fix, failed under
``PRIMERO_CI=1``.

Paths in :data:`DOCTEST_OPT_OUT` are never collected (e.g. a module that needs a
database at import).
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from collections import defaultdict
from fnmatch import fnmatch
from functools import cache
from pathlib import Path

import pytest

from tests import needs

HERE = Path(__file__).resolve().parent

#: Paths under src/ (glob patterns) never collected for doctests: Alembic's migration
#: scripts run against a database when imported (they are run by Alembic, not imported).
DOCTEST_OPT_OUT: tuple[str, ...] = ("conftest.py", "primero/store/migrations/*")

#: Modules left out because a need is missing: need -> their paths under src/.
LEFT_OUT: defaultdict[str, list[str]] = defaultdict(list)


@cache
def _available(top: str) -> bool:
    """Whether the top-level module ``top`` can be imported here."""
    return top in sys.stdlib_module_names or importlib.util.find_spec(top) is not None


@cache
def _imports(path: Path) -> tuple[str, ...]:
    """The top-level modules that ``path`` imports at module level.

    Imports inside functions, ``if TYPE_CHECKING:`` blocks and ``try:`` blocks are not
    module-level needs and are not counted; relative imports and ``primero`` are ours.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            found += [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module.split(".")[0])
    return tuple(m for m in dict.fromkeys(found) if m != "primero")


def missing_imports(path: Path) -> list[str]:
    """The missing top-level modules that importing ``path`` needs: its own module-level
    imports and those of every package ``__init__.py`` above it (up to ``src/``)."""
    files = [path, *(p / "__init__.py" for p in path.parents if HERE in p.parents)]
    found = [m for f in files if f.exists() for m in _imports(f)]
    return [m for m in dict.fromkeys(found) if not _available(m)]


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave out opted-out modules, and modules whose need is missing (recorded in
    :data:`LEFT_OUT`). A missing module no need provides is not left out: its import
    error shows."""
    if collection_path.suffix != ".py":
        return None
    relative = collection_path.resolve().relative_to(HERE).as_posix()
    if any(fnmatch(relative, pattern) for pattern in DOCTEST_OPT_OUT):
        return True
    wanted = [needs.need_of(m) for m in missing_imports(collection_path)]
    if not wanted or None in wanted:
        return None
    for need in dict.fromkeys(w for w in wanted if w is not None):
        LEFT_OUT[need].append(relative)
    return True


class LeftOut(pytest.Item):
    """The doctests of the modules left out for one missing need, as one test that
    applies the rule of tests/needs.py (skip with the fix; fail under PRIMERO_CI=1)."""

    need: str
    modules: tuple[str, ...]

    def runtest(self) -> None:
        needs.check(self.need)
        pytest.fail(f"{self.need} is here now; collect {', '.join(self.modules)} again")

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"doctests of {len(self.modules)} modules needing {self.need}"


def pytest_collection_modifyitems(session: pytest.Session, items: list[pytest.Item]) -> None:
    """Add one :class:`LeftOut` item per need that left modules out."""
    for need, modules in sorted(LEFT_OUT.items()):
        item = LeftOut.from_parent(session, name=f"src-doctests-needing-{need}")
        item.need = need
        item.modules = tuple(sorted(set(modules)))
        items.append(item)
