// @ts-check
// The person's moves: only the legal ones, as buttons named by the server (legal.words)
// ("Bet", "Raise", "Call"/"Check", "Fold", "Exchange", "Stand pat", "Accept the bet",
// "Refuse the bet", "Declare"), amounts bounded by the legal range, the own cards
// selectable for an exchange. Sends action lines; the server decides.
import {cardButton, cardImage} from "./cards.js";
import {chips, el, plural, replace} from "./common.js";

/** @typedef {import("./tableview.js").HandInfo} HandInfo */

export class ActionPanel {
  /**
   * @param {{cards: HTMLElement, actions: HTMLElement, note: HTMLElement}} nodes
   * @param {(line: string) => void} send  proposes one action line (without the seat)
   */
  constructor(nodes, send) {
    this.nodes = nodes;
    this.send = send;
    /** @type {string[]} the cards picked for an exchange ("7h") */
    this.selected = [];
    /** @type {string | null} */
    this.key = null;  // the turn the selection belongs to
    /** @type {LegalOut | null} */
    this.legal = null;
    /** @type {HandInfo | null} */
    this.info = null;
    this.busy = false;  // a move is on its way, or the connection is down
    this.seated = false;  // the page plays a seat (with its token), dealt in or not
    /** @type {Record<string, string>} the amounts typed in this turn, by kind ("b", "r"):
     * a new state within the turn (a seat note, someone reconnecting) keeps them */
    this.typed = {};
  }

  /** Disable (or enable again) every move: from a click until the next state, and
   * while disconnected.
   * @param {boolean} busy
   */
  setBusy(busy) {
    this.busy = busy;
    /** @type {NodeListOf<HTMLButtonElement | HTMLInputElement>} */
    const moves = this.nodes.actions.querySelectorAll("button, input");
    for (const node of moves) {
      if (busy) node.disabled = true;
    }
    for (const node of this.nodes.cards.querySelectorAll("button")) node.disabled = busy;
    if (!busy && this.info) this.drawButtons();
  }

  /** The reader's chips now (for "all in").
   * @returns {number | null}
   */
  get myStack() {
    const i = this.info ? this.info.mine : null;
    return i === null || !this.info.hand ? null : this.info.hand.stacks[i];
  }

  /** Redraw for a new state (keeps the card selection within the same turn).
   * @param {HandInfo} info the state's hand
   * @param {LegalOut | null} legal the state's legal moves (null: not this seat's turn)
   * @param {string | null} turnKey names the turn (the selection is kept within it)
   */
  draw(info, legal, turnKey) {
    this.info = info;
    this.legal = legal;
    if (turnKey !== this.key) { this.selected = []; this.typed = {}; this.key = turnKey; }
    this.drawCards();
    this.drawButtons();
    if (this.busy) this.setBusy(true);
  }

  get canExchange() {
    return Boolean(this.legal && this.legal.exchange && this.legal.exchange.length
      && !(this.legal.declare && this.legal.declare.length) && !this.legal.vote);
  }

  drawCards() {
    const hand = this.info.hand ? this.info.hand.hand : [];
    const box = this.nodes.cards;
    if (!hand.length) {
      const seated = !this.info.hand ? "No cards yet: no hand has been dealt."
        : "You are not dealt in this hand.";
      replace(box, el("p", {class: "note"}, this.info.mine !== null ? "No cards in hand."
        : this.seated ? seated : "You are watching."));
      return;
    }
    if (this.canExchange) {
      const max = Math.max(...this.legal.exchange);
      replace(box, hand.map((card, i) => cardButton(card, {
        pressed: this.selected.includes(card),
        onclick: () => this.toggle(i, max),
      })));
      this.nodes.note.textContent = `Pick up to ${plural(max, "card")} to throw (keys 1–${hand.length}).`;
    } else {
      replace(box, hand.map((card) => cardImage(card, "large")));
      this.nodes.note.textContent = "";
    }
  }

  /** Forget the cards picked for an exchange. */
  clear() {
    if (!this.selected.length || !this.info) return;
    this.selected = [];
    this.drawCards();
    this.drawButtons();
  }

  /** Pick (or put back) the own card at index i, at most max cards.
   * @param {number} i
   * @param {number} [max]
   */
  toggle(i, max = 2) {
    const hand = this.info.hand.hand;
    if (!this.canExchange || i < 0 || i >= hand.length) return;
    const card = hand[i];
    if (this.selected.includes(card)) this.selected = this.selected.filter((c) => c !== card);
    else if (this.selected.length < max) this.selected = [...this.selected, card];
    this.drawCards();
    this.drawButtons();
    /** @type {HTMLElement | null} */
    const again = this.nodes.cards.querySelector(`[data-card="${card}"]`);
    if (again) again.focus();
  }

  /** A move button.
   * @param {string} label its words
   * @param {string} line the action line it proposes
   * @param {{cls?: string, key?: string | null}} [options] its class and keyboard key
   * @returns {HTMLButtonElement}
   */
  button(label, line, {cls = "", key = null} = {}) {
    return el("button", {type: "button", class: `move ${cls}`, "data-key": key,
      "aria-keyshortcuts": key, onclick: () => this.send(line)}, label);
  }

  /** The amount and its button for a bet ("b") or a raise ("r").
   * @param {"b" | "r"} kind
   * @param {number[]} range the legal [lowest, highest] amount (chips)
   * @param {string} key its keyboard key
   * @returns {HTMLFormElement}
   */
  amountControl(kind, [lo, hi], key) {
    const id = `amount-${kind}`;
    const words = this.legal.words;
    // the server names the moves: "Bet", or "Raise to" only over a bet of more than 0
    const verb = (kind === "b" ? words.bet : words.raise) ?? words.bet;
    /** @type {HTMLInputElement} */
    const input = el("input", {id, type: "number", min: lo, max: hi, step: 1, value: lo,
      inputmode: "numeric", class: "amount", "data-key": key});
    if (this.typed[kind] !== undefined) input.value = this.typed[kind];
    /** @type {HTMLButtonElement} */
    const button = el("button", {type: "submit", class: "move primary"}, `${verb} ${lo}`);
    const already = kind === "r" ? (this.info.hand.round_bets ?? [])[this.info.mine] ?? 0 : 0;
    const allIn = this.myStack !== null && hi - already >= this.myStack;
    const hint = el("small", {id: `${id}-range`}, `${lo} to ${chips(hi)}${allIn ? ` (${hi} is all in)` : ""}`);
    input.setAttribute("aria-describedby", hint.id);
    const valid = () => {
      const value = Number(input.value);
      const ok = Number.isInteger(value) && value >= lo && value <= hi && input.value !== "";
      button.disabled = !ok;
      button.textContent = ok ? `${verb} ${value}` : `${verb} (${lo} to ${hi})`;
      return ok ? value : null;
    };
    input.addEventListener("input", () => { this.typed[kind] = input.value; valid(); });
    valid();
    const form = el("form", {class: "amount-form", onsubmit: (/** @type {SubmitEvent} */ event) => {
      event.preventDefault();
      const value = valid();
      if (value !== null) this.send(`${kind} ${value}`);
    }}, el("label", {for: id}, `${verb} amount`), input, button, hint);
    return form;
  }

  drawButtons() {
    const legal = this.legal;
    const box = this.nodes.actions;
    if (!legal) { replace(box); return; }
    const parts = [];
    // every move's name is the server's (legal.words): the client words none itself
    const words = legal.words;
    if (legal.vote) {
      if (words.accept) parts.push(this.button(words.accept, "y", {cls: "primary", key: "y"}));
      if (words.refuse) parts.push(this.button(words.refuse, "n", {key: "n"}));
    } else if (legal.declare && legal.declare.length) {
      parts.push(el("p", {class: "note"}, "Declare your category (the truth or higher):"));
      for (const [k, name] of legal.declare.entries()) {
        parts.push(this.button(words.declare[k] ?? name, `dc ${name}`, {cls: k === 0 ? "primary" : "", key: k === 0 ? "d" : null}));
      }
      if (words.fold) parts.push(this.button(words.fold, "f", {key: "f"}));
    } else {
      if (this.canExchange) {
        const count = this.selected.length;
        const at = legal.exchange.indexOf(count);
        const ok = count > 0 && at >= 0;
        const exchange = el("button", {type: "button", class: "move primary", disabled: !ok,
          "data-key": "e", "aria-keyshortcuts": "e",
          onclick: () => this.send(`x ${this.selected.join(" ")}`)},
        (count && at >= 0 ? words.exchange[at] : words.pick) ?? "");
        parts.push(exchange);
        const pat = legal.exchange.indexOf(0);
        if (pat >= 0) parts.push(this.button(words.exchange[pat], "x", {key: "e"}));
      }
      if (words.check) parts.push(this.button(words.check, "b 0", {key: "c"}));
      if (legal.bet) {
        // with its own Check button, the bet starts at 1 (a bet of 0 is the check)
        const lo = words.check && legal.bet[0] === 0 ? Math.min(1, legal.bet[1]) : legal.bet[0];
        if (lo > 0 || !words.check) parts.push(this.amountControl("b", [lo, legal.bet[1]], "b"));
      }
      if (legal.raise_to) parts.push(this.amountControl("r", legal.raise_to, "r"));
      if (words.call) {
        const allIn = (legal.call ?? 0) > 0 && this.myStack !== null && (legal.call ?? 0) >= this.myStack;
        parts.push(this.button(`${words.call}${allIn ? " (all in)" : ""}`, "c", {key: "c"}));
      }
      if (words.fold) parts.push(this.button(words.fold, "f", {key: "f"}));
    }
    // a redraw within the turn keeps the focus in the amount being typed
    const focused = document.activeElement && box.contains(document.activeElement)
      ? document.activeElement.id : "";
    replace(box, parts);
    if (focused.startsWith("amount-")) {
      const again = document.getElementById(focused);
      if (again) again.focus();
    }
  }

  /** Keyboard shortcuts as in the terminal table; returns true when the key did something.
   * @param {string} key the key pressed, lower case
   * @returns {boolean}
   */
  press(key) {
    if (!this.legal) return false;
    if (/^[1-6]$/.test(key) && this.canExchange) {
      this.toggle(Number(key) - 1, Math.max(...this.legal.exchange));
      return true;
    }
    const box = this.nodes.actions;
    if (key === "e" && this.canExchange) {
      if (this.selected.length) {
        /** @type {HTMLButtonElement | null} */
        const exchange = box.querySelector("button.primary");
        if (exchange && !exchange.disabled) exchange.click();
      } else if (this.legal.exchange.includes(0)) {
        this.send("x");
      } else {
        const first = this.nodes.cards.querySelector("button");
        if (first) first.focus();
      }
      return true;
    }
    if (key === "b" || key === "r") {
      /** @type {HTMLInputElement | null} */
      const input = box.querySelector(`#amount-${key}`);
      if (input) { input.focus(); input.select(); return true; }
      return false;
    }
    /** @type {HTMLButtonElement | null} */
    const target = box.querySelector(`button[data-key="${key}"]`);
    if (target && ["c", "f", "y", "n"].includes(key)) { target.click(); return true; }
    if (target && key === "d") { target.focus(); return true; }
    return false;
  }
}
