// @ts-check
// The side panel (over the felt on a desktop, a drawer on a phone): one open at a time —
// 牌谱 the hand log with the score history, 记牌器 the card tracker, 上一轮 the previous
// trick, 快捷语 the phrases (chat.js), and a replay's own panels (replay.js).
// Exports: togglePanel, renderPanel, logHelpers.

import * as C from "../cards.js";
import { logRows, previousTrick, scoreRows } from "../handlog.js";
import { t } from "../i18n.js";
import { saidText } from "../phrases.js";
import { h } from "../ui.js";
import { phrasesPanel } from "./chat.js";
import { actionLabel, cardsSpan, kindLabel, replayHash } from "./text.js";

/** @typedef {import("./state.js").Table} Table */

/**
 * Open the panel `name`, or close it when it is the open one (null: close).
 * @param {Table} tb
 * @param {string | null} name
 */
export function togglePanel(tb, name) {
  const { S } = tb;
  if (name && PAST.has(name) && hidesPast(tb)) return; // 比赛: 不许查牌 (the L key too)
  S.panel = S.panel === name ? null : name;
  S.toolsOpen = false;
  tb.renderTopbar();
  renderPanel(tb);
}

const PAST = new Set(["prev", "log", "tracker"]); // the panels that look back at a hand

/**
 * A competition room during a hand: 不许查牌 — no 上一轮, no hand log, no 记牌器.
 * @param {Table} tb
 */
export function hidesPast(tb) {
  return !tb.R && !!tb.room().competition && tb.playing();
}

/**
 * What the hand log (handlog.js) needs of the table: names and labels.
 * @param {Table} tb
 */
export function logHelpers(tb) {
  return {
    seatName: (/** @type {number} */ s) => (s === tb.selfSeat() ? t("you") : tb.seatName(s)),
    actionLabel,
    kindLabel: (/** @type {string} */ type, /** @type {string} */ cards) => kindLabel(type, cards),
  };
}

/**
 * Draw the open panel (or hide the panel).
 * @param {Table} tb
 * @param {boolean} [force] draw a replay's own panel anew too
 */
export function renderPanel(tb, force = false) {
  const { S, R } = tb;
  const { panelEl } = tb.dom;
  const v = tb.V();
  if (S.panel && PAST.has(S.panel) && hidesPast(tb)) S.panel = null; // a competition's hand began
  const which = S.panel;
  // a replay's own panel (复盘) is kept up to date in place by replay.js: drawn anew it
  // would lose its scroll position at every step
  if (!force && which && R && R.panels && R.panels[which] && panelEl.dataset.panel === which) return;
  panelEl.classList.toggle("hidden", !which);
  panelEl.dataset.panel = which || "";
  if (!which) {
    panelEl.replaceChildren();
    return;
  }
  const close = h("button", { class: "small", "data-testid": "panel-close", title: t("close"), onclick: () => togglePanel(tb, null) }, "✕");
  /** @type {Record<string, string>} */
  const titles = { log: t("hand_log"), tracker: t("tracker"), prev: t("prev_trick"), phrases: t("phrases"), referee: t("referee") };
  /** @type {Record<string, (v: any) => HTMLElement>} */
  const bodies = {
    log: (x) => logPanel(tb, x),
    tracker: () => trackerPanel(tb),
    prev: (x) => prevPanel(tb, x),
    phrases: () => phrasesPanel(tb),
    referee: (x) => refereePanel(tb, x),
  };
  for (const [name, p] of Object.entries((R && R.panels) || {})) {
    titles[name] = p.title();
    bodies[name] = () => p.body();
  }
  const body = bodies[which](v);
  panelEl.replaceChildren(h("div", { class: "panel-head" }, h("h3", {}, titles[which]), close), body);
}

/**
 * 裁判: a competition's referee sees every hand face up, live, and pauses or resumes the table.
 * @param {Table} tb
 * @param {any} v the referee's view (update.view.hands: every seat's hand)
 */
function refereePanel(tb, v) {
  const paused = !!tb.room().paused;
  const toggle = h(
    "button",
    { class: "small", "data-testid": "referee-pause", onclick: () => tb.send({ type: paused ? "resume" : "pause" }) },
    t(paused ? "referee_resume" : "referee_pause"),
  );
  const hands = ((v && v.hands) || []).map((/** @type {string} */ cards, /** @type {number} */ s) =>
    h("div", { class: "referee-hand", "data-testid": `referee-hand-${s}` }, h("span", { class: "muted" }, tb.seatName(s) + " "), cardsSpan(cards)),
  );
  return h("div", { class: "panel-body" }, toggle, ...(hands.length ? hands : [h("div", { class: "muted small-text" }, t("log_empty"))]));
}

/** @param {{kind: string, seat?: number | null, text: string, cards?: string | null}} row */
function rowElement(row) {
  return h(
    "li",
    { class: "log-row log-" + row.kind, "data-testid": "log-row", "data-kind": row.kind, "data-seat": row.seat ?? "" },
    h("span", {}, row.text + (row.cards ? " " : "")),
    row.cards ? cardsSpan(row.cards) : null,
  );
}

/**
 * 牌谱: the hand's events, what was said, the room's score history.
 * @param {Table} tb
 * @param {any} v
 */
function logPanel(tb, v) {
  const { S } = tb;
  const rows = logRows(v, tb.game(), logHelpers(tb));
  const list = h("ol", { class: "log-list", "data-testid": "hand-log", "data-count": String(rows.length) }, ...rows.map(rowElement));
  const said = S.said.slice(-20).map((m) =>
    h("li", { class: "log-row log-said", "data-testid": "log-said" }, t("log_said", { name: m.name || t("watching"), text: saidText(m) })),
  );
  /** @type {HTMLElement[]} */
  const parts = [rows.length ? list : h("div", { class: "muted small-text", "data-testid": "hand-log" }, t("log_empty"))];
  if (said.length) parts.push(h("ol", { class: "log-list said-list" }, ...said));
  const link = tb.R || !tb.roomId ? null : (/** @type {number} */ num) => replayHash(tb.roomId, num, tb.mySeat());
  const scores = scoreRows(tb.room().hands || [], tb.numSeats(), tb.seatName, link);
  if (scores) parts.push(h("div", { class: "muted small-text" }, t("history")), scores);
  const box = h("div", { class: "panel-body" }, ...parts);
  requestAnimationFrame(() => (list.scrollTop = list.scrollHeight)); // the latest event in sight
  return box;
}

/**
 * 记牌器: per rank, the copies not yet seen from this seat (update.tracker, from the hall)
 * @param {Table} tb
 */
function trackerPanel(tb) {
  /** @type {Record<string, number>} */
  const tr = (tb.U() && tb.U().tracker) || {};
  const order = (/** @type {string} */ r) => (C.RANKS.indexOf(r) < 0 ? 99 : C.RANKS.indexOf(r));
  const ranks = Object.keys(tr).sort((a, b) => order(b) - order(a));
  // a grid of cells (the rank over its count) that wraps inside the panel: 15 ranks in a row
  // ran past its edge
  const cell = (/** @type {string} */ r) =>
    h(
      "div",
      { class: "tracker-cell" + (tr[r] ? "" : " zero") },
      h("span", { class: "tracker-rank" }, r === "BJ" ? t("bj") : r === "SJ" ? t("sj") : C.rankLabel(r)),
      h("span", { class: "num", "data-testid": `tracker-${r}`, "data-count": String(tr[r]) }, String(tr[r])),
    );
  return h(
    "div",
    { class: "panel-body" },
    h("div", { class: "muted small-text" }, t("tracker_title")),
    h("div", { class: "tracker-grid", "data-testid": "tracker" }, ...ranks.map(cell)),
  );
}

/**
 * 上一轮: every play of the last finished trick
 * @param {Table} tb
 * @param {any} v
 */
function prevPanel(tb, v) {
  const plays = previousTrick(v, tb.game());
  if (!plays.length) return h("div", { class: "panel-body muted", "data-testid": "prev-trick-plays", "data-count": "0" }, t("prev_trick_none"));
  const names = logHelpers(tb);
  return h(
    "div",
    { class: "panel-body", "data-testid": "prev-trick-plays", "data-count": String(plays.length) },
    ...plays.map((p) =>
      h(
        "div",
        { class: "prev-row", "data-testid": "prev-play", "data-seat": String(p.seat), "data-cards": p.cards || "" },
        h("span", { class: "hl-name" }, names.seatName(p.seat) + ": "),
        p.cards ? C.playElement(p.cards, { size: "mini" }) : h("span", { class: "pass-mark" }, p.pass === "yield" ? t("yield_mark") : t("pass_mark")),
      ),
    ),
  );
}
