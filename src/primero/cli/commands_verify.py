"""``primero verify``: check that exported hands were dealt from their commitment
(docs/fair-deals.md "Verifying").

For every file, one line: ``FILE: verified …``, ``FILE: differs: …`` (the first card that
is not the committed deck's, or a revealed seed that does not match its commitment) or
``FILE: not verifiable: …`` (the proof fields are missing, or the seed is not revealed
yet). The exit status is 1 when any hand differs, else 2 when any is not verifiable
(or cannot be read), else 0.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from primero.cli.app import app

__all__ = ["verify_command"]


@app.command("verify")
def verify_command(
    files: Annotated[
        list[Path],
        typer.Argument(help="Exported hand records (.prh TOML or .json).", show_default=False),
    ],
) -> None:
    """Check that each hand's cards came from its committed server seed and the players'
    client seeds (the fair-deal scheme of the online tables). Prints one line per file:
    verified, the first card that differs and why (exit status 1), or not verifiable when
    the record has no revealed proof (exit status 2)."""
    from primero.engine.fairverify import EXIT_CODES, verify_record
    from primero.engine.history import RecordError, read_record

    worst = 0
    for path in files:
        try:
            record = read_record(path)
        except (OSError, RecordError, ValueError) as exc:
            said = str(exc).removeprefix("record: ")  # the record is named by its path
            typer.echo(f"{path}: not verifiable: the record cannot be read: {said}")
            worst = max(worst, 2) if worst != 1 else 1
            continue
        verdict = verify_record(record)
        typer.echo(f"{path}: {verdict.status}: {verdict.reason}")
        code = EXIT_CODES[verdict.status]
        if code == 1 or (code == 2 and worst == 0):
            worst = code
    raise typer.Exit(worst)
