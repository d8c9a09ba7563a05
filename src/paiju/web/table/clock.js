// @ts-check
// Time at the table: the seconds left of the seat to act (its timer badge), the
// countdown to the next hand (room.ready_deadline), and the tick that keeps both (and
// the reconnection banner) up to date, with the sound of the viewer's last five seconds.
// Exports: timerText, readySeconds, countdownEl, startTick.

import { t } from "../i18n.js";
import { playSound } from "../sound.js";
import { h } from "../ui.js";

/** @typedef {import("./state.js").Table} Table */

/**
 * The whole seconds left to act, as text ("" without a deadline).
 * @param {Table} tb
 * @returns {string}
 */
export function timerText(tb) {
  const { S } = tb;
  if (S.deadlineAt === null) return "";
  const left = Math.max(0, Math.ceil((S.deadlineAt - Date.now()) / 1000));
  return String(left);
}

/**
 * @param {Table} tb
 * @returns {number}
 */
export const readySeconds = (tb) => Math.max(0, Math.ceil(((tb.S.readyAt ?? 0) - Date.now()) / 1000));

/**
 * The countdown to the next hand (room.ready_deadline), kept up to date by the tick.
 * @param {Table} tb
 * @returns {HTMLElement | null}
 */
export function countdownEl(tb) {
  if (tb.S.readyAt === null || tb.playing()) return null;
  return h("span", { class: "ready-countdown", "data-testid": "ready-countdown" }, countdownText(tb));
}

/**
 * What the countdown ends in: the unready are stood up (no penalty), never dealt in on 托管.
 * @param {Table} tb
 * @returns {string}
 */
function countdownText(tb) {
  const r = tb.room();
  const me = tb.mySeat();
  const mine = me !== null && Array.isArray(r.ready) && !r.ready[me];
  return t(mine ? "ready_countdown" : "ready_countdown_others", { s: readySeconds(tb) });
}

/**
 * Start the tick (every 250 ms; a replay has no clock). The timer id is kept in S.tickTimer.
 * @param {Table} tb
 */
export function startTick(tb) {
  const { S } = tb;
  const { felt, page } = tb.dom;
  S.tickTimer = setInterval(() => {
    const el = felt.querySelector('[data-testid="timer"]');
    if (el) {
      el.textContent = timerText(tb);
      el.parentElement?.classList.toggle("urgent", S.deadlineAt !== null && S.deadlineAt - Date.now() < 10000);
      // the last five seconds of the viewer's own turn tick
      const left = Math.ceil(((S.deadlineAt ?? 0) - Date.now()) / 1000);
      if (tb.isMyTurn() && left <= 5 && left > 0 && left !== S.lastTick) {
        S.lastTick = left;
        playSound("tick");
      }
    }
    if (S.readyAt !== null) {
      for (const cd of page.querySelectorAll('[data-testid="ready-countdown"]')) cd.textContent = countdownText(tb);
    }
    if (S.connState === "reconnecting") tb.renderBanner();
  }, 250);
}
