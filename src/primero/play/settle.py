"""Settling up at the end of an evening: who pays whom, in chips and in money.

The ledger gives each person a net (chips now minus chips bought in); the nets of the
people sum to zero when every chip is theirs. :func:`settle_up` turns them into transfers;
:func:`parse_rate` reads the host's rate ("100 chips = 5.00"); :func:`settle_text` writes
the transfers as text a person copies into a chat. No I/O.

What is guaranteed: finding the fewest transfers is NP-hard in general (it asks for the
largest number of disjoint groups whose nets sum to zero). :func:`settle_up` is the greedy
rule "the largest debtor pays the largest creditor as much as one of them is owed", which
settles every net exactly with at most ``n - 1`` transfers for ``n`` people with a nonzero
net (each transfer clears at least one of them, the last clears two), and with exactly one
transfer per payer when there is one creditor (or one per payee when there is one debtor).
Equal and opposite nets are paired first. It is not always the fewest: nets ``+6, +2, +2,
-3, -3, -4`` settle greedily in 5 transfers, but in 4 by groups ``{+6, -3, -3}`` and
``{+2, +2, -4}``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Final

__all__ = [
    "BOTS",
    "Rate",
    "RateError",
    "Transfer",
    "chip_rate",
    "parse_chip_value",
    "parse_currency",
    "parse_rate",
    "settle_seats",
    "settle_text",
    "settle_up",
]

#: The one party every bot counts as when settling up.
BOTS = "Bots"

#: The largest count of chips and of money units in a rate (a bound on what a host types).
RATE_LARGEST = 10**9
#: The largest money one chip may be worth (a table's ``chip_value``).
CHIP_VALUE_LARGEST = 10**6


class RateError(ValueError):
    """A rate the host typed that is not "N chips = M" (the message says why, in words)."""


@dataclass(frozen=True, slots=True)
class Rate:
    """``chips`` chips are worth ``money`` units of money (a Decimal with at most 2
    decimals, e.g. 100 chips = 5.00). Both are positive."""

    chips: int
    money: Decimal

    currency: str | None = None

    def of(self, chips: int) -> Decimal:
        """The money ``chips`` chips are worth, rounded to the cent (half up)."""
        return (Decimal(chips) * self.money / self.chips).quantize(Decimal("0.01"), "ROUND_HALF_UP")

    def words(self, chips: int) -> str:
        """``chips`` in money, with the currency where there is one: "4.00 EUR"."""
        return f"{self.of(chips)} {self.currency}" if self.currency else str(self.of(chips))

    def __str__(self) -> str:
        if self.chips == 1:  # a table's chip_value: "1 chip = 0.10 EUR"
            money = f"{self.money.normalize():f}"
            if "." not in money or len(money.split(".")[1]) < 2:
                money = f"{self.money:.2f}"
            return f"1 chip = {money}" + (f" {self.currency}" if self.currency else "")
        return f"{self.chips} chips = {self.money:.2f}" + (
            f" {self.currency}" if self.currency else ""
        )


@dataclass(frozen=True, slots=True)
class Transfer:
    """``payer`` pays ``payee`` ``chips`` chips (a positive count); names as in the ledger."""

    payer: str
    payee: str
    chips: int


_RATE = re.compile(r"^\s*(\d+)\s*chips?\s*=\s*(\d+(?:[.,]\d{1,2})?)\s*$", re.IGNORECASE)


def parse_rate(text: str) -> Rate:
    """The rate in ``text``: "100 chips = 5.00" (a comma may stand for the point; at most
    two decimals). Raises :class:`RateError` for anything else, for zero chips or zero
    money, or for numbers above :data:`RATE_LARGEST`."""
    m = _RATE.match(text)
    if m is None:
        raise RateError(
            f'a rate is written "100 chips = 5.00" (chips, then the money they are worth), '
            f"not {text.strip()[:40]!r}"
        )
    try:
        chips, money = int(m.group(1)), Decimal(m.group(2).replace(",", "."))
    except InvalidOperation:  # pragma: no cover - the pattern admits only digits
        raise RateError("the rate's money is not a number") from None
    if chips == 0 or money == 0:
        raise RateError("a rate needs more than 0 chips and more than 0 money")
    if chips > RATE_LARGEST or money > RATE_LARGEST:
        raise RateError(f"a rate's numbers are at most {RATE_LARGEST}")
    return Rate(chips, money.quantize(Decimal("0.01")))


#: The labels of ``chip_value`` and ``currency`` in the host's and the lobby's forms.
CHIP_VALUE_LABEL: Final = "Money one chip is worth"
CURRENCY_LABEL: Final = "Currency"
#: What a ``chip_value`` and a ``currency`` are, in words (the refusals say it, naming the
#: field by its label: a person reads the form, not the API).
CHIP_VALUE_WORDS: Final = f'{CHIP_VALUE_LABEL} is a number such as "0.10" with at most 4 decimals'
CURRENCY_WORDS: Final = f'{CURRENCY_LABEL} is 1 to 8 letters, such as "EUR"'

_CHIP_VALUE = re.compile(r"^\s*([0-9]{1,7}(?:[.,][0-9]{1,4})?)\s*$")
_CURRENCY = re.compile(r"^[A-Za-z]{1,8}$")


def parse_chip_value(text: str) -> str:
    """A table's ``chip_value`` (docs/protocol.md "Settling up"): the money one chip is
    worth, a decimal number above 0 and at most :data:`CHIP_VALUE_LARGEST`, with at most 4
    decimals (a comma may stand for the point). Returns it written plainly (``"0.10"``,
    ``"2"``). Raises :class:`RateError` (in words) for anything else.

    >>> parse_chip_value("0,10")
    '0.10'
    """
    m = _CHIP_VALUE.match(text)
    if m is None:
        raise RateError(f"{CHIP_VALUE_WORDS}, not {text.strip()[:20]!r}")
    value = Decimal(m.group(1).replace(",", "."))
    if value <= 0 or value > CHIP_VALUE_LARGEST:
        raise RateError(f"{CHIP_VALUE_LABEL} must be more than 0 and at most {CHIP_VALUE_LARGEST}")
    return m.group(1).replace(",", ".")


def parse_currency(text: str) -> str:
    """A table's ``currency``: 1 to 8 letters (``"EUR"``), returned as typed. Raises
    :class:`RateError` (in words) otherwise."""
    if _CURRENCY.match(text) is None:
        raise RateError(f"{CURRENCY_WORDS}, not {text[:20]!r}")
    return text


def chip_rate(chip_value: str | None, currency: str | None = None) -> Rate | None:
    """The rate of a table's ``chip_value`` (one chip = that much money; see
    :func:`parse_chip_value`) and ``currency``; None without a ``chip_value``.

    >>> str(chip_rate("0.10", "EUR"))
    '1 chip = 0.10 EUR'
    >>> chip_rate("0.10", "EUR").words(40)
    '4.00 EUR'
    """
    if not chip_value:
        return None
    return Rate(1, Decimal(chip_value), currency or None)


def settle_up(nets: Mapping[str, int]) -> list[Transfer]:
    """The transfers that settle ``nets`` (name -> chips won, negative for chips lost),
    which must sum to zero (``ValueError`` otherwise). Equal and opposite nets pair first;
    then the largest debtor pays the largest creditor, ties by name, so the answer is the
    same for the same nets. At most ``n - 1`` transfers for ``n`` nonzero nets; names
    with a zero net appear in none."""
    if sum(nets.values()) != 0:
        raise ValueError(f"the nets sum to {sum(nets.values())}, not 0: nothing to settle")
    owe = {n: -v for n, v in nets.items() if v < 0}
    due = {n: v for n, v in nets.items() if v > 0}
    out: list[Transfer] = []
    for payer in sorted(owe, key=lambda n: (-owe[n], n)):
        match = next((p for p in sorted(due) if due[p] == owe[payer]), None)
        if match is not None:
            out.append(Transfer(payer, match, owe[payer]))
            del due[match]
            owe[payer] = 0
    owe = {n: v for n, v in owe.items() if v}
    while owe:
        payer = min(owe, key=lambda n: (-owe[n], n))
        payee = min(due, key=lambda n: (-due[n], n))
        amount = min(owe[payer], due[payee])
        out.append(Transfer(payer, payee, amount))
        owe[payer] -= amount
        due[payee] -= amount
        if not owe[payer]:
            del owe[payer]
        if not due[payee]:
            del due[payee]
    return out


def settle_text(transfers: Sequence[Transfer], rate: Rate | None = None) -> str:
    """``transfers`` as lines a person copies: "Ben pays Ana 40 chips (2.00)", the money
    only with a ``rate``; "Nobody owes anybody anything." when there are none."""
    if not transfers:
        return "Nobody owes anybody anything."
    lines = []
    for t in transfers:
        money = f" ({rate.words(t.chips)})" if rate is not None else ""
        verb = "pay" if t.payer == BOTS else "pays"
        chips = "1 chip" if t.chips == 1 else f"{t.chips} chips"
        lines.append(f"{t.payer} {verb} {t.payee} {chips}{money}")
    if rate is not None:
        lines.append(str(rate) if rate.chips == 1 else f"Rate: {rate}")
    return "\n".join(lines)


def settle_seats(
    seats: Iterable[tuple[str | None, str, int]], rate: Rate | None = None
) -> dict[str, Any]:
    """Settling up a table's ledger: ``seats`` are ``(name, kind, net)`` per seat, and
    per former person whose seat a bot took (kind ``"open"``, ``"person"`` or a bot's;
    net in chips). Open seats are left out, every bot counts as the one party
    :data:`BOTS`, two people of one name as one. Returns ``{"transfers": [{"payer",
    "payee", "chips", "money"}], "text"}`` (docs/protocol.md "Settling up"): ``money``
    is the chips at ``rate`` as a string ("4.00"), or None without a rate. Nets that do
    not sum to zero (chips a table lost track of) settle nothing: no transfers and a text
    that says so, so that a summary is always written."""
    nets: dict[str, int] = {}
    for name, kind, net in seats:
        if kind == "open":
            continue
        party = (name or "?") if kind == "person" else BOTS
        nets[party] = nets.get(party, 0) + net
    off = sum(nets.values())
    if off:
        return {
            "transfers": [],
            "text": f"The nets do not add up ({off:+} chips): nothing can be settled.",
        }
    transfers = settle_up(nets)
    return {
        "transfers": [
            {
                "payer": t.payer,
                "payee": t.payee,
                "chips": t.chips,
                "money": None if rate is None else str(rate.of(t.chips)),
            }
            for t in transfers
        ],
        "text": settle_text(transfers, rate),
    }
