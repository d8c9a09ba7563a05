// @ts-check
// The message line beside the hand: reasons, hints and notices about the viewer's own
// play, kept out of the felt; and the server's `error` answers, shown there.
// Exports: showMessage, renderMessage, onError.

import { reasonText } from "./text.js";

/** @typedef {import("./state.js").Table} Table */

/**
 * Show `text` (null: clear). kind: "error" (a refused action or selection), "hint"
 * (nothing beats …), "info". A message about the raised cards goes when they change
 * (`selection`); others after `ms`.
 * @param {Table} tb
 * @param {string | null} text
 * @param {string} [kind]
 * @param {{ms?: number, selection?: string | null}} opts
 */
export function showMessage(tb, text, kind = "info", { ms = 0, selection = null } = {}) {
  const { S, U } = tb;
  clearTimeout(S.msgTimer);
  S.msg = text ? { text, kind, selection, turn: U() ? U().turn : null } : null;
  if (S.msg && ms) S.msgTimer = setTimeout(() => showMessage(tb, null), ms);
  renderMessage(tb);
}

/** @param {Table} tb */
export function renderMessage(tb) {
  const { msgLine, controls } = tb.dom;
  const m = tb.S.msg;
  msgLine.textContent = m ? m.text : "";
  msgLine.className = "table-message" + (m ? " " + m.kind : " hidden");
  msgLine.dataset.kind = m ? m.kind : "";
  controls.classList.toggle("has-message", !!m);
}

/**
 * The server's `error`: a refused action in the message line; a refused check is never
 * shown (an older server without `check`: the view's legal actions judge the selection).
 * @param {Table} tb
 * @param {any} msg
 */
export function onError(tb, msg) {
  const { S, currentSelection } = tb;
  S.buryQueue = [];
  const unknownType = /unknown message type/.test(String(msg.error || ""));
  if (msg.reply_to === "check" || (unknownType && S.checkSent.size)) {
    if (unknownType) S.checkUnsupported = true;
    for (const [, sent] of S.checkSent) if (sent.reply) sent.reply(null);
    S.checkSent.clear();
    tb.refreshSelection();
    return;
  }
  const played = msg.reply_to === "act" && S.lastAct ? S.lastAct.selection : null;
  if (played && played !== currentSelection()) return; // about cards no longer raised
  showMessage(tb, reasonText(msg.code, msg.params, msg.error, tb.seatText), "error", { selection: currentSelection() });
}
