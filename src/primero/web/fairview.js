// @ts-check
// Fair deals on the page (docs/fair-deals.md): the commitment line of the lobby and
// the table, the client seed a seat is taken with, and "Verify this match".

import {api, el, replace} from "./common.js";
import {newClientSeed, verifyMatch} from "./fairverify.js";

/**
 * The commitment and when the seed is revealed: one line that opens on the whole
 * commitment, the revealed seed and what the reveal shows (nothing for a table
 * without fair deals).
 * @param {FairOut | null | undefined} fair
 */
export function fairLine(fair) {
  if (!fair) return el("span", {});
  const short = `${fair.commitment.slice(0, 8)}…`;
  const summary = fair.server_seed
    ? `Fair deals: the seed is revealed; check every deck under Hands (commitment ${short})`
    : `Fair deals: commitment ${short}; the seed is revealed when the match ends`;
  return el("details", {class: "fair note"},
    el("summary", {}, summary),
    el("p", {}, "Commitment (SHA-256 of the server seed): ",
      el("code", {class: "commit"}, fair.commitment)),
    fair.server_seed
      ? el("p", {}, "Revealed server seed: ", el("code", {class: "commit"}, fair.server_seed))
      : "",
    el("p", {}, fair.note));
}

/**
 * The client seed field of a join form: a random seed made here, which a person may
 * replace by their own (1 to 64 printable characters).
 * @param {string} id
 * @returns {{box: HTMLElement, input: HTMLInputElement}}
 */
export function seedField(id) {
  /** @type {HTMLInputElement} */
  const input = el("input", {id, maxlength: 64, value: newClientSeed(), spellcheck: "false",
    autocomplete: "off", class: "seed"});
  const box = el("details", {class: "seed-box"},
    el("summary", {}, "Your seed for fair deals"),
    el("p", {class: "note"}, "Mixed into every deck with the server's committed seed, so the server cannot choose the cards. Made at random here; you may type your own (up to 64 letters, digits, punctuation or spaces)."),
    el("label", {for: id}, "Client seed"), input);
  return {box, input};
}

/**
 * "Verify this match": reads the table's proof and checks every hand here, in the
 * browser (WebCrypto); the server is not asked whether its deals were fair.
 * @param {string} tableId
 */
export function verifyBox(tableId) {
  const out = el("div", {class: "verify-out", role: "status"});
  const button = el("button", {type: "button", id: "b-verify"}, "Verify this match");
  button.addEventListener("click", async () => {
    replace(out, el("p", {}, "Checking every deck in this browser…"));
    try {
      const proof = await api(`/api/tables/${encodeURIComponent(tableId)}/proof`);
      if (!proof.commitment) {
        replace(out, el("p", {}, "This table was not dealt from a commitment: nothing to verify."));
        return;
      }
      if (!proof.hands.some((/** @type {any} */ h) => h.record)) {
        replace(out, el("p", {}, proof.rotation
          ? "No seed is revealed yet: each is at the end of its hands."
          : "The server seed is not revealed yet: it is when the match ends."));
        return;
      }
      const results = await verifyMatch(proof);
      const bad = results.filter((r) => r.verdict.status === "differs").length;
      const good = results.filter((r) => r.verdict.status === "verified").length;
      replace(out,
        el("p", {class: bad ? "error" : "ok"}, bad
          ? `${bad} of ${results.length} hands did not verify.`
          : good === results.length
            ? `All ${results.length} hands verified against commitment ${proof.commitment.slice(0, 12)}…`
            : `${good} of ${results.length} hands verified; the others' seed is not revealed yet.`),
        el("ul", {class: "verify-list"}, results.map((r) =>
          el("li", {}, `Hand ${r.number}: ${r.verdict.status}: ${r.verdict.reason}`))));
    } catch (e) {
      replace(out, el("p", {class: "error"}, `Could not verify: ${e.message}`));
    }
  });
  return el("div", {class: "verify"}, button, out);
}
