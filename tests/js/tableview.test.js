// @ts-check
// Unit tests of the table view's pure parts (src/primero/web/tableview.js), node:test.
import assert from "node:assert/strict";
import {test} from "node:test";

import {guideText} from "../../src/primero/web/guide.js";
import {HandInfo, nextHandWords, placeOf, resultWords, standings, turnText} from "../../src/primero/web/tableview.js";

/** @type {TableSummary} */
const TABLE = {
  id: "t1", name: "Table", status: "playing", hands_played: 1, version: 3,
  seats: [], stack: 20, turn_seconds: 60, max_hands: null, rules: {},
  detail: null, pending: null, paused_by: null, rebuy: false, next_table: null, fair: null, settle: null,
  spectator_chat: false, listed: false, approval: false, host_seat: null, removed: [],
  hand_pause_seconds: 5, rebuy_seconds: 30, next_hand_at: null,
  rebuy_wait: [], chip_value: null, currency: null, former: [],
};

/**
 * A hand as a state message sends it (docs/protocol.md), fields overridden.
 * @param {Partial<HandOut>} fields
 * @returns {HandOut}
 */
function hand(fields = {}) {
  return {
    number: 1, seat: "p2", table_seats: [3, 0, 1], players: ["Ana", "Ben", "Cleo"],
    hand: ["7h", "6h"], to_act: "p1", phase: "first_round", phase_words: "First round", stacks: [19, 19, 19],
    pot_total: 3, declared: [null, null, null], folded: [false, false, false],
    log: ["d dh p1 ?? ??", "d dh p2 7h 6h", "d dh p3 ?? ??"], events: [], shown: null,
    final_stacks: null, hand_sizes: [2, 2, 2], contributed: [1, 1, 1], round_bets: [0, 0, 0],
    current_bet: null, pending_bet: null, exchanges: [[], [], []],
    last_moves: [null, null, null], winners: [], result: [], ...fields,
  };
}

test("HandInfo maps p labels, hand indices and table seats", () => {
  const info = new HandInfo(hand(), TABLE);
  assert.equal(info.n, 3);
  assert.equal(info.index("p3"), 2);
  assert.equal(info.index("dealer"), null);
  assert.equal(info.label(0), "p1");
  assert.equal(info.nameOf("p2"), "Ben");
  assert.equal(info.nameOf("p9"), "p9");
  assert.equal(info.indexAtTable(0), 1);
  assert.equal(info.indexAtTable(2), null);
  assert.equal(info.mine, 1);
  assert.equal(info.myTableSeat, 0);
  assert.equal(info.over, false);
});

test("HandInfo without a hand: no seats, a spectator", () => {
  const info = new HandInfo(null, TABLE);
  assert.equal(info.n, 0);
  assert.equal(info.mine, null);
  assert.equal(info.indexAtTable(0), null);
  assert.deepEqual(info.logWords(), []);
});

test("exchanges come from the server's state, never parsed from the log", () => {
  const sent = new HandInfo(hand({exchanges: [[2, 0], [1], []]}), TABLE);
  assert.deepEqual(sent.exchanges(0), [2, 0]);
  assert.deepEqual(sent.exchanges(1), [1]);
  assert.deepEqual(sent.exchanges(2), []);
  const unsent = new HandInfo(hand({log: ["p1 x ?? ??", "p2 x 7h", "p1 x"]}), TABLE);
  assert.deepEqual(unsent.exchanges(0), []);  // the client reads no record line
});

test("the log in words is the server's events when it sends them", () => {
  const info = new HandInfo(hand({events: ["Ana bets 2 chips"]}), TABLE);
  assert.deepEqual(info.logWords(), ["Ana bets 2 chips"]);
});

test("turnText says whose turn it is", () => {
  assert.equal(turnText(new HandInfo(null, TABLE), null), "Waiting for the first hand");
  assert.equal(turnText(new HandInfo(hand(), TABLE), null), "Ana to act");
  assert.equal(turnText(new HandInfo(hand({to_act: "p2"}), TABLE), null), "Your turn");
  assert.equal(turnText(new HandInfo(hand({to_act: "dealer"}), TABLE), null), "Dealing");
  const over = new HandInfo(hand({final_stacks: [20, 18, 19]}), TABLE);
  assert.equal(turnText(over, null), "The hand is over; the next one starts shortly");
  // never "the next one starts shortly" when no hand starts (the broke screen)
  /** @type {TableSummary} */
  const paused = {...TABLE, status: "paused", paused_by: "players"};
  assert.equal(turnText(new HandInfo(over.hand, paused), null), "The hand is over; the table is paused");
  /** @type {TableSummary} */
  const pausing = {...TABLE, pending: "pause"};
  assert.equal(turnText(new HandInfo(over.hand, pausing), null), "The hand is over; the table is paused");
  /** @type {TableSummary} */
  const ending = {...TABLE, pending: "end"};
  assert.equal(turnText(new HandInfo(over.hand, ending), null), "The hand is over; it was the last one");
  // the result stays: the countdown says when the next hand comes, the turn line does not
  /** @type {TableSummary} */
  const counting = {...TABLE, next_hand_at: 1000};
  assert.equal(turnText(new HandInfo(over.hand, counting), null), "The hand is over");
  const vote = hand({to_act: "p2", pending_bet: {seat: "p1", amount: 5, raise: false, words: "Ana bets 5 chips"}});
  /** @type {LegalOut} */
  const legal = {kinds: ["vote"], exchange: [], bet: null, raise_to: null, call: null,
    fold: false, vote: true, declare: [], words: {bet: "Bet", check: null, raise: null, call: null,
      fold: null, exchange: [], pick: null, declare: [],
      accept: "Accept the bet (bet of 5 chips by Ana)", refuse: "Refuse the bet (bet of 5 chips by Ana)"}};
  assert.equal(turnText(new HandInfo(vote, TABLE), legal), "Your vote: Ana bets 5 chips");
  // the words are the server's, shown as sent: the client makes none from the amount
  const sent = hand({to_act: "p2", pending_bet: {seat: "p1", amount: 5, raise: true, words: "Ana raises to 5 chips"}});
  assert.equal(turnText(new HandInfo(sent, TABLE), legal), "Your vote: Ana raises to 5 chips");
  const other = hand({to_act: "p3", pending_bet: {seat: "p1", amount: 4, raise: true, words: "Ana raises to 4 chips"}});
  assert.equal(turnText(new HandInfo(other, TABLE), null), "Cleo to vote on a bet of 4 chips");
});

test("the result panel says the server's sentences as they are, then shown hands and chips", () => {
  // A showdown as Ben (p2) reads it: the server's closing sentences (sentences.py,
  // result_sentences), never words the client makes from the pots.
  const over = hand({
    phase: "complete", phase_words: "The hand is over", to_act: null, final_stacks: [17, 0, 9],
    winners: [{amount: 9, winners: ["p3"], shares: [9]}, {amount: 8, winners: ["p1"], shares: [8]}],
    result: ["Uncalled bet of 8 chips returned to Ana", "Cleo wins 9 chips (numerus 31)"],
    shown: [null, {category: "numerus", points: 28, cards: ["6d", "Kc", "Kd", "5h"], words: "numerus, 28 points"},
      {category: "numerus", points: 1, cards: ["Ah", "7d", "Js", "Qd"], words: "numerus, 1 point"}],
  });
  assert.deepEqual(resultWords(over), {
    result: ["Uncalled bet of 8 chips returned to Ana", "Cleo wins 9 chips (numerus 31)"],
    shown: [
      {name: "Ben", words: "numerus, 28 points", cards: ["6d", "Kc", "Kd", "5h"]},
      {name: "Cleo", words: "numerus, 1 point", cards: ["Ah", "7d", "Js", "Qd"]},
    ],
    chips: "Ana 17, Ben 0, Cleo 9",
  });
  // A hand from GET /hands/{n} (HandRecordOut) reads the same; its pots are not worded.
  /** @type {HandRecordOut} */
  const record = {
    number: 4, variant: "primero", seat: null, players: ["Ana", "Ben"],
    starting_stacks: [10, 10], actions: [], events: ["Ben folds", "Ana wins 2 chips"],
    result: ["Ana wins 2 chips"], pots: [{amount: 2, winners: ["p1"]}], own_cards: [],
    shown: [null, null], final_stacks: [11, 9],
  };
  assert.deepEqual(resultWords(record), {result: ["Ana wins 2 chips"], shown: [], chips: "Ana 11, Ben 9"});
});

test("the guided hand's lesson is the server's guide, shown as sent", () => {
  /** @type {StateOut} */
  const msg = {type: "state", version: 1, table: TABLE, hand: null, legal: null, deadline: null,
    seat_note: null, notice: null, join_requests: null, your_seat: null,
    guide: "Card points: 7 = 21, 6 = 18, A = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12, face cards 10."};
  assert.equal(guideText(msg), msg.guide);
});

/**
 * A seat of a summary, fields overridden.
 * @param {Partial<SeatOut>} fields
 * @returns {SeatOut}
 */
function seat(fields) {
  return {name: null, kind: "person", chips: 0, sitting_out: false, left: false, connected: true,
    stand_in: null, ledger: {}, ...fields};
}

test("the countdown to the next deal, and the rebuy window's question", () => {
  const table = {...TABLE, seats: [seat({name: "Ana"}), seat({name: "Ben", chips: 40})],
    next_hand_at: 1000, rebuy_wait: [0]};
  assert.equal(nextHandWords(table, 0, 977), "Next hand in 23 s: rebuy?");
  assert.equal(nextHandWords(table, 1, 977.2), "Next hand in 23 s: waiting for Ana to rebuy or not");
  assert.equal(nextHandWords({...table, rebuy_wait: []}, null, 996), "Next hand in 4 s");
  assert.equal(nextHandWords({...table, rebuy_wait: []}, null, 1001), "Next hand in 0 s");
  assert.equal(nextHandWords({...table, next_hand_at: null}, 0, 977), "");
  assert.equal(nextHandWords({...table, status: "paused"}, 0, 977), "");
});

test("the final standings: most chips first, ties in table order, people who left too", () => {
  /** @type {TableSummary} */
  const table = {...TABLE, status: "over", seats: [
    seat({name: "Ana", chips: 0}), seat({name: null, kind: "open"}),
    seat({name: "Lorenzo", kind: "heuristic", chips: 70}), seat({name: "Ben", chips: 70}),
    seat({name: "Cleo", chips: 0, left: true})],
  former: [{seat: 2, name: "Dora", chips: 10, ledger: {bought_in: 100, net: -90}}]};
  assert.deepEqual(standings(table), ["Lorenzo: 70 chips", "Ben: 70 chips",
    "Dora (left): 10 chips", "Ana: 0 chips", "Cleo (left): 0 chips"]);
});

test("equal chips share a place and the next place is skipped (R9)", () => {
  /** @type {TableSummary} */
  const table = {...TABLE, seats: [
    seat({name: "Ana", chips: 0}), seat({name: "Ben", chips: 0}), seat({name: "Cleo", chips: 0}),
    seat({name: "Lorenzo", kind: "heuristic", chips: 400}), seat({name: null, kind: "open"})]};
  assert.deepEqual([0, 1, 2, 3].map((i) => placeOf(table, i)), [[2, 4], [2, 4], [2, 4], [1, 4]]);
  const two = {...table, seats: [seat({name: "Ana", chips: 50}), seat({name: "Ben", chips: 50}),
    seat({name: "Cleo", chips: 0}), seat({name: "Lorenzo", kind: "heuristic", chips: 300})]};
  assert.deepEqual([0, 1, 2, 3].map((i) => placeOf(two, i)), [[2, 4], [2, 4], [4, 4], [1, 4]]);
});
