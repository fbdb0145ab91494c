"""One rule for tests that need an optional extra, a service or a folder.

Mark a test (or a module, ``pytestmark``, or a parameter, ``pytest.param(...,
marks=...)``) with ``@pytest.mark.needs("postgres")``, ``needs("pyspiel", "pettingzoo")``
...: where a need is missing the test is skipped with one line that says what is missing
and the command that installs or starts it; under ``PRIMERO_CI=1`` (``.ci/run``) the same
line fails the test instead, so CI runs everything. tests/conftest.py applies the marker;
:func:`check` and :func:`require` are the same rule for a fixture that provides a
service and for a module whose top level imports an optional module.

The names are the keys of :data:`NEEDS`.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from tests.paths import CASES_DIR, TESTS

#: The fix for a missing research extra (open-spiel, pettingzoo, gymnasium, ray, ...).
RESEARCH = "pip install -e '.[research]' (or make test, which installs every extra)"
#: The fix for a missing test extra (pytest's plugins, Playwright, httpx, ...).
TEST = "pip install -e '.[test]' (or make test, which installs every extra)"


@dataclass(frozen=True)
class Need:
    """Something a test needs that a plain checkout may lack.

    ``what`` names it in words, ``fix`` is the command that provides it, ``present``
    says whether it is here (called once per process).
    """

    what: str
    fix: str
    present: Callable[[], bool]

    def reason(self) -> str:
        """The one line a skip or a failure shows."""
        return f"needs {self.what}: {self.fix}"


def _module(name: str) -> Callable[[], bool]:
    def present() -> bool:
        try:
            return importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            return False

    return present


def _reachable(port: int, ping: bytes = b"", pong: bytes = b"") -> Callable[[], bool]:
    def present() -> bool:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=3) as s:
                if ping:
                    s.sendall(ping)
                    return s.recv(16).startswith(pong)
                return True
        except OSError:
            return False

    return present


def _postgres() -> bool:
    try:
        import psycopg
    except ImportError:
        return False
    try:
        with psycopg.connect(
            "host=127.0.0.1 port=5432 user=postgres dbname=test", connect_timeout=3
        ):
            return True
    except psycopg.Error:
        return False


def _program(*names: str) -> Callable[[], bool]:
    def present() -> bool:
        return any(shutil.which(n) or (Path(n).is_absolute() and Path(n).exists()) for n in names)

    return present


def _node() -> bool:
    return shutil.which("node") is not None and (TESTS / "js/node_modules/.bin/tsc").exists()


def _compiler() -> bool:
    import build_compiled  # tools/, on pytest's pythonpath

    return build_compiled.why_not() is None


def _descriptors(wanted: int = 1400) -> bool:
    """Whether this process may open ``wanted`` files: the soft limit is raised to the
    hard one first (a server started afterwards inherits it)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted and (hard == resource.RLIM_INFINITY or hard >= wanted):
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        soft = wanted
    return soft >= wanted


def _git_checkout() -> bool:
    return shutil.which("git") is not None and (TESTS.parent / ".git").exists()


def _pure_views() -> bool:
    import primero.engine.views

    return primero.engine.views.__file__.endswith(".py")


def _research(module: str, package: str) -> Need:
    return Need(f"{package} (the research extra)", RESEARCH, _module(module))


#: Every need by name.
NEEDS: dict[str, Need] = {
    "pyspiel": _research("pyspiel", "open-spiel"),
    "pettingzoo": _research("pettingzoo", "pettingzoo"),
    "gymnasium": _research("gymnasium", "gymnasium"),
    "ray": _research("ray", "ray"),
    "matplotlib": _research("matplotlib", "matplotlib"),
    "openskill": _research("openskill", "openskill"),
    "fpdf": Need("fpdf2 (the pdf extra)", "pip install -e '.[pdf]'", _module("fpdf")),
    "mkdocs": Need(
        "mkdocs, mkdocs-material and mkdocstrings (the docs extra)",
        "pip install -e '.[docs]'",
        lambda: all(_module(m)() for m in ("mkdocs", "material", "mkdocstrings")),
    ),
    "playwright": Need("Playwright for Python (the test extra)", TEST, _module("playwright")),
    "postgres": Need(
        "PostgreSQL at 127.0.0.1:5432 (user postgres, database test, trust)",
        "apt-get install postgresql, then start it (createdb test)",
        _postgres,
    ),
    "redis": Need(
        "Redis at 127.0.0.1:6379",
        "apt-get install redis-server, then start it",
        _reachable(6379, b"PING\r\n", b"+PONG"),
    ),
    "redis-server": Need(
        "the redis-server program", "apt-get install redis-server", _program("redis-server")
    ),
    "nginx": Need("nginx", "apt-get install nginx-light", _program("nginx", "/usr/sbin/nginx")),
    "chromium": Need(
        "Chromium at /usr/bin/chromium", "apt-get install chromium", _program("/usr/bin/chromium")
    ),
    "node": Need(
        "Node.js >= 20.19 and the web client's tooling",
        "apt-get install nodejs npm && npm ci --prefix tests/js",
        _node,
    ),
    "compiler": Need(
        "a C compiler and Python's headers (for mypyc)",
        f"apt-get install gcc python{sys.version_info.major}.{sys.version_info.minor}-dev",
        _compiler,
    ),
    "shared_cases": Need(
        f"the shared cases at {CASES_DIR}",
        "put the shared cases beside the repository, as ../shared/cases/*.prh",
        lambda: CASES_DIR.is_dir() and any(CASES_DIR.glob("*.prh")),
    ),
    "descriptors": Need(
        "a limit of at least 1,400 open files (a test opens 1,100 sockets)",
        "ulimit -n 4096 (as root, or raise the hard limit in /etc/security/limits.conf)",
        _descriptors,
    ),
    "git_checkout": Need(
        "a git checkout (an unpacked sdist has no list of tracked files)",
        "git clone the repository",
        _git_checkout,
    ),
    "pure_build": Need(
        "the pure-Python engine first on the path (a compiled one is there now)",
        "unset PYTHONPATH, or PRIMERO_PURE_PYTHON=1 pip install -e .",
        _pure_views,
    ),
    "pty": Need(
        "a POSIX terminal (termios, pty)", "run the tests on Linux or macOS", _module("pty")
    ),
}

#: The need of each optional top-level module a module may import.
_MODULE_NEEDS = {"open_spiel": "pyspiel", "pyspiel": "pyspiel", "fpdf": "fpdf"} | {
    name: name for name in ("pettingzoo", "gymnasium", "ray", "matplotlib", "openskill")
}


def in_ci() -> bool:
    """Whether a missing need fails instead of skipping (``PRIMERO_CI=1``)."""
    return os.environ.get("PRIMERO_CI") == "1"


@cache
def missing(name: str) -> str | None:
    """The reason line when the need ``name`` is missing here, else None.

    Raises KeyError naming the known needs for an unknown name (a typo in a marker)."""
    if name not in NEEDS:
        raise KeyError(f"unknown need {name!r}; known: {', '.join(sorted(NEEDS))}")
    need = NEEDS[name]
    return None if need.present() else need.reason()


def check(*names: str) -> None:
    """Skip the running test (or module) when one of ``names`` is missing; under
    ``PRIMERO_CI=1``, fail it with the same line."""
    for name in names:
        reason = missing(name)
        if reason is None:
            continue
        if in_ci():
            pytest.fail(f"PRIMERO_CI=1: {reason}", pytrace=False)
        pytest.skip(reason, allow_module_level=True)


def need_of(module: str) -> str | None:
    """The need that provides the optional module ``module`` (dotted), if any."""
    return _MODULE_NEEDS.get(module.split(".")[0])


def require(module: str) -> ModuleType:
    """Import ``module``; when that fails for a missing optional module (this one or one
    it imports, e.g. ``primero.research.openspiel`` without pyspiel), :func:`check` its
    need. Any other import error is raised as it is."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        need = need_of(exc.name or "")
        if need is None:
            raise
        check(need)
        raise
