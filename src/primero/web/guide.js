// @ts-check
// The guided first hand (/t/{id}?learn): a short lesson for each moment of the hand, as
// `primero learn` gives in the terminal. The lesson is the server's (the state message's
// `guide`, made by primero.play.lessons.guide_text): the client words none itself.

/** The lesson for the moment of `msg` (a state message).
 * @param {StateOut} msg
 * @returns {string}
 */
export function guideText(msg) {
  return msg.guide ?? "";
}
