// @ts-check
// The hall ending this page's place at the table: {"type": "closed"} just before it closes
// the socket (an administrator's kick, the session ended, the room closed), or those close
// codes alone; the page says why in the banner and never reconnects after it. And
// {"type": "notice", "code": "unseated"}: the viewer was unseated between hands and
// watches on (the socket stays).
// Exports: CLOSE_CODES, onClosed, closedText, onNotice.

import { t } from "../i18n.js";
import { toast } from "../ui.js";
import { reasonText } from "./text.js";

/** @typedef {import("./state.js").Table} Table */

// close code → the reason code it means (the page shows it when no message came first)
/** @type {Record<number, string>} */
export const CLOSE_CODES = { 4001: "kicked", 4401: "session_ended", 4410: "room_closed" };

/**
 * `closed` (or a final close code without it): the socket is not reconnected; the banner says why.
 * @param {Table} tb
 * @param {{code: string, params?: any, error?: string}} msg
 */
export function onClosed(tb, msg) {
  const { S, ctx } = tb;
  S.closed = msg;
  S.connState = "closed";
  clearTimeout(S.retryTimer);
  clearInterval(S.pingTimer);
  // a session ended: every other page of it needs a new login
  if (msg.code === "session_ended") ctx.player = null;
  tb.renderBanner();
}

/**
 * The sentence of a `closed`: the reason (the admin's words), the penalty, or why the session ended.
 * @param {{code: string, params?: any, error?: string}} msg
 * @returns {string}
 */
export function closedText(msg) {
  const p = msg.params || {};
  if (msg.code === "kicked") {
    const penalty = Number.isFinite(p.penalty) && p.penalty ? t("kicked_penalty", { n: p.penalty }) : "";
    return reasonText("kicked", { reason: p.reason || "–" }, msg.error) + penalty;
  }
  if (msg.code === "session_ended") {
    const why = p.why ? ` (${t("why_" + p.why)})` : "";
    return reasonText("session_ended", {}, msg.error) + why;
  }
  if (msg.code === "room_closed") return reasonText("room_closed", { reason: p.reason || "–" }, msg.error);
  return reasonText(msg.code, p, msg.error);
}

/**
 * `notice`: unseated between hands (by the room's owner, an administrator, too few beans, or
 * the 准备 countdown ending before the viewer was ready).
 * @param {Table} tb
 * @param {any} msg
 */
export function onNotice(tb, msg) {
  if (msg.code !== "unseated") return;
  const p = msg.params || {};
  const by = ["owner", "admin", "beans", "not_ready"].includes(p.by) ? p.by : "owner";
  if (by === "beans" && Number.isFinite(p.need)) {  // the beans no longer cover a hand here: how many it takes
    toast(t("notice_unseated_beans", { need: p.need, beans: p.beans }), "info", 15000);
    return;
  }
  const why = p.reason ? t("unseated_why", { reason: p.reason }) : "";
  toast(t("unseated_by_" + by) + why, "info", 15000);
}
