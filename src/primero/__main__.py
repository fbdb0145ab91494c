"""The ``primero`` console script and ``python -m primero``.

``primero --version`` is answered here, before the command line loads (Typer, Rich and
every subcommand cost some 15 times a bare interpreter's start): the
version is read from the name of the installed distribution's metadata folder
(``primero-<version>.dist-info`` on ``sys.path``), with
:func:`importlib.metadata.version` as the fallback. Anything else goes to
:func:`primero.cli.main`.
"""

from __future__ import annotations

import os
import sys

__all__ = ["main", "version"]

_PREFIX = "primero-"
_SUFFIX = ".dist-info"


def version() -> str:
    """The installed distribution's version (pyproject.toml is where it is written).

    Returns:
        E.g. ``"0.1.0"``: from the first ``primero-<version>.dist-info`` folder on
        ``sys.path`` (where :mod:`importlib.metadata` finds it too), else from
        :func:`importlib.metadata.version`.

    Raises:
        importlib.metadata.PackageNotFoundError: the package is not installed.
    """
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith(_PREFIX) and name.endswith(_SUFFIX):
                return name[len(_PREFIX) : -len(_SUFFIX)]
    import importlib.metadata

    return importlib.metadata.version("primero")


def main() -> None:
    """Entry point of the ``primero`` console script."""
    if sys.argv[1:] == ["--version"]:
        sys.stdout.write(f"primero {version()}\n")
        return
    from primero.cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
