"""The build: the kernel and the rules it reads compiled with mypyc, where that can be done.

Everything about the package is in ``pyproject.toml``; this file only adds the compiled
modules. A wheel (``pip install .``, ``pip wheel .``, ``python -m build``) built on a
machine with a C compiler and Python's headers holds, beside the ``.py`` sources, a
mypyc-compiled extension module for each module of :data:`COMPILED`; Python imports the
extension first. The pure-Python modules are the fallback and behave the same (the
tests run both, see ``tests/research/test_compiled.py``):

* an editable install (``pip install -e .``, the README's commands) is never compiled,
  so that an edit to a ``.py`` file takes effect at once;
* no C compiler or no ``Python.h``: a pure-Python wheel, with a message;
* mypyc's type check or the C compiler fails: a pure-Python wheel, with one line
  saying why (the build never fails for want of the compiled modules);
* ``PRIMERO_PURE_PYTHON=1`` in the environment: a pure-Python wheel.

mypyc compiles the modules after type-checking them (``mypy --strict`` already passes);
``python tools/build_compiled.py`` builds them beside a copy of the checkout's package,
for the tests and the benchmarks.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: The modules compiled: the random-playout kernel, its tables, the rules it calls and
#: the random bot's parts it draws through; the engine's hand state
#: machine and what the research environments run on every move: actions, legal
#: actions, views, the dealer, the action ids, the observation vectors, the dealing loop
#: and pyspiel's chance draws. ``cards`` and ``hands`` stay Python
#: (their immutable values set their slots through ``object.__setattr__``, which a
#: compiled class does not allow), and so do the environments themselves (subclasses of
#: pyspiel's and PettingZoo's classes).
COMPILED = [
    "src/primero/engine/rulebook.py",
    "src/primero/engine/flow.py",
    "src/primero/engine/lines.py",
    "src/primero/engine/pots.py",
    "src/primero/bots/random_moves.py",
    "src/primero/bots/random.py",
    "src/primero/research/fastsim_tables.py",
    "src/primero/research/fastsim.py",
    "src/primero/engine/actions.py",
    "src/primero/engine/legal.py",
    "src/primero/engine/state.py",
    "src/primero/engine/views.py",
    "src/primero/engine/dealing.py",
    "src/primero/research/actionids.py",
    "src/primero/research/features.py",
    "src/primero/research/mini.py",
    "src/primero/research/openspiel/table.py",
    "src/primero/research/stepper.py",
    "src/primero/research/vector_batch.py",
]

#: setup.py commands that build a wheel or extensions (not the metadata-only ones, such as
#: ``egg_info`` and ``dist_info``, nor ``editable_wheel``).
_BUILD_COMMANDS = {"bdist_wheel", "build", "build_ext", "install"}


def why_pure() -> str | None:
    """Why this build stays pure Python, or None when it compiles :data:`COMPILED`."""
    if os.environ.get("PRIMERO_PURE_PYTHON") == "1":
        return "PRIMERO_PURE_PYTHON=1"
    if "editable_wheel" in sys.argv or not _BUILD_COMMANDS & set(sys.argv[1:]):
        return "not a wheel build (an editable install runs the .py files)"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python.h (install the python3-dev package)"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed"
    return None


def ext_modules() -> list[Extension]:
    """The mypyc extensions of :data:`COMPILED`, or none (see :func:`why_pure`)."""
    reason = why_pure()
    if reason is not None:
        if _BUILD_COMMANDS & set(sys.argv[1:]):
            _say_pure(reason)
        return []
    from mypyc.build import mypycify

    try:
        return list(mypycify(COMPILED, opt_level=OPT_LEVEL, group_name=GROUP_NAME))
    except (Exception, SystemExit) as exc:  # mypyc exits on a type error
        _say_pure(f"mypyc failed: {exc or type(exc).__name__}; see the lines above")
        return []


def _say_pure(reason: str) -> None:
    """The one line a build that falls back to pure Python prints."""
    print(f"primero: pure-Python modules ({reason})", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """``build_ext`` that leaves the compiled modules out when the C compiler fails:
    their partial outputs are removed, so the wheel holds the pure-Python modules."""

    extensions: list[Extension]

    def run(self) -> None:
        try:
            super().run()
        except (Exception, SystemExit) as exc:
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            self.extensions = []
            _say_pure(f"the C build failed: {exc}")


#: mypycify's options: the C compiler's optimisation level; the name of the shared
#: library of the compiled modules (``primero__mypyc``).
OPT_LEVEL = "3"
GROUP_NAME = "primero"

#: Where the README's relative links point in the package's description (a package
#: index shows the README away from the repository): pages, and the raw files of images.
REPO_PAGES = "https://github.com/primero-developers/primero/blob/main/"
REPO_FILES = "https://raw.githubusercontent.com/primero-developers/primero/main/"


def long_description(text: str) -> str:
    """The README for a package index: each relative link made absolute (images to the
    raw file, other links to the repository's page); links to anchors and absolute links
    stay as they are.

    >>> long_description("![a](docs/a.png) [b](docs/b.md) [c](#c) [d](https://x)")
    '![a](https://raw.githubusercontent.com/primero-developers/primero/main/docs/a.png) \
[b](https://github.com/primero-developers/primero/blob/main/docs/b.md) [c](#c) [d](https://x)'
    """
    relative = r"\]\((?!https?:|#|mailto:)([^)\s]+)\)"
    text = re.sub(r"(!\[[^\]]*)" + relative, lambda m: f"{m[1]}]({REPO_FILES}{m[2]})", text)
    return re.sub(r"((?<!!)\[[^\]]*)" + relative, lambda m: f"{m[1]}]({REPO_PAGES}{m[2]})", text)


if __name__ == "__main__":  # setuptools runs this file as __main__; tools/ imports it
    setup(
        ext_modules=ext_modules(),
        cmdclass={"build_ext": OptionalBuildExt},
        long_description=long_description(Path(__file__).with_name("README.md").read_text("utf-8")),
        long_description_content_type="text/markdown",
    )
