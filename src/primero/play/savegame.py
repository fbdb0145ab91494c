"""Stop and come back: a match against bots saved as it goes, resumed exactly (R9, R10).

A :class:`MatchSaver` keeps ``<save dir>/<session>.match.json`` up to date: the table's
set-up, the record lines of every finished hand, and the lines of the hand in progress,
rewritten (atomically) after every action and every closed hand. :func:`resume_table`
rebuilds the table from it: every hand is played again from its lines, so the chips,
the deal and the hand in progress stand exactly where they stood.

Seeded matches (R10) are replayed by the dealer and the bots themselves: each deal and
each bot decision is made again and checked against the saved line, which brings the
dealer's and every bot's random generator to the same state, so the game goes on as it
would have without the break (same seed, same game). A live match (no seed) is
replayed from the saved lines; its dealer and bots draw from a secure source anyway.

The file holds every card dealt so far, the other players' too: like a hand record, it
is for after the game, not for peeking.

>>> import tempfile, pathlib
>>> from primero.play.table import Table, TableConfig
>>> tmp = tempfile.TemporaryDirectory()
>>> folder = pathlib.Path(tmp.name)
>>> table = Table(TableConfig(seed=3, max_hands=2, save_dir=folder))
>>> saver = MatchSaver(table)
>>> table.start_hand()
>>> _ = table.advance()
>>> again = resume_table(find_unfinished(folder))
>>> again.view() == table.view()
True
>>> tmp.cleanup()
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from primero.engine.actions import parse_action
from primero.engine.errors import IllegalActionError, PrimeroError
from primero.engine.rules import Rules, RulesError
from primero.play.table import Table, TableConfig

__all__ = [
    "SAVE_SUFFIX",
    "MatchSaver",
    "ResumeError",
    "SavedMatch",
    "find_unfinished",
    "read_saved",
    "resume_table",
]

#: The end of a saved match's file name.
SAVE_SUFFIX: Final = ".match.json"
_FORMAT: Final = "primero-match/1"


class ResumeError(PrimeroError):
    """A saved match cannot be read or replayed (the message says which file and why)."""


@dataclass(frozen=True, slots=True)
class SavedMatch:
    """A match as saved.

    Attributes:
        path: the file.
        config: the table's set-up (``save_dir`` is the file's folder).
        hands: the record lines of each finished hand, in order.
        current: the lines of the hand in progress (None between hands).
        saved: the ``.prh`` records written so far.
        over: whether the match is over (or the person out of it).
    """

    path: Path
    config: TableConfig
    hands: tuple[tuple[str, ...], ...]
    current: tuple[str, ...] | None
    saved: tuple[Path, ...]
    over: bool


class MatchSaver:
    """Saves ``table``'s match after every action and every closed hand.

    Args:
        table: a table with ``config.save_dir`` set; the saver listens to it
            (:attr:`primero.play.table.Table.listeners`).

    Raises:
        ValueError: the table has no save folder.

    Attributes:
        path: ``<save_dir>/<session>.match.json``.
    """

    def __init__(self, table: Table) -> None:
        save_dir = table.config.save_dir
        if save_dir is None:
            raise ValueError("the table saves nothing (no save_dir)")
        self.table = table
        self.path = save_dir / f"{table.session}{SAVE_SUFFIX}"
        table.listeners.append(self.save)

    def save(self) -> None:
        """Write the match as it stands now (atomically: a new file, then a rename).

        Raises:
            OSError: the file cannot be written.
        """
        table = self.table
        config = table.config
        match = table.match
        data: dict[str, Any] = {
            "format": _FORMAT,
            "session": table.session,
            "config": {
                "human_name": config.human_name,
                "players": config.players,
                "bots": list(config.bots),
                "seed": config.seed,
                "rules": config.rules.overrides(),
                "stack": config.stack,
                "max_hands": config.max_hands,
                "hot_seat": list(config.hot_seat),
            },
            "hands": [list(r.actions) for r in match.records],
            "current": None if match.hand is None else match.hand.lines(),
            "saved": [p.name for p in table.saved],
            "over": table.over or table.human_out,
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".tmp")
        temporary.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        os.replace(temporary, self.path)


def read_saved(path: Path) -> SavedMatch:
    """Read a saved match.

    Raises:
        ResumeError: the file cannot be read or is not a saved match (the message names
            the file and what is wrong).
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ResumeError(f"{path}: cannot be read as a saved match ({exc})") from None
    try:
        if data.get("format") != _FORMAT:
            raise ResumeError(f"{path}: not a saved match (format {data.get('format')!r})")
        c = data["config"]
        config = TableConfig(
            human_name=str(c["human_name"]),
            players=int(c["players"]),
            bots=tuple(str(b) for b in c["bots"]),
            seed=None if c["seed"] is None else int(c["seed"]),
            rules=Rules.from_mapping(c["rules"]),
            stack=int(c["stack"]),
            max_hands=None if c["max_hands"] is None else int(c["max_hands"]),
            save_dir=path.parent,
            session=str(data["session"]),
            hot_seat=tuple(str(n) for n in c.get("hot_seat", ())),
        )
        hands = tuple(tuple(str(line) for line in hand) for hand in data["hands"])
        current = data["current"]
        return SavedMatch(
            path=path,
            config=config,
            hands=hands,
            current=None if current is None else tuple(str(line) for line in current),
            saved=tuple(path.parent / str(name) for name in data["saved"]),
            over=bool(data["over"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError, RulesError) as exc:
        if isinstance(exc, ResumeError):
            raise
        raise ResumeError(
            f"{path}: a field of the saved match is missing or wrong ({exc})"
        ) from None


def find_unfinished(save_dir: Path) -> SavedMatch:
    """The most recently saved match in ``save_dir`` that is not over.

    Raises:
        ResumeError: there is none (the message names the folder); when some save file
            there cannot be read, the message names the newest such file and why.
    """
    files = sorted(
        save_dir.glob(f"*{SAVE_SUFFIX}"),
        key=lambda p: (p.stat().st_mtime_ns, p.name),
        reverse=True,
    )
    unreadable: list[ResumeError] = []
    for path in files:
        try:
            saved = read_saved(path)
        except ResumeError as exc:
            unreadable.append(exc)
            continue
        if not saved.over:
            return saved
    if unreadable:  # say why, not only that nothing was found
        raise ResumeError(
            f"no unfinished match could be read in {save_dir}: {unreadable[0]}"
            + (f" (and {len(unreadable) - 1} more)" if len(unreadable) > 1 else "")
        )
    raise ResumeError(f"no unfinished match saved in {save_dir} (nothing to resume)")


def _replay(table: Table, lines: tuple[str, ...], where: str) -> None:
    """Play the started hand of ``table`` again through ``lines``."""
    hand = table.hand
    assert hand is not None
    seeded = table.config.seed is not None
    for number, line in enumerate(lines, start=1):
        if hand.complete:
            raise ResumeError(f"{where}: line {number} comes after the end of the hand")
        try:
            expected = parse_action(line, hand.n)
            if table.waiting_for_human():
                table.act(expected)
            elif seeded:
                made = table.step()
                if made != expected:
                    raise ResumeError(
                        f"{where}, line {number}: the seeded game makes {made} where the "
                        f"save has {line!r} (saved by another version of the game?)"
                    )
            else:
                table.apply_recorded(expected)
        except (ValueError, IllegalActionError) as exc:
            raise ResumeError(f"{where}, line {number} ({line!r}): {exc}") from None


def resume_table(saved: SavedMatch) -> Table:
    """A table standing exactly where ``saved`` left off (see the module docstring).

    Returns:
        The table: every finished hand closed again (no record written twice), and the
        hand in progress, if any, started and played to its last saved line.

    Raises:
        ResumeError: the save does not replay (the message names the hand and line).
    """
    table = Table(saved.config)
    for number, lines in enumerate(saved.hands, start=1):
        table.start_hand()
        _replay(table, lines, f"{saved.path}: hand {number}")
        if table.hand is None or not table.hand.complete:
            raise ResumeError(f"{saved.path}: hand {number} stops before its end")
        table.finish_hand(save=False)
    table.saved.extend(p for p in saved.saved if p.exists())
    if saved.current is not None and not table.over:
        table.start_hand()
        _replay(table, saved.current, f"{saved.path}: hand {len(saved.hands) + 1}")
        hand = table.hand
        if hand is not None and hand.complete:  # stopped after its last action: close it
            table.finish_hand(
                save=not any(
                    p.name.startswith(f"{table.session}-hand{table.hand_number:03d}")
                    for p in table.saved
                )
            )
    return table
