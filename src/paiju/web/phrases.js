// @ts-check
// Quick phrases 快捷语: the hall's fixed list (src/paiju/server/phrases.py). A `say`
// names a key; every page shows the sentence in its own language (i18n "phrase.<key>"),
// the emotes as their picture.

import { t } from "./i18n.js";

export const PHRASES = ["hurry", "nice", "sorry", "thanks", "again", "bye", "well_played", "oops"];
export const EMOTES = ["emote_smile", "emote_cry", "emote_angry", "emote_thumbs"];

// What a `said` message shows: the phrase in the page's language, else the free text.
/**
 * @param {{phrase?: string, text?: string}} msg
 * @returns {string}
 */
export function saidText(msg) {
  if (msg.phrase) {
    const key = "phrase." + msg.phrase;
    const text = t(key);
    return text === key ? msg.phrase : text;
  }
  return msg.text || "";
}
