// The table page /t/{id}: one WebSocket, state messages drawn, moves proposed.
import {ActionPanel} from "./actions.js";
import {api, el, randomId, store, tokenKey} from "./common.js";
import {Connection} from "./conn.js";
import {drawHints, drawReplay} from "./dialogs.js";
import {HandInfo, PHASES, drawLog, drawResult, drawSeats, turnText} from "./tableview.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] ?? "");
const lastKey = `primero.last.${tableId}`;

// A token in the fragment (#token=T) is kept in localStorage and taken off the address.
(function tokenFromFragment() {
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (!match) return;
  store.set(tokenKey(tableId), {token: decodeURIComponent(match[1])});
  history.replaceState(null, "", location.pathname + location.search);
})();

const app = {
  msg: null,          // the last state message
  info: new HandInfo(null, null),
  pending: null,      // {id, line, version}: an action sent, not yet answered
  sound: store.get("primero.sound") === true,
  myTurn: false,
  lastFinished: store.get(lastKey),
  reconnected: false,
  cards: {number: null, points: []},  // [log length, own cards] seen in this hand
};

function token() {
  const saved = store.get(tokenKey(tableId));
  return saved && saved.token ? saved.token : null;
}

const conn = new Connection(tableId, token, {
  onmessage: onMessage,
  onstatus: (status) => {
    if (status === "connected") app.reconnected = true;
    $("conn").textContent = {connected: "connected", connecting: "connecting…",
      missing: "no such table", refused: "refused"}[status] ?? "reconnecting…";
    if (status === "missing") $("turn").textContent = "There is no such table: see the lobby.";
    $("conn").className = `conn ${status}`;
  },
  onrefused: () => {
    store.remove(tokenKey(tableId));
    $("action-error").textContent = "The saved seat is not valid at this table; you are watching.";
    conn.reopen();
  },
});

const panel = new ActionPanel({cards: $("own-cards"), actions: $("actions"), note: $("own-note")},
  (line) => propose(line));

function propose(line, id = randomId()) {
  $("action-error").textContent = "";
  app.pending = {id, line, version: conn.version};
  if (!conn.send({type: "action", id, line, version: conn.version})) {
    $("action-error").textContent = "Not connected: the move will be sent when the connection is back.";
  }
}

function onMessage(msg) {
  if (msg.type === "state") onState(msg);
  else if (msg.type === "error") {
    if (app.pending && msg.id === app.pending.id) app.pending = null;
    $("action-error").textContent = msg.message;
  } else if (msg.type === "chat") {
    const list = $("chat-list");
    list.append(el("li", {}, el("b", {}, `${msg.from}: `), msg.text));
    while (list.children.length > 200) list.firstElementChild.remove();
    list.scrollTop = list.scrollHeight;
  } else if (msg.type === "hints") {
    drawHints($("hints-body"), msg);
  }
}

function onState(msg) {
  app.msg = msg;
  document.body.dataset.version = String(msg.version);
  const info = new HandInfo(msg.hand, msg.table);
  app.info = info;
  if (app.pending) {
    if (msg.version !== app.pending.version) app.pending = null;
    else if (msg.legal && app.reconnected) {
      // Reconnected with the move unanswered and nothing changed: send the same id again
      // (the server applies an id once).
      conn.send({type: "action", id: app.pending.id, line: app.pending.line, version: msg.version});
    }
  }
  const hand = msg.hand;
  if (hand && info.mine !== null) {  // the person's cards as the hand goes (for the replay)
    if (app.cards.number !== hand.number) app.cards = {number: hand.number, points: []};
    const points = app.cards.points;
    const last = points.at(-1);
    if (!last || last[0] !== hand.log.length) points.push([hand.log.length, hand.hand]);
  }
  if (info.over) {
    app.lastFinished = {hand: msg.hand, table: msg.table,
      cards: app.cards.number === hand.number ? app.cards.points : null};
    store.set(lastKey, app.lastFinished);
  }
  app.reconnected = false;
  draw(msg, info);
}

function draw(msg, info) {
  const table = msg.table;
  $("table-name").textContent = table.name;
  drawSeats($("seats"), table, info);
  const hand = msg.hand;
  $("pot").textContent = hand ? `Pot: ${hand.pot_total} chip${hand.pot_total === 1 ? "" : "s"}` : "";
  $("phase").textContent = hand
    ? `Hand ${hand.number ?? ""}: ${PHASES[hand.phase] ?? hand.phase}` : statusWords(table);
  $("turn").textContent = table.status === "over" ? "The match is over" : turnText(info, msg.legal);
  const turnKey = hand ? `${hand.number}:${hand.log.length}:${hand.to_act}` : null;
  panel.draw(info, msg.legal, turnKey);
  drawLog($("log"), info);
  // The last finished hand's result stays on screen while the next hand is played.
  const last = app.lastFinished;
  $("result").hidden = !last;
  if (last) {
    $("result-title").textContent = `Result of hand ${last.hand.number ?? ""}`;
    drawResult($("result-body"), new HandInfo(last.hand, last.table));
  }
  drawJoin(table, info);
  drawShare();
  const myTurn = Boolean(msg.legal);
  if (myTurn && !app.myTurn) beep();
  app.myTurn = myTurn;
  document.title = `${myTurn ? "● Your turn: " : ""}${table.name} · Primero`;
  tick();
}

function statusWords(table) {
  const open = table.seats.filter((s) => s.kind === "open").length;
  if (table.status === "waiting") return `Waiting for ${open} more player${open === 1 ? "" : "s"}`;
  return table.status === "over" ? "The match is over" : "Starting…";
}

function tick() {
  const msg = app.msg;
  const node = $("countdown");
  if (!msg || !msg.deadline || !msg.hand || app.info.over) { node.textContent = ""; return; }
  const left = Math.max(0, Math.round(msg.deadline - Date.now() / 1000));
  const who = msg.legal ? "You have" : `${app.info.nameOf(msg.hand.to_act)} has`;
  node.textContent = `${who} ${left} s`;
  node.classList.toggle("urgent", Boolean(msg.legal) && left <= 10);
}

function drawJoin(table, info) {
  const canJoin = !token() && table.status === "waiting" && table.seats.some((s) => s.kind === "open");
  $("join-box").hidden = !canJoin;
  $("mine").hidden = info.mine === null && !token();
}

function drawShare() {
  $("share-url").textContent = `${location.origin}/t/${encodeURIComponent(tableId)}`;
  const t = token();
  $("device-box").hidden = !t;
  if (t) $("device-url").textContent = `${location.origin}/t/${encodeURIComponent(tableId)}#token=${t}`;
}

function beep() {
  if (!app.sound) return;
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.3);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.3);
    osc.addEventListener("ended", () => ctx.close());
  } catch { /* no audio */ }
}

function setSound(on) {
  app.sound = on;
  store.set("primero.sound", on);
  $("b-sound").setAttribute("aria-pressed", on ? "true" : "false");
}

function openHints() {
  $("hints-body").replaceChildren(el("p", {}, "Asking the server…"));
  if (!token()) $("hints-body").replaceChildren(el("p", {}, "Hints are for a seated player."));
  else if (!conn.send({type: "hints"})) {
    $("hints-body").replaceChildren(el("p", {}, "Not connected."));
  }
  $("d-hints").showModal();
}

function openReplay() {
  drawReplay($("replay-body"), app.lastFinished);
  $("d-replay").showModal();
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  const typing = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement
    || target instanceof HTMLSelectElement;
  if (typing || document.querySelector("dialog[open]")) return;
  const key = event.key;
  let done = true;
  if (key === "Escape") { panel.clear(); return; }
  if (key === "h") openHints();
  else if (key === "?") $("d-cheat").showModal();
  else if (key === "p") openReplay();
  else if (key === "m") setSound(!app.sound);
  else done = panel.press(key.toLowerCase());
  if (done) event.preventDefault();
}

async function onJoin(event) {
  event.preventDefault();
  $("join-error").textContent = "";
  const name = $("join-name").value.trim();
  try {
    const seat = await api(`/api/tables/${encodeURIComponent(tableId)}/seats`,
      {method: "POST", body: {name}});
    store.set(tokenKey(tableId), {token: seat.token, seat: seat.seat, name});
    store.set("primero.name", name);
    conn.reopen();
  } catch (e) {
    $("join-error").textContent = e.message;
  }
}

function main() {
  $("join-name").value = store.get("primero.name") ?? "";
  $("join-form").addEventListener("submit", onJoin);
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("chat-text").value.trim();
    if (text && conn.send({type: "chat", text})) $("chat-text").value = "";
  });
  $("b-hints").addEventListener("click", openHints);
  $("b-cheat").addEventListener("click", () => $("d-cheat").showModal());
  $("b-replay").addEventListener("click", openReplay);
  $("b-sound").addEventListener("click", () => setSound(!app.sound));
  $("b-copy").addEventListener("click", async () => {
    let said = "Copy the address above by hand";
    try {
      await navigator.clipboard.writeText($("share-url").textContent);
      said = "Link copied";
    } catch { /* no clipboard outside secure contexts */ }
    $("copy-status").textContent = said;
    setTimeout(() => { $("copy-status").textContent = ""; }, 3000);
  });
  document.addEventListener("keydown", onKey);
  setSound(app.sound);
  setInterval(tick, 500);
  conn.open();
}

main();
