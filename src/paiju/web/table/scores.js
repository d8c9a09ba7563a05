// @ts-check
// The score screen's shared parts: the frame (title, close, the room's message, the hand
// history with a link to each hand's replay, 准备 / 下一局 with its countdown), the result
// line, the points as the hall counts them, the cards left, the per-seat rows. Each
// game's own table and detail are drawn by its presenter (../games/*.js).
// Exports: scoresFrame, resultLine, shownScores, handsLeft, factorChip, seatRows, beansCell,
// unscored.

import * as G from "../games/rules.js";
import { t } from "../i18n.js";
import { h } from "../ui.js";
import { countdownEl } from "./clock.js";
import { readyButton } from "./ready.js";
import { cardsSpan, replayHash, roomMessage } from "./text.js";

/** @typedef {import("./state.js").Table} Table */
/** @typedef {{name: string, seats: number[]}} Side */

/**
 * The score screen's frame: title, close button, content, hand history and "next hand".
 * @param {Table} tb
 * @param {...(Node | null)} content
 * @returns {HTMLElement}
 */
export function scoresFrame(tb, ...content) {
  const { S, R } = tb;
  const r = tb.room();
  const me = tb.mySeat();
  const allTaken = (r.seats || []).length > 0 && (r.seats || []).every((/** @type {any} */ s) => s.player || s.bot);
  const next = !R && me !== null && allTaken && r.status !== "playing" ? readyButton(tb, "next-hand", "primary big") : null;
  const close = h("button", { class: "small", "data-testid": "close-scores", onclick: () => (S.dismissed.add(r.hand_number), tb.render()) }, t("close"));
  return h(
    "div",
    { class: "scores-overlay", "data-testid": "scores" },
    h(
      "div",
      { class: "scores-card" },
      h("div", { class: "scores-head" }, h("h2", {}, t("scores") + (r.hand_number ? " · " + t("hand_n", { n: r.hand_number }) : "")), close),
      ...content,
      r.message ? h("div", { class: "room-message", "data-testid": "room-message" }, roomMessage(r.message, tb.messageNames())) : null,
      historyTable(tb, r.hands || [], tb.numSeats()),
      h("div", { class: "form-actions" }, replayLink(tb), countdownEl(tb), next),
    ),
  );
}

/**
 * The replay 牌谱回放 of the hand on the score screen, in sight beside 准备 (the history
 * below is folded).
 * @param {Table} tb
 * @returns {HTMLElement | null}
 */
function replayLink(tb) {
  const hd = handEntry(tb);
  const num = hd && (hd.number || hd.hand);
  if (tb.R || !tb.roomId || !num) return null;
  const attrs = { class: "small link", href: replayHash(tb.roomId, num, tb.mySeat()), "data-testid": "scores-replay", title: t("replay_open") };
  return h("a", attrs, t("replay_this_hand"));
}

/**
 * Draw the score screen with the names of the persons who played that hand (`names`,
 * `players` of its record): a seat's match belongs to the person, not the chair.
 * @param {Table} tb
 * @param {() => HTMLElement} draw
 * @returns {HTMLElement}
 */
export function withHandNames(tb, draw) {
  const hd = handEntry(tb);
  if (!hd || !Array.isArray(hd.players) || !Array.isArray(hd.names)) return draw();
  const now = tb.seatName;
  /** @param {number} s */
  tb.seatName = (s) => {
    const played = hd.players[s] ?? null;
    if (played === (tb.seatInfo(s).player_id ?? null)) return now(s);
    return played === null ? t("hand_player_bot") : hd.names[s] || t("hand_player_gone");
  };
  try {
    return draw();
  } finally {
    tb.seatName = now;
  }
}

/**
 * Whether the viewer sits where somebody else played the hand just shown (a newcomer): that
 * score screen is not theirs and is not opened for them.
 * @param {Table} tb
 * @returns {boolean}
 */
export function notMyHand(tb) {
  const me = tb.mySeat();
  const hd = handEntry(tb);
  if (me === null || !hd || !Array.isArray(hd.players)) return false;
  return (hd.players[me] ?? null) !== (tb.seatInfo(me).player_id ?? null);
}

/**
 * The room's record of the hand on the score screen (scored, unscored_reason …), if any.
 * @param {Table} tb
 */
function handEntry(tb) {
  const r = tb.room();
  const hands = r.hands || [];
  if (r.status === "playing" || !hands.length) return null;
  return hands.find((/** @type {any} */ hd) => hd && hd.number === r.hand_number) || hands[hands.length - 1];
}

/**
 * Each seat's points as the hall counts them: 0 for everyone in a hand not scored.
 * @param {Table} tb
 * @param {any} v the view
 * @returns {number[] | null}
 */
export function shownScores(tb, v) {
  const e = handEntry(tb);
  if (e && e.scored === false) return (v.scores || Array(tb.numSeats()).fill(0)).map(() => 0);
  return v.scores || null;
}

/**
 * Whether the hand on the score screen is not scored (it counts 0: points, beans, levels).
 * @param {Table} tb
 * @returns {boolean}
 */
export function unscored(tb) {
  const e = handEntry(tb);
  return Boolean(e && e.scored === false);
}

/**
 * The beans 游戏豆 a seat won (+) or lost (−) in the hand on the score screen
 * (room.hands[].beans: 0 for guests and computer players, who hold none); empty where
 * the room's record has no beans.
 * @param {Table} tb
 * @param {number} s
 * @returns {HTMLElement}
 */
export function beansCell(tb, s) {
  const e = handEntry(tb);
  const b = e && Array.isArray(e.beans) ? e.beans[s] : null;
  const text = typeof b === "number" ? (b > 0 ? "+" : "") + b : "";
  const cls = "num beans " + (b > 0 ? "pos" : b < 0 ? "neg" : "");
  return h("td", { class: cls, "data-testid": `beans-${s}`, title: t("beans_col_help") }, text);
}

/**
 * "You won · your side won" (or lost / drew), or why the hand is not scored.
 * @param {Table} tb
 * @param {any} v the view
 * @param {((s: number) => Side | null) | null} sideOf the viewer's side, if any
 * @returns {HTMLElement | null}
 */
export function resultLine(tb, v, sideOf) {
  const e = handEntry(tb);
  const me = tb.selfSeat();
  if (e && e.scored === false) {
    const why = t("unscored_" + (e.unscored_reason || "all_hosted"));
    const attrs = { class: "result-line unscored", "data-testid": "result-line", "data-result": "unscored" };
    return h("div", attrs, t("not_scored") + " · " + why);
  }
  const scores = v.scores || [];
  if (me === null || scores[me] === undefined) return null;
  const word = (/** @type {number} */ n) => (n > 0 ? "won" : n < 0 ? "lost" : "drew");
  const mine = word(scores[me]);
  const parts = [t("result_you_" + mine)];
  const side = sideOf ? sideOf(me) : null;
  if (side) {
    const pts = side.seats.reduce((a, s) => a + (scores[s] || 0), 0);
    parts.push(t("result_side_" + word(pts), { side: side.name }));
  }
  const attrs = { class: "result-line " + mine, "data-testid": "result-line", "data-result": mine };
  return h("div", attrs, parts.join(" · "));
}

/**
 * The cards still held when the hand ended, per seat, as small labels.
 * @param {Table} tb
 * @param {any} v the view
 * @returns {HTMLElement | null}
 */
export function handsLeft(tb, v) {
  const left = v.hands_left;
  if (!Array.isArray(left) || !left.some((cards) => cards && cards.length)) return null;
  const rows = [];
  for (let s = 0; s < tb.numSeats(); s++) {
    const cards = left[s] || [];
    rows.push(
      h(
        "div",
        { class: "hands-left-row" + (s === tb.mySeat() ? " mine" : ""), "data-testid": `hands-left-${s}`, "data-cards": cards.join(" ") },
        h("span", { class: "hl-name" }, tb.seatName(s) + ": "),
        cards.length ? cardsSpan(cards.join(" ")) : h("span", { class: "muted" }, t("hands_left_none")),
      ),
    );
  }
  const title = h("div", { class: "muted small-text" }, t("hands_left"));
  return h("div", { class: "hands-left", "data-testid": "hands-left" }, title, ...rows);
}

/**
 * One factor of the score (明保 ×2 …) as a chip.
 * @param {string} name
 * @param {string} text
 * @returns {HTMLElement}
 */
export function factorChip(name, text) {
  return h("span", { class: "chip mult", "data-testid": "factor", "data-name": name }, text);
}

/**
 * The score table's rows of a partnership game: name, the game's `cells`, points, standings.
 * @param {Table} tb
 * @param {any} v the view
 * @param {(s: number) => HTMLElement[]} cells
 * @returns {HTMLElement[]}
 */
export function seatRows(tb, v, cells) {
  const r = tb.room();
  const rows = [];
  const shown = shownScores(tb, v);
  for (let s = 0; s < tb.numSeats(); s++) {
    const pts = shown ? shown[s] : null;
    const total = r.standings ? r.standings[s] : null;
    rows.push(
      h(
        "tr",
        { class: (s === tb.mySeat() ? "mine " : "") + `team-row team-${G.teamOf(s)}`, "data-seat": String(s) },
        h("td", {}, tb.seatName(s)),
        ...cells(s),
        h("td", { class: "num " + (pts > 0 ? "pos" : pts < 0 ? "neg" : "") }, pts === null || pts === undefined ? "" : (pts > 0 ? "+" : "") + pts),
        beansCell(tb, s),
        h("td", { class: "num" }, total === null || total === undefined ? "" : String(total)),
      ),
    );
  }
  return rows;
}

/**
 * The room's hands so far, each number a link to its replay 牌谱回放 from the viewer's seat.
 * @param {Table} tb
 * @param {any[]} hands
 * @param {number} n seats
 * @returns {HTMLElement | null}
 */
function historyTable(tb, hands, n) {
  const { R, roomId } = tb;
  if (!hands.length) return null;
  const rowOf = (/** @type {any} */ hd) => (Array.isArray(hd) ? hd : hd && (hd.scores || hd.points)) || [];
  const head = h("tr", {}, h("th", {}, "#"));
  for (let s = 0; s < n; s++) head.append(h("th", {}, tb.seatName(s)));
  // each finished hand's number opens its replay 牌谱回放, from the viewer's seat
  const numberCell = (/** @type {any} */ hd, /** @type {number} */ i) => {
    const num = (hd && (hd.number || hd.hand)) || i + 1;
    const text = String(num) + (hd && hd.scored === false ? " *" : "");
    if (R || !roomId) return h("td", {}, text);
    const link = h("a", { href: replayHash(roomId, num, tb.mySeat()), "data-testid": "history-replay", "data-hand": String(num), title: t("replay_open") }, text);
    return h("td", {}, link);
  };
  const body = hands.map((hd, i) => h("tr", {}, numberCell(hd, i), ...rowOf(hd).slice(0, n).map((/** @type {any} */ x) => h("td", { class: "num" }, String(x)))));
  const note = hands.some((hd) => hd && hd.scored === false) ? h("div", { class: "muted small-text" }, t("not_scored_mark")) : null;
  return h(
    "details",
    { class: "history", "data-testid": "history" },
    h("summary", {}, t("history") + ` (${hands.length})`),
    h("table", { class: "scores-table" }, h("thead", {}, head), h("tbody", {}, ...body)),
    note,
  );
}
