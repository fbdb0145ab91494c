// @ts-check
// Unit tests of the host's controls' pure parts (src/primero/web/host.js), node:test.
import assert from "node:assert/strict";
import {test} from "node:test";

import {pauseChoice} from "../../src/primero/web/host.js";

/** @type {TableSummary} */
const TABLE = {
  id: "t1", name: "Table", status: "playing", hands_played: 1, version: 3,
  seats: [], stack: 20, turn_seconds: 60, max_hands: null, rules: {},
  detail: null, pending: null, paused_by: null, rebuy: true, next_table: null, fair: null, settle: null,
  spectator_chat: false, listed: false, approval: false, host_seat: null, removed: [],
  hand_pause_seconds: 5, rebuy_seconds: 30, next_hand_at: null,
  rebuy_wait: [], chip_value: null, currency: null, former: [],
};

test("the host is offered only the pause control that does something", () => {
  assert.equal(pauseChoice(TABLE), "Pause");
  assert.equal(pauseChoice({...TABLE, pending: "pause"}), null);  // due after this hand
  assert.equal(pauseChoice({...TABLE, status: "paused", paused_by: "host"}), "Resume");
  // too few players sit in: it deals again by itself once two can be dealt in
  assert.equal(pauseChoice({...TABLE, status: "paused", paused_by: "players"}), null);
  assert.equal(pauseChoice({...TABLE, status: "over"}), null);
});
