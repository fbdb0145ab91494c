// @ts-check
// Shared helpers for the lobby and the table: DOM building (text only through
// textContent, never as HTML), card names, storage. Moves in words come from the server
// (`events`): the client never parses record lines.

/**
 * Build an element: el("p", {class: "x", "aria-label": "y"}, "text", child, ...).
 * @param {string} tag the element's tag name
 * @param {Record<string, any>} [attrs] attributes; "class", "value" and on... handlers too
 * @param {...any} children strings, numbers, nodes or arrays of them (null skipped)
 * @returns {any} the element (any: callers read the properties of its tag)
 */
export function el(tag, attrs = {}, ...children) {
  /** @type {any} */
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "value") node.value = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

/**
 * Append children (strings and numbers become text nodes; null, undefined, false skipped).
 * @template {Element} T
 * @param {T} node
 * @param {any[]} children strings, numbers, nodes or (nested) arrays of them
 * @returns {T} node
 */
export function append(node, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number"
      ? document.createTextNode(String(child)) : child);
  }
  return node;
}

/**
 * Replace all children of node.
 * @template {Element} T
 * @param {T} node
 * @param {...any} children as for {@link append}
 * @returns {T} node
 */
export function replace(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

/** @type {Record<string, {name: string, symbol: string, cls: string}>} each suit letter's
 * name, symbol and CSS class */
export const SUITS = {
  c: {name: "clubs", symbol: "♣", cls: "clubs"},
  d: {name: "diamonds", symbol: "♦", cls: "diamonds"},
  h: {name: "hearts", symbol: "♥", cls: "hearts"},
  s: {name: "spades", symbol: "♠", cls: "spades"},
};
/** @type {Record<string, string>} */
const RANK_NAMES = {A: "ace", J: "jack", Q: "queen", K: "king"};

/**
 * Parse a card text ("7h", "Kc") into {rank, suit}; null for "??" or bad text.
 * @param {unknown} text
 * @returns {{rank: string, suit: string} | null} the rank ("A", "7", "K") and suit ("h")
 */
export function parseCard(text) {
  if (typeof text !== "string" || text.length !== 2) return null;
  const rank = text[0].toUpperCase();
  const suit = text[1].toLowerCase();
  if (!"A234567JQK".includes(rank) || !(suit in SUITS)) return null;
  return {rank, suit};
}

/**
 * The accessible name of a card: "7 of hearts", "ace of spades", "hidden card".
 * @param {unknown} text a card text ("7h") or "??"
 * @returns {string}
 */
export function cardName(text) {
  const card = parseCard(text);
  if (!card) return "hidden card";
  return `${RANK_NAMES[card.rank] ?? card.rank} of ${SUITS[card.suit].name}`;
}

/**
 * A card as short text with its suit symbol: "7♥"; "??" stays.
 * @param {unknown} text a card text ("7h") or "??"
 * @returns {string}
 */
export function cardShort(text) {
  const card = parseCard(text);
  return card ? card.rank + SUITS[card.suit].symbol : "??";
}

/**
 * "1 chip", "2 chips": a count and its word, plural unless it is 1.
 * @param {number} n
 * @param {string} word the singular
 * @returns {string}
 */
export function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * A number of chips in words: "1 chip", "12 chips".
 * @param {number} n chips
 * @returns {string}
 */
export function chips(n) {
  return plural(n, "chip");
}

/** localStorage that never throws (private modes, disabled storage). */
export const store = {
  /**
   * @param {string} key
   * @returns {any} the value kept as JSON, or null
   */
  get(key) {
    try { return JSON.parse(localStorage.getItem(key)); } catch { return null; }
  },
  /**
   * @param {string} key
   * @param {unknown} value kept as JSON
   */
  set(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* no storage */ }
  },
  /** @param {string} key */
  remove(key) {
    try { localStorage.removeItem(key); } catch { /* no storage */ }
  },
};

/**
 * The localStorage key of this browser's seat token at a table.
 * @param {string} tableId
 * @returns {string}
 */
export function tokenKey(tableId) {
  return `primero.seat.${tableId}`;
}

/**
 * Where the host token of a table is kept (like a seat token).
 * @param {string} tableId
 * @returns {string}
 */
export function hostKey(tableId) {
  return `primero.host.${tableId}`;
}

/** A random action id (works outside secure contexts too).
 * @returns {string} 32 hex digits
 */
export function randomId() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * fetch JSON from the server's own API; throws Error(detail) on a bad answer.
 * @param {string} path the API path ("/api/tables")
 * @param {{method?: string, body?: any, token?: string}} [options] the method; a body
 *   sent as JSON; a host token sent as `Authorization: Bearer`
 * @returns {Promise<any>} the answer's JSON (null for an empty body)
 */
export async function api(path, options = {}) {
  /** @type {Record<string, string>} */
  const headers = {"Content-Type": "application/json"};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  /** @type {RequestInit} */
  const init = {method: options.method ?? "GET", headers};
  if (options.body !== undefined) init.body = JSON.stringify(options.body);
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch { /* empty body */ }
  if (!response.ok) {
    const detail = data && data.detail;
    const message = typeof detail === "string" ? detail
      : Array.isArray(detail) ? detail.map((d) => d.msg ?? String(d)).join("; ")
      : `the server answered ${response.status}`;
    throw new Error(message);
  }
  return data;
}
