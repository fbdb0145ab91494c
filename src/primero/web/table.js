// @ts-check
// The table page /t/{id}: one WebSocket, state messages drawn, moves proposed.
// ?screen: the table screen for a TV in the room (the public table, large, QR codes).
import {ActionPanel} from "./actions.js";
import {api, chips, el, hostKey, plural, randomId, replace, store, tokenKey} from "./common.js";
import {Connection} from "./conn.js";
import {drawHands, drawHints} from "./dialogs.js";
import {fairLine, seedField} from "./fairview.js";
import {guideText} from "./guide.js";
import {boundSettings, copySettle, drawHost, drawLedger, restoreSettings} from "./host.js";
import {HandInfo, drawLog, drawResult, drawSeats, nextHandWords, placeOf, standings, turnText} from "./tableview.js";

/** @typedef {import("./conn.js").ServerMessage} ServerMessage */

/** The element of table.html with this id.
 * @param {string} id
 * @returns {HTMLElement}
 */
const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] ?? "");
const params = new URLSearchParams(location.search);
const screenMode = params.has("screen");
const passMode = params.has("pass");    // pass and play: several seats on this device
const learnMode = params.has("learn");  // a guided first hand against bots
const wantedSeat = params.has("seat") ? Number(params.get("seat")) : null;
const tablePath = `/t/${encodeURIComponent(tableId)}`;

// A token in the fragment (#token=T, #host=H) is kept in localStorage and taken off the
// address at once (fragments never reach a server log).
(function tokensFromFragment() {
  const seat = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  const host = /(?:^#|&)host=([^&]+)/.exec(location.hash);
  if (seat) store.set(tokenKey(tableId), {token: decodeURIComponent(seat[1])});
  if (host) store.set(hostKey(tableId), decodeURIComponent(host[1]));
  if (seat || host) history.replaceState(null, "", location.pathname + location.search);
})();

/**
 * The page's state. `lastResult.hand` is the previous hand from GET /hands/{n}
 * (server/hands_api.py, HandRecordOut); drawResult shows its `result` sentences.
 * @type {{msg: StateOut | null, info: HandInfo, pending: {id: string, line: string, version: number} | null,
 *   sound: boolean, myTurn: boolean, connected: boolean, reconnected: boolean, pot: number | null,
 *   lastResult: {number: number, hand: HandRecordOut | null} | null, passActive: number | null,
 *   wish: "sit_in" | "sit_out" | null, shareOpen: boolean, unread: number, chatSeen: boolean}}
 */
const app = {
  msg: null,          // the last state message
  info: new HandInfo(null, null),
  pending: null,      // {id, line, version}: an action sent, not yet answered
  sound: store.get("primero.sound") !== false,  // on by default; it sounds after a first interaction
  myTurn: false,
  connected: false,
  reconnected: false,
  pot: null,
  lastResult: null,   // {number, hand}: the previous hand from the server
  passActive: null,   // pass and play: the table seat shown now (null: the public view)
  wish: null,         // a sit in or sit out tapped, not yet seen in a state: sent again
                      // after a reconnection (a tap while the socket dropped is not lost)
  shareOpen: false,   // the Share / devices menu opened from the header
  unread: 0,          // chat lines come while the chat was out of sight
  chatSeen: false,    // the chat panel is on screen now
};

/** Pass and play: the seats of this device, [{seat, token, name}].
 * @returns {{seat: number, token: string, name: string}[]}
 */
function passSeats() {
  const list = store.get(`primero.pass.${tableId}`);
  return passMode && Array.isArray(list) ? list : [];
}

/** The token this page plays with (null: watching).
 * @returns {string | null}
 */
function token() {
  if (screenMode) return null;  // the table screen is public: no private cards
  if (passMode) {
    const active = passSeats().find((p) => p.seat === app.passActive);
    return active ? active.token : null;
  }
  const saved = store.get(tokenKey(tableId));
  return saved && saved.token ? saved.token : null;
}

/** @returns {string | null} the host token kept in this browser */
function hostToken() {
  return screenMode ? null : store.get(hostKey(tableId));
}

/** @returns {number | null} the table seat of this browser's token */
function savedSeat() {
  if (passMode) return app.passActive;
  const saved = store.get(tokenKey(tableId));
  return saved && Number.isInteger(saved.seat) ? saved.seat : null;
}

// A host with no seat here watches with the host token: its connection gets the join
// requests (docs/protocol.md "Private tables").
const conn = new Connection(tableId, () => token() ?? hostToken(), {
  onmessage: onMessage,
  onstatus: (status) => {
    app.connected = status === "connected";
    if (status === "connected") app.reconnected = true;
    $("conn").textContent = {connected: "connected", connecting: app.msg ? "reconnecting…" : "connecting…",
      missing: "no such table", refused: "refused"}[status] ?? "reconnecting…";
    if (status === "missing") $("turn").textContent = "There is no such table: see the lobby.";
    $("conn").className = `conn ${status}`;
    drawBusy();
  },
  onrefused: () => {
    if (!token()) store.remove(hostKey(tableId));  // a host token passed on, or wrong
    store.remove(tokenKey(tableId));
    $("action-error").textContent = "The saved seat is not valid at this table; you are watching.";
    conn.reopen();
  },
});

const panel = new ActionPanel({cards: $("own-cards"), actions: $("actions"), note: $("own-note")},
  (line) => propose(line));

/** Send a move once: the buttons stay disabled until the next state; a second click (or
 * a click on a stale screen) is absorbed here or, by its version, by the server.
 * @param {string} line the action line, without the seat
 */
function propose(line) {
  if (app.pending || !app.msg || !app.msg.legal) return;
  $("action-error").textContent = "";
  const id = randomId();
  // Kept even when it cannot go now: it is sent again (same id) after the reconnection,
  // if the table has not moved on (onState).
  app.pending = {id, line, version: app.msg.version};
  conn.send({type: "action", id, line, version: app.msg.version});
  drawBusy();
}

function drawBusy() {
  panel.setBusy(Boolean(app.pending) || !app.connected);
  // the seat's own buttons too: a tap while the connection is down would go nowhere
  for (const b of $("seat-actions").querySelectorAll("button")) b.disabled = !app.connected;
  const status = $("action-status");
  if (!app.connected && app.pending) {
    status.textContent = "Your move waits for the connection: reconnecting…";
  } else if (!app.connected && app.msg) {
    status.textContent = "Not connected: reconnecting… Your moves come back with the connection.";
  } else if (app.pending) {
    status.textContent = "Sending your move…";
  } else {
    status.textContent = "";
  }
}

/** @param {ServerMessage} msg */
function onMessage(msg) {
  if (msg.type === "state") onState(msg);
  else if (msg.type === "error") {
    const mine = app.pending && msg.id === app.pending.id;
    if (mine) app.pending = null;
    if (msg.stale) { drawBusy(); return; }  // the table moved on: the state follows
    $("action-error").textContent = msg.retry
      ? "The server could not take your move just now: try again." : msg.message;
    drawBusy();
  } else if (msg.type === "chat") {
    addChat(msg);
    if (!app.chatSeen) { app.unread += 1; drawUnread(); }
  } else if (msg.type === "chat_history") {
    replace($("chat-list"), []);  // the server's last lines replace what this page showed
    for (const line of msg.lines) addChat(line);
  } else if (msg.type === "hints") {
    drawHints($("hints-body"), msg);
  } else if (msg.type === "host_token") {
    // the host role was passed to this seat (docs/protocol.md "Passing the host role")
    store.set(hostKey(tableId), msg.token);
    if (app.msg) onState(app.msg);
  }
}

/** @param {ChatOut} msg */
function addChat(msg) {
  const list = $("chat-list");
  list.append(el("li", {}, el("b", {}, `${msg.from}: `), msg.text));
  while (list.children.length > 200) list.firstElementChild.remove();
  list.scrollTop = list.scrollHeight;
}

function drawUnread() {
  const badge = $("chat-unread");
  badge.hidden = app.unread === 0;
  badge.textContent = String(app.unread);
  $("b-chat").setAttribute("aria-label", app.unread ? `Chat, ${plural(app.unread, "unread line")}` : "Chat");
}

/** The header's Chat button: the chat comes into view, its box focused, nothing unread. */
function openChat() {
  $("chat").scrollIntoView({block: "center"});
  /** @type {HTMLInputElement} */ ($("chat-text")).focus({preventScroll: true});
  app.unread = 0;
  drawUnread();
}

/** The header's Share / devices button: the share box, even with every seat taken.
 * @param {boolean} open
 */
function openShare(open) {
  app.shareOpen = open;
  $("b-share").setAttribute("aria-expanded", String(open));
  if (app.msg) drawShare(app.msg.table);
  if (open) $("share").scrollIntoView({block: "start"});
}

/** @param {StateOut} msg */
function onState(msg) {
  const before = app.msg;
  app.msg = msg;
  document.body.dataset.version = String(msg.version);
  const info = new HandInfo(msg.hand, msg.table);
  app.info = info;
  if (app.pending) {
    if (msg.version !== app.pending.version) app.pending = null;
    else if (msg.legal && app.reconnected) {
      // Reconnected with the move unanswered and nothing changed: send the same id again
      // (the server applies an id once).
      const p = app.pending;
      conn.send({type: "action", id: p.id, line: p.line, version: p.version});
    }
  }
  if (app.wish) {
    const me = mySeatIndex(msg.table) ?? info.myTableSeat;
    const seat = me === null || me === undefined ? null : msg.table.seats[me];
    if (!seat || seat.kind !== "person" || seat.left
        || seat.sitting_out === (app.wish === "sit_out")) {
      app.wish = null;  // done (or no longer possible)
    } else if (app.reconnected) {
      conn.send({type: app.wish});  // sit in / out is the same whatever was missed
    }
  }
  app.reconnected = false;
  if (before && msg.version !== before.version) $("action-error").textContent = "";
  draw(msg, info);
  loadLastResult(msg);
  if (passMode) passTurn(msg);
  if (learnMode) drawGuide(msg);
}

/** Pass and play: between turns the device shows the public table; when a player of this
 * device is to act, a cover asks to pass it to them, and only their tap shows their cards
 * (their seat's connection). After their move the public view comes back.
 * @param {StateOut} msg
 */
function passTurn(msg) {
  const hand = msg.hand;
  const seats = passSeats();
  let next = null;
  if (hand && hand.to_act && hand.to_act.startsWith("p") && !hand.final_stacks) {
    const t = hand.table_seats[Number(hand.to_act.slice(1)) - 1];
    next = seats.find((p) => p.seat === t) ?? null;
  }
  if (app.passActive !== null && (!next || next.seat !== app.passActive) && !app.pending) {
    app.passActive = null;  // their move is made: back to the public view
    conn.reopen();
  }
  const cover = $("pass-cover");
  if (next && app.passActive !== next.seat) {
    $("pass-title").textContent = `Pass the device to ${next.name}`;
    $("pass-text").textContent = `${next.name}, tap when only you can see the screen.`;
    $("pass-show").textContent = `I am ${next.name}: show my cards`;
    $("pass-show").dataset.seat = String(next.seat);
    if (cover.hidden) { cover.hidden = false; $("pass-show").focus(); }
  } else {
    cover.hidden = true;
  }
}

/** A guided first hand: a short lesson for the moment, as `primero learn` does.
 * @param {StateOut} msg
 */
function drawGuide(msg) {
  $("guide").hidden = false;
  $("guide-text").textContent = guideText(msg);
}

/**
 * @param {StateOut} msg
 * @param {HandInfo} info
 */
function draw(msg, info) {
  const table = msg.table;
  keepSeatAndHost(msg);
  if (screenMode && table.next_table) {  // the TV follows the rematch by itself
    location.assign(`/t/${encodeURIComponent(table.next_table)}?screen`);
    return;
  }
  document.body.classList.toggle("waiting", table.status === "waiting");
  document.body.classList.toggle("over", table.status === "over");  // the TV's last layout
  $("table-name").textContent = table.name;
  drawSeats($("seats"), table, info, mySeatIndex(table));
  const hand = msg.hand;
  // a finished hand's pot was awarded (the result says to whom): no "Pot: N chips" left
  const pot = hand && !info.over ? `Pot: ${chips(hand.pot_total)}` : "";
  $("pot").textContent = pot;
  if (app.pot !== null && hand && hand.pot_total !== app.pot) flash($("pot"));
  app.pot = hand ? hand.pot_total : null;
  // once the hand is over the turn line says so (and what comes next): the number alone
  $("phase").textContent = hand && table.status === "playing"
    ? (info.over ? `Hand ${hand.number ?? ""}` : `Hand ${hand.number ?? ""}: ${hand.phase_words}`)
    : statusWords(table);
  drawStandings(table);
  const broke = isBroke(table, info);
  document.body.classList.toggle("broke", broke);  // no cards nor moves: the choices first
  $("turn").textContent = table.status === "over" ? "The match is over"
    : broke && !(info.hand && !info.over) ? (table.rebuy ? "You are out of chips" : "You are out of the match")
    : turnText(info, msg.legal);
  const turnKey = hand ? `${hand.number}:${hand.log.length}:${hand.to_act}` : null;
  panel.seated = token() !== null;  // a seat of its own: "no cards yet", not "watching"
  panel.draw(info, msg.legal, turnKey);
  drawBusy();
  const myTurn = Boolean(msg.legal);
  document.body.classList.toggle("my-turn", myTurn);
  // the fixed action bar says what the felt under it may hide (a vote is not a turn, R8)
  $("bar-info").textContent = myTurn ? `· your ${msg.legal.vote ? "vote" : "turn"} · ${pot}` : "";
  drawLog($("log"), info);
  drawResultPanel(info);
  drawJoin(table, info);
  drawShare(table);
  drawSeatBox(table, info, msg.seat_note);
  $("notice").hidden = !msg.notice;
  $("notice").textContent = msg.notice ?? "";  // the server's words: waiting, refused, removed
  drawHost(table, {h: hostToken(), tableId, hidden: screenMode || learnMode, confirmThen, goToNext,
    requests: msg.join_requests ?? [], mySeat: mySeatIndex(table)});
  drawLedger(table);
  if (myTurn && !app.myTurn) beep();
  app.myTurn = myTurn;
  document.title = `${myTurn ? "● Your turn: " : ""}${table.name} · Primero`;
  tick();
}

/** A join request accepted: the seat is this token's now (the state's `your_seat`). A host
 * token kept here while the summary's `host_seat` names another seat was passed on: it
 * no longer works, so it is forgotten (docs/protocol.md "Passing the host role").
 * @param {StateOut} msg
 */
function keepSeatAndHost(msg) {
  if (screenMode || passMode) return;
  const saved = store.get(tokenKey(tableId));
  if (saved && saved.token && msg.your_seat !== null && msg.your_seat !== undefined
      && saved.seat !== msg.your_seat) {
    store.set(tokenKey(tableId), {...saved, seat: msg.your_seat});
  }
  const hostSeat = msg.table.host_seat;
  if (hostSeat !== null && hostSeat !== undefined && hostToken() && savedSeat() !== hostSeat) {
    store.remove(hostKey(tableId));
  }
}

/**
 * @param {TableSummary} table
 * @returns {number | null} this browser's table seat
 */
function mySeatIndex(table) {
  if (!token()) return null;
  const seat = savedSeat();
  return seat !== null && seat < table.seats.length ? seat : null;
}

/**
 * @param {TableSummary} table
 * @returns {string}
 */
function statusWords(table) {
  const open = table.seats.filter((s) => s.kind === "open").length;
  if (table.status === "waiting") return `Waiting for ${open} more player${open === 1 ? "" : "s"}`;
  if (table.status === "paused") {
    if (table.paused_by === "host") return "Paused by the host";
    return table.rebuy ? "Paused until a player sits in or rebuys"
      : "Paused: waiting for a second player to sit in";
  }
  // "The match is over" is said once, in the turn line (docs/protocol.md "The match's end")
  if (table.status === "over") return `${plural(table.hands_played, "hand")} played`;
  if (table.pending === "pause") return "The host pauses after this hand";
  return "Starting…";
}

/** A short animation (none with prefers-reduced-motion: the CSS says so).
 * @param {HTMLElement} node
 */
function flash(node) {
  node.classList.remove("flash");
  void node.offsetWidth;
  node.classList.add("flash");
}

/** @param {HandInfo} info */
function drawResultPanel(info) {
  // The finished hand stays shown; during the next hand the previous one comes from the
  // server (GET /hands/{n}), never from what this browser happened to see.
  if (info.over) {
    $("result").hidden = false;
    $("result-title").textContent = `Result of hand ${info.hand.number ?? ""}`;
    drawResult($("result-body"), info.hand);
    drawBanner();
    return;
  }
  const last = app.lastResult && app.lastResult.hand ? app.lastResult : null;
  const number = info.hand ? info.hand.number - 1 : app.msg.table.hands_played;
  $("result").hidden = !(last && last.number === number);
  if (last && last.number === number) {
    $("result-title").textContent = `Result of hand ${last.number}`;
    drawResult($("result-body"), last.hand);
  }
  drawBanner();
}

/** Phones: who won the last hand, at the top (the result panel is far below there); the
 * server's own sentences, copied from the result panel. */
function drawBanner() {
  const banner = $("result-banner");
  const awards = [...$("result-body").querySelectorAll(".award")].map((p) => p.textContent);
  banner.hidden = $("result").hidden || !awards.length || screenMode;
  const text = `${$("result-title").textContent}: ${awards.join(" ")}`;
  if (!banner.hidden && banner.textContent !== text) banner.textContent = text;
}

/** @param {StateOut} msg */
async function loadLastResult(msg) {
  const number = msg.hand && !msg.hand.final_stacks ? msg.hand.number - 1 : null;
  if (!number || number < 1 || (app.lastResult && app.lastResult.number === number)) return;
  app.lastResult = {number, hand: null};
  try {
    /** @type {HandRecordOut} */
    const hand = await api(`/api/tables/${encodeURIComponent(tableId)}/hands/${number}`, {token: token()});
    app.lastResult = {number, hand};
    if (app.msg) drawResultPanel(app.info);
  } catch { app.lastResult = null; }
}

/** The final standings at the top once the match is over: every seat that played and
 * every person whose seat a bot took, most chips first (docs/protocol.md "The match's end").
 * @param {TableSummary} table
 */
function drawStandings(table) {
  const box = $("standings");
  box.hidden = table.status !== "over";
  if (box.hidden) return;
  replace($("standings-rows"), standings(table).map((row) => el("li", {}, row)));
}

function tick() {
  const msg = app.msg;
  const node = $("countdown");
  const bar = $("bar-time");  // the time left in the action bar, on your turn
  const between = msg ? nextHandWords(msg.table, mySeatIndex(msg.table), Date.now() / 1000) : "";
  if (between && (!msg.hand || app.info.over)) {
    node.textContent = between;
    node.classList.remove("urgent");
    bar.textContent = "";
    return;
  }
  if (!msg || !msg.deadline || !msg.hand || app.info.over) {
    node.textContent = bar.textContent = "";
    return;
  }
  const left = Math.max(0, Math.round(msg.deadline - Date.now() / 1000));
  const who = msg.legal ? "You have" : `${app.info.nameOf(msg.hand.to_act)} has`;
  node.textContent = `${who} ${left} s`;
  node.classList.toggle("urgent", Boolean(msg.legal) && left <= 10);
  bar.textContent = msg.legal ? `· ${left} s left` : "";
  bar.classList.toggle("urgent", Boolean(msg.legal) && left <= 10);
}

/**
 * @param {TableSummary} table
 * @param {HandInfo} info
 */
function drawJoin(table, info) {
  replace($("fair-line"), fairLine(table.fair));
  const open = table.seats.some((s) => s.kind === "open");
  const canJoin = !screenMode && !token() && open && table.status !== "over";
  $("join-box").hidden = !canJoin;
  $("mine").hidden = screenMode || (info.mine === null && !token()) || table.status === "waiting";
}

/** @param {TableSummary} table */
function drawShare(table) {
  const url = `${location.origin}${tablePath}`;
  const open = table.seats.map((s, k) => /** @type {[SeatOut, number]} */ ([s, k])).filter(([s]) => s.kind === "open");
  // Shown by itself while seats are open; at any time from the header's Share button.
  // On the TV screen a full table keeps only a small watch QR in a corner.
  // A token holds a seat only once the server says so (`your_seat`): a join request
  // waiting for the host, or refused, holds none, so no seat link nor invite is offered.
  const t = token();
  const mine = app.msg ? app.msg.your_seat : mySeatIndex(table);
  const seated = Boolean(t) && mine !== null && mine !== undefined;
  const invite = (table.status === "waiting" || open.length > 0) && (seated || !t);
  $("share").hidden = screenMode ? !invite : !invite && !app.shareOpen;
  $("b-share-close").hidden = screenMode || invite || !app.shareOpen;
  $("watch-qr").hidden = !screenMode || invite || table.status === "over";
  // the TV keeps the QR's corner free of its side column while there is a match to watch
  document.body.classList.toggle("watching", !$("watch-qr").hidden);
  $("share-title").textContent = invite ? "Invite your friends" : "Share / devices";
  $("open-seats").hidden = !invite;
  $("open-seats").textContent = open.length
    ? `${plural(open.length, "seat")} still open` : "Every seat is taken";
  $("share-url").textContent = url;
  const qr = `${tablePath}/qr.svg`;
  if ($("share-qr").getAttribute("src") !== qr) $("share-qr").setAttribute("src", qr);
  if (screenMode && $("watch-qr-img").getAttribute("src") !== qr) $("watch-qr-img").setAttribute("src", qr);
  $("screen-link").setAttribute("href", `${tablePath}?screen`);
  const key = open.map(([, k]) => k).join(",");
  const box = $("seat-qrs");
  if (screenMode && box.dataset.key !== key) {
    box.dataset.key = key;
    replace(box, open.map(([, k]) => el("figure", {class: "seat-qr"},
      el("img", {src: `${qr}?seat=${k}`, alt: `QR code to join seat ${k + 1}`, width: 150, height: 150}),
      el("figcaption", {}, `Seat ${k + 1}`))));
  }
  $("device-box").hidden = !seated;
  if (seated) $("device-url").textContent = `${url}#token=${t}`;
  const h = hostToken();
  $("host-device-box").hidden = !h;
  if (h) $("host-url").textContent = `${url}#host=${h}`;
}

/** Whether this browser's person is out of chips: a seat of theirs (not left, the match
 * not over) holding no chip and in no hand in progress (a finished hand counts as over).
 * @param {TableSummary} table
 * @param {HandInfo} info
 * @returns {boolean}
 */
function isBroke(table, info) {
  const me = mySeatIndex(table) ?? info.myTableSeat;
  if (me === null || me === undefined || !token() || screenMode) return false;
  const seat = table.seats[me];
  if (!seat || seat.kind !== "person" || seat.left || table.status === "over") return false;
  const playing = Boolean(info.hand && !info.over && info.hand.table_seats?.includes(me));
  return seat.chips === 0 && !playing;
}

/** Sit out or sit in: sent now, and again after a reconnection until a state shows it.
 * @param {"sit_in" | "sit_out"} type
 */
function sendPresence(type) {
  app.wish = type;
  conn.send({type});
}

/** Sit out, sit in, leave, rebuy; a broke person sees their place and their choices
 * (Rebuy where the table allows it, watch, Leave: no Sit out, docs/protocol.md).
 * @param {TableSummary} table
 * @param {HandInfo} info
 * @param {string | null} seatNote the state's `seat_note`: sitting out in the server's
 *   words ("You will sit out from the next hand…" while this hand is still played)
 */
function drawSeatBox(table, info, seatNote) {
  const me = mySeatIndex(table) ?? info.myTableSeat;
  const box = $("seat-box");
  if (screenMode || me === null || me === undefined || !token()) { box.hidden = true; return; }
  const seat = table.seats[me];
  box.hidden = false;
  const parts = [];
  let note = "";
  if (!seat || seat.kind !== "person") {
    note = "This seat is no longer yours: you are watching.";
  } else if (seat.left) {
    note = "You left this table: you may watch and chat.";
  } else if (table.status === "over") {
    note = "";  // said once, in the turn line; the standings are at the top
    if (table.next_table) {  // the host started a rematch: your token holds your seat there
      parts.push(el("button", {type: "button", class: "primary",
        onclick: () => goToNext(table.next_table)}, "Go to the rematch"));
    }
  } else {
    const broke = isBroke(table, info);
  document.body.classList.toggle("broke", broke);  // no cards nor moves: the choices first
    const stack = table.stack;
    if (broke) {
      const [place, ranked] = placeOf(table, me);
      note = `You are out of chips: place ${place} of ${ranked}. `
        + (table.rebuy ? `You may rebuy ${chips(stack)}, watch, or leave.` : "You may watch or leave.");
    } else if (seat.sitting_out || seat.stand_in) {
      note = seatNote ?? "";  // worded once, by the server
    }
    if (table.rebuy && seat.chips < stack) {
      parts.push(el("button", {type: "button", class: broke ? "primary" : "",
        onclick: () => conn.send({type: "rebuy"})},
      broke ? `Rebuy ${chips(stack)}` : `Top up to ${chips(stack)}`));
    }
    if (broke && (table.rebuy_wait ?? []).includes(me)) {  // the next deal waits for this choice
      parts.push(el("button", {type: "button", onclick: () => conn.send({type: "no_rebuy"})}, "Not now"));
    }
    if (table.status !== "waiting" && !broke) {  // out of chips: nothing to sit out of
      parts.push(seat.sitting_out
        ? el("button", {type: "button", class: "primary", onclick: () => sendPresence("sit_in")},
          seat.stand_in ? "Take my seat back" : "Sit in")
        : el("button", {type: "button", onclick: () => sendPresence("sit_out")}, "Sit out"));
    }
    parts.push(el("button", {type: "button", onclick: () => confirmThen(
      table.status === "waiting" ? "Give your seat up? It is open again for someone else."
        : "Leave the table for good? You keep watching; the table plays your turns in this hand by the timer's rule.",
      () => {
        conn.send({type: "leave"});
        if (table.status === "waiting") {  // the seat is open again: this browser watches
          store.remove(tokenKey(tableId));
          setTimeout(() => conn.reopen(), 300);
        }
      })}, "Leave"));
  }
  $("seat-note").textContent = note;
  box.hidden = !note && !parts.length;  // nothing to say nor to do (the match over): no empty panel
  // Buttons are replaced only when they change: a state that changes nothing here (bots
  // playing on) must not pull a button from under a finger about to tap it.
  const actions = $("seat-actions");
  const key = JSON.stringify([parts.map((b) => [b.textContent, b.className]),
    table.status, table.next_table ?? null]);
  if (actions.dataset.key !== key) {
    replace(actions, parts);
    actions.dataset.key = key;
    for (const b of parts) b.disabled = !app.connected;
  }
}

/** Ask a yes/no question; then() on yes.
 * @param {string} text
 * @param {() => void} then
 */
function confirmThen(text, then) {
  const dialog = /** @type {HTMLDialogElement} */ ($("d-confirm"));
  $("confirm-text").textContent = text;
  dialog.returnValue = "";
  dialog.addEventListener("close", () => { if (dialog.returnValue === "yes") then(); }, {once: true});
  dialog.showModal();
}

/** Follow the rematch: the same tokens hold the same seats there.
 * @param {string} nextId
 */
function goToNext(nextId) {
  const seat = store.get(tokenKey(tableId));
  if (seat) store.set(tokenKey(nextId), seat);
  const h = store.get(hostKey(tableId));
  if (h) store.set(hostKey(nextId), h);
  location.assign(`/t/${encodeURIComponent(nextId)}`);
}

function beep() {
  // On by default, but only once the person has interacted with the page (browsers'
  // autoplay rule, and no sound out of nowhere); the Sound button mutes it.
  if (!app.sound || screenMode) return;
  if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
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

/** @param {boolean} on */
function setSound(on) {
  app.sound = on;
  store.set("primero.sound", on);
  const button = $("b-sound");
  button.setAttribute("aria-pressed", on ? "true" : "false");
  button.firstChild.textContent = on ? "Sound on " : "Muted ";
}

function openHints() {
  $("hints-body").replaceChildren(el("p", {}, "Asking the server…"));
  if (!token()) $("hints-body").replaceChildren(el("p", {}, "Hints are for a seated player."));
  else if (!conn.send({type: "hints"})) {
    $("hints-body").replaceChildren(el("p", {}, "Not connected."));
  }
  /** @type {HTMLDialogElement} */ ($("d-hints")).showModal();
}

function openHands() {
  /** @type {HTMLDialogElement} */ ($("d-replay")).showModal();
  drawHands($("replay-body"), tableId, token());
}

/** @param {KeyboardEvent} event */
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
  else if (key === "?") /** @type {HTMLDialogElement} */ ($("d-cheat")).showModal();
  else if (key === "p") openHands();
  else if (key === "m") setSound(!app.sound);
  else done = !app.pending && app.connected && panel.press(key.toLowerCase());
  if (done) event.preventDefault();
}

/** The client seed this page takes a seat with (docs/fair-deals.md). */
const joinSeed = seedField("join-seed");

/** @param {SubmitEvent} event */
async function onJoin(event) {
  event.preventDefault();
  $("join-error").textContent = "";
  const name = /** @type {HTMLInputElement} */ ($("join-name")).value.trim();
  /** @type {JoinTable} */
  const body = {name};
  if (Number.isInteger(wantedSeat)) body.seat = wantedSeat;
  body.client_seed = joinSeed.input.value || null;
  try {
    // with the host token kept here, the seat is the host's own (taken at once)
    const seat = await api(`/api/tables/${encodeURIComponent(tableId)}/seats`,
      {method: "POST", body, token: hostToken()});
    store.set(tokenKey(tableId), {token: seat.token, seat: seat.seat, name});
    store.set("primero.name", name);
    conn.reopen();
  } catch (e) {
    $("join-error").textContent = e.message;
  }
}

function main() {
  if (screenMode) document.body.classList.add("screen");
  $("pass-show").addEventListener("click", () => {
    app.passActive = Number($("pass-show").dataset.seat);
    $("pass-cover").hidden = true;
    conn.reopen();
  });
  /** @type {HTMLInputElement} */ ($("join-name")).value = store.get("primero.name") ?? "";
  $("join-form").addEventListener("submit", onJoin);
  $("join-form").append(joinSeed.box);
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = /** @type {HTMLInputElement} */ ($("chat-text")).value.trim();
    if (text && conn.send({type: "chat", text})) /** @type {HTMLInputElement} */ ($("chat-text")).value = "";
  });
  $("timer-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("host-error").textContent = "";
    try {
      await api(`/api/tables/${encodeURIComponent(tableId)}`,
        {method: "PATCH", body: {turn_seconds: Number(/** @type {HTMLInputElement} */ ($("host-timer")).value)}, token: hostToken()});
    } catch (e) {
      if (app.msg) restoreSettings(app.msg.table, true);  // refused: the stored value again
      $("host-error").textContent = e.message;
    }
  });
  for (const id of ["host-pause", "host-rebuy", "host-chip-value", "host-currency"]) {
    $(id).addEventListener("input", () => { $(id).dataset.edited = "1"; });
  }
  if (!screenMode) boundSettings();
  $("settings-form").addEventListener("submit", async (event) => {
    // docs/protocol.md "Between hands", "Settling up": the host's PATCH
    event.preventDefault();
    $("host-error").textContent = "";
    const value = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id)).value.trim();
    /** @type {Record<string, number | string>} */
    const body = {hand_pause_seconds: Number(value("host-pause")),
      chip_value: value("host-chip-value"), currency: value("host-currency")};
    if (app.msg && app.msg.table.rebuy) body.rebuy_seconds = Number(value("host-rebuy"));
    try {
      await api(`/api/tables/${encodeURIComponent(tableId)}`, {method: "PATCH", body, token: hostToken()});
      for (const id of ["host-pause", "host-rebuy", "host-chip-value", "host-currency"]) delete $(id).dataset.edited;
    } catch (e) {
      if (app.msg) restoreSettings(app.msg.table, false);  // refused: the stored values again
      $("host-error").textContent = e.message;
    }
  });
  $("b-settle-copy").addEventListener("click", copySettle);
  $("b-hints").addEventListener("click", openHints);
  $("b-cheat").addEventListener("click", () => /** @type {HTMLDialogElement} */ ($("d-cheat")).showModal());
  $("b-replay").addEventListener("click", openHands);
  $("b-sound").addEventListener("click", () => setSound(!app.sound));
  $("b-share").addEventListener("click", () => openShare(!app.shareOpen));
  $("b-share-close").addEventListener("click", () => openShare(false));
  $("b-chat").addEventListener("click", openChat);
  // Phones: the page keeps the action bar's height free under the table (style.css).
  new ResizeObserver(() => {
    document.body.style.setProperty("--bar-h", `${Math.ceil($("mine").getBoundingClientRect().height)}px`);
  }).observe($("mine"));
  new IntersectionObserver((entries) => {
    app.chatSeen = entries.some((e) => e.isIntersecting);
    if (app.chatSeen && app.unread) { app.unread = 0; drawUnread(); }
  }).observe($("chat-list"));
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
