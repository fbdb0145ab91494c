"""A copy of this checkout's package with the mypyc-compiled modules, for tests and benchmarks.

Usage::

    python tools/build_compiled.py          # prints the folder to put on PYTHONPATH

An editable install runs the pure-Python modules (setup.py); a wheel built on a machine
with a C compiler runs the modules of ``setup.COMPILED`` compiled by mypyc. This tool
gives the second without a wheel: it compiles those modules once with
``setup.py build_ext`` into ``build/compiled/<hash>/`` (the hash is that of the compiled
sources, the modules they read and the Python and mypy versions, so an edit elsewhere
does not recompile), and puts a fresh copy of ``src/primero`` with the compiled
extensions beside it in ``build/compiled/tree/``. ``PYTHONPATH=build/compiled/tree``
then imports the compiled modules ahead of the installed package.

``tests/research/test_compiled.py`` runs the kernel's tests against that copy;
``benchmarks/bench_engine.py --compiled`` measures it.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
OUT = ROOT / "build" / "compiled"


def _setup_module() -> ModuleType:
    """The repository's setup.py as a module (it calls ``setup()`` only as ``__main__``)."""
    spec = importlib.util.spec_from_file_location("primero_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_SETUP = _setup_module()
#: The modules setup.py compiles, relative to ``src/`` (``primero/engine/rulebook.py``...).
COMPILED: tuple[str, ...] = tuple(p.removeprefix("src/") for p in _SETUP.COMPILED)
#: setup.py's options for mypycify.
MYPYC_OPTIONS: dict[str, str] = {"opt_level": _SETUP.OPT_LEVEL, "group_name": _SETUP.GROUP_NAME}

#: A stand-alone build script for the copy (no package metadata: the venv's setuptools
#: may be older than the one pyproject.toml asks for, which pip's isolated build gets).
_BUILD_SCRIPT = """\
import json, sys
from setuptools import setup
from mypyc.build import mypycify
setup(name="primero-compiled", script_args=["-q", "build_ext", "--inplace", *sys.argv[3:]],
      ext_modules=mypycify(json.loads(sys.argv[1]), **json.loads(sys.argv[2])))
"""

#: The extensions' file suffix on this interpreter (``.cpython-311-x86_64-linux-gnu.so``).
EXT_SUFFIX: str = sysconfig.get_config_var("EXT_SUFFIX")


class CompileUnavailable(RuntimeError):
    """No C compiler, no ``Python.h`` or no mypyc here: nothing can be compiled."""


def why_not() -> str | None:
    """Why nothing can be compiled on this machine, or None when it can."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python.h (the python3-dev package)"
    try:
        importlib.metadata.version("mypy")
    except importlib.metadata.PackageNotFoundError:
        return "mypyc is not installed (pip install mypy)"
    return None


#: The C compiler's optimisation for the tests' build: the tests check that the compiled
#: modules behave as the pure-Python ones, which the C optimisation does not change (it is
#: given to the C compiler only; mypyc's own translation is the same), and ``-O0`` halves
#: the compile's CPU time. Wheels and the benchmarks use setup.py's level.
TEST_OPT_LEVEL = "0"


def mypyc_options(opt_level: str) -> dict[str, object]:
    """mypycify's options for a build with the C compiler's ``-O<opt_level>``: setup.py's,
    and for the tests' build (:data:`TEST_OPT_LEVEL`) one C file per module
    (``multi_file``), which the C compiler builds on every core (``build_ext -j``).

    Without optimisation, splitting the C changes nothing the tests check and the files
    compile in parallel (the one file of 5 MB took a core for 17 s); an optimised build
    keeps setup.py's single file, where the C compiler can inline across modules.
    """
    options: dict[str, object] = {**MYPYC_OPTIONS, "opt_level": opt_level}
    if opt_level == TEST_OPT_LEVEL:
        options["multi_file"] = True
    return options


def source_hash(opt_level: str = _SETUP.OPT_LEVEL) -> str:
    """A hash of what the compiled code depends on (sources, Python and mypy versions, and
    mypycify's options: the C optimisation level and, for the tests, ``multi_file``)."""
    digest = hashlib.sha256()
    digest.update(json.dumps(mypyc_options(opt_level), sort_keys=True).encode())
    digest.update(sys.version.encode())
    digest.update(importlib.metadata.version("mypy").encode())
    digest.update((ROOT / "setup.py").read_bytes())
    read = sorted({*(SRC / m for m in COMPILED), *(SRC / "primero" / "engine").glob("*.py")})
    for path in read:
        digest.update(path.relative_to(SRC).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def compile_once(opt_level: str = _SETUP.OPT_LEVEL) -> Path:
    """The folder holding the compiled extensions of the current sources, built if needed
    with the C compiler's ``-O<opt_level>``.

    Raises:
        CompileUnavailable: nothing can be compiled here (:func:`why_not`).
        subprocess.CalledProcessError: mypyc or the C compiler failed.
    """
    reason = why_not()
    if reason is not None:
        raise CompileUnavailable(reason)
    done = OUT / source_hash(opt_level)
    if (done / "ok").exists():
        return done
    work = done.with_name(done.name + ".work")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    shutil.copytree(
        SRC / "primero", work / "primero", ignore=shutil.ignore_patterns("__pycache__", "*.so")
    )
    options = mypyc_options(opt_level)
    jobs = ["-j", str(os.cpu_count() or 1)] if options.get("multi_file") else []
    subprocess.run(
        [sys.executable, "-c", _BUILD_SCRIPT, json.dumps(COMPILED), json.dumps(options), *jobs],
        cwd=work,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    built = sorted(
        path for path in work.rglob("*" + EXT_SUFFIX) if path.relative_to(work).parts[0] != "build"
    )
    shutil.rmtree(done, ignore_errors=True)
    done.mkdir()
    for path in built:
        target = done / path.relative_to(work)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    (done / "ok").write_text("\n".join(p.relative_to(work).as_posix() for p in built))
    shutil.rmtree(work)
    return done


def build_tree(dest: Path = OUT / "tree", opt_level: str = _SETUP.OPT_LEVEL) -> Path:
    """``dest`` (emptied first): the current ``src/primero`` with the compiled extensions
    (C compiled with ``-O<opt_level>``: setup.py's level unless told otherwise).

    Safe to call from several processes at once with different ``dest`` folders (the
    compilation holds a file lock); the extensions are compiled only when the sources
    they depend on changed (:func:`compile_once`).

    Raises:
        CompileUnavailable: nothing can be compiled here.
        subprocess.CalledProcessError: mypyc or the C compiler failed.
    """
    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        compiled = compile_once(opt_level)
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(
        SRC / "primero", dest / "primero", ignore=shutil.ignore_patterns("__pycache__", "*.so")
    )
    for path in compiled.rglob("*" + EXT_SUFFIX):
        target = dest / path.relative_to(compiled)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    return dest


def main() -> int:
    """Build the tree and print its path (exit 1 with the reason when impossible)."""
    try:
        print(build_tree())
    except CompileUnavailable as exc:
        print(f"cannot compile here: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
