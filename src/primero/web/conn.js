// @ts-check
// One WebSocket to /ws/tables/{id}: reconnects by itself with back-off, resyncs from
// the last version seen after a drop, a laptop sleep or the network coming back.
// A heartbeat finds a socket that died silently: a `ping` every PING_MS; when two in a
// row get no answer (nor any other message), or the browser goes offline, the socket is
// dropped and opened again (docs/protocol.md).

/** Milliseconds between two pings. */
export const PING_MS = 10000;
/** Pings in a row left unanswered before the socket counts as dead. */
export const PINGS_MISSED = 2;

/** A message from the server: a state, an error, a chat line, or the answer to `hints`
 * (built in server/hints.py, no Pydantic model: typed in dialogs.js, read by drawHints).
 * @typedef {StateOut | ErrorOut | ChatOut | ChatHistoryOut | HostTokenOut | import("./dialogs.js").HintsMessage} ServerMessage
 */

export class Connection {
  /**
   * @param {string} tableId
   * @param {() => string|null} token  the seat's token, or null to watch
   * @param {{onmessage: (msg: ServerMessage) => void, onstatus: (status: string) => void,
   *          onrefused: () => void}} handlers
   */
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.version = null;
    this.socket = null;
    this.delay = 500;
    this.timer = null;
    this.closed = false;
    this.unanswered = 0;  // pings sent since the last message from the server
    window.addEventListener("online", () => this.wake());
    window.addEventListener("offline", () => this.drop());
    setInterval(() => this.beat(), PING_MS);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.wake();
    });
    // A socket that looks open after a sleep may be dead: ask for a resync now and then.
    setInterval(() => this.wake(), 30000);
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const token = this.token();
    const query = token ? `?token=${encodeURIComponent(token)}` : "";
    return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}${query}`;
  }

  open() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.socket && this.socket.readyState <= WebSocket.OPEN) return;
    this.handlers.onstatus("connecting");
    const socket = new WebSocket(this.url());
    this.socket = socket;
    this.unanswered = 0;
    socket.addEventListener("open", () => {
      this.delay = 500;
      this.unanswered = 0;
      this.handlers.onstatus("connected");
      if (this.version !== null) this.send({type: "resync", since: this.version});
    });
    socket.addEventListener("message", (event) => {
      if (this.socket !== socket) return;  // dropped: its late frames are not the table's
      this.unanswered = 0;  // any frame shows the socket is alive
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg && msg.type === "pong") return;
      if (msg && msg.type === "state" && typeof msg.version === "number") {
        if (this.version !== null && msg.version < this.version) return;  // stale
        this.version = msg.version;
      }
      this.handlers.onmessage(msg);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closed) return;
      if (event.code === 1008 && this.version === null) {
        // Refused before any state: a token that is not a seat here, or no such table.
        if (this.token()) this.handlers.onrefused();
        else this.handlers.onstatus(event.reason === "no such table" ? "missing" : "refused");
        return;
      }
      this.handlers.onstatus("disconnected");
      this.timer = setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 10000);
    });
  }

  /** The heartbeat: a ping, or, after PINGS_MISSED beats with no answer, a reconnection
   * (a socket still connecting after as long counts as dead too: a connection attempt on
   * a bad network may hang without ever failing). */
  beat() {
    if (this.closed || !this.socket) return;
    if (this.unanswered >= PINGS_MISSED) { this.drop(); return; }
    this.unanswered += 1;
    if (this.socket.readyState === WebSocket.OPEN) this.send({type: "ping"});
  }

  /** The socket is taken for dead (no pong, or the browser offline): say so at once and
   * open another (with the back-off: offline, the attempts fail until the network is back,
   * and the `online` event tries at once). */
  drop() {
    if (this.closed) return;
    const old = this.socket;
    this.socket = null;
    this.unanswered = 0;
    if (old) { try { old.close(); } catch { /* already closed */ } }
    this.handlers.onstatus("disconnected");
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), this.delay);
    this.delay = Math.min(this.delay * 2, 10000);
  }

  /** Reconnect now if down; if up, ask for a resync (cheap, and catches dead sockets). */
  wake() {
    if (this.closed) return;
    if (!this.socket) { this.delay = 500; this.open(); return; }
    if (this.socket.readyState === WebSocket.OPEN && this.version !== null) {
      this.send({type: "resync", since: this.version});
    }
  }

  /** Reopen with another token (after joining). */
  reopen() {
    const old = this.socket;
    this.socket = null;
    this.version = null;
    if (old) old.close();
    this.open();
  }

  /**
   * Send a message to the server (docs/protocol.md); false when not connected.
   * @param {ActionIn | ResyncIn | ChatIn | HintsIn | SitOutIn | SitInIn | LeaveIn | RebuyIn | NoRebuyIn | PingIn} msg
   * @returns {boolean}
   */
  send(msg) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(msg));
    return true;
  }

  get isOpen() {
    return Boolean(this.socket && this.socket.readyState === WebSocket.OPEN);
  }
}
