"""A one-page printable cheat sheet, generated from the code (R1, R2, R4, R7, R8).

Nothing on the sheet is typed in twice: the example hands are evaluated with
:func:`primero.engine.hands.evaluate`, the category counts and point ranges are counted by the
evaluator over all C(40,4) = 91,390 hands, and the points table is read from
:data:`primero.engine.cards.POINTS`. So the sheet can never disagree with the engine.

The content is built once as plain data in :mod:`primero.play.cheatsheet_content`
(:func:`sheet_tables`, :data:`PLAY_STEPS`, :data:`RULE_LINES`, re-exported here) and
rendered to Markdown, HTML or PDF by :func:`cheatsheet`; the
``primero rules`` command renders the same data with Rich.

>>> [s.hands for s in category_stats()]
[10, 840, 120, 9990, 80430]
>>> cheatsheet("md").startswith("# Primero cheat sheet")
True
"""

from __future__ import annotations

import html
from typing import Final, Literal, overload

from primero.engine.cards import Suit
from primero.engine.errors import MissingExtraError
from primero.play.cheatsheet_content import (
    FOOTER,
    PLAY_STEPS,
    RULE_LINES,
    TITLE,
    CategoryStats,
    Cell,
    Example,
    PlayStep,
    SheetTable,
    Span,
    category_stats,
    examples,
    points_groups,
    sheet_tables,
)

__all__ = [
    "FOOTER",
    "FORMATS",
    "PLAY_STEPS",
    "RULE_LINES",
    "TITLE",
    "CategoryStats",
    "Cell",
    "Example",
    "PlayStep",
    "SheetFormat",
    "SheetTable",
    "Span",
    "category_stats",
    "cheatsheet",
    "examples",
    "points_groups",
    "sheet_tables",
]

#: The output formats of :func:`cheatsheet`.
SheetFormat = Literal["md", "html", "pdf"]
FORMATS: Final[tuple[SheetFormat, ...]] = ("md", "html", "pdf")


# --------------------------------------------------------------------------- formats


@overload
def cheatsheet(fmt: Literal["md", "html"]) -> str: ...
@overload
def cheatsheet(fmt: Literal["pdf"]) -> bytes: ...
@overload
def cheatsheet(fmt: SheetFormat) -> str | bytes: ...
def cheatsheet(fmt: SheetFormat) -> str | bytes:
    """Render the one-page cheat sheet (R1, R2, R4, R7, R8).

    Args:
        fmt: ``"md"`` (Markdown text), ``"html"`` (a self-contained page with print CSS)
            or ``"pdf"`` (one A4 page, PDF bytes).

    Returns:
        The sheet: ``str`` for ``"md"`` and ``"html"``, ``bytes`` for ``"pdf"``.

    Raises:
        ValueError: ``fmt`` is not one of ``"md"``, ``"html"``, ``"pdf"``.
        RuntimeError: an example hand disagrees with the evaluator (see :func:`examples`).
        MissingExtraError: ``"pdf"`` without fpdf2 (the ``pdf`` extra) installed.
    """
    if fmt == "md":
        return _markdown()
    if fmt == "html":
        return _html()
    if fmt == "pdf":
        from primero.play.cheatsheet_pdf import render_pdf  # fpdf2 only when a PDF is asked for

        try:
            return render_pdf()
        except ModuleNotFoundError as exc:
            if exc.name is None or exc.name.split(".")[0] != "fpdf":
                raise
            raise MissingExtraError(
                "the PDF cheat sheet needs fpdf2, the 'pdf' extra: pip install "
                "'primero[pdf]' (from a checkout: pip install -e '.[pdf]'); md and html "
                "need nothing more"
            ) from None
    raise ValueError(f"unknown cheat sheet format {fmt!r}: one of md, html, pdf")


# Markdown ------------------------------------------------------------------


def _md_cell(cell: Cell) -> str:
    out = []
    for span in cell:
        text = span.card.pretty if span.card is not None else span.text
        out.append(f"**{text}**" if span.bold and text.strip() else text)
    return "".join(out).replace("|", "\\|")


def _markdown() -> str:
    lines = [f"# {TITLE}", ""]
    for table in sheet_tables():
        lines += [f"## {table.title}", ""]
        lines.append("| " + " | ".join(table.headers) + " |")
        lines.append("|" + "|".join("---:" if a == "r" else "---" for a in table.align) + "|")
        lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in table.rows]
        if table.note:
            lines += ["", table.note]
        lines.append("")
    lines += ["## Order of play (R4)", ""]
    lines += [f"{i}. **{s.name}.** {s.text} ({s.section})" for i, s in enumerate(PLAY_STEPS, 1)]
    lines.append("")
    lines += [f"- **{s.name}.** {s.text} ({s.section})" for s in RULE_LINES]
    lines += ["", f"*{FOOTER}*", ""]
    return "\n".join(lines)


# HTML ----------------------------------------------------------------------

_CSS: Final = """
@page { size: A4; margin: 12mm; }
* { box-sizing: border-box; }
body { font-family: "Helvetica Neue", Helvetica, Arial, sans-serif; font-size: 11pt;
       color: #111; max-width: 190mm; margin: 1.5em auto; padding: 0 1em; line-height: 1.35; }
h1 { font-size: 18pt; margin: 0 0 .4em; border-bottom: 2px solid #111; }
h2 { font-size: 12pt; margin: 1em 0 .3em; }
table { border-collapse: collapse; width: 100%; break-inside: avoid; }
th, td { border: 1px solid #999; padding: .2em .45em; text-align: left; vertical-align: top; }
th { background: #e8e8e8; }
td.r, th.r { text-align: right; }
.card { white-space: nowrap; }
.red { color: #c00; }
.dim { opacity: .45; }
.note { font-size: 9.5pt; margin: .3em 0 0; }
ol, ul { margin: .2em 0; padding-left: 1.6em; }
.sec { color: #555; font-size: 9pt; }
footer { margin-top: 1em; font-size: 8.5pt; color: #555; }
@media print {
  body { font-size: 9.5pt; margin: 0; padding: 0; max-width: none; }
  h1 { font-size: 15pt; }
  h2 { font-size: 10.5pt; break-after: avoid; }
  th { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .red { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""


def _html_cell(cell: Cell) -> str:
    out = []
    for span in cell:
        if span.card is not None:
            red = " red" if span.card.suit in (Suit.HEARTS, Suit.DIAMONDS) else ""
            dim = "" if span.bold else " dim"
            text = f'<span class="card{red}{dim}">{html.escape(span.card.pretty)}</span>'
        else:
            text = html.escape(span.text)
        out.append(f"<strong>{text}</strong>" if span.bold else text)
    return "".join(out)


def _html() -> str:
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(TITLE)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        f"<h1>{html.escape(TITLE)}</h1>",
    ]
    for table in sheet_tables():
        cls = [' class="r"' if a == "r" else "" for a in table.align]
        parts.append(f"<h2>{html.escape(table.title)}</h2>")
        parts.append("<table>")
        parts.append(
            "<tr>"
            + "".join(
                f"<th{c}>{html.escape(h)}</th>" for c, h in zip(cls, table.headers, strict=True)
            )
            + "</tr>"
        )
        for row in table.rows:
            parts.append(
                "<tr>"
                + "".join(
                    f"<td{c}>{_html_cell(cell)}</td>" for c, cell in zip(cls, row, strict=True)
                )
                + "</tr>"
            )
        parts.append("</table>")
        if table.note:
            parts.append(f'<p class="note">{html.escape(table.note)}</p>')
    parts.append("<h2>Order of play (R4)</h2>")
    parts.append("<ol>")
    parts += [
        f"<li><strong>{html.escape(s.name)}.</strong> {html.escape(s.text)} "
        f'<span class="sec">({html.escape(s.section)})</span></li>'
        for s in PLAY_STEPS
    ]
    parts.append("</ol>")
    parts.append("<ul>")
    parts += [
        f"<li><strong>{html.escape(s.name)}.</strong> {html.escape(s.text)} "
        f'<span class="sec">({html.escape(s.section)})</span></li>'
        for s in RULE_LINES
    ]
    parts.append("</ul>")
    parts.append(f"<footer>{html.escape(FOOTER)}</footer>")
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)
