// @ts-check
// The guided first hand (/t/{id}?learn): a short lesson for each moment of the hand, as
// `primero learn` gives in the terminal. Reads only the state message (this seat's view).
import {chips} from "./common.js";

/** The lesson for the moment of `msg` (a state message) and `info` (its HandInfo).
 * @param {StateOut} msg
 * @param {import("./tableview.js").HandInfo} info
 * @returns {string}
 */
export function guideText(msg, info) {
  const hand = msg.hand;
  const legal = msg.legal;
  let text;
  if (!hand) text = "Welcome to Primero, the Renaissance ancestor of poker: 40 cards (no 8, 9 or 10). Everyone puts an ante of 1 chip in the pot, then the dealer gives two cards each.";
  else if (info.over) text = "The showdown: the best category wins (chorus, fluxus, supremus, primero, numerus), then the most points. The log says who won what; p shows the whole hand again.";
  else if (legal && legal.vote) text = "Someone bet: with three or more players in, the others vote in turn. Accept lets the bet stand; if everyone refuses, it is withdrawn and the bettor must bet less (R8).";
  else if (legal && legal.declare && legal.declare.length) text = "Declare a category: the true one or a higher one (a bluff), never lower. The buttons list what you may declare; the first is the truth (R6).";
  else if (legal && hand.phase === "first_round" && legal.exchange.length) text = "First round: bet at least 1 chip, or exchange one or two cards for new ones (pick them, then Exchange). Once someone bets nobody may exchange any more. Card points: 7 = 21, 6 = 18, A = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12, faces 10.";
  else if (legal && legal.exchange.length) text = "Second exchange: throw 0, 1 or 2 cards (Stand pat keeps them all). Press h for the exact odds of each choice.";
  else if (legal && legal.call !== null && legal.call > 0) text = `A bet stands: call it (match ${chips(legal.call)}), raise, or fold and lose what you put in.`;
  else if (legal) text = "Your turn to bet: check (a bet of 0 where allowed) or bet chips. Higher categories beat lower ones whatever the points.";
  else if (hand.phase === "second_deal" || hand.phase === "declare_round") text = "Two more cards each: your four cards now make a category. Chorus (four of a rank) beats fluxus (four of a suit), then supremus, primero (one of each suit), numerus.";
  else text = `${info.nameOf(hand.to_act)} is thinking. Watch the seats: each shows its last move.`;
  return text;
}
