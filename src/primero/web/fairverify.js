// @ts-check
// The verifier of fair deals in the browser (docs/fair-deals.md), with WebCrypto:
// SHA-256 of the revealed seed against the commitment, then every deal line of every
// hand recomputed from HMAC-SHA256(server seed, message) and an unbiased Fisher-Yates
// shuffle. It asks the server nothing: it checks the records it is given. Its answers
// are the words of `primero verify` (src/primero/engine/fairverify.py).

export const SCHEME = "primero-fair-1";
const RANKS = "A234567JQK";
const SUITS = "cdhs";
const HEX = /^[0-9a-f]{64}$/;

/** The card id of R1 (10 x suit + rank), or -1. @param {string} text */
export function cardId(text) {
  if (text.length !== 2) return -1;
  const r = RANKS.indexOf(text[0]), s = SUITS.indexOf(text[1]);
  return r < 0 || s < 0 ? -1 : 10 * s + r;
}

/** The card text of an id. @param {number} id */
export function cardText(id) {
  return RANKS[id % 10] + SUITS[Math.floor(id / 10)];
}

/** @param {string} hex */
function bytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** @param {ArrayBuffer} buffer */
function hex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Whether a client seed is 1 to 64 printable ASCII characters. @param {unknown} s */
function goodSeed(s) {
  return typeof s === "string" && s.length >= 1 && s.length <= 64 && /^[\x20-\x7e]+$/.test(s);
}

/** The bytes of one shuffle (docs/fair-deals.md "The byte stream"). */
class Stream {
  /**
   * @param {CryptoKey} key HMAC-SHA256 key: the server seed
   * @param {string[]} seeds the client seeds, p1…pN
   * @param {number} hand
   * @param {number} k the shuffle index
   */
  constructor(key, seeds, hand, k) {
    this.key = key;
    this.head = `${SCHEME}\n${hand}\n${k}\n`;
    this.tail = ["", String(seeds.length), ...seeds].join("\n");
    this.block = new Uint8Array(0);
    this.pos = 0;
    this.counter = 0;
  }

  async byte() {
    if (this.pos === this.block.length) {
      const message = new TextEncoder().encode(this.head + this.counter + this.tail);
      this.block = new Uint8Array(await crypto.subtle.sign("HMAC", this.key, message));
      this.pos = 0;
      this.counter += 1;
    }
    return this.block[this.pos++];
  }

  /** A number uniformly drawn from 0..n-1 by rejection (no modulo bias). @param {number} n */
  async uniform(n) {
    const limit = 256 - (256 % n);
    for (;;) {
      const b = await this.byte();
      if (b < limit) return b % n;
    }
  }
}

/**
 * Fisher-Yates (Durstenfeld) of `items` by the stream; item 0 is the top.
 * @template T
 * @param {T[]} items
 * @param {Stream} stream
 * @returns {Promise<T[]>}
 */
async function shuffle(items, stream) {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = await stream.uniform(i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/**
 * Shuffle `k` of a hand, of the given card ids (sorted first).
 * @param {CryptoKey} key @param {string[]} seeds @param {number} hand @param {number} k
 * @param {number[]} ids
 */
function shuffled(key, seeds, hand, k, ids) {
  return shuffle([...ids].sort((x, y) => x - y), new Stream(key, seeds, hand, k));
}

/**
 * The 40 cards of a full shuffle, top first (for the known-answer vectors).
 * @param {string} seedHex @param {string[]} seeds @param {number} hand @param {number} k
 * @returns {Promise<string[]>}
 */
export async function deckOrder(seedHex, seeds, hand, k = 0) {
  const key = await crypto.subtle.importKey("raw", bytes(seedHex), {name: "HMAC", hash: "SHA-256"}, false, ["sign"]);
  return (await shuffled(key, seeds, hand, k, [...Array(40).keys()])).map(cardText);
}

/** SHA-256 of the seed's bytes, hex. @param {string} seedHex */
export async function commitmentOf(seedHex) {
  return hex(await crypto.subtle.digest("SHA-256", bytes(seedHex)));
}

/**
 * @typedef {{status: "verified" | "differs" | "not verifiable", reason: string, line: number | null}} Verdict
 */

/** @param {string} status @param {string} reason @param {number | null} [line] @returns {Verdict} */
function verdict(status, reason, line = null) {
  return /** @type {Verdict} */ ({status, reason, line});
}

/**
 * Why the record's proof fields cannot be used, or null when they can.
 * @param {any} record
 */
function proofProblem(record) {
  const fair = record.fair;
  if (!fair || typeof fair !== "object" || Array.isArray(fair)) {
    return "the record has no proof fields (the fair table): it was not dealt from a commitment";
  }
  if (fair.scheme !== SCHEME) return `the proof's scheme is not '${SCHEME}'`;
  if (typeof fair.commitment !== "string" || !HEX.test(fair.commitment)) {
    return "the proof's commitment is not 64 lower-case hexadecimal characters";
  }
  const players = Array.isArray(record.players) ? record.players.length : 0;
  if (!Array.isArray(fair.client_seeds) || fair.client_seeds.length !== players) {
    return `the proof needs one client seed per player (${players})`;
  }
  if (!fair.client_seeds.every(goodSeed)) return "the proof's client seeds are not valid";
  if (!Number.isInteger(fair.hand) || fair.hand < 1) {
    return "the proof's hand number is not a whole number >= 1";
  }
  if (fair.server_seed !== undefined && fair.server_seed !== null
      && (typeof fair.server_seed !== "string" || !HEX.test(fair.server_seed))) {
    return "the revealed server seed is not 64 lower-case hexadecimal characters";
  }
  return null;
}

/**
 * Check every deal line of one record (the JSON of docs/record-format.md) against its
 * proof: the same checks and words as `primero verify`.
 * @param {any} record
 * @returns {Promise<Verdict>}
 */
export async function verifyRecord(record) {
  const problem = proofProblem(record);
  if (problem) return verdict("not verifiable", problem);
  const fair = record.fair;
  if (!fair.server_seed) {
    return verdict("not verifiable", "the server seed is not revealed yet (it is when the match ends)");
  }
  if (await commitmentOf(fair.server_seed) !== fair.commitment) {
    return verdict("differs", "the revealed server seed does not match the commitment (its SHA-256 differs)");
  }
  const key = await crypto.subtle.importKey("raw", bytes(fair.server_seed), {name: "HMAC", hash: "SHA-256"}, false, ["sign"]);
  /** @type {string[]} */
  const seeds = fair.client_seeds;
  const hand = fair.hand;
  const n = record.players.length;
  const all = [...Array(40).keys()];
  let k = 0;
  let pile = await shuffled(key, seeds, hand, 0, all);
  /** @type {Set<number>[]} */
  let hands = Array.from({length: n}, () => new Set());
  /** @type {number[]} */
  let discards = [];
  /** @type {{seat: number, ids: number[]} | null} */
  let thrown = null; // the exchange just made, for the deal line that follows
  // R4.3: where the first betting round stands
  let phase = "deal1";
  let dealt = new Set(); // seats given a deal-round line in this deal
  let betStands = false, pending = false, voted = false, accepted = false;
  /** @type {Map<number, string>} */
  let turns = new Map();
  let cards = 0;
  const settle = () => {
    if (pending) betStands = betStands || (voted ? accepted : true);
    pending = voted = accepted = false;
  };
  const actions = Array.isArray(record.actions) ? record.actions : [];
  for (let i = 0; i < actions.length; i++) {
    const line = String(actions[i]);
    const words = line.split("#")[0].trim().split(/\s+/);
    if (words[0] === "d") {
      const seat = Number(words[2].slice(1)) - 1;
      const ids = words.slice(3).map(cardId);
      if (!(seat >= 0 && seat < n) || ids.some((c) => c < 0)) {
        return verdict("not verifiable", `line ${i + 1} ('${line}') does not replay`);
      }
      const replacement = thrown !== null && thrown.seat === seat;
      if (!replacement) {
        if (phase === "round1") {
          settle();
          const all_x = turns.size > 0 && [...turns.values()].every((t) => t === "x");
          if (!betStands && all_x) { // a void deal: all cards back, a new deck
            k += 1;
            pile = await shuffled(key, seeds, hand, k, all);
            hands = Array.from({length: n}, () => new Set());
            discards = [];
            phase = "deal1";
            dealt = new Set();
          } else {
            phase = "deal2";
            dealt = new Set();
          }
        } else if (phase === "deal1" && dealt.has(seat)) {
          phase = "deal2"; // the first round was skipped
          dealt = new Set();
        }
        dealt.add(seat);
      }
      const just = replacement && thrown ? thrown.ids : [];
      for (let c = 0; c < ids.length; c++) {
        if (pile.length === 0) { // R8b: the discards, less the cards just thrown
          k += 1;
          pile = await shuffled(key, seeds, hand, k, discards.filter((d) => !just.includes(d)));
          discards = [...just];
        }
        const want = pile.shift();
        if (want === undefined) {
          return verdict("not verifiable", `line ${i + 1} ('${line}') does not replay: no card is left to deal`);
        }
        if (ids[c] !== want) {
          return verdict("differs",
            `line ${i + 1} ('${line}'): card ${c + 1} is ${cardText(ids[c])}, the committed deck gives ${cardText(want)}`, i);
        }
        hands[seat].add(want);
      }
      cards += ids.length;
      thrown = null;
      continue;
    }
    const seat = Number(words[0].slice(1)) - 1;
    const verb = words[1];
    thrown = null;
    if (phase === "deal1") { phase = "round1"; turns = new Map(); betStands = false; }
    if (verb === "x") {
      const ids = words.slice(2).map(cardId);
      for (const id of ids) { hands[seat]?.delete(id); discards.push(id); }
      if (ids.length) thrown = {seat, ids};
    }
    if (phase === "round1") {
      if (verb === "y" || verb === "n") {
        voted = true;
        if (verb === "y") accepted = true;
      } else {
        settle();
        if (verb === "b" || verb === "r") pending = true;
        turns.set(seat, verb === "x" && words.length > 2 ? "x" : verb);
      }
    }
  }
  return verdict("verified", `hand ${hand}: all ${cards} dealt cards are the committed deck's`);
}

/**
 * Verify a match's proof (GET /api/tables/{id}/proof, fetched by the caller): one
 * verdict per hand. Before the reveal there is nothing to check.
 * @param {any} proof
 * @returns {Promise<{number: number, verdict: Verdict}[]>}
 */
export async function verifyMatch(proof) {
  const out = [];
  for (const h of proof.hands ?? []) {
    const v = h.record ? await verifyRecord(h.record)
      : verdict("not verifiable", "the server seed is not revealed yet (it is when the match ends)");
    out.push({number: h.number, verdict: v});
  }
  return out;
}

/** A client seed for a new seat: 16 random bytes as 32 hex characters. */
export function newClientSeed() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}
