// @ts-check
// Unit tests of the web client's pure helpers (src/primero/web/common.js), node:test.
import assert from "node:assert/strict";
import {test} from "node:test";

import {
  cardName, cardShort, chips, parseCard, plural, randomId, tokenKey,
} from "../../src/primero/web/common.js";

test("parseCard reads rank and suit, either case; anything else is null", () => {
  assert.deepEqual(parseCard("7h"), {rank: "7", suit: "h"});
  assert.deepEqual(parseCard("kC"), {rank: "K", suit: "c"});
  for (const bad of ["??", "", "7", "7hh", "8h", "1s", "Tx", "7x", null, 7]) {
    assert.equal(parseCard(bad), null, String(bad));
  }
});

test("cardName gives the accessible name; a hidden card is named so", () => {
  assert.equal(cardName("7h"), "7 of hearts");
  assert.equal(cardName("As"), "ace of spades");
  assert.equal(cardName("Jd"), "jack of diamonds");
  assert.equal(cardName("Qc"), "queen of clubs");
  assert.equal(cardName("Kh"), "king of hearts");
  assert.equal(cardName("??"), "hidden card");
});

test("cardShort writes the suit symbol; ?? stays", () => {
  assert.equal(cardShort("7h"), "7♥");
  assert.equal(cardShort("Ad"), "A♦");
  assert.equal(cardShort("Kc"), "K♣");
  assert.equal(cardShort("2s"), "2♠");
  assert.equal(cardShort("??"), "??");
});

test("plural and chips: singular for exactly 1", () => {
  assert.equal(plural(0, "card"), "0 cards");
  assert.equal(plural(1, "card"), "1 card");
  assert.equal(plural(2, "card"), "2 cards");
  assert.equal(chips(1), "1 chip");
  assert.equal(chips(25), "25 chips");
});

test("tokenKey names the table's seat token", () => {
  assert.equal(tokenKey("abc"), "primero.seat.abc");
});

test("randomId: 32 hex digits, different each time", () => {
  const a = randomId();
  const b = randomId();
  assert.match(a, /^[0-9a-f]{32}$/);
  assert.notEqual(a, b);
});
