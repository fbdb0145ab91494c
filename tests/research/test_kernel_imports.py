"""The random-playout kernel runs without the checked engine: importing it loads none of
``HandState``, the legal actions, the views or the record (the import contract of
pyproject.toml, with ``allow_indirect_imports = false``, checks the same statically)."""

from __future__ import annotations

import subprocess
import sys

CHECKED = (
    "primero.engine.state",
    "primero.engine.legal",
    "primero.engine.views",
    "primero.engine.match",
    "primero.engine.history",
    "primero.engine.actions",
)


def test_importing_the_kernel_loads_no_module_of_the_checked_engine() -> None:
    probe = (
        "import sys, primero.research.fastsim; "
        f"print(' '.join(m for m in {CHECKED!r} if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == ""
