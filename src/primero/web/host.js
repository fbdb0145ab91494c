// @ts-check
// The host's controls on the table page and the ledger (docs/protocol.md "REST: the lobby": pause,
// resume, end, rematch, the timer, a bot for a seat left, or playing for a person who sits out).
import {api, el, replace} from "./common.js";

/** The host's pause control as the table stands: "Resume" while the host paused it,
 * "Pause" while it plays (and no pause is due after the hand), null otherwise: a table
 * paused because too few players sit in resumes by itself when they do (docs/protocol.md
 * "Status, as a table goes"), so the host is offered neither.
 * @param {TableSummary} table
 * @returns {"Pause" | "Resume" | null}
 */
export function pauseChoice(table) {
  if (table.status === "paused") return table.paused_by === "host" ? "Resume" : null;
  if (table.status === "over" || table.pending === "pause") return null;
  return "Pause";
}

/** The host's controls (pause, resume, end, rematch, timer, a bot for a seat left; join
 * requests to accept or refuse, removing a person, passing the host role, listed and
 * approval: docs/protocol.md "Private tables").
 * @param {TableSummary} table
 * @param {{h: string | null, tableId: string, hidden: boolean,
 *   confirmThen: (text: string, then: () => void) => void, goToNext: (id: string) => void,
 *   requests: JoinRequestOut[], mySeat: number | null}} page
 *   the host token (null: not the host), the table, whether the page hides the controls,
 *   the page's confirm dialog and rematch move, the join requests waiting (the state's
 *   `join_requests`) and this page's own seat
 */
export function drawHost(table, {h, tableId, hidden, confirmThen, goToNext, requests, mySeat}) {
  const box = document.getElementById("host-box");
  box.hidden = !h || hidden;
  // the join requests stand at the top of the page, where the host sees them at once
  document.getElementById("requests-box").hidden = box.hidden || !requests.length || table.status === "over";
  if (box.hidden) return;
  const parts = [];
  /** An API call of the host's; its answer, or null after showing the error.
   * @param {string} path under the table's address ("/pause")
   * @param {string} [method]
   * @param {object} [body]
   * @returns {() => Promise<any>} the call (any: each path answers its own JSON)
   */
  const call = (path, method = "POST", body) => async () => {
    document.getElementById("host-error").textContent = "";
    try {
      const answer = await api(`/api/tables/${encodeURIComponent(tableId)}${path}`, {method, body, token: h});
      return answer;
    } catch (e) { document.getElementById("host-error").textContent = e.message; return null; }
  };
  const over = table.status === "over";
  document.getElementById("host-note").textContent = over ? "You hosted this match."
    : table.pending ? `The hand in progress ends first, then the table ${table.pending === "end" ? "ends" : "pauses"}.`
    : table.status === "paused" ? (table.paused_by === "host" ? "Paused by you." : "Paused: too few players sit in.")
    : "You host this table.";
  // "Ben asks to join": the server's words, then Accept / Refuse
  replace(document.getElementById("host-requests"), over ? [] : requests.map((r) => el("li", {class: "host-request"},
    el("span", {}, r.text), " ",
    el("button", {type: "button", class: "primary", "aria-label": `Accept ${r.name}`,
      onclick: call(`/requests/${r.id}/accept`)}, "Accept"), " ",
    el("button", {type: "button", "aria-label": `Refuse ${r.name}`,
      onclick: call(`/requests/${r.id}/refuse`)}, "Refuse"))));
  if (!over) {
    const choice = pauseChoice(table);
    if (choice === "Resume") parts.push(el("button", {type: "button", class: "primary", onclick: call("/resume")}, "Resume"));
    else if (choice === "Pause") parts.push(el("button", {type: "button", onclick: call("/pause")}, "Pause"));
    parts.push(el("button", {type: "button", onclick: () => confirmThen("End the match for everyone?", call("/end"))}, "End the match"));
    for (const [k, seat] of table.seats.entries()) {
      // offered only when the server takes it: a person who left, or sits out with no stand-in
      if (seat.kind === "person" && (seat.left || (seat.sitting_out && !seat.stand_in))) {
        parts.push(el("button", {type: "button", onclick: call(`/seats/${k}/bot`, "POST", {kind: "heuristic"})},
          seat.left ? `Seat a bot in ${seat.name}'s place` : `Let a bot play for ${seat.name}`));
      }
      if (seat.kind === "person" && k !== mySeat && k !== table.host_seat) {
        parts.push(el("button", {type: "button", onclick: () => confirmThen(
          `Remove ${seat.name} from the table? A bot takes the seat from the next hand.`,
          call(`/seats/${k}?bot=heuristic`, "DELETE"))}, `Remove ${seat.name}`));
        if (!seat.left && seat.connected) {
          parts.push(el("button", {type: "button", onclick: () => confirmThen(
            `Make ${seat.name} the host? You can no longer use the host's controls.`,
            call("/host", "POST", {seat: k}))}, `Make ${seat.name} host`));
        }
      }
    }
  } else if (!table.next_table) {
    parts.push(el("button", {type: "button", class: "primary", onclick: async () => {
      const next = await call("/rematch")();
      if (next) goToNext(next.id);
    }}, "Rematch with the same people"));
  }
  if (over && table.next_table) {
    parts.push(el("button", {type: "button", class: "primary", onclick: () => goToNext(table.next_table)}, "Go to the rematch"));
  }
  replace(document.getElementById("host-actions"), parts);
  for (const [key, id] of /** @type {const} */ ([["listed", "host-listed"], ["approval", "host-approval"]])) {
    const box = /** @type {HTMLInputElement} */ (document.getElementById(id));
    box.checked = table[key];
    box.onchange = () => { call("", "PATCH", {[key]: box.checked})(); };
  }
  document.getElementById("host-access").hidden = over;
  document.getElementById("timer-form").hidden = over;
  const timer = /** @type {HTMLInputElement} */ (document.getElementById("host-timer"));
  if (document.activeElement !== timer) timer.value = String(table.turn_seconds);
  document.getElementById("settings-form").hidden = over;
  document.getElementById("host-rebuy-box").hidden = !table.rebuy;
  for (const [id, value] of storedSettings(table)) {
    const input = /** @type {HTMLInputElement} */ (document.getElementById(id));
    if (document.activeElement !== input && !input.dataset.edited) input.value = value;
  }
}

/** Each host settings input and the value the table holds (its summary).
 * @param {TableSummary} table
 * @returns {[string, string][]}
 */
function storedSettings(table) {
  return [["host-pause", String(table.hand_pause_seconds ?? "")],
    ["host-rebuy", String(table.rebuy_seconds ?? "")],
    ["host-chip-value", table.chip_value ?? ""], ["host-currency", table.currency ?? ""]];
}

/** After a refused Save: the fields show the values the table holds again (nothing was
 * changed, docs/protocol.md), no longer the refused ones; the refusal stays shown.
 * @param {TableSummary} table the last state's table
 * @param {boolean} timer the turn timer's Save (else the settings' Save)
 */
export function restoreSettings(table, timer) {
  if (timer) {
    /** @type {HTMLInputElement} */ (document.getElementById("host-timer")).value = String(table.turn_seconds);
    return;
  }
  for (const [id, value] of storedSettings(table)) {
    const input = /** @type {HTMLInputElement} */ (document.getElementById(id));
    input.value = value;
    delete input.dataset.edited;
  }
}

/** The host's settings fields, by the key of `GET /api/table-settings`. */
const SETTING_FIELDS = {hand_pause_seconds: "host-pause", rebuy_seconds: "host-rebuy",
  chip_value: "host-chip-value", currency: "host-currency"};

/** The bounds of the host's settings fields, from the server (`GET /api/table-settings`:
 * the ones `PATCH` checks), never typed here; without an answer the server's refusal
 * says them. */
export async function boundSettings() {
  /** @type {TableSettingOut[]} */
  let settings;
  try { settings = await api("/api/table-settings"); } catch { return; }
  for (const setting of settings) {
    const id = SETTING_FIELDS[/** @type {keyof typeof SETTING_FIELDS} */ (setting.key)];
    const field = id && /** @type {HTMLInputElement | null} */ (document.getElementById(id));
    if (!field) continue;
    if (setting.min !== null) field.min = String(setting.min);
    if (setting.max !== null) field.max = String(setting.max);
    if (setting.max_length !== null) field.maxLength = setting.max_length;
  }
}

/** Buy-ins and net per person (bots never rebuy; they are left out), people whose seat a
 * bot took too ("Ana (left)": docs/protocol.md "Settling up").
 * @param {TableSummary} table
 */
export function drawLedger(table) {
  const rows = table.seats.filter((s) => s.kind === "person" && s.ledger)
    .map((s) => ({name: s.name, chips: s.chips, ledger: s.ledger}));
  for (const f of table.former ?? []) rows.push({name: `${f.name} (left)`, chips: f.chips, ledger: f.ledger});
  for (const r of table.removed ?? []) {  // people the host removed: their rows stay
    rows.push({name: `${r.name} (removed)`, chips: r.chips, ledger: {bought_in: r.bought_in, net: r.net}});
  }
  document.getElementById("ledger").hidden = !rows.length || table.status === "waiting";
  replace(document.getElementById("ledger-rows"), rows.map((s) => el("tr", {},
    el("th", {scope: "row"}, s.name), el("td", {}, String(s.ledger.bought_in)),
    el("td", {}, String(s.chips)),
    el("td", {}, `${s.ledger.net > 0 ? "+" : ""}${s.ledger.net}`))));
  const over = table.status === "over";
  // when the chips were counted: the summary's chips are those at the hand's start
  document.getElementById("ledger-chips").textContent = over ? "final chips" : "chips at hand start";
  document.getElementById("settle").hidden = !over || !table.settle;
  if (over && table.settle) document.getElementById("settle-text").textContent = table.settle.text;
}

/** Copy the settle-up text (where the browser allows it) and say so. */
export async function copySettle() {
  const status = document.getElementById("settle-status");
  let said = "Select the lines above and copy them by hand";
  try {
    await navigator.clipboard.writeText(document.getElementById("settle-text").textContent);
    said = "Copied";
  } catch { /* no clipboard outside secure contexts */ }
  status.textContent = said;
}

