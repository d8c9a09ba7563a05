// @ts-check
// 托管 (a bot plays for the viewer): the switch — one element for the whole table,
// updated in place, as while 托管 plays the updates come many times a second and a button
// made anew each time could not be clicked — with the rule asked to be confirmed before
// it goes on, and the banner over the hand while the viewer is on 托管 (why, the count,
// the lock, the table dissolved if the hand ends so).
// Exports: hostedButton, updateHostedButton, renderHostedBanner.

import { t } from "../i18n.js";
import { h, confirmBox } from "../ui.js";

/** @typedef {import("./state.js").Table} Table */

/**
 * The 托管 switch of the table (made once).
 * @param {Table} tb
 * @returns {HTMLButtonElement}
 */
export function hostedButton(tb) {
  const btn = /** @type {HTMLButtonElement} */ (
    h("button", {
      "data-testid": "hosted",
      onclick: () => toggleHosted(tb, btn.getAttribute("aria-pressed") !== "true"),
    })
  );
  return btn;
}

/**
 * The switch as the viewer's seat is now: on or off, locked, its count.
 * @param {Table} tb
 * @param {any} info the viewer's seat
 */
export function updateHostedButton(tb, info) {
  const { hostedBtn } = tb.dom;
  const hosted = !!info.hosted;
  hostedBtn.className = "toggle" + (hosted ? " on" : "");
  hostedBtn.setAttribute("aria-pressed", hosted ? "true" : "false");
  hostedBtn.disabled = hosted && !!info.locked;
  hostedBtn.title = hosted && info.locked ? t("hosted_locked_note") : t("hosted_rule_short");
  const label_ = hosted ? t("cancel_hosted") : t("hosted");
  const count = hosted ? " " + hostedCount(tb, info) : null;
  const shownCount = hostedBtn.querySelector(".hosted-count");
  if (hostedBtn.firstChild?.nodeValue !== label_ || (shownCount ? shownCount.textContent : null) !== count) {
    hostedBtn.replaceChildren(label_, count === null ? "" : h("span", { class: "hosted-count", "data-testid": "hosted-count" }, count));
  }
}

/**
 * "托管 (timeout) · 托管 2/3"
 * @param {Table} tb
 * @param {any} info the viewer's seat
 */
function hostedText(tb, info) {
  const reason = info.hosted_reason ? t("hosted_reason_" + info.hosted_reason) : t("hosted_on");
  return reason + " · " + hostedCount(tb, info);
}

/**
 * @param {Table} tb
 * @param {any} info the viewer's seat
 */
function hostedCount(tb, info) {
  const max = tb.room().hosted_lock_after ?? 3;
  return t("hosted_count", { n: info.hosted_times ?? 0, max });
}

/**
 * The banner while the viewer is on 托管 during a hand: why, the count, the lock, and
 * that the table is dissolved if the hand ends so.
 * @param {Table} tb
 */
export function renderHostedBanner(tb) {
  const { hostedLine } = tb.dom;
  const me = tb.mySeat();
  const v = tb.V();
  const info = me === null ? {} : tb.seatInfo(me);
  const on = me !== null && tb.playing() && !!info.hosted && !!v && v.phase !== "over";
  hostedLine.classList.toggle("hidden", !on);
  if (!on) {
    hostedLine.replaceChildren();
    return;
  }
  hostedLine.dataset.reason = info.hosted_reason || "";
  hostedLine.replaceChildren(
    ...[
      h("b", { "data-testid": "hosted-reason" }, hostedText(tb, info)),
      info.locked ? h("span", { "data-testid": "hosted-locked" }, " · " + t("hosted_locked_note")) : null,
      h("span", { class: "hosted-warning", "data-testid": "hosted-warning" }, " · " + t("hosted_dissolve_warning")),
    ].filter(Boolean), // replaceChildren would show a null as the text "null"
  );
}

/**
 * The 托管 button: the rule first, then 托管 on confirmation; off at once.
 * @param {Table} tb
 * @param {boolean} on
 */
async function toggleHosted(tb, on) {
  if (on) {
    const max = tb.room().hosted_lock_after ?? 3;
    const yes = await confirmBox(t("hosted_confirm", { max }), {
      yes: t("hosted_confirm_yes"),
      no: t("cancel"),
      testid: "hosted-confirm",
    });
    if (!yes) return;
  }
  tb.send({ type: "hosted", on });
}
