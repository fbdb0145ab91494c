"""Start-up: what importing the command line, the kernel and the package loads.

Every ``primero`` command first imports :mod:`primero.cli` (all subcommands register),
so a heavy import at the top of any subcommand module slows them all; the random-play
figure of docs/performance.md (``primero simulate --bots random``) imports the kernel
:mod:`primero.research.fastsim`. These tests guard the start-up without timing anything: each
runs in a fresh interpreter and lists the modules that must not be loaded.
``benchmarks/bench_startup.py`` measures the CPU time.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

#: Loaded only by the commands that use them (the server, the TUI, plots, odds...).
HEAVY = (
    "alembic",
    "fastapi",
    "markdown_it",
    "matplotlib",
    "multiprocessing",
    "numpy",
    "pydantic",
    "pydoc",
    "ray",
    "sqlalchemy",
    "textual",
    "uvicorn",
    "importlib.metadata",  # primero.__version__, read on first access
    "primero.bots.heuristic",
    "primero.bots.search",
    "primero.engine.odds",
    "primero.server",
    "primero.store",
    "primero.play.table",
    "primero.research.tournament",
    "primero.research.tournament_engines",
    "primero.tui",
)

#: Not needed by the kernel, nor to register the commands.
ENGINE_EXTRAS = (
    "primero.engine.history",
    "primero.engine.match",
    "primero.play.savegame",
    "tomli_w",
)


def loaded_after(code: str) -> tuple[set[str], bool]:
    """The modules loaded by ``code`` in a fresh interpreter, and whether the evaluator's
    table (:func:`primero.engine.hands._table`) was built."""
    script = (
        f"{code}\n"
        "import json, sys\n"
        "hands = sys.modules.get('primero.engine.hands')\n"
        "print(json.dumps([sorted(sys.modules), bool(hands and hands._built)]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    modules, built = json.loads(done.stdout.splitlines()[-1])
    return set(modules), built


def present(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if n in modules)


@pytest.mark.parametrize(
    "code",
    [
        "import primero.cli",
        "import primero",
        # primero --version: what the console script does
        "import sys\nsys.argv = ['primero', '--version']\nfrom primero.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass",
    ],
)
def test_the_command_line_starts_without_heavy_modules(code: str) -> None:
    modules, built = loaded_after(code)
    allowed = {"importlib.metadata"} if "--version" in code else set()
    assert set(present(modules, HEAVY)) <= allowed, present(modules, HEAVY)
    assert not present(modules, ENGINE_EXTRAS), present(modules, ENGINE_EXTRAS)
    assert "primero.research.fastsim" not in modules
    assert not built, "the evaluator's table is built on first use, not at import"


def test_the_kernel_loads_only_the_engine_it_uses() -> None:
    modules, built = loaded_after("import primero.research.fastsim")
    assert not present(modules, HEAVY), present(modules, HEAVY)
    assert not present(modules, ENGINE_EXTRAS), present(modules, ENGINE_EXTRAS)
    assert not {"typer", "rich", "secrets"} & modules
    assert built  # the kernel reads hands.value_by_mask()


def test_the_package_re_exports_load_on_first_use() -> None:
    import primero

    assert set(primero._LAZY) == set(primero.__all__)
    for name in primero.__all__:
        assert getattr(primero, name) is getattr(sys.modules[primero._LAZY[name]], name), name
    assert {"__version__", *primero.__all__} <= set(dir(primero))
    with pytest.raises(AttributeError):
        _ = primero.no_such_name
