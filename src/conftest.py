"""Doctest collection of the package (``pytest --doctest-modules``, configured in
pyproject.toml): every module's docstring examples run with the tests.

A module whose top-level imports need an optional extra (``fpdf`` for the PDF cheat
sheet; later pyspiel, pettingzoo, fastapi, ...) is left out of doctest collection when
that extra is not installed, so a plain ``pip install -e '.[test]'`` collects cleanly.
Under ``PRIMERO_CI=1`` (CI) nothing is left out: a missing extra fails the run.

How a module opts out:

- automatically, by importing its optional dependency at module level (``import
  pyspiel`` or ``from fastapi import ...``): it is skipped wherever that is missing;
- explicitly, by adding its path (relative to this folder, glob patterns allowed) to
  :data:`DOCTEST_OPT_OUT` below, e.g. a module that starts a server at import.
"""

from __future__ import annotations

import ast
import compileall
import importlib.util
import os
import sys
from fnmatch import fnmatch
from functools import cache
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

#: Paths under src/ (glob patterns) never collected for doctests: Alembic's migration
#: scripts run against a database when imported (they are run by Alembic, not imported).
DOCTEST_OPT_OUT: tuple[str, ...] = ("conftest.py", "primero/store/migrations/*")


@cache
def _available(top: str) -> bool:
    """Whether the top-level module ``top`` can be imported here."""
    return top in sys.stdlib_module_names or importlib.util.find_spec(top) is not None


def missing_imports(path: Path) -> list[str]:
    """The top-level modules that ``path`` imports at module level and that are missing.

    Imports inside functions, ``if TYPE_CHECKING:`` blocks and ``try:`` blocks are not
    module-level needs and are not counted; relative imports and ``primero`` are ours.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    needed: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            needed += [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            needed.append(node.module.split(".")[0])
    return [m for m in dict.fromkeys(needed) if m != "primero" and not _available(m)]


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave out opted-out modules and, outside CI, modules whose extra is missing."""
    if collection_path.suffix != ".py":
        return None
    relative = collection_path.resolve().relative_to(HERE).as_posix()
    if any(fnmatch(relative, pattern) for pattern in DOCTEST_OPT_OUT):
        return True
    if os.environ.get("PRIMERO_CI") == "1":
        return None
    return True if missing_imports(collection_path) else None


def pytest_configure(config: pytest.Config) -> None:
    """Let this run and its subprocesses keep compiled bytecode, and compile the package once.

    Where ``PYTHONDONTWRITEBYTECODE`` is set (some CI images set it), every pytest worker
    and every server or CLI subprocess the tests start would compile the package's sources
    again, and pytest would rewrite every test module's asserts again in each worker: about
    a third of the suite's CPU time on a fresh clone. The test run writes ``__pycache__``
    folders in the checkout (ignored by git) instead. The controller (not an xdist worker)
    compiles ``src/`` once, before the workers start.
    """
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False
    if not hasattr(config, "workerinput"):
        compileall.compile_dir(HERE, quiet=1, workers=0)


#: Test modules whose tests take longest (servers, browsers, the mypyc compile, the
#: property runs), longest first: they are handed to the xdist workers first, so the
#: last minute of a run is not one worker finishing a long test while the others idle.
SLOW_FIRST: tuple[str, ...] = (
    "test_compiled.py",
    "test_types.py",
    "test_server_cluster.py",
    "test_tournament.py",
    "test_properties.py",
    "test_server_live.py",
    "test_web_evening.py",
    "test_server_write_path.py",
    "test_tui_hot_seat.py",
    "test_web.py",
    "test_tui_screens.py",
    "test_server_protocol.py",
    "test_server_edge.py",
    "test_server_fuzz.py",
    "test_tui_snapshots.py",
    "test_tui_play.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the modules of :data:`SLOW_FIRST` first, in that order; the rest keep theirs.

    The order is computed the same way in every xdist worker (they must agree)."""
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))
