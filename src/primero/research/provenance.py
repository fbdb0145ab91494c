"""Where a result's code came from: the checkout's state and each external agent's code.

``results.json`` of ``primero tournament`` records, so that a figure can be cited and
checked:

- whether the primero checkout it ran from had uncommitted changes (``dirty``: tracked
  files changed; None when the package does not run from a git checkout);
- for each entrant by import path (``module:Name``): the SHA-256 of its module's source
  file (the code that played), the git commit and dirty flag of the checkout that file
  lives in (None outside one), whether it takes a seed (a class whose ``__init__``
  accepts ``seed``, or a ``pyspiel.Bot``, whose resampling is seeded), and then every
  seed handed to it, table by table, in the order the hands were played.

>>> git_state(Path("/"))
(None, None)
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import subprocess
from pathlib import Path
from typing import Any

from primero.research.tournament import TournamentConfig, unit_seed
from primero.research.tournament_agents import is_import_path, load

__all__ = ["agent_record", "git_state", "seeds_handed"]


def _git(folder: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", "-C", str(folder), *args],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout if out.returncode == 0 else None


def git_state(folder: Path) -> tuple[str | None, bool | None]:
    """``(commit, dirty)`` of the git checkout holding ``folder``: its HEAD and whether
    any tracked file differs from it (untracked files do not count); ``(None, None)``
    outside a checkout or without git."""
    head = _git(folder, "rev-parse", "HEAD")
    if head is None or len(head.strip()) != 40:
        return None, None
    status = _git(folder, "status", "--porcelain", "--untracked-files=no")
    return head.strip(), None if status is None else bool(status.strip())


def _source_file(path: str) -> Path | None:
    module = importlib.import_module(path.partition(":")[0])
    try:
        name = inspect.getsourcefile(module)
    except TypeError:  # a built-in or compiled module has no source
        return None
    return None if name is None else Path(name).resolve()


def _takes_seed(path: str) -> bool:
    factory = load(path)
    if not inspect.isclass(factory):
        return hasattr(factory, "step")  # a pyspiel.Bot instance: its resampling is seeded
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False
    return "seed" in params or hasattr(factory, "step")


def seeds_handed(config: TournamentConfig, entrant: str) -> list[int]:
    """The seeds handed to ``entrant`` at a table, in the order its hands were played:
    ``unit_seed(seed, unit, seating, seat)`` for each seat it held
    (:func:`primero.research.tournament.play_unit`).

    Raises:
        ValueError: ``entrant`` does not play at this table.
    """
    if entrant not in config.bots:
        raise ValueError(f"{entrant} does not play at this table")
    return [
        unit_seed(config.seed, unit, rotation, seat)
        for unit in range(config.units)
        for rotation, seating in enumerate(config.seatings)
        for seat, name in enumerate(seating)
        if name == entrant
    ]


def agent_record(entrant: str, tables: list[TournamentConfig]) -> dict[str, Any]:
    """What ``results.json`` records of one entrant by import path (module docstring).

    Args:
        entrant: ``module:Name``.
        tables: the tables it played (the field, then its pairs), for the seeds.

    Raises:
        ValueError: ``entrant`` is not an import path, or does not load.
    """
    if not is_import_path(entrant):
        raise ValueError(f"{entrant} is a built-in kind, not an agent by import path")
    source = _source_file(entrant)
    commit, dirty = (None, None) if source is None else git_state(source.parent)
    takes_seed = _takes_seed(entrant)
    record: dict[str, Any] = {
        "entrant": entrant,
        "file": None if source is None else source.name,
        "sha256": None if source is None else hashlib.sha256(source.read_bytes()).hexdigest(),
        "commit": commit,
        "dirty": dirty,
        "takes_seed": takes_seed,
    }
    if takes_seed:
        record["seeds"] = [
            {"bots": list(t.bots), "seeds": seeds_handed(t, entrant)}
            for t in tables
            if entrant in t.bots
        ]
    return record
