"""The cheat sheet as a one-page A4 PDF (fpdf2), drawn from :mod:`primero.play.cheatsheet`'s
content.

Kept apart from the content and the text formats so that fpdf2 is imported only when a
PDF is asked for.
"""

from __future__ import annotations

import datetime
from typing import Final

from primero.engine.cards import Suit
from primero.play.cheatsheet_content import (
    FOOTER,
    PLAY_STEPS,
    RULE_LINES,
    TITLE,
    Cell,
    PlayStep,
    Span,
    sheet_tables,
)

__all__ = ["render_pdf"]

#: A fixed creation date keeps the output reproducible.
_CREATED: Final = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)


# The core PDF fonts are Latin-1 only: suits come from ZapfDingbats, the rest is mapped.
_ZAPF_SUIT: Final = {
    Suit.CLUBS: "\xa8",
    Suit.DIAMONDS: "\xa9",
    Suit.HEARTS: "\xaa",
    Suit.SPADES: "\xab",
}
_LATIN1: Final = str.maketrans({"–": "-", "—": "-", "≥": ">=", "≤": "<=", "’": "'", "…": "..."})
_RED: Final = (190, 0, 0)
_PALE_RED: Final = (225, 140, 140)
_BLACK: Final = (0, 0, 0)
_GREY: Final = (140, 140, 140)
_MARGIN: Final = 15.0
_FONT: Final = 10.0
_LINE: Final = 5.2
_GAP: Final = 1.8


def _latin1(text: str) -> str:
    return text.translate(_LATIN1).encode("latin-1", errors="replace").decode("latin-1")


def render_pdf() -> bytes:
    """The cheat sheet on one A4 page (R1, R2, R4, R7, R8).

    The creation date is fixed, so the same code gives the same bytes.

    Returns:
        The PDF file's bytes (they start with ``%PDF``).
    """
    from fpdf import FPDF
    from fpdf.enums import XPos, YPos

    pdf = FPDF(orientation="portrait", unit="mm", format="A4")
    pdf.set_margins(_MARGIN, 14, _MARGIN)
    pdf.set_auto_page_break(auto=False)
    pdf.set_title(TITLE)
    pdf.set_creator("primero")
    pdf.set_creation_date(_CREATED)
    pdf.add_page()
    pdf.set_font("helvetica", "B", 20)
    pdf.cell(0, 10, TITLE, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_line_width(0.5)
    pdf.line(_MARGIN, pdf.get_y(), pdf.w - _MARGIN, pdf.get_y())
    pdf.set_line_width(0.2)
    pdf.set_draw_color(150, 150, 150)

    def heading(text: str) -> None:
        pdf.ln(4)
        pdf.set_font("helvetica", "B", 12.5)
        pdf.cell(0, 7, _latin1(text), new_x=XPos.LMARGIN, new_y=YPos.NEXT)

    def span_width(span: Span) -> float:
        pdf.set_font("helvetica", "B" if span.bold else "", _FONT)
        if span.card is None:
            if not span.text.strip():
                return _GAP
            return pdf.get_string_width(_latin1(span.text))
        rank = pdf.get_string_width(span.card.rank.char)
        pdf.set_font("zapfdingbats", "", _FONT - 1)
        return rank + pdf.get_string_width(_ZAPF_SUIT[span.card.suit]) + 0.3

    def draw_spans(cell: Cell, x: float, y: float, w: float, h: float, align: str) -> None:
        total = sum(span_width(s) for s in cell)
        pad = 1.5
        pdf.set_xy(x + (w - pad - total if align == "r" else pad), y)
        for span in cell:
            pdf.set_font("helvetica", "B" if span.bold else "", _FONT)
            if span.card is None:
                if not span.text.strip():
                    pdf.set_x(pdf.get_x() + _GAP)
                    continue
                text = _latin1(span.text)
                pdf.cell(pdf.get_string_width(text), h, text)
                continue
            # Counting cards bold and full colour; the others pale (R2).
            red = span.card.suit in (Suit.HEARTS, Suit.DIAMONDS)
            if span.bold:
                pdf.set_text_color(*(_RED if red else _BLACK))
            else:
                pdf.set_text_color(*(_PALE_RED if red else _GREY))
            pdf.cell(pdf.get_string_width(span.card.rank.char), h, span.card.rank.char)
            pdf.set_x(pdf.get_x() + 0.3)
            pdf.set_font("zapfdingbats", "", _FONT - 1)
            suit = _ZAPF_SUIT[span.card.suit]
            pdf.cell(pdf.get_string_width(suit), h, suit)
            pdf.set_text_color(*_BLACK)

    def is_plain(cell: Cell) -> bool:
        return all(s.card is None for s in cell) and len(cell) == 1

    for table in sheet_tables():
        heading(table.title)
        pdf.set_fill_color(232, 232, 232)
        x0 = _MARGIN
        y = pdf.get_y()
        pdf.set_font("helvetica", "B", _FONT)
        for head, w, a in zip(table.headers, table.widths, table.align, strict=True):
            pdf.set_xy(x0, y)
            pdf.cell(
                w, _LINE + 1, _latin1(head), border=1, fill=True, align="R" if a == "r" else "L"
            )
            x0 += w
        y += _LINE + 1
        for row in table.rows:
            lines = 1
            for cell, w in zip(row, table.widths, strict=True):
                if is_plain(cell):
                    pdf.set_font("helvetica", "B" if cell[0].bold else "", _FONT)
                    wrapped = pdf.multi_cell(
                        w, _LINE, _latin1(cell[0].text), dry_run=True, output="LINES"
                    )
                    if isinstance(wrapped, list):
                        lines = max(lines, len(wrapped))
            row_h = lines * _LINE + 1
            x = _MARGIN
            for cell, w, a in zip(row, table.widths, table.align, strict=True):
                pdf.rect(x, y, w, row_h)
                if is_plain(cell):
                    pdf.set_font("helvetica", "B" if cell[0].bold else "", _FONT)
                    pdf.set_xy(x, y + 0.5)
                    pdf.multi_cell(w, _LINE, _latin1(cell[0].text), align="R" if a == "r" else "L")
                else:
                    draw_spans(cell, x, y + 0.5, w, _LINE, a)
                x += w
            y += row_h
        pdf.set_xy(_MARGIN, y)
        if table.note:
            pdf.set_font("helvetica", "I", _FONT - 0.5)
            pdf.ln(0.8)
            pdf.multi_cell(0, _LINE, _latin1(table.note), new_x=XPos.LMARGIN, new_y=YPos.NEXT)

    def steps(items: tuple[PlayStep, ...], numbered: bool) -> None:
        for i, step in enumerate(items, 1):
            lead = f"{i}." if numbered else "-"
            pdf.set_font("helvetica", "", _FONT + 0.5)
            pdf.set_x(_MARGIN)
            pdf.cell(6, _LINE + 0.4, lead)
            pdf.multi_cell(
                0,
                _LINE + 0.4,
                _latin1(f"**{step.name}.** {step.text} ({step.section})"),
                markdown=True,
                align="L",
                new_x=XPos.LMARGIN,
                new_y=YPos.NEXT,
            )
            pdf.ln(0.6)

    heading("Order of play (R4)")
    steps(PLAY_STEPS, numbered=True)
    pdf.ln(1)
    steps(RULE_LINES, numbered=False)
    pdf.ln(3)
    pdf.set_font("helvetica", "I", _FONT - 1)
    pdf.set_text_color(90, 90, 90)
    pdf.multi_cell(0, _LINE, _latin1(FOOTER))
    return bytes(pdf.output())
