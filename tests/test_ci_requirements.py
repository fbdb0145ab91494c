"""What CI requires: the shared cases fail instead of skipping when
``PRIMERO_CI=1``, and doctest collection leaves out modules whose extra is missing."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_shared_cases_without_the_folder(
    tmp_path: Path, ci: bool
) -> subprocess.CompletedProcess[str]:
    """Run test_shared_cases.py from a clone-like folder with no ../shared/cases beside it."""
    clone = tmp_path / "clone" / "tests"
    clone.mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "test_shared_cases.py", clone)
    env = {k: v for k, v in os.environ.items() if k != "PRIMERO_CI"}
    if ci:
        env["PRIMERO_CI"] = "1"
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "-p",
            "no:randomly",
            str(clone / "test_shared_cases.py"),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_shared_cases_skip_outside_ci_when_the_folder_is_missing(tmp_path: Path) -> None:
    done = run_shared_cases_without_the_folder(tmp_path, ci=False)
    assert done.returncode == 0, done.stdout
    assert "skipped" in done.stdout and "failed" not in done.stdout


def test_shared_cases_are_required_in_ci(tmp_path: Path) -> None:
    done = run_shared_cases_without_the_folder(tmp_path, ci=True)
    assert done.returncode == 1, done.stdout
    assert "PRIMERO_CI=1: the shared cases are required" in done.stdout


def load_src_conftest() -> ModuleType:
    spec = importlib.util.spec_from_file_location("src_conftest", ROOT / "src" / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_doctest_collection_leaves_out_modules_whose_extra_is_missing(tmp_path: Path) -> None:
    conftest = load_src_conftest()
    optional = tmp_path / "optional.py"
    optional.write_text(
        "from __future__ import annotations\n"
        "import json\n"
        "import no_such_extra_xyz.sub\n"
        "from primero.engine.cards import DECK\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import no_such_typing_only\n"
        "def f() -> None:\n    import no_such_lazy_import\n",
        encoding="utf-8",
    )
    assert conftest.missing_imports(optional) == ["no_such_extra_xyz"]
    plain = tmp_path / "plain.py"
    plain.write_text("import json\nimport numpy\nfrom primero import cards\n", encoding="utf-8")
    assert conftest.missing_imports(plain) == []


#: Import names of the optional extras (pyproject.toml): a module may be left out of
#: doctest collection only for one of these. A new extra adds its import names here.
OPTIONAL_IMPORTS = {"fpdf", "pyspiel", "open_spiel", "pettingzoo", "gymnasium"}


def test_modules_are_left_out_only_for_a_declared_extra() -> None:
    conftest = load_src_conftest()
    left_out = {
        p.relative_to(ROOT).as_posix(): conftest.missing_imports(p)
        for p in sorted((ROOT / "src" / "primero").rglob("*.py"))
        if conftest.missing_imports(p)
    }
    if left_out and os.environ.get("PRIMERO_CI") == "1":
        pytest.fail(f"PRIMERO_CI=1: modules whose extras are missing: {left_out}")
    for path, missing in left_out.items():
        assert set(missing) <= OPTIONAL_IMPORTS, (path, missing)


def test_alembic_migrations_are_opted_out_of_doctests() -> None:
    # env.py runs against a database when imported: an explicit opt-out (src/conftest.py).
    from fnmatch import fnmatch

    conftest = load_src_conftest()
    scripts = [
        p.relative_to(ROOT / "src").as_posix()
        for p in (ROOT / "src" / "primero" / "store" / "migrations").rglob("*.py")
    ]
    assert scripts
    for script in scripts:
        assert any(fnmatch(script, pattern) for pattern in conftest.DOCTEST_OPT_OUT), script
