// @ts-check
// The felt: the seats around it, placed from the viewer's (bottom) in the chosen
// direction, the centre, and the score screen over it when a hand is over. The centre
// and the score screen are drawn by the game's presenter (../games/*.js).
// Exports: renderFelt, trickState.

import { presenterOf } from "../games/presenters.js";
import { h } from "../ui.js";
import { waitingCentre } from "./centre.js";
import { withHandNames } from "./scores.js";
import { renderSeat } from "./seats.js";

/** @typedef {import("./state.js").Table} Table */

/** @type {Record<number, Record<string, string[]>>} */
const POSITIONS = {
  // position of the seat `k` places after the viewer (k = 0 is the viewer, at the bottom)
  5: { cw: ["bottom", "left", "topleft", "topright", "right"], ccw: ["bottom", "right", "topright", "topleft", "left"] },
  4: { cw: ["bottom", "left", "top", "right"], ccw: ["bottom", "right", "top", "left"] },
};

/**
 * @param {Table} tb
 * @returns {string[]}
 */
function positions(tb) {
  const n = tb.numSeats();
  const table = POSITIONS[n] || POSITIONS[5];
  return table[tb.S.direction] || table.cw;
}

/**
 * From the events: each seat's last action in the current trick, and the previous trick.
 * @param {any} v the view
 * @returns {{cur: Record<number, any>, prev: any}}
 */
export function trickState(v) {
  /** @type {Record<number, any>} */
  let cur = {};
  /** @type {any[]} */
  let curList = [];
  let prev = null;
  let index = -1;
  for (const e of (v && v.events) || []) {
    index += 1;
    if (e.event === "deal" || e.event === "redeal") {
      cur = {};
      curList = [];
      prev = null;
      continue;
    }
    if (e.event === "trick") {
      prev = { winner: e.winner, leader: e.leader, plays: curList };
      cur = {};
      curList = [];
      continue;
    }
    if (e.event !== undefined || e.step !== undefined || e.seat === undefined || e.action === undefined) continue;
    if (e.action === "pass" || e.action === "yield") cur[e.seat] = { kind: e.action, i: index };
    else {
      const cards = e.cards || e.action;
      cur[e.seat] = { kind: "play", cards, type: e.type || null, i: index };
      curList.push({ seat: e.seat, cards, type: e.type || null });
    }
  }
  return { cur, prev };
}

/** @param {Table} tb */
export function renderFelt(tb) {
  const { felt } = tb.dom;
  const v = tb.V();
  const r = tb.room();
  const n = tb.numSeats();
  const me = tb.mySeat();
  const base = me === null ? 0 : me;
  const pos = positions(tb);
  const tricks = trickState(v);
  const children = [];
  for (let k = 0; k < n; k++) {
    const s = (base + k) % n;
    children.push(renderSeat(tb, s, pos[k] || "bottom", v, tricks));
  }
  children.push(renderCentre(tb, v, tricks));
  if (v && v.phase === "over" && !tb.S.dismissed.has(r.hand_number)) children.push(withHandNames(tb, () => presenterOf(tb.game()).scores(tb, v)));
  felt.replaceChildren(...children);
  felt.dataset.seats = String(n);
}

/**
 * @param {Table} tb
 * @param {any} v the view
 * @param {{cur: Record<number, any>, prev: any}} tricks
 * @returns {HTMLElement}
 */
function renderCentre(tb, v, tricks) {
  const centre = h("div", { class: "centre", "data-testid": "centre" });
  if (!v) return waitingCentre(tb, centre);
  return presenterOf(tb.game()).centre(tb, centre, v, tricks);
}
