// @ts-check
// Is the raised selection a legal play? The server's `check` (asked, debounced, as the
// cards are raised) and its answers; 提示 hints, which raise what the server suggests;
// playing the raised cards (refused at once when the server said they are not legal).
// Exports: scheduleCheck, sendCheck, onCheck, selectionLegal, onHint, playRaised.

import * as C from "../cards.js";
import * as G from "../games/rules.js";
import { t } from "../i18n.js";
import { showMessage } from "./message.js";
import { declareLabel, paramText, reasonText } from "./text.js";

/** @typedef {import("./state.js").Table} Table */

/**
 * Ask the server (debounced) whether the raised cards are a legal play now.
 * @param {Table} tb
 */
export function scheduleCheck(tb) {
  const { S, U, V } = tb;
  clearTimeout(S.checkTimer);
  const v = V();
  const sel = tb.currentSelection();
  if (S.checkUnsupported || !sel || !v || v.phase !== "play" || !tb.isMyTurn()) return;
  const turn = U().turn;
  if (S.check && S.check.action === sel && S.check.turn === turn) return;
  for (const sent of S.checkSent.values()) if (!sent.reply && sent.action === sel && sent.turn === turn) return;
  S.checkTimer = setTimeout(() => sendCheck(tb, sel, turn), 80);
}

/**
 * Send a `check`; `then(answer | null)` is called with the answer (null: no answer possible).
 * @param {Table} tb
 * @param {string} action
 * @param {number} turn
 * @param {((answer: any) => void) | null} [then]
 */
export function sendCheck(tb, action, turn, then = null) {
  const { S } = tb;
  const id = "c" + ++S.checkSeq;
  /** @type {Record<string, unknown>} */
  const msg = { type: "check", action, id };
  if (Number.isInteger(turn)) msg.turn = turn;
  S.checkSent.set(id, { action, turn, reply: then });
  if (!tb.send(msg, true)) {
    S.checkSent.delete(id);
    if (then) then(null);
  }
}

/**
 * The server's answer to a `check`.
 * @param {Table} tb
 * @param {any} msg
 */
export function onCheck(tb, msg) {
  const { S, U } = tb;
  const sent = S.checkSent.get(msg.id);
  if (!sent) return;
  S.checkSent.delete(msg.id);
  if (sent.reply) {
    sent.reply(msg);
    return;
  }
  if (!U() || U().turn !== sent.turn || tb.currentSelection() !== sent.action) return; // an old selection
  const { ok, code, params, error } = msg;
  S.check = { action: sent.action, turn: sent.turn, ok: !!ok, code, params, error };
  tb.refreshSelection();
}

/**
 * The server's word on the raised cards now: true / false, or null while it is not known.
 * @param {Table} tb
 * @returns {boolean | null}
 */
export function selectionLegal(tb) {
  const { S, U } = tb;
  const sel = tb.currentSelection();
  if (!sel || !tb.isMyTurn()) return false;
  if (S.checkUnsupported) return G.isLegalSelection(tb.game(), S.hand, S.raised, tb.V(), tb.legal());
  const c = S.check;
  if (c && c.action === sel && U() && c.turn === U().turn) return c.ok;
  return null;
}

/**
 * 提示: raise what the server suggests (every press at a turn the next suggestion, the
 * server cycles); never act. Nothing beats: say so and raise nothing.
 * @param {Table} tb
 * @param {any} msg
 */
export function onHint(tb, msg) {
  const { S } = tb;
  if (msg.passed) {
    // 提示无则PASS: the server passed for us
    S.raised = [];
    tb.refreshSelection();
    showMessage(tb, t("hint_passed"), "hint", { selection: "" });
    return;
  }
  if (!tb.isMyTurn()) return;
  const action = String(msg.action || "");
  const v = tb.V();
  const turn = tb.U().turn;
  if (msg.pass || action === "pass" || !action) {
    S.raised = [];
    tb.refreshSelection();
    showMessage(tb, t("hint_nothing_beats"), "hint", { selection: "" });
    return;
  }
  if (action === "yield" || action === "no" || action.startsWith("declare ")) {
    const what = action === "yield" ? t("act_yield") : declareLabel(action);
    showMessage(tb, t("hint_suggests", { action: what }), "hint", { selection: tb.currentSelection() });
    return;
  }
  let idx = Array.isArray(msg.cards) && msg.cards.length ? indicesOf(tb, msg.cards) : null;
  if (idx === null && action.startsWith("bury ")) {
    // an older server: one card to bury per hint, added to what is raised
    const i = S.hand.findIndex((c, k) => c === action.slice(5).trim() && !S.raised.includes(k));
    idx = i >= 0 ? C.normalize(S.hand, [...S.raised, i]) : null;
  }
  if (idx === null && !action.startsWith("bury ")) idx = C.matchPlay(S.hand, action, [v && v.called]);
  if (idx === null) {
    showMessage(tb, t("hint_suggests", { action: paramText(action) }), "hint");
    return;
  }
  S.raised = C.normalize(S.hand, idx);
  S.anchor = null;
  // the server suggested it: a legal play at this turn (a check confirms it anyway)
  if (v && v.phase === "play") S.check = { action: tb.currentSelection(), turn, ok: true, code: null, params: {} };
  if (msg.count > 1) {
    showMessage(tb, t("hint_n_of", { i: (msg.index ?? 0) + 1, n: msg.count }), "hint", { selection: tb.currentSelection() });
  } else if (S.msg && S.msg.kind !== "info") showMessage(tb, null);
  tb.refreshSelection();
}

/**
 * Hand indices of exactly these card texts (a multiset), or null when the hand lacks one.
 * @param {Table} tb
 * @param {string[]} cards
 * @returns {number[] | null}
 */
function indicesOf(tb, cards) {
  const { S, V } = tb;
  const used = new Set();
  for (const c of cards) {
    const i = S.hand.findIndex((x, k) => !used.has(k) && x === c);
    if (i < 0) return C.matchPlay(S.hand, cards.join(" "), [V() && V().called]);
    used.add(i);
  }
  return [...used].sort((a, b) => a - b);
}

/**
 * Play the raised cards: refused at once (with the reason) when the server said they
 * are not a legal play; while its answer is awaited the server judges the act itself.
 * @param {Table} tb
 */
export function playRaised(tb) {
  const { S } = tb;
  const { msgLine } = tb.dom;
  if (!tb.isMyTurn()) return;
  const text = tb.currentSelection();
  if (!text) {
    showMessage(tb, t("select_cards_first"), "hint", { selection: "" });
    return;
  }
  if (selectionLegal(tb) === false) {
    const c = S.check;
    const why = c ? reasonText(c.code, c.params, c.error, tb.seatText) : t("reason.illegal");
    showMessage(tb, why, "error", { selection: text });
    msgLine.classList.remove("flash");
    void msgLine.offsetWidth; // restart the flash
    msgLine.classList.add("flash");
    return;
  }
  tb.act(text);
}
