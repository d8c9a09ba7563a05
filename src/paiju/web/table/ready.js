// @ts-check
// 准备 between hands: the ready button (a hall with room.ready: pressed once, then
// "ready ✓"; the first hand of a room and an older hall: 开始 / 下一局 sends `start`),
// with the seat's own bean multiplier 个人倍数 beside it where the room allows one.
// Exports: readyButton.

import { t } from "../i18n.js";
import { h } from "../ui.js";

/** @typedef {import("./state.js").Table} Table */

/**
 * @param {Table} tb
 * @param {string} testid
 * @param {string} cls
 * @returns {HTMLElement}
 */
export function readyButton(tb, testid, cls) {
  const r = tb.room();
  const me = tb.mySeat();
  if (!Array.isArray(r.ready) || !tb.V()) {
    return h("button", { class: cls, "data-testid": testid, onclick: () => tb.send({ type: "start" }) }, tb.V() ? t("next_hand") : t("start"));
  }
  const done = !!r.ready[me];
  const button = h(
    "button",
    { class: cls + (done ? " done" : ""), "data-testid": testid, "data-ready": done ? "true" : "false", disabled: done, onclick: () => tb.send({ type: "ready" }) },
    done ? t("ready_done") : t("ready"),
  );
  return ownMultiplier(tb, button);
}

/**
 * 个人倍数: in a room that allows it, the seat's own bean multiplier (1-4) beside 准备
 * @param {Table} tb
 * @param {HTMLElement} button
 * @returns {HTMLElement}
 */
function ownMultiplier(tb, button) {
  const r = tb.room();
  const me = tb.mySeat();
  if (!r.beans || !r.beans.own_multiplier || me === null) return button;
  const own = (r.seats[me] && r.seats[me].own) || 1;
  const select = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { class: "own-multiplier", "data-testid": "own-multiplier", title: t("own_multiplier") },
      ...[1, 2, 3, 4].map((n) => h("option", { value: String(n), selected: n === own }, "×" + n)),
    )
  );
  select.addEventListener("change", () => tb.send({ type: "own", value: Number(select.value) }));
  return h("span", { class: "ready-group" }, h("label", {}, t("own_multiplier"), " ", select), button);
}
