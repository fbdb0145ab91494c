// @ts-check
// The lobby: the tables with their seats and status, create a table, join, watch.
import {api, chips, el, hostKey, plural, replace, store, tokenKey} from "./common.js";
import {fairLine, seedField} from "./fairview.js";
import {newClientSeed} from "./fairverify.js";

/** Every house rule, as `GET /api/rules` declares it (its key, kind, default, bounds or
 * choices, and its words): the server's `primero.Rules` is the one place they are written.
 * @type {HouseRuleOut[]}
 */
let houseRules = [];

async function loadHouseRules() {
  houseRules = await api("/api/rules");
}

/** The table settings beside the house rules, as `GET /api/table-settings` declares
 * them (bounds from the server's schema, defaults from its options: docs/protocol.md
 * "Between hands", "Settling up").
 * @type {TableSettingOut[]}
 */
let tableSettings = [];

async function loadTableSettings() {
  tableSettings = await api("/api/table-settings");
}

/** @type {string[]} the bot kinds the server offers */
let botKinds = ["random", "heuristic"];

async function loadBotKinds() {
  try {
    const answer = await api("/api/bots");
    const kinds = Array.isArray(answer) ? answer : answer && answer.kinds;
    if (Array.isArray(kinds) && kinds.length) {
      botKinds = kinds.map((k) => (typeof k === "string" ? k : k.kind ?? k.name));
    }
  } catch { /* older server: the two built-in kinds */ }
}

/**
 * The form element with this id (index.html has it).
 * @param {string} id
 * @returns {HTMLInputElement}
 */
function input(id) {
  return /** @type {HTMLInputElement} */ (document.getElementById(id));
}

function seatRows() {
  const count = Number(input("c-count").value);
  const box = document.getElementById("c-seats");
  const previous = Array.from(box.querySelectorAll("select"), (s) => s.value);
  replace(box, el("legend", {}, "Who sits at each seat"));
  for (let i = 0; i < count; i++) {
    const id = `c-seat-${i}`;
    const fallback = i === 0 ? "open" : (botKinds.includes("heuristic") ? "heuristic" : botKinds[0]);
    const value = previous[i] ?? fallback;
    const select = el("select", {id, "data-seat": i},
      el("option", {value: "open"}, "a person (open seat)"),
      botKinds.map((kind) => el("option", {value: kind}, `bot: ${kind}`)));
    select.value = value;
    box.append(el("div", {class: "field inline"}, el("label", {for: id}, `Seat ${i + 1}`), select));
  }
}

function ruleFields() {
  const box = document.getElementById("c-rules");
  for (const rule of houseRules) {
    const id = `r-${rule.key}`;
    const helpId = `${id}-help`;
    let input;
    if (rule.type === "bool") {
      input = el("input", {id, type: "checkbox", "aria-describedby": helpId});
      input.checked = Boolean(rule.default);
      box.append(el("div", {class: "field check"}, input, el("label", {for: id}, rule.label),
        el("small", {id: helpId}, `${rule.help} (${rule.section})`)));
      continue;
    }
    if (rule.type === "choice") {
      input = el("select", {id, "aria-describedby": helpId},
        rule.choices.map((c) => el("option", {value: c}, c)));
      input.value = String(rule.default);
    } else {
      input = el("input", {id, type: "number", min: rule.min, max: rule.max ?? undefined,
        inputmode: "numeric", "aria-describedby": helpId, value: rule.default ?? ""});
    }
    const help = rule.type === "int" && rule.default === null ? `${rule.help} Empty: none.` : rule.help;
    box.append(el("div", {class: "field"}, el("label", {for: id}, rule.label), input,
      el("small", {id: helpId}, `${help} (${rule.section})`)));
  }
}

/** The fields of the table settings (the pause after a hand, the rebuy window, the money
 * a chip is worth), in the box "Between hands and settling up"; a setting that belongs
 * to a checkbox (the rebuy window: Rebuys) shows only while it is checked. */
function settingFields() {
  const box = document.getElementById("c-evening");
  for (const setting of tableSettings) {
    const id = `s-${setting.key}`;
    const helpId = `${id}-help`;
    const field = setting.type === "int"
      ? el("input", {id, type: "number", min: setting.min ?? undefined, max: setting.max ?? undefined,
        inputmode: "numeric", "aria-describedby": helpId, value: String(setting.default)})
      : el("input", {id, autocomplete: "off", maxlength: setting.max_length ?? undefined,
        inputmode: setting.key === "chip_value" ? "decimal" : undefined,
        placeholder: setting.key === "chip_value" ? "0.10" : setting.key === "currency" ? "EUR" : undefined,
        "aria-describedby": helpId, value: String(setting.default)});
    const bounds = setting.type === "int" ? ` ${setting.min} to ${setting.max}.` : "";
    const row = el("div", {class: "field", id: `${id}-box`}, el("label", {for: id}, setting.label),
      field, el("small", {id: helpId}, `${setting.help}${bounds}`));
    box.append(row);
    if (setting.only_with) {
      const owner = input(`c-${setting.only_with}`);
      const show = () => { row.hidden = !owner.checked; };
      owner.addEventListener("change", show);
      show();
    }
  }
}

/**
 * A whole number from a form field; throws Error(what is wrong).
 * @param {string} id the field
 * @param {string} what its name in the error ("The stack")
 * @param {{min: number, optional?: boolean}} bounds the lowest value; optional: empty is null
 * @returns {number | null}
 */
function intField(id, what, {min, optional = false}) {
  const raw = input(id).value.trim();
  if (raw === "" && optional) return null;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new Error(`${what} must be a whole number of at least ${min}`);
  }
  return Number(raw);
}

/** The body of POST /api/tables from the form; throws Error(what is wrong).
 * @returns {CreateTable}
 */
export function createBody() {
  /** @type {NodeListOf<HTMLSelectElement>} */
  const selects = document.querySelectorAll("#c-seats select");
  /** @type {CreateTable} */
  const body = {seats: Array.from(selects, (s) => /** @type {CreateTable["seats"][number]} */ (s.value))};
  const name = input("c-name").value.trim();
  if (name) body.name = name;
  body.stack = intField("c-stack", "The stack", {min: 1});
  body.turn_seconds = intField("c-timer", "The turn timer", {min: 0});
  const maxHands = intField("c-max-hands", "The number of hands", {min: 1, optional: true});
  if (maxHands !== null) body.max_hands = maxHands;
  const rotation = intField("c-rotation", "The hands per deal seed", {min: 1, optional: true});
  if (rotation !== null) body.seed_rotation = rotation;
  body.rebuy = input("c-rebuy").checked;
  body.listed = input("c-listed").checked;  // private unless asked (docs/protocol.md "Private tables")
  body.approval = input("c-approval").checked;
  const given = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (body));
  for (const setting of tableSettings) {  // the server checks the bounds, in its words
    if (setting.only_with && !input(`c-${setting.only_with}`).checked) continue;
    const field = input(`s-${setting.key}`);
    const raw = field.value.trim();
    if (setting.type === "int") {
      if (field.validity.badInput) throw new Error(`${setting.label} must be a whole number`);
      if (raw !== "" && Number(raw) !== setting.default) given[setting.key] = Number(raw);
    } else if (raw !== "") {
      given[setting.key] = raw;
    }
  }
  /** @type {Record<string, unknown>} */
  const rules = {};
  for (const rule of houseRules) {
    const field = input(`r-${rule.key}`);
    let value;
    if (rule.type === "bool") value = field.checked;
    else if (rule.type === "choice") value = field.value;
    else value = intField(field.id, rule.label, {min: rule.min ?? 0, optional: rule.default === null});
    if (value !== rule.default) rules[rule.key] = value;
  }
  if (Object.keys(rules).length) body.rules = rules;
  return body;
}

/**
 * Take a seat and go to the table.
 * @param {string} tableId
 * @param {string} name
 * @param {string} clientSeed the seat's seed for fair deals ("": the public default)
 * @param {string | null} [hostToken] the creator's host token: the seat is the host's own,
 *   taken at once even where joins wait for the host
 */
async function join(tableId, name, clientSeed, hostToken = null) {
  /** @type {SeatTaken} */
  const seat = await api(`/api/tables/${encodeURIComponent(tableId)}/seats`,
    {method: "POST", body: {name, client_seed: clientSeed || null}, token: hostToken});
  store.set(tokenKey(tableId), {token: seat.token, seat: seat.seat, name});
  store.set("primero.name", name);
  location.assign(`/t/${encodeURIComponent(tableId)}`);
}

/**
 * Take a seat (pass and play, the guided hand).
 * @param {string} tableId
 * @param {string} name
 * @param {string | null} [hostToken] the creator's host token (their own seat)
 * @returns {Promise<SeatTaken>}
 */
async function seatOnly(tableId, name, hostToken = null) {
  return api(`/api/tables/${encodeURIComponent(tableId)}/seats`,
    {method: "POST", body: {name, client_seed: newClientSeed()}, token: hostToken});
}

/** Pass and play: every named player takes a seat; this device keeps all the tokens.
 * @param {CreatedTable} table
 * @param {string[]} names
 */
async function passAndPlay(table, names) {
  const seats = [];
  for (const [i, name] of names.entries()) {
    const seat = await seatOnly(table.id, name, i === 0 ? table.host_token : null);
    seats.push({seat: seat.seat, token: seat.token, name});
  }
  store.set(`primero.pass.${table.id}`, seats);
  location.assign(`/t/${encodeURIComponent(table.id)}?pass`);
}

async function onLearn() {
  const error = document.getElementById("learn-error");
  error.textContent = "";
  try {
    const name = store.get("primero.name") || "Learner";
    /** @type {CreatedTable} */
    const table = await api("/api/tables", {method: "POST", body: {
      name: "First hand", seats: ["open", "heuristic", "heuristic", "heuristic"],
      turn_seconds: 0, max_hands: 1}});
    if (table.host_token) store.set(hostKey(table.id), table.host_token);
    const seat = await seatOnly(table.id, name, table.host_token);
    store.set(tokenKey(table.id), {token: seat.token, seat: seat.seat, name});
    location.assign(`/t/${encodeURIComponent(table.id)}?learn`);
  } catch (e) {
    error.textContent = e.message;
  }
}

/** The creator's name, checked before the table is made (the server checks it again
 * when the seat is taken, with the same words: docs/protocol.md "Text: names, chat, action ids"), so that a refused
 * name never leaves a table without its creator: a name of only spaces, or longer
 * than 24 characters, is refused with the reason, never cut or dropped.
 * @param {string} raw what was typed
 * @returns {string} the name without its outer spaces ("" to watch bots)
 */
function creatorName(raw) {
  const name = raw.trim();
  if (raw && !name) {
    throw new Error("Your name is only spaces: type a name of 1 to 24 characters");
  }
  const length = [...name.normalize("NFC")].length;
  if (length > 24) throw new Error(`Your name must be 1 to 24 characters, not ${length}`);
  return name;
}

/** @param {SubmitEvent} event */
async function onCreate(event) {
  event.preventDefault();
  const error = document.getElementById("create-error");
  error.textContent = "";
  try {
    const body = createBody();
    const player = creatorName(input("c-player").value);
    const others = input("c-pass").value.split(",").map((n) => n.trim()).filter(Boolean);
    if (others.length) {
      if (!player) throw new Error("Give your name too: pass and play starts with you");
      const open = body.seats.filter((s) => s === "open").length;
      if (open < others.length + 1) {
        throw new Error(`Pass and play needs ${others.length + 1} open seats: make more seats open`);
      }
      /** @type {CreatedTable} */
      const table = await api("/api/tables", {method: "POST", body});
      if (table.host_token) store.set(hostKey(table.id), table.host_token);
      await passAndPlay(table, [player, ...others]);
      return;
    }
    if (player && !body.seats.includes("open")) {
      throw new Error("Make at least one seat open for a person, or leave your name empty to watch bots");
    }
    /** @type {CreatedTable} */
    const table = await api("/api/tables", {method: "POST", body});
    // The host token is shown once: kept in this browser like a seat token.
    if (table.host_token) store.set(hostKey(table.id), table.host_token);
    if (player) await join(table.id, player, newClientSeed(), table.host_token);
    else location.assign(`/t/${encodeURIComponent(table.id)}`);
  } catch (e) {
    error.textContent = e.message;  // the server names each field by its label
  }
}

/**
 * @param {SeatOut} seat
 * @param {number} index its table seat
 * @returns {string}
 */
function seatText(seat, index) {
  const who = seat.kind === "open" ? "open seat"
    : seat.kind === "person" ? seat.name : `${seat.name} (bot: ${seat.kind})`;
  return `${index + 1}. ${who}${seat.kind === "open" ? "" : `, ${chips(seat.chips)}`}`;
}

/**
 * @param {TableSummary} table
 * @returns {HTMLLIElement}
 */
function tableItem(table) {
  const open = table.seats.filter((s) => s.kind === "open").length;
  const id = `join-${table.id}`;
  const mine = store.get(tokenKey(table.id));
  const actions = el("div", {class: "table-actions"});
  if (mine) {
    actions.append(el("a", {class: "button primary", href: `/t/${encodeURIComponent(table.id)}`},
      `Back to your seat at ${table.name}`));
  } else if (open > 0) {
    /** @type {HTMLInputElement} */
    // no maxlength: a longer name is refused by the server with the reason, never cut
    const name = el("input", {id, autocomplete: "nickname",
      value: store.get("primero.name") ?? ""});
    const error = el("span", {class: "error", role: "alert"});
    const seed = seedField(`${id}-seed`);
    const form = el("form", {class: "join", onsubmit: async (/** @type {SubmitEvent} */ event) => {
      event.preventDefault();
      error.textContent = "";
      try { await join(table.id, name.value.trim(), seed.input.value); } catch (e) { error.textContent = e.message; }
    }}, el("label", {for: id}, "Your name"), name,
    el("button", {type: "submit", class: "primary"}, `Join ${table.name}`), error, seed.box);
    actions.append(form);
  }
  actions.append(el("a", {class: "button", href: `/t/${encodeURIComponent(table.id)}`},
    `Watch ${table.name}`));
  const status = table.status === "waiting" ? `waiting for ${plural(open, "player")}`
    : table.status === "playing" ? `playing, ${plural(table.hands_played, "hand")} played`
    : table.status === "paused" ? "paused"
    : `over after ${plural(table.hands_played, "hand")}`;
  return el("li", {class: "table-item"},
    el("h3", {}, table.name), el("p", {class: "status"}, status),
    el("ul", {class: "seat-list"}, table.seats.map((s, i) => el("li", {}, seatText(s, i)))),
    fairLine(table.fair), actions);
}

async function refresh() {
  const list = document.getElementById("tables");
  const status = document.getElementById("lobby-status");
  try {
    // Only tables worth joining: yours, and those with a seat open; the others may be
    // watched from "Tables in play".
    /** @type {Record<string, number>} */
    const order = {waiting: 0, playing: 1, paused: 2, over: 3};
    const all = (/** @type {TableSummary[]} */ (await api("/api/tables")))
      .filter((t) => t.status !== "over" && t.status !== "broken")
      .sort((a, b) => (order[a.status] ?? 4) - (order[b.status] ?? 4));
    const worth = (/** @type {TableSummary} */ t) => store.get(tokenKey(t.id)) || t.seats.some((s) => s.kind === "open");
    const tables = all.filter(worth);
    const others = all.filter((t) => !worth(t));
    replace(list, tables.map(tableItem));
    const watch = document.getElementById("watch-tables");
    replace(watch, others.map(tableItem));
    document.getElementById("watch-box").hidden = !others.length;
    document.getElementById("watch-count").textContent = `Tables in play, to watch (${others.length})`;
    status.textContent = tables.length ? "" : "No table has a seat open: create one below.";
  } catch (e) {
    status.textContent = `Could not load the tables: ${e.message}`;
  }
}

async function main() {
  input("c-player").value = store.get("primero.name") ?? "";
  // the buttons that need nothing loaded answer at once (a tap before the house rules
  // arrived was lost)
  document.getElementById("refresh").addEventListener("click", refresh);
  document.getElementById("learn").addEventListener("click", onLearn);
  try {
    await loadHouseRules();
  } catch (e) {
    document.getElementById("create-error").textContent = `Could not load the house rules: ${e.message}`;
  }
  ruleFields();
  try {
    await loadTableSettings();
  } catch (e) {
    document.getElementById("create-error").textContent = `Could not load the table settings: ${e.message}`;
  }
  settingFields();
  await loadBotKinds();
  seatRows();
  document.getElementById("c-count").addEventListener("change", seatRows);
  document.getElementById("create").addEventListener("submit", onCreate);
  await refresh();
  setInterval(() => {
    const list = document.getElementById("tables");
    if (document.visibilityState === "visible" && !list.contains(document.activeElement)) refresh();
  }, 5000);
}

main();
