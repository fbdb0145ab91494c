// @ts-check
// The hints (exact odds computed on the server from this seat's view only) and the
// hands of the match, from the server, step by step.
import {cardImage} from "./cards.js";
import {api, cardShort, el, plural, replace} from "./common.js";
import {verifyBox} from "./fairview.js";

/**
 * The answer to a `hints` message (built by primero.play.hints.seat_hints on the
 * server; it has no Pydantic model): the odds of each exchange choice and of a showdown
 * now, from this seat's view only.
 * @typedef {{type: "hints", version: number, note: string | null,
 *   exchange: null | {second_deal: boolean, unseen: number, now: boolean, keep: string | null,
 *     categories: string[], choices: {discard: string[], probabilities: number[],
 *       expected_points: number, win: number, best: boolean, allowed: boolean}[]},
 *   showdown: null | {opponents: number, win: number, tie: number, exact: boolean,
 *     trials: number}}} HintsMessage
 */

/**
 * 0.42 -> "42%", small values with one decimal, 0 -> "·" (as the terminal table).
 * @param {number} p a probability, 0..1
 * @returns {string}
 */
export function percent(p) {
  if (p <= 0) return "·";
  if (p < 0.0005) return "<0.1%";
  if (p < 0.1) return `${(p * 100).toFixed(1)}%`;
  return `${Math.round(p * 100)}%`;
}

/**
 * Draw a `hints` message (docs/protocol.md) into box.
 * @param {HTMLElement} box
 * @param {HintsMessage} msg
 */
export function drawHints(box, msg) {
  const parts = [el("p", {}, "Exact odds from your own cards and your own discards only.")];
  if (msg.note) parts.push(el("p", {class: "note"}, msg.note));
  const ex = msg.exchange;
  if (ex) {
    if (ex.second_deal) {
      parts.push(el("p", {class: "note"}, "With 2 cards each choice is followed by the second deal (R4.4)."));
    }
    const head = el("tr", {}, el("th", {scope: "col"}, "throw"),
      ex.categories.map((c) => el("th", {scope: "col"}, c.slice(0, 3))),
      el("th", {scope: "col"}, "pts"), el("th", {scope: "col"}, "win"));
    const rows = ex.choices.map((choice) => {
      const label = choice.discard.length
        ? choice.discard.map(cardShort).join(" ")
        : (ex.keep ?? (ex.second_deal ? "keep both" : "keep all"));
      const row = el("tr", {class: `${choice.best ? "best" : ""} ${choice.allowed ? "" : "dim"}`},
        el("th", {scope: "row"}, `${choice.best ? "★ " : ""}${label}`),
        choice.probabilities.map((p) => el("td", {}, percent(p))),
        el("td", {}, choice.expected_points.toFixed(1)), el("td", {}, percent(choice.win)));
      return row;
    });
    parts.push(el("div", {class: "scroll-x"}, el("table", {class: "odds"},
      el("caption", {}, `Every exchange choice (${plural(ex.unseen, "unseen card")})`),
      el("thead", {}, head), el("tbody", {}, rows))));
    parts.push(el("p", {class: "note"},
      "★ best choice. win = chance to beat one random hand of the cards you have not seen, ties half."));
  }
  const sd = msg.showdown;
  if (sd) {
    parts.push(el("p", {}, `Showdown now against ${plural(sd.opponents, "random hand")}: win ${percent(sd.win)}, tie ${percent(sd.tie)} (${sd.exact ? "exact" : `estimate, ${sd.trials} deals`})`));
  }
  replace(box, parts);
}

/**
 * The hands of the match from the server (GET /api/tables/{id}/hands, then
 * /hands/{n} with the seat's token: the same after a reload, on a new device, after
 * being away). Opens on the last hand; any hand can be picked and stepped through.
 * @param {HTMLElement} box
 * @param {string} tableId
 * @param {string | null} token the seat's token (null: the public view)
 */
export async function drawHands(box, tableId, token) {
  replace(box, el("p", {role: "status"}, "Asking the server…"));
  const base = `/api/tables/${encodeURIComponent(tableId)}/hands`;
  /** @type {HandSummaryOut[]} */
  let list;
  try {
    list = await api(base);
  } catch (e) {
    replace(box, el("p", {class: "error"}, `Could not load the hands: ${e.message}`));
    return;
  }
  if (!list.length) {
    replace(box, el("p", {}, "No hand has finished at this table yet."));
    return;
  }
  const select = el("select", {id: "hand-pick"},
    list.map((h) => el("option", {value: String(h.number)}, `Hand ${h.number}`)));
  select.value = String(list.at(-1).number);
  const view = el("div", {class: "hand-view"});
  const load = async () => {
    try {
      /** @type {HandRecordOut} */
      const hand = await api(`${base}/${select.value}`, {token});
      drawSteps(view, hand);
    } catch (e) {
      replace(view, el("p", {class: "error"}, `Could not load hand ${select.value}: ${e.message}`));
    }
  };
  select.addEventListener("change", load);
  replace(box, el("div", {class: "field inline"}, el("label", {for: "hand-pick"}, "Hand"), select),
    verifyBox(tableId), view);
  await load();
}

/**
 * One hand from the server, step by step: its sentences, the reader's cards at each
 * step (own_cards), then the hands shown and the chips after.
 * @param {HTMLElement} box
 * @param {HandRecordOut} hand
 */
export function drawSteps(box, hand) {
  const words = hand.events;
  const actions = hand.own_cards.length;
  let step = words.length;
  const list = el("ol", {class: "log-list replay-list", tabindex: 0, "aria-label": "The hand so far"});
  const where = el("p", {role: "status", class: "note"});
  const extra = el("div");
  const mine = el("p", {class: "replay-mine"});
  const show = () => {
    replace(list, words.slice(0, step).map((w) => el("li", {}, w)));
    where.textContent = `Step ${step} of ${words.length}`;
    const held = hand.seat && step > 0 ? hand.own_cards[Math.min(step, actions) - 1] : null;
    if (!held) replace(mine);
    else replace(mine, "Your cards at this step: ", held.length ? held.map((c) => cardImage(c, "small")) : "none");
    if (step === words.length) {
      const rows = [];
      for (const [i, shown] of (hand.shown ?? []).entries()) {
        if (shown) {
          rows.push(el("li", {}, `${hand.players[i]}: ${shown.words} `,
            shown.cards.map((c) => cardImage(c, "tiny"))));
        }
      }
      replace(extra, rows.length ? el("ul", {class: "shown-list"}, rows) : "",
        el("p", {}, "Chips after: ", hand.players.map((n, i) => `${n} ${hand.final_stacks[i]}`).join(", ")));
    } else {
      replace(extra);
    }
    requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
  };
  const go = (/** @type {number} */ delta) => () => { step = Math.max(0, Math.min(words.length, step + delta)); show(); };
  replace(box, el("p", {}, `Hand ${hand.number}`),
    el("div", {class: "replay-controls"},
      el("button", {type: "button", onclick: () => { step = 0; show(); }}, "Start"),
      el("button", {type: "button", onclick: go(-1)}, "Step back"),
      el("button", {type: "button", onclick: go(1)}, "Step forward"),
      el("button", {type: "button", onclick: () => { step = words.length; show(); }}, "End")),
    where, mine, list, extra);
  show();
}
