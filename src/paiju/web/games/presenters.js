// @ts-check
// Which presenter draws a game at the table: baohuang.js, shengji.js, shuangkou.js
// (Baohuang for any other name, as the table always did).
// Exports: presenterOf; the type Presenter.

import * as baohuang from "./baohuang.js";
import * as shengji from "./shengji.js";
import * as shuangkou from "./shuangkou.js";

/** @typedef {import("../table/state.js").Table} Table */

/**
 * What the table asks of a game's presenter.
 * @typedef {object} Presenter
 * @property {(tb: Table, s: number, v: any) => HTMLElement[]} seatBadges a seat's role or team badges
 * @property {((tb: Table, el: HTMLElement, s: number, v: any) => void) | undefined} seatPlay a seat's cards in the trick (else the table's own)
 * @property {(tb: Table, centre: HTMLElement, v: any, tricks: {cur: Record<number, any>, prev: any}) => HTMLElement} centre the centre of the felt during a hand
 * @property {(tb: Table, v: any) => HTMLElement} scores the score screen
 */

/** @type {Record<string, Presenter>} */
const PRESENTERS = {
  baohuang: { ...baohuang, seatPlay: undefined },
  shengji,
  shuangkou: { ...shuangkou, seatPlay: undefined },
};

/**
 * @param {string} game
 * @returns {Presenter}
 */
export function presenterOf(game) {
  return PRESENTERS[game] || PRESENTERS.baohuang;
}
