"""The one rule for optional needs (tests/needs.py): a missing extra, service or folder
skips with one line naming the fix, and fails under ``PRIMERO_CI=1``; doctest collection
leaves out a module whose own or whose package's imports need a missing extra, under the
same rule; no test has skip logic of its own."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests import needs
from tests.paths import ROOT, TESTS


def _pytest(folder: Path, target: Path, ci: bool) -> subprocess.CompletedProcess[str]:
    """pytest on ``target`` in ``folder`` (its own root, no xdist), with or without CI."""
    env = {k: v for k, v in os.environ.items() if k != "PRIMERO_CI"}
    if ci:
        env["PRIMERO_CI"] = "1"
    options = ["-q", "-rsf", "-p", "no:cacheprovider", "-p", "no:xdist"]
    return subprocess.run(
        [sys.executable, "-m", "pytest", *options, "--rootdir", str(folder), str(target)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _clone_without_shared(tmp_path: Path) -> Path:
    """The tests' rule files and test_shared_cases.py in a folder with no shared/ near."""
    clone = tmp_path / "clone"
    (clone / "tests" / "engine").mkdir(parents=True)
    for name in ("__init__.py", "conftest.py", "needs.py", "paths.py"):
        shutil.copy(TESTS / name, clone / "tests" / name)
    (clone / "tests" / "engine" / "__init__.py").touch()
    shutil.copy(TESTS / "engine" / "test_shared_cases.py", clone / "tests" / "engine")
    return clone


def test_a_missing_folder_skips_with_the_fix_outside_ci(tmp_path: Path) -> None:
    clone = _clone_without_shared(tmp_path)
    done = _pytest(clone, clone / "tests" / "engine" / "test_shared_cases.py", ci=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "skipped" in done.stdout and "failed" not in done.stdout
    assert "needs the shared cases at " in done.stdout
    assert "beside the repository, as ../shared/cases/*.prh" in done.stdout


def test_a_missing_folder_fails_under_ci(tmp_path: Path) -> None:
    clone = _clone_without_shared(tmp_path)
    done = _pytest(clone, clone / "tests" / "engine" / "test_shared_cases.py", ci=True)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "PRIMERO_CI=1: needs the shared cases at " in done.stdout


def test_check_skips_or_fails_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(needs.NEEDS, "absent", needs.Need("a thing", "make thing", lambda: False))
    needs.missing.cache_clear()
    try:
        monkeypatch.delenv("PRIMERO_CI", raising=False)
        with pytest.raises(pytest.skip.Exception, match=r"^needs a thing: make thing$"):
            needs.check("absent")
        monkeypatch.setenv("PRIMERO_CI", "1")
        with pytest.raises(pytest.fail.Exception, match=r"^PRIMERO_CI=1: needs a thing: make"):
            needs.check("absent")
        with pytest.raises(KeyError, match="unknown need 'no_such'"):
            needs.check("no_such")
    finally:
        needs.missing.cache_clear()


def test_every_need_names_a_fix_command() -> None:
    for name, need in needs.NEEDS.items():
        fixes = r"pip install|apt-get install|npm ci|put the|run the|ulimit|git clone|unset"
        assert re.search(fixes, need.fix), name
        assert "\n" not in need.reason(), name


def test_require_checks_the_need_of_a_missing_optional_module(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``require`` of a module that imports a missing optional module applies that need."""
    seen: list[str] = []

    def fake_import(name: str) -> ModuleType:
        raise ModuleNotFoundError(f"No module named '{name}'", name="open_spiel.python")

    monkeypatch.setattr("importlib.import_module", fake_import)
    monkeypatch.setattr(needs, "check", seen.append)
    with pytest.raises(ModuleNotFoundError):
        needs.require("primero.research.openspiel")
    assert seen == ["pyspiel"]


def _src_conftest() -> ModuleType:
    import importlib.util

    spec = importlib.util.spec_from_file_location("src_conftest", ROOT / "src" / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_doctest_collection_reads_module_level_imports_only(tmp_path: Path) -> None:
    conftest = _src_conftest()
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


def test_a_module_whose_package_needs_a_missing_extra_is_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """openspiel/table.py imports no pyspiel itself; its package's ``__init__`` does."""
    conftest = _src_conftest()
    monkeypatch.setattr(conftest, "_available", lambda top: top != "pyspiel")
    table = ROOT / "src" / "primero" / "research" / "openspiel" / "table.py"
    assert "pyspiel" not in conftest._imports(table)
    assert conftest.missing_imports(table) == ["pyspiel"]


def test_modules_are_left_out_only_for_a_known_need() -> None:
    """A module-level import of a missing module is left out of doctests only when a need
    provides it (else its import error shows); under CI nothing is missing."""
    conftest = _src_conftest()
    for path in sorted((ROOT / "src" / "primero").rglob("*.py")):
        for module in conftest.missing_imports(path):
            assert needs.need_of(module) is not None, (path, module)
            if needs.in_ci():
                pytest.fail(f"PRIMERO_CI=1: {path} needs {module}")


def test_alembic_migrations_are_opted_out_of_doctests() -> None:
    # env.py runs against a database when imported: an explicit opt-out (src/conftest.py).
    from fnmatch import fnmatch

    conftest = _src_conftest()
    scripts = [
        p.relative_to(ROOT / "src").as_posix()
        for p in (ROOT / "src" / "primero" / "store" / "migrations").rglob("*.py")
    ]
    assert scripts
    for script in scripts:
        assert any(fnmatch(script, pattern) for pattern in conftest.DOCTEST_OPT_OUT), script


def test_no_test_has_skip_logic_of_its_own() -> None:
    """``PRIMERO_CI``, ``importorskip``, ``pytest.skip(`` and ``skipif`` appear only in
    tests/needs.py (and here): every skip is a need's, so CI turns each into a failure."""
    own = {TESTS / "needs.py", Path(__file__).resolve()}
    found = [
        f"{path.relative_to(ROOT)}: {word}"
        for path in sorted(TESTS.rglob("*.py"))
        if "node_modules" not in path.parts and path not in own
        for word in ("PRIMERO_CI", "importorskip", "pytest.skip(", "skipif")
        if word in path.read_text(encoding="utf-8")
    ]
    assert found == [], "use @pytest.mark.needs(...) (tests/needs.py):\n" + "\n".join(found)
