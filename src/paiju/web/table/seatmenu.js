// @ts-check
// A seated person's small menu (the ⋯ beside the name): 举报 (report, during or after a
// hand, by anyone at the table) and, for the room's creator between hands, 请离座 (unseat).
// The menu and its dialogs sit over the page, not in the felt, which is drawn anew at
// every update. The reporter hears only a thank-you; the reported is never told.
// Exports: seatMenuButton, askReport, onReported, REPORT_REASONS.

import { t } from "../i18n.js";
import { formBox } from "../dialog.js";
import { h, confirmBox, toast } from "../ui.js";
import { block, follow, isMuted, toggleMute } from "../social.js";

/** @typedef {import("./state.js").Table} Table */

export const REPORT_REASONS = ["cheating", "abuse", "stalling", "other"];

let reportSeq = 0;

/**
 * The ⋯ button beside seat `s`'s name: only for another person (not a computer player,
 * not the viewer), at a live table.
 * @param {Table} tb
 * @param {number} s
 * @param {any} info the room's seat
 * @returns {HTMLElement | null}
 */
export function seatMenuButton(tb, s, info) {
  if (tb.R || !info.player || s === tb.mySeat()) return null;
  const me = tb.ctx.player;
  if (me && info.player_id === me.id) return null;
  return h(
    "button",
    {
      class: "seat-menu-button",
      "data-testid": `seat-menu-${s}`,
      title: t("seat_menu"),
      "aria-haspopup": "dialog",
      onclick: (/** @type {Event} */ e) => {
        e.stopPropagation();
        openMenu(tb, s);
      },
    },
    "⋯",
  );
}

/**
 * Is the viewer the room's creator, free to unseat others between hands?
 * @param {Table} tb
 */
function isOwner(tb) {
  const me = tb.ctx.player;
  const owner = tb.room().created_by;
  return !!me && owner !== undefined && owner !== null && owner === me.id;
}

/**
 * @param {Table} tb
 * @param {number} s
 */
function openMenu(tb, s) {
  const name = tb.seatName(s);
  const close = () => overlay.remove();
  const item = (/** @type {string} */ id, /** @type {string} */ text, /** @type {() => void} */ go) =>
    h("button", {
      "data-testid": id,
      onclick: () => {
        close();
        go();
      },
    }, text);
  const items = [item(`report-${s}`, t("report"), () => reportSeat(tb, s))];
  const pid = tb.room().seats[s] && tb.room().seats[s].player_id;
  if (Number.isInteger(pid)) {  // 关注, 拉黑 (accounts), and this table's mute of his chat (social.js)
    items.push(item(`follow-${s}`, t("follow"), () => follow(pid, true)));
    items.push(item(`block-${s}`, t("block"), () => block(pid, true)));
    items.push(item(`mute-${s}`, t(isMuted(tb.roomId, pid) ? "unmute_chat" : "mute_chat"), () => toggleMute(tb.roomId, pid)));
  }
  if (isOwner(tb) && !tb.playing()) items.push(item(`unseat-${s}`, t("unseat"), () => unseatSeat(tb, s)));
  items.push(item("seat-menu-cancel", t("cancel"), () => {}));
  const overlay = h(
    "div",
    { class: "confirm-overlay", "data-testid": "seat-menu", role: "dialog", "aria-modal": "true" },
    h("div", { class: "confirm-card seat-menu" }, h("p", { class: "confirm-text" }, name), ...items),
  );
  overlay.addEventListener("click", (e) => {
    e.stopPropagation();
    if (e.target === overlay) close();
  });
  document.body.appendChild(overlay);
}

/**
 * 举报: the reason and a line of text, sent on the table's socket.
 * @param {Table} tb
 * @param {number} s
 */
async function reportSeat(tb, s) {
  const answer = await askReport(tb.seatName(s));
  if (!answer) return;
  reportSeq += 1;
  tb.send({ type: "report", seat: s, reason: answer.reason, text: answer.text, id: `r${reportSeq}` });
}

/**
 * The 举报 dialog (the table's and the profile's): {reason, text}, or null when cancelled.
 * @param {string} name who is reported
 * @returns {Promise<Record<string, string> | null>}
 */
export function askReport(name) {
  return formBox(
    t("report_title", { name }),
    [
      { name: "reason", label: t("report_reason"), type: "select", choices: REPORT_REASONS.map((r) => [r, t("report_reason_" + r)]) },
      { name: "text", label: t("report_text"), maxLength: 200, placeholder: t("report_text_hint") },
    ],
    { yes: t("report_send"), no: t("cancel"), testid: "report", note: t("report_note") },
  );
}

/**
 * 请离座: the room's creator, between hands, frees another person's seat (no penalty).
 * @param {Table} tb
 * @param {number} s
 */
async function unseatSeat(tb, s) {
  const yes = await confirmBox(t("unseat_confirm", { name: tb.seatName(s) }), { yes: t("unseat"), no: t("cancel"), testid: "unseat-confirm" });
  if (yes) tb.send({ type: "unseat", seat: s });
}

/**
 * `reported`: the hall took the report; a thank-you, nothing about what comes of it.
 * @param {Table} _tb
 * @param {any} _msg
 */
export function onReported(_tb, _msg) {
  toast(t("report_thanks"), "info", 6000);
}
