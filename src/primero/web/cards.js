// @ts-check
// Cards as SVG: four suit colours (hearts red, diamonds blue, clubs green, spades
// black) AND the suit symbol and letter, so the suit reads without colour.
import {SUITS, cardName, el, parseCard} from "./common.js";

const NS = "http://www.w3.org/2000/svg";

/**
 * An SVG element with attributes and, if given, text.
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {string} [text]
 * @returns {SVGElement}
 */
function svg(tag, attrs, text) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * The SVG picture of a card (aria-hidden: the wrapper carries the name).
 * @param {string} text a card text ("7h"), or "??" for a card's back
 * @returns {SVGElement}
 */
export function cardSvg(text) {
  const card = parseCard(text);
  const root = svg("svg", {viewBox: "0 0 60 84", class: "card-svg", "aria-hidden": "true",
    focusable: "false"});
  if (!card) {
    root.append(svg("rect", {x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-back"}));
    root.append(svg("rect", {x: 6, y: 6, width: 48, height: 72, rx: 4, class: "card-back-inner"}));
    return root;
  }
  const suit = SUITS[card.suit];
  root.classList.add(suit.cls);
  root.append(svg("rect", {x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-face"}));
  root.append(svg("text", {x: 6, y: 20, class: "card-rank"}, card.rank));
  root.append(svg("text", {x: 6, y: 36, class: "card-pip"}, suit.symbol));
  root.append(svg("text", {x: 32, y: 66, class: "card-big", "text-anchor": "middle"},
    suit.symbol));
  root.append(svg("text", {x: 54, y: 78, class: "card-letter", "text-anchor": "end"},
    card.suit.toUpperCase()));
  return root;
}

/**
 * A card to look at: role img with its name ("7 of hearts", "hidden card").
 * @param {string} text a card text ("7h") or "??"
 * @param {"tiny" | "small" | "large"} [size]
 * @returns {HTMLSpanElement}
 */
export function cardImage(text, size = "small") {
  return el("span", {role: "img", "aria-label": cardName(text), class: `card ${size}`},
    cardSvg(text));
}

/**
 * A card to select (own cards during an exchange): a toggle button named by the card.
 * @param {string} text the card ("7h")
 * @param {{pressed?: boolean, disabled?: boolean, onclick?: () => void}} options
 * @returns {HTMLButtonElement}
 */
export function cardButton(text, {pressed, disabled, onclick}) {
  // The name is the button's own (visually hidden) text, so that it matches its content.
  const button = el("button", {type: "button", class: "card large",
    "aria-pressed": pressed ? "true" : "false", disabled, onclick, "data-card": text},
  el("span", {class: "visually-hidden"}, cardName(text)), cardSvg(text));
  return button;
}
