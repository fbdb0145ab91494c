"""``primero eval``, ``primero rules`` and ``primero cheatsheet``: the information commands.

None of them plays a hand: ``eval`` evaluates four cards (R1, R2), ``rules`` prints the
rules of the game shipped inside the package (``primero/data/rules.md``, a copy of
``docs/rules.md``) and the cheat sheet tables, ``cheatsheet`` writes the one-page sheet
of :mod:`primero.play.cheatsheet` as Markdown, HTML or PDF.

Usage errors (a bad card, an unknown section, a PDF to a terminal) are one line on
standard error and exit status 2, never a traceback.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Final, NoReturn

import typer
from rich.console import Console, Group, RenderableType
from rich.pager import Pager
from rich.table import Table
from rich.text import Text

from primero.cli.app import app, one_of
from primero.engine.cards import Card, CardError, Suit
from primero.engine.errors import MissingExtraError

if TYPE_CHECKING:  # the commands import these when they run, so that the CLI starts fast
    from primero.engine.hands import HandValue
    from primero.play.cheatsheet import Cell, SheetFormat, SheetTable

__all__ = [
    "RulesPager",
    "SheetFormatOption",
    "cheatsheet_command",
    "cheatsheet_renderable",
    "eval_command",
    "parse_hand",
    "rules_command",
    "rules_section",
    "rules_text",
    "use_pager",
]

#: Exit status of a usage error (a bad card, an unknown section...), as for bad options.
EXIT_USAGE: Final = 2


def _fail(message: str, status: int = EXIT_USAGE) -> NoReturn:
    typer.echo(f"primero: {message}", err=True)
    raise typer.Exit(status)


def _card_text(card: Card, *, bold: bool = False) -> Text:
    red = card.suit in (Suit.HEARTS, Suit.DIAMONDS)
    style = ("bold " if bold else "") + ("red" if red else "")
    return Text(card.pretty, style=style.strip())


def _cards_text(cards: tuple[Card, ...], counting: tuple[Card, ...] = ()) -> Text:
    return Text(" ").join(_card_text(c, bold=c in counting) for c in cards)


# --------------------------------------------------------------------------- eval


def parse_hand(tokens: list[str]) -> tuple[Card, ...]:
    """Parse the ``CARDS...`` arguments of ``primero eval`` into a 4-card hand (R1, R2).

    Args:
        tokens: the command-line words; each may hold one card (``"7h"``) or several
            separated by spaces (``"7h 6h Ah 2c"`` quoted as one argument).

    Returns:
        The four cards, in the order given.

    Raises:
        CardError: a token is not a card (the message names it), a card is named twice,
            or there are not exactly four cards.
    """
    from primero.play.moveinput import InputError, read_card

    words = " ".join(tokens).split()
    try:  # typed leniently, as at the table (kc, 7H, 6♠️, A♡)
        cards = tuple(read_card(word) for word in words)
    except InputError as exc:
        raise CardError(str(exc)) from None
    if len(set(cards)) != len(cards):
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise CardError(f"card {card} is named twice")
            seen.add(card)
    if len(cards) != 4:
        raise CardError(f"a hand has exactly 4 cards, got {len(cards)}: {' '.join(words)!r}")
    return cards


def _value_json(cards: tuple[Card, ...], value: HandValue) -> dict[str, object]:
    return {
        "cards": [str(c) for c in cards],
        "category": value.category.label,
        "points": value.points,
        "counting": [str(c) for c in value.counting],
    }


@app.command(
    "eval",
    help="Evaluate a 4-card hand: its category, points and counting cards (R2).",
)
def eval_command(
    cards: Annotated[
        list[str],
        typer.Argument(
            help="Four cards, e.g. 7h 6h Ah 2c, or one quoted string '7h 6h Ah 2c'. "
            "Suits c d h s (or C D H S, or ♣♦♥♠).",
            show_default=False,
        ),
    ],
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print one JSON object instead of text."),
    ] = False,
) -> None:
    """Evaluate a 4-card hand: its category, points and counting cards (R2).

    Prints the hand, its category, its points and the cards that count (bold) with
    Unicode suits; with ``--json``, one object
    ``{"cards": [...], "category": "supremus", "points": 55, "counting": [...]}``.

    Raises:
        typer.Exit: status 2 when a card is not a card of the 40-card deck, is repeated,
            or there are not four cards; the message on standard error names the token.
    """
    try:
        hand = parse_hand(cards)
    except CardError as exc:
        _fail(str(exc))
    from primero.engine.hands import evaluate

    value = evaluate(hand)
    if as_json:
        import json

        typer.echo(json.dumps(_value_json(hand, value), ensure_ascii=False))
        return
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim")
    grid.add_column()
    grid.add_row("hand", _cards_text(hand, value.counting))
    grid.add_row("category", Text(value.category.label, style="bold"))
    grid.add_row("points", str(value.points))
    grid.add_row("counting", _cards_text(value.counting, value.counting))
    Console(highlight=False).print(grid)


# --------------------------------------------------------------------------- rules


def rules_text() -> str:
    """The rules of Primero as shipped in the package (``primero/data/rules.md``).

    The file is a copy of ``docs/rules.md`` (a test keeps them identical), organised by
    the section ids R1–R10 that the code cites.

    Returns:
        The Markdown text.

    Raises:
        OSError: the packaged file is missing (a broken installation).
    """
    from importlib.resources import files

    return files("primero").joinpath("data/rules.md").read_text(encoding="utf-8")


_HEADING: Final = re.compile(r"^## ", re.MULTILINE)


def rules_section(section_id: str) -> str | None:
    """One section of the rules text by its id (R1–R10, R8b, R9b), heading included, or
    one numbered step of it (``R4.3``, as the table cites them).

    Args:
        section_id: a section id such as ``"R4"`` or ``"r8b"`` (any case), or a step
            ``"R4.3"`` (the rules text numbers the steps of a section).

    Returns:
        The section's Markdown, from its ``## R8 ...`` heading to the next heading; for
        a step, the section's heading and that step's paragraph; None when no section
        (or no step) has that id.

    Raises:
        OSError: as :func:`rules_text`.
    """
    wanted, _, step = section_id.strip().lower().partition(".")
    for chunk in _HEADING.split(rules_text())[1:]:
        first_word = chunk.split(maxsplit=1)[0].lower() if chunk.strip() else ""
        if first_word == wanted:
            text = "## " + chunk.rstrip() + "\n"
            return text if not step else _rules_step(text, step)
    return None


_STEP: Final = re.compile(r"^(\d+)\. ", re.MULTILINE)


def _rules_step(section: str, step: str) -> str | None:
    """Numbered step ``step`` of a section (``R4.3``: step 3 of R4), under the section's
    heading; None when the section has no such step."""
    heading = section.split("\n", 1)[0]

    def wanted_id(text: str) -> str:
        return text.split(maxsplit=2)[1]

    starts = list(_STEP.finditer(section))
    for i, match in enumerate(starts):
        if match.group(1) == step:
            end = starts[i + 1].start() if i + 1 < len(starts) else len(section)
            lines = section[match.end() : end].split("\n")
            # the step's own lines: its first, then those indented under it
            body = [lines[0]]
            for line in lines[1:]:
                if line and not line.startswith(" "):
                    break
                body.append(line[3:] if line.startswith("   ") else line)
            text = "\n".join(body).rstrip()
            return f"{heading}\n\n**{wanted_id(section)}.{step}** {text}\n"
    return None


def _rich_cell(cell: Cell) -> Text:
    text = Text()
    for span in cell:
        if span.card is not None:
            text.append_text(_card_text(span.card, bold=span.bold))
        else:
            text.append(span.text, style="bold" if span.bold else "")
    return text


def _rich_table(table: SheetTable) -> Table:
    out = Table(title=table.title, title_justify="left", title_style="bold", caption=table.note)
    out.caption_justify = "left"
    for header, align in zip(table.headers, table.align, strict=True):
        out.add_column(header, justify="right" if align == "r" else "left")
    for row in table.rows:
        out.add_row(*(_rich_cell(cell) for cell in row))
    return out


def cheatsheet_renderable() -> RenderableType:
    """The cheat sheet as Rich renderables: the tables, the order of play, refusal, ties.

    Returns:
        A Rich :class:`~rich.console.Group` built from :func:`primero.play.cheatsheet.sheet_tables`
        and :data:`~primero.play.cheatsheet.PLAY_STEPS` (R1, R2, R4, R7, R8).

    Raises:
        RuntimeError: as :func:`primero.play.cheatsheet.examples`.
    """
    from primero.play.cheatsheet import PLAY_STEPS, RULE_LINES, sheet_tables

    parts: list[RenderableType] = [Text("Primero cheat sheet", style="bold underline")]
    for table in sheet_tables():
        parts += [Text(""), _rich_table(table)]
    parts += [Text(""), Text("Order of play (R4)", style="bold")]
    for i, step in enumerate(PLAY_STEPS, 1):
        line = Text(f"{i}. ")
        line.append(f"{step.name}.", style="bold")
        line.append(f" {step.text} ({step.section})")
        parts.append(line)
    parts.append(Text(""))
    for step in RULE_LINES:
        line = Text("• ")
        line.append(f"{step.name}.", style="bold")
        line.append(f" {step.text} ({step.section})")
        parts.append(line)
    return Group(*parts)


@app.command(
    "rules",
    help="Show the rules of Primero (R1–R10), then the cheat sheet tables (in a pager on a "
    "terminal).",
)
def rules_command(
    section: Annotated[
        str | None,
        typer.Option(
            "--section",
            "-s",
            help="Print only this section of the rules, e.g. R4 or R8b, or one step, e.g. R4.3.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Print the rules of Primero (R1–R10) and the cheat sheet tables.

    The rules come from the text shipped inside the package, rendered with Rich; then
    the cheat sheet follows (hand ranks, counts, points, order of play). On a terminal
    the text opens in a pager (:class:`RulesPager`); piped, it is printed. With
    ``--section R8`` only that section is printed.

    Raises:
        typer.Exit: status 2 when ``--section`` names no section.
    """
    from rich.markdown import Markdown  # markdown-it: ~25 ms, only for this command

    console = Console(highlight=False)
    if section is not None:
        text = rules_section(section)
        if text is None:
            _fail(
                f"no section {section!r} in the rules: use an id such as R1 … R10, R8b, "
                "R9b, or a step such as R4.3"
            )
        console.print(Markdown(text))
        return
    if not use_pager(console):
        _print_rules(console)
        return
    with console.pager(pager=RulesPager(), styles=True):
        _print_rules(console)


def _print_rules(console: Console) -> None:
    from rich.markdown import Markdown

    console.print(Markdown(rules_text()))
    console.print()
    console.rule("Cheat sheet")
    console.print(cheatsheet_renderable())


def use_pager(console: Console) -> bool:
    """Whether ``primero rules`` pages its text: on a terminal (standard input and output)
    only; piped or redirected, it prints plain text."""
    return console.is_terminal and sys.stdin.isatty()


class RulesPager(Pager):
    """The pager of ``primero rules``: ``$PAGER`` (or ``$MANPAGER``) when set, else
    ``less -R`` (which keeps the colours; ``q`` quits), else Python's own pager."""

    def show(self, content: str) -> None:
        """Page ``content`` (text with terminal colour codes). When ``$MANPAGER`` or
        ``$PAGER`` names a program that is not there, say so on standard error and print
        ``content`` unpaged (never only the shell's "not found")."""
        import shlex

        variable = "MANPAGER" if os.environ.get("MANPAGER") else "PAGER"
        command = os.environ.get(variable)
        if command:
            try:
                program = shlex.split(command)[0] if command.strip() else ""
            except ValueError:
                program = ""
            if not program or shutil.which(program) is None:
                sys.stderr.write(
                    f"primero: ${variable} is {command!r}, a program that is not installed: "
                    "printing the rules without a pager\n"
                )
                sys.stdout.write(content)
                sys.stdout.flush()
                return
        if command or not shutil.which("less"):
            import pydoc

            pydoc.pager(content)
            return
        import subprocess

        with contextlib.suppress(OSError, KeyboardInterrupt):
            subprocess.run(["less", "-R"], input=content, text=True, check=False)


# --------------------------------------------------------------------------- cheatsheet


class SheetFormatOption(StrEnum):
    """The ``--format`` choices of ``primero cheatsheet``."""

    md = "md"
    html = "html"
    pdf = "pdf"


_FORMAT: Final[dict[SheetFormatOption, SheetFormat]] = {
    SheetFormatOption.md: "md",
    SheetFormatOption.html: "html",
    SheetFormatOption.pdf: "pdf",
}


@app.command(
    "cheatsheet",
    help="Write the one-page cheat sheet as Markdown (default), HTML or PDF. "
    "A PDF needs --output FILE, or standard output redirected.",
)
def cheatsheet_command(
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            callback=one_of("--format", [f.value for f in SheetFormatOption]),
            help="Markdown, a printable HTML page, or a PDF. [md | html | pdf]",
        ),
    ] = SheetFormatOption.md.value,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="Write to this file instead of standard output.",
            dir_okay=False,
            show_default=False,
        ),
    ] = None,
) -> None:
    """Write the one-page cheat sheet, generated from the evaluator (R1, R2, R4, R7, R8).

    Markdown goes to standard output by default. A PDF needs ``--output FILE``, or
    standard output redirected to a file or a pipe.

    Raises:
        typer.Exit: status 2 when a PDF would be written to a terminal; status 1 when the
            output file cannot be written, or a PDF is asked for without the ``pdf`` extra.
    """
    from primero.play.cheatsheet import cheatsheet

    try:
        data = cheatsheet(_FORMAT[SheetFormatOption(fmt)])
    except MissingExtraError as exc:
        _fail(str(exc), status=1)
    if output is not None:
        try:
            if isinstance(data, bytes):
                output.write_bytes(data)
            else:
                output.write_text(data, encoding="utf-8")
        except OSError as exc:
            _fail(f"cannot write {output}: {exc.strerror or exc}", status=1)
        size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8"))
        typer.echo(f"wrote {output} ({fmt}, {size:,} bytes)", err=True)
        return
    if isinstance(data, bytes):
        if sys.stdout.isatty():
            _fail("a PDF is binary: give --output FILE, or redirect standard output to a file")
        stream = typer.get_binary_stream("stdout")
        stream.write(data)
        stream.flush()
        return
    typer.echo(data, nl=False)
