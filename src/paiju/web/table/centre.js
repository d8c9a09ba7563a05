// @ts-check
// What every game's centre of the felt shares: the room's state before a hand, chips,
// and the tail (waiting for …, the button that brings back a closed score screen). The
// centre of each game is drawn by its presenter (../games/*.js).
// Exports: chip, waitingCentre, centreTail.

import { t } from "../i18n.js";
import { h } from "../ui.js";

/** @typedef {import("./state.js").Table} Table */

/**
 * @param {string} cls
 * @param {...(Node | string)} content
 * @returns {HTMLElement}
 */
export function chip(cls, ...content) {
  return h("span", { class: "chip " + cls }, ...content);
}

/**
 * The centre before a hand: the room's status and how many seats are taken.
 * @param {Table} tb
 * @param {HTMLElement} centre
 * @returns {HTMLElement}
 */
export function waitingCentre(tb, centre) {
  const r = tb.room();
  const seats = r.seats || [];
  const n = seats.length || tb.numSeats();
  const taken = seats.filter((/** @type {any} */ s) => s.player || s.bot).length;
  centre.append(
    h("div", { class: "step-name" }, t("status_" + (r.status || "waiting"))),
    h("div", { class: "muted" }, `${t("seats")} ${taken}/${n}`),
  );
  if (taken < n) centre.append(h("div", { class: "muted small-text" }, t("need_all_seats", { n })));
  return centre;
}

/**
 * The end of the centre: who is awaited, or (the hand over, its scores closed) the
 * button that shows them again.
 * @param {Table} tb
 * @param {HTMLElement} centre
 * @param {any} v the view
 */
export function centreTail(tb, centre, v) {
  const { S } = tb;
  const r = tb.room();
  // one line says who is awaited: a game's own ("等待 X 扣底") stands for it
  const said = centre.querySelector(".waiting") !== null;
  if (!said && v.phase !== "over" && v.to_act !== null && v.to_act !== undefined && v.to_act !== tb.selfSeat()) {
    centre.append(h("div", { class: "waiting muted small-text", "data-testid": "waiting" }, t("waiting_for", { name: tb.seatName(v.to_act) })));
  }
  if (v.phase === "over" && S.dismissed.has(r.hand_number)) {
    centre.append(
      h("button", { class: "small", "data-testid": "show-scores", onclick: () => (S.dismissed.delete(r.hand_number), tb.render()) }, t("show_scores")),
    );
  }
}
