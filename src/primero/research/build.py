"""Which build runs the research interfaces: the compiled core (mypyc) or pure Python.

A wheel install (``pip install .`` with a C compiler) compiles the core the interfaces
run on (:data:`primero.research.stepper.COMPILED`); an editable install runs the same
``.py`` files, 2 to 3 times slower through OpenSpiel, PettingZoo and Gymnasium
(docs/research.md, "Speed"). The interfaces say so once a process, when the first of
them is imported (:func:`warn_if_pure`), as a :class:`PureBuildWarning`; silence it with
Python's own filter: ``-W "ignore:primero runs its pure-Python build"``.
"""

from __future__ import annotations

import warnings
from typing import Final

from primero.research.stepper import COMPILED

__all__ = ["PURE_BUILD_MESSAGE", "PureBuildWarning", "warn_if_pure"]

#: What the warning says.
PURE_BUILD_MESSAGE: Final = (
    "primero runs its pure-Python build here: OpenSpiel, PettingZoo and Gymnasium run "
    "2 to 3 times slower than on the compiled core. To compile it, install a wheel "
    "(pip install . in a checkout, with a C compiler), or build in place and put it "
    "first on the path: PYTHONPATH=$(python tools/build_compiled.py)"
)

_said: list[bool] = []


class PureBuildWarning(UserWarning):
    """The research interfaces run on the pure-Python build (:data:`PURE_BUILD_MESSAGE`)."""


def warn_if_pure(compiled: bool = COMPILED) -> bool:
    """Warn once a process that the pure-Python build runs; True if it warned now.

    Args:
        compiled: whether the core is compiled (default: this process's build).
    """
    if compiled or _said:
        return False
    _said.append(True)
    warnings.warn(PURE_BUILD_MESSAGE, PureBuildWarning, stacklevel=3)
    return True
