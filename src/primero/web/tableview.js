// @ts-check
// Drawing the table from a `state` message: seats, pot, phase, whose turn, the log,
// the result. Reads only the message (what the server built from this seat's view).
import {cardImage} from "./cards.js";
import {chips, el, replace} from "./common.js";

/** Helpers over one `hand` object of a state message. */
export class HandInfo {
  /**
   * @param {HandOut | null} hand the `hand` of a state message
   * @param {TableSummary} table the `table` of that message
   */
  constructor(hand, table) {
    this.hand = hand;
    this.table = table;
  }

  get n() { return this.hand ? this.hand.players.length : 0; }

  /**
   * The 0-based index of a `p` label ("p3" -> 2), or null for anything else.
   * @param {unknown} label
   * @returns {number | null}
   */
  index(label) {
    return typeof label === "string" && /^p\d+$/.test(label) ? Number(label.slice(1)) - 1 : null;
  }

  /**
   * @param {number} index 0-based seat of the hand
   * @returns {string} its `p` label
   */
  label(index) { return `p${index + 1}`; }

  /**
   * The player's name of a `p` label (the label itself when it is none of this hand's).
   * @param {string} label
   * @returns {string}
   */
  nameOf(label) {
    const i = this.index(label);
    return i !== null && this.hand && i < this.n ? this.hand.players[i] : String(label);
  }

  /**
   * The p index sitting at table seat t, or null when that seat is not in this hand.
   * @param {number} t 0-based table seat
   * @returns {number | null}
   */
  indexAtTable(t) {
    if (!this.hand) return null;
    const i = this.hand.table_seats.indexOf(t);
    return i >= 0 ? i : null;
  }

  get mine() { return this.hand ? this.index(this.hand.seat) : null; }

  get over() { return Boolean(this.hand && this.hand.final_stacks); }

  /** Table seat of this reader, or null (spectator). */
  get myTableSeat() {
    const i = this.mine;
    return i === null ? null : this.hand.table_seats[i];
  }

  /**
   * How many cards seat i exchanged at each exchange so far (from the server's state).
   * @param {number} i 0-based seat of the hand
   * @returns {number[]}
   */
  exchanges(i) {
    const list = this.hand.exchanges;
    return Array.isArray(list) && Array.isArray(list[i]) ? list[i] : [];
  }

  /** {seat, amount, raise} of the bet under vote, or null.
   * @returns {PendingBetOut | null}
   */
  get pending() {
    return this.hand && this.hand.pending_bet ? this.hand.pending_bet : null;
  }

  /** The hand log in words, as this seat reads it (the server's sentences). */
  logWords() {
    return this.hand && Array.isArray(this.hand.events) ? this.hand.events : [];
  }
}

/**
 * The marks under a seat's name: dealer, folded, all-in, declared, exchanged, bet.
 * @param {HandInfo} info
 * @param {number} i 0-based seat of the hand
 * @returns {HTMLSpanElement[]}
 */
function seatMarks(info, i) {
  const h = info.hand;
  const marks = [];
  if (i === info.n - 1) marks.push(el("span", {class: "mark dealer", title: "dealer"}, "Dealer"));
  if (h.folded[i]) marks.push(el("span", {class: "mark folded"}, "Folded"));
  else if (h.stacks[i] === 0 && !info.over) marks.push(el("span", {class: "mark allin"}, "All-in"));
  if (h.declared[i]) marks.push(el("span", {class: "mark declared"}, `Declared ${h.declared[i]}`));
  const exchanges = info.exchanges(i);
  if (exchanges.length) {
    marks.push(el("span", {class: "mark exchanged"},
      `Exchanged ${exchanges.map((k) => (k === 0 ? "none" : String(k))).join(", then ")}`));
  }
  if (h.round_bets && h.round_bets[i] > 0 && !info.over) {
    marks.push(el("span", {class: "mark bet"}, `In this round: ${chips(h.round_bets[i])}`));
  }
  return marks;
}

/**
 * The seats around the table, in table order, the reader's seat at the bottom.
 * @param {HTMLElement} list the seats' list
 * @param {TableSummary} table
 * @param {HandInfo} info
 * @param {number | null} [me] the reader's table seat (known from the token before any
 *   hand), or null
 */
export function drawSeats(list, table, info, me = null) {
  const seats = table.seats;
  const mine = info.myTableSeat ?? me ?? 0;
  const toAct = info.hand ? info.index(info.hand.to_act) : null;
  const winners = new Set();
  if (info.over) for (const award of info.hand.winners ?? []) for (const w of award.winners) winners.add(info.index(w));
  replace(list, seats.map((seat, t) => {
    const i = info.indexAtTable(t);
    const hand = info.hand;
    const name = seat.kind === "open" ? "Open seat" : seat.name;
    const bot = seat.kind === "open" || seat.kind === "person" ? null : seat.kind;
    const stack = i !== null ? hand.stacks[i] : seat.chips;
    const yours = t === (info.myTableSeat ?? me);
    const item = el("li", {class: "seat"},
      el("p", {class: "seat-name", title: name}, el("span", {class: "seat-name-text"}, name),
        yours ? " " : "", yours ? el("span", {class: "seat-you"}, "(you)") : ""),
      bot ? el("p", {class: "seat-kind"}, `${bot} bot`) : "",
      el("p", {class: "seat-chips"}, seat.kind === "open" ? "waiting" : chips(stack ?? 0)));
    if (i !== null) {
      const size = hand.hand_sizes ? hand.hand_sizes[i] : 0;
      const shown = hand.shown && hand.shown[i];
      const cards = shown ? shown.cards
        : i === info.mine ? hand.hand : Array(hand.folded[i] ? 0 : size).fill("??");
      if (i !== info.mine || shown) {
        item.append(el("div", {class: "seat-cards"},
          cards.map((c) => cardImage(c, shown ? "small" : "tiny"))));
      }
      const last = hand.last_moves && hand.last_moves[i];
      if (last) item.append(el("p", {class: "last-move"}, last));
      item.append(el("p", {class: "marks"}, seatMarks(info, i)));
      if (toAct === i) item.classList.add("to-act");
      if (hand.folded[i]) item.classList.add("folded");
      if (winners.has(i)) item.classList.add("winner");
    } else if (seat.kind !== "open") {
      const why = seat.left ? "Left the table" : seat.sitting_out ? "Sitting out"
        : hand && seat.chips === 0 ? (table.rebuy && seat.kind === "person" ? "Out of chips" : "Out of the match")
        : hand ? "Not in this hand" : null;
      if (why) item.append(el("p", {class: "marks"}, el("span", {class: "mark out"}, why)));
    }
    if (seat.kind === "person" && seat.stand_in) {  // the host's bot keeps the seat warm
      item.append(el("p", {class: "marks"}, el("span", {class: "mark away"}, yours ? "a bot plays for you" : "a bot plays for them")));
    }
    if (seat.kind === "person" && !seat.connected && !seat.left) {
      item.append(el("p", {class: "marks"}, el("span", {class: "mark away"}, "not connected")));
    }
    const k = (t - mine + seats.length) % seats.length;
    const angle = (k * 2 * Math.PI) / seats.length;
    item.style.setProperty("--x", `${50 + 40 * Math.sin(angle)}%`);
    item.style.setProperty("--y", `${50 + 32 * Math.cos(angle)}%`);
    // the direction alone, for a layout that sets its own radii (the TV's)
    item.style.setProperty("--sin", Math.sin(angle).toFixed(4));
    item.style.setProperty("--cos", Math.cos(angle).toFixed(4));
    return item;
  }));
}

/**
 * The words for whose turn it is ("Your turn", "Ana to act", "Dealing").
 * @param {HandInfo} info
 * @param {LegalOut | null} legal the state's `legal`
 * @returns {string}
 */
export function turnText(info, legal) {
  const h = info.hand;
  if (!h) return "Waiting for the first hand";
  if (info.over) {
    // "the next one starts shortly" only when it does: not on a paused table (by the
    // host, or too few players to deal in), nor before the host's pause or end
    const t = info.table;
    if (t && (t.status === "paused" || t.pending === "pause")) return "The hand is over; the table is paused";
    if (t && t.pending === "end") return "The hand is over; it was the last one";
    if (t && t.next_hand_at) return "The hand is over";  // the countdown says when the next one comes
    return "The hand is over; the next one starts shortly";
  }
  if (h.to_act === "dealer") return "Dealing";
  const pending = info.pending;
  const you = h.to_act === h.seat;
  if (pending && legal && legal.vote) {
    return `Your vote: ${pending.words}`;  // the server's words for the bet
  }
  if (pending) return `${info.nameOf(h.to_act)} to vote on a bet of ${chips(pending.amount)}`;
  if (you && !legal && info.table && h.seat) {  // the host's bot plays this seat for you
    const mine = info.table.seats[h.table_seats[Number(h.seat.slice(1)) - 1]];
    if (mine && mine.stand_in) return "A bot plays your turn";
  }
  return you ? "Your turn" : `${info.nameOf(h.to_act)} to act`;
}

/**
 * The hand's log: the server's sentences, one item each.
 * @param {HTMLElement} list
 * @param {HandInfo} info
 */
export function drawLog(list, info) {
  const words = info.logWords();
  replace(list, words.map((w) => el("li", {}, w)));
  list.scrollTop = list.scrollHeight;
}

/**
 * What a finished hand's result panel says, as data: `result` is the server's closing
 * sentences as this seat reads them (the uncalled bet returned, who won each pot:
 * primero.play.tablemodel.sentences.result_sentences), shown as they are; the client
 * words no pot or win itself.
 * @typedef {{result: string[], shown: {name: string, words: string, cards: string[]}[],
 *   chips: string}} ResultWords
 */

/**
 * A finished hand: the `hand` of a state message once over (HandOut), or a hand from
 * GET /api/tables/{id}/hands/{n} (HandRecordOut).
 * @typedef {Pick<HandOut, "players" | "result" | "shown" | "final_stacks">} ResultHand
 */

/**
 * The words of the result panel: the server's sentences, each hand shown, the chips now.
 * @param {ResultHand} hand
 * @returns {ResultWords}
 */
export function resultWords(hand) {
  const shown = [];
  for (const [i, s] of (hand.shown ?? []).entries()) {
    if (s) shown.push({name: hand.players[i], words: s.words, cards: s.cards});
  }
  const stacks = hand.final_stacks ?? [];
  return {
    result: [...(hand.result ?? [])],
    shown,
    chips: hand.players.map((name, i) => `${name} ${stacks[i]}`).join(", "),
  };
}

/**
 * The result panel: what the chips did in the server's words, the hands shown, the
 * stacks after.
 * @param {HTMLElement} box
 * @param {ResultHand} hand
 */
export function drawResult(box, hand) {
  const words = resultWords(hand);
  const parts = words.result.map((line) => el("p", {class: "award"}, line));
  if (words.shown.length) {
    parts.push(el("ul", {class: "shown-list"}, words.shown.map((s) => el("li", {class: "shown"},
      el("span", {class: "shown-name"}, `${s.name}: ${s.words}`),
      el("span", {class: "shown-cards"}, s.cards.map((c) => cardImage(c, "small")))))));
  } else {
    parts.push(el("p", {}, "No hands were shown: everyone else folded."));
  }
  parts.push(el("p", {class: "stacks"}, "Chips now: ", words.chips));
  replace(box, parts);
}

/**
 * A seat's place among the seats that are not open (docs/rules.md R9): one more than the
 * number of seats holding more chips, so that equal chips share a place and the next is
 * skipped ("2 of 4", "2 of 4", "2 of 4" for three seats on 0 behind one on 400).
 * @param {TableSummary} table
 * @param {number} index the seat's table index (0-based)
 * @returns {[number, number]} the place (1 for the most chips) and how many are ranked
 */
export function placeOf(table, index) {
  const ranked = table.seats.filter((s) => s.kind !== "open");
  const mine = table.seats[index].chips;
  return [1 + ranked.filter((s) => s.chips > mine).length, ranked.length];
}

/**
 * The standings' lines: "Ana: 250 chips", "Ben (left): 0 chips", ties in table order.
 * @param {TableSummary} table
 * @returns {string[]}
 */
export function standings(table) {
  /** @type {[string, number][]} */
  const rows = table.seats.filter((s) => s.kind !== "open")
    .map((s) => [`${s.name}${s.left ? " (left)" : ""}`, s.chips]);
  for (const f of table.former ?? []) rows.push([`${f.name} (left)`, f.chips]);
  return rows.map((r, i) => /** @type {[string, number, number]} */ ([...r, i]))
    .sort((a, b) => b[1] - a[1] || a[2] - b[2]).map(([name, n]) => `${name}: ${chips(n)}`);
}

/**
 * The countdown to the next deal while a finished hand's result stays or the rebuy
 * window waits (docs/protocol.md "Between hands"), or "".
 * @param {TableSummary} table
 * @param {number | null} me this browser's table seat
 * @param {number} now unix seconds
 * @returns {string}
 */
export function nextHandWords(table, me, now) {
  if (table.next_hand_at === null || table.next_hand_at === undefined) return "";
  if (table.status !== "playing") return "";
  const left = Math.max(0, Math.ceil(table.next_hand_at - now));
  const wait = table.rebuy_wait ?? [];
  if (me !== null && wait.includes(me)) return `Next hand in ${left} s: rebuy?`;
  if (wait.length) {
    const names = wait.map((k) => table.seats[k]?.name ?? `Seat ${k + 1}`).join(" and ");
    return `Next hand in ${left} s: waiting for ${names} to rebuy or not`;
  }
  return `Next hand in ${left} s`;
}
