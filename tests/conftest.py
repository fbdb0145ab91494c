"""The suite's configuration: the ``needs`` marker, the order of the test modules, and
one compile of the package before the xdist workers start.

The tests sit by layer (``tests/engine``, ``bots``, ``play``, ``research``, ``store``,
``server``, ``tui``, ``cli``, ``web``; ``project`` for the repository-wide checks:
types, layers, the README, the lock, the build). ``tests`` is a package: a test module
imports the shared helpers as ``tests.server_helpers``, ``tests.webtools`` ...
"""

from __future__ import annotations

import compileall
import os
import sys

import pytest

from tests import needs
from tests.paths import ROOT


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``needs`` marker; keep compiled bytecode; compile the package once.

    Where ``PYTHONDONTWRITEBYTECODE`` is set (some CI images set it), every pytest worker
    and every server or CLI subprocess the tests start would compile the package's sources
    again, and pytest would rewrite every test module's asserts again in each worker: about
    a third of the suite's CPU time on a fresh clone. The test run writes ``__pycache__``
    folders in the checkout (ignored by git) instead. The controller (not an xdist worker)
    compiles ``src/`` once, before the workers start.
    """
    config.addinivalue_line(
        "markers",
        "needs(*names): the test needs optional extras, services or folders "
        "(tests/needs.py NEEDS); skipped with the fix where one is missing, "
        "failed in CI",
    )
    config.addinivalue_line(
        "markers",
        "soak: a long endurance run (several server processes killed and restarted, a "
        "whole evening in browsers, ten thousand hands): `make soak`, which CI runs "
        "after `make test`",
    )
    config.addinivalue_line(
        "markers",
        "release: checks the compiled modules of the built wheel (tools/check_release.sh "
        "points PRIMERO_COMPILED_TREE at it; without it the test compiles its own)",
    )
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False
    if not hasattr(config, "workerinput"):
        compileall.compile_dir(ROOT / "src", quiet=1, workers=0)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Apply the ``needs`` marks of the test, its class, module and parameters."""
    for mark in item.iter_markers(name="needs"):
        needs.check(*mark.args)


#: Test modules whose tests take longest (servers, browsers, the mypyc compile, the
#: property runs), longest first: they are handed to the xdist workers first (with
#: ``--dist worksteal``), so the last minute of a run is not one worker finishing a long
#: test while the others idle.
SLOW_FIRST: tuple[str, ...] = (
    "test_compiled.py",
    "test_types.py",
    "test_server_cluster.py",
    "test_server_failover.py",
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
