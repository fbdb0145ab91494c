"""The committed-seed dealer and its verifier (docs/fair-deals.md): known answers,
tampering of every kind caught, a reshuffle (R8b), a void deal (R4.3), many random
hands, and the distribution of the first cards."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import Counter
from itertools import combinations
from typing import Any

import numpy as np
import pytest

from primero.bots.random import RandomBot
from primero.engine.actions import Deal
from primero.engine.cards import DECK, parse_cards
from primero.engine.fairdeal import (
    DEFAULT_CLIENT_SEED,
    ClientSeedError,
    FairDealer,
    byte_stream,
    check_client_seed,
    client_seeds_or_default,
    commitment,
    deck_order,
    keyed_shuffle,
    shuffle,
    stream_message,
    uniform,
)
from primero.engine.fairverify import proof_fields, verify_record
from primero.engine.history import HandRecord, dump_record, parse_record, record_of
from primero.engine.match import play_hand
from primero.engine.rules import Rules
from primero.engine.state import HandState

SEED1 = bytes(range(32))
SEEDS1 = ["alpha", "beta"]
# docs/fair-deals.md "Known-answer vectors"; the first steps worked by hand there.
DECK1 = (
    "2s Jd Js 4c Ks 6c 6d 7d 6h Jh 2c 2d 5s 4h 3d Qs Qd 2h Ad Qc "
    "7c Kc Kh 5c 4s 5d Qh 7s Ac 7h Jc 3s As Ah 5h 3c 3h Kd 4d 6s"
)
SEED2 = bytes.fromhex("1df3939630cdc1805fcf40b611d91df95e6149d92e403c9aa7eb095fd57b4571")
SEEDS2 = ["primero-default", "primero-default", "Lucrezia's seed ~ 42"]
DECK2 = (
    "3c 2c Ah 7c Qs 5d Jh 3s 5h 7h 7d 5c 4c 3d Qh 6s Kh 5s Js 6c "
    "Ac 3h Qc Ks 4s 6d Ad Jd 2d 4h 7s Qd 2s Kd 4d Kc Jc 2h As 6h"
)
RULES8 = Rules(max_players=8)


def texts(cards: Any) -> str:
    return " ".join(str(c) for c in cards)


def test_known_answers() -> None:
    assert commitment(SEED1) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert commitment(SEED2) == "1dd757e0f345af8b2666b49c6a9007ba5fd88e66570e7393b41486d07ad7c4f0"
    assert stream_message(SEEDS1, 1, 0, 0) == b"primero-fair-1\n1\n0\n0\n2\nalpha\nbeta"
    block = hmac.new(SEED1, stream_message(SEEDS1, 1, 0, 0), hashlib.sha256).hexdigest()
    assert block == "9b5b39166ef95e7a815e64ceaebed8422daca135ed94eef3924d84c861d78582"
    # by hand: 0x9b = 155 < 240, 155 % 40 = 35: a[39] (Ks) swaps with a[35] (6s), so the
    # bottom card is 6s; 0x5b = 91 < 234, 91 % 39 = 13: a[38] becomes 4d (id 13).
    assert texts(deck_order(SEED1, SEEDS1, 1)) == DECK1
    assert texts(deck_order(SEED2, SEEDS2, 7)) == DECK2
    pool = sorted(parse_cards("Kd 7h Ac 5s 2c"), key=lambda c: c.id)
    assert texts(shuffle(pool, byte_stream(SEED1, SEEDS1, 1, 1))) == "2c 5s Ac 7h Kd"


def test_the_fast_shuffle_is_the_documented_one() -> None:
    for i in range(200):
        seed = hashlib.sha256(bytes([i])).digest()
        seeds = [f"s{i}", "x y", DEFAULT_CLIENT_SEED][: 2 + i % 2]
        expected = shuffle(DECK, byte_stream(seed, seeds, i + 1, i % 3))
        assert keyed_shuffle(DECK, seed, seeds, i + 1, i % 3) == expected


def test_uniform_rejects_the_biased_bytes() -> None:
    # n = 40: bytes 0..239 are taken (240 = 6 * 40), 240..255 are read past.
    assert uniform(iter([239]), 40) == 39
    assert uniform(iter([240, 255, 41]), 40) == 1
    counts = Counter(uniform(iter([b]), 40) for b in range(240))
    assert set(counts.values()) == {6}
    with pytest.raises(ValueError):
        uniform(iter([0]), 0)


def test_client_seeds_are_checked() -> None:
    assert check_client_seed("x" * 64) == "x" * 64
    assert check_client_seed(" ~ ok ~ ") == " ~ ok ~ "
    with pytest.raises(ClientSeedError, match="at most 64 characters, not 65"):
        check_client_seed("x" * 65)
    with pytest.raises(ClientSeedError, match=r"character 3 \('\\n'\) is not one"):
        check_client_seed("ab\ncd")
    with pytest.raises(ClientSeedError, match="character 1"):
        check_client_seed("é")
    with pytest.raises(ClientSeedError, match="at least one character"):
        check_client_seed("")
    assert client_seeds_or_default(["a", None, ""]) == ["a", DEFAULT_CLIENT_SEED] * 1 + [
        DEFAULT_CLIENT_SEED
    ]


def test_first_deal_of_the_vector() -> None:
    state = HandState(["Ana", "Ben"], [10, 10])
    dealer = FairDealer(SEED1, SEEDS1, 1)
    assert dealer.deal(state).line() == "d dh p1 2s Jd"
    state.apply(Deal(0, tuple(parse_cards("2s Jd"))))
    assert dealer.deal(state).line() == "d dh p2 Js 4c"


def play(seed: bytes, seeds: list[str], number: int, rng: random.Random) -> tuple[HandState, int]:
    """A random hand dealt by the fair dealer, and how many shuffles it took."""
    n = len(seeds)
    state = HandState([f"P{i}" for i in range(n)], [20] * n, RULES8)
    bots = [RandomBot(seed=rng.randrange(10**9)) for _ in range(n)]
    dealer = FairDealer(seed, seeds, number)
    play_hand(state, dealer, bots)
    return state, dealer.shuffles + 1


def fair_record(seed: bytes, seeds: list[str], number: int, state: HandState) -> HandRecord:
    fair = proof_fields(commitment(seed), seeds, number, seed)
    return record_of(state, extra={"fair": fair, "hand_number": number})


def crossing(lines: list[str]) -> int | None:
    """The index of the deal line during which the stock ran out (R8b), when a deal
    line follows it and no deal was void; else None."""
    dealt = 0
    for i, line in enumerate(lines):
        if line.startswith("d "):
            dealt += len(line.split()) - 3
            if dealt > 40:
                later = any(x.startswith("d ") for x in lines[i + 1 :])
                return i if later else None
    return None


def hand_with(rng: random.Random, want: str) -> HandRecord:
    """A verified record whose dealer made a reshuffle (R8b) or a void deal (R4.3)."""
    for i in range(5000):
        seed = rng.randbytes(32)
        seeds = [f"seat{j}-{rng.randrange(1000)}" for j in range(8)]
        state, shuffles = play(seed, seeds, i + 1, rng)
        record = fair_record(seed, seeds, i + 1, state)
        if want == "void" and state.void_deals:
            return record
        if (
            want == "reshuffle"
            and not state.void_deals
            and shuffles == 2
            and crossing(record.actions) is not None
        ):
            return record
    raise AssertionError(f"no hand with a {want} in 5000")


def with_fair(record: HandRecord, **changes: Any) -> HandRecord:
    fair = dict(record.extra["fair"], **changes)
    return HandRecord(
        record.players,
        record.starting_stacks,
        list(record.actions),
        record.rules,
        None,
        dict(record.extra, fair=fair),
    )


def with_lines(record: HandRecord, lines: list[str]) -> HandRecord:
    return HandRecord(
        record.players, record.starting_stacks, lines, record.rules, None, dict(record.extra)
    )


@pytest.fixture(scope="module")
def reshuffled() -> HandRecord:
    return hand_with(random.Random(5), "reshuffle")


def test_a_reshuffle_verifies_and_its_cards_are_checked(reshuffled: HandRecord) -> None:
    assert verify_record(reshuffled).status == "verified"
    lines = list(reshuffled.actions)
    i = crossing(lines)
    assert i is not None
    # the last card of the line that crossed came from shuffle 1 (R8b); put there the
    # next deal line's first card, also from the new stock
    j = next(k for k in range(i + 1, len(lines)) if lines[k].startswith("d "))
    words, later = lines[i].split(), lines[j].split()
    words[-1], later[3] = later[3], words[-1]
    lines[i], lines[j] = " ".join(words), " ".join(later)
    verdict = verify_record(with_lines(reshuffled, lines))
    assert verdict.status == "differs"
    assert verdict.line == i
    assert verdict.reason.endswith(f"the committed deck gives {later[3]}")


def test_tampering_is_caught(reshuffled: HandRecord) -> None:
    lines = list(reshuffled.actions)
    first = lines[0].split()  # "d dh p1 X Y"
    # a tampered card: p1's first card becomes the card dealt to p2 first
    other = lines[1].split()[3]
    tampered = [" ".join([*first[:3], other, first[4]]), *lines[1:]]
    verdict = verify_record(with_lines(reshuffled, tampered))
    assert verdict.status == "differs"
    assert verdict.reason == (
        f"line 1 ({tampered[0]!r}): card 1 is {other}, the committed deck gives {first[3]}"
    )
    # a swapped order inside the first deal line
    swapped = [" ".join([*first[:3], first[4], first[3]]), *lines[1:]]
    verdict = verify_record(with_lines(reshuffled, swapped))
    assert (verdict.status, verdict.line) == ("differs", 0)
    assert f"card 1 is {first[4]}, the committed deck gives {first[3]}" in verdict.reason
    # a wrong revealed seed
    wrong = bytearray(bytes.fromhex(reshuffled.extra["fair"]["server_seed"]))
    wrong[0] ^= 1
    verdict = verify_record(with_fair(reshuffled, server_seed=wrong.hex()))
    assert verdict.status == "differs"
    assert "does not match the commitment" in verdict.reason
    # a changed client seed
    seeds = list(reshuffled.extra["fair"]["client_seeds"])
    seeds[3] += "!"
    verdict = verify_record(with_fair(reshuffled, client_seeds=seeds))
    assert (verdict.status, verdict.line) == ("differs", 0)
    # a changed hand number
    assert verify_record(with_fair(reshuffled, hand=99)).status == "differs"


def test_missing_proof_is_not_verifiable(reshuffled: HandRecord) -> None:
    bare = HandRecord(reshuffled.players, reshuffled.starting_stacks, list(reshuffled.actions))
    assert verify_record(bare).status == "not verifiable"
    fair = dict(reshuffled.extra["fair"])
    del fair["server_seed"]
    unrevealed = with_fair(reshuffled)
    unrevealed.extra["fair"] = fair
    verdict = verify_record(unrevealed)
    assert verdict.status == "not verifiable"
    assert "not revealed yet" in verdict.reason
    for key in ("commitment", "client_seeds", "hand", "scheme"):
        broken = dict(reshuffled.extra["fair"])
        del broken[key]
        record = with_fair(reshuffled)
        record.extra["fair"] = broken
        assert verify_record(record).status == "not verifiable", key
    assert verify_record(with_fair(reshuffled, client_seeds=["a"])).status == "not verifiable"


def test_a_void_deal_takes_a_new_shuffle() -> None:
    record = hand_with(random.Random(11), "void")
    assert verify_record(record).status == "verified"


def test_the_proof_survives_the_file(reshuffled: HandRecord) -> None:
    for fmt in ("toml", "json"):
        text = dump_record(reshuffled, fmt)
        assert verify_record(parse_record(text, fmt)).status == "verified"


@pytest.mark.soak
def test_ten_thousand_random_hands_verify() -> None:
    """10,000 random hands of 2 to 8 players, each dealt and verified."""
    count = 10_000
    rng = random.Random(2026)
    statuses: Counter[str] = Counter()
    for number in range(1, count + 1):
        seed = rng.randbytes(32)
        seeds = [f"c{rng.randrange(10**6)}" for _ in range(rng.randint(2, 8))]
        state, _ = play(seed, seeds, number, rng)
        statuses[verify_record(fair_record(seed, seeds, number, state)).status] += 1
    assert statuses == {"verified": count}


def many_shuffles(count: int) -> Any:
    """The shuffle 0 of ``count`` decks (server seed SHA-256 of the deck's index, client
    seeds alpha and beta, hand 1) as a ``count x 40`` array of card ids, the scheme's steps
    done on all decks at once with NumPy (the per-deck Python loop takes ~20 s for
    100,000); :func:`keyed_shuffle` is checked equal to it on the first 2,000."""
    tail = b"\n2\nalpha\nbeta"
    keys = [hashlib.sha256(i.to_bytes(4, "big")).digest() for i in range(count)]

    def block(i: int, counter: int) -> bytes:
        return hmac.digest(keys[i], b"primero-fair-1\n1\n0\n%d%s" % (counter, tail), "sha256")

    two = b"".join(block(i, 0) + block(i, 1) + bytes(32) for i in range(count))
    buf = np.frombuffer(two, dtype=np.uint8).reshape(count, 96).copy()
    third = np.zeros(count, dtype=bool)  # block 2 computed (rarely needed)
    decks = np.tile(np.arange(40), (count, 1))
    rows = np.arange(count)
    pos = np.zeros(count, dtype=np.int64)

    def read() -> Any:
        for r in np.nonzero((pos >= 64) & ~third)[0]:
            buf[r, 64:] = np.frombuffer(block(int(r), 2), dtype=np.uint8)
            third[r] = True
        return buf[rows, pos]

    for i in range(39, 0, -1):
        n = i + 1
        limit = 256 - 256 % n
        b = read()
        while (rejected := b >= limit).any():
            pos[rejected] += 1
            b = read()
        pos += 1
        j = b.astype(np.int64) % n
        top = decks[rows, i].copy()
        decks[rows, i] = decks[rows, j]
        decks[rows, j] = top
    assert pos.max() < 96  # three blocks were enough for every deck
    for k in range(min(count, 2000)):
        seed = hashlib.sha256(k.to_bytes(4, "big")).digest()
        assert list(decks[k]) == keyed_shuffle(range(40), seed, SEEDS1, 1, 0)
    return decks


def test_first_cards_are_uniform() -> None:
    """Chi-square over 100,000 decks (fixed seeds: the same numbers every run) for the
    top card (40 values, 39 degrees of freedom) and the first two-card deal (780
    unordered pairs, 779 degrees). Thresholds: the 0.999 quantiles, 72.1 and 906.7
    (Wilson-Hilferty)."""
    decks = many_shuffles(100_000)
    first = Counter(int(c) for c in decks[:, 0])
    lo = decks[:, :2].min(axis=1)
    hi = decks[:, :2].max(axis=1)
    pairs = Counter(zip(lo.tolist(), hi.tolist(), strict=True))
    e1 = 100_000 / 40
    chi1 = sum((first[c] - e1) ** 2 / e1 for c in range(40))
    e2 = 100_000 / 780
    chi2 = sum((pairs[p] - e2) ** 2 / e2 for p in combinations(range(40), 2))
    assert len(first) == 40 and len(pairs) == 780
    assert chi1 < 72.1, chi1
    assert chi2 < 906.7, chi2


@pytest.mark.parametrize("fair", [False, True], ids=["seeded", "fair"])
def test_a_draft_deals_the_next_cards_and_leaves_the_dealer_where_it_was(fair: bool) -> None:
    """R10: the server deals from a draft and keeps it only once the deal is stored. A
    draft deals what the dealer would; dealing from it moves the dealer not at all; and
    a draft kept deals on exactly as the dealer would have."""
    from primero.engine.dealing import Dealer

    def fresh() -> Dealer:
        return FairDealer(b"\x07" * 32, ["a", "b", "c", "d"], 1) if fair else Dealer.seeded(5)

    state = HandState(["A", "B", "C", "D"], [20] * 4)
    straight, drafted = fresh(), fresh()
    for _ in range(4):  # the first deal, one seat at a time (R4.2)
        due = straight.deal(state)
        draft = drafted.draft()
        thrown_away = draft.deal(state)  # a write that failed: this draft is dropped
        kept = drafted.draft()
        assert kept.deal(state) == thrown_away == due
        drafted = kept
        state.apply(due)
    assert state.deal_due() is None and len({c for h in state.hands for c in h}) == 8
