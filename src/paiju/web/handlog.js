// @ts-check
// The hand log 牌谱 at the table: every public event of the hand in the page's language
// (plays with card labels, passes, declarations, reveals 明保, rebellion 造反, kicks 踢,
// tribute 上贡, the viewer's own burial 扣底), the previous trick 上一轮 on demand, and the
// running score by hand. Shengji's view has no event log: its rows come from the view's
// declarations and tricks.

import { t } from "./i18n.js";
import { h } from "./ui.js";

// One row per event: {kind, seat, text, cards}; `cards` (card text) is shown as labels.
// `L` gives seatName(s), actionLabel(action, step), kindLabel(type, cards).
/**
 * @param {any} v the view
 * @param {string} game
 * @param {{seatName: (s: number) => string, actionLabel: (action: string, step?: string) => string, kindLabel: (type: string, cards: string) => string}} L
 * @returns {{kind: string, seat?: number | null, text: string, cards?: string | null}[]}
 */
export function logRows(v, game, L) {
  if (!v) return [];
  if (game === "shengji") return shengjiRows(v, L);
  const rows = [];
  for (const e of v.events || []) rows.push(eventRow(e, L));
  return rows;
}

function eventRow(e, L) {
  const name = (s) => (Number.isInteger(s) ? L.seatName(s) : "");
  if (e.event === undefined && e.seat !== undefined && e.action !== undefined) {
    const who = name(e.seat);
    if (e.step !== undefined) {
      const [word, arg] = String(e.action).split(/\s+/, 2);
      const cards = word === "call" || word === "take" ? arg : null;
      const text = cards ? t(word === "call" ? "called" : "step_tribute") : L.actionLabel(e.action, e.step);
      return { kind: "decision", seat: e.seat, text: `${who}: ${text}`, cards };
    }
    if (e.action === "pass") return { kind: "pass", seat: e.seat, text: `${who}: ${t("pass_mark")}` };
    if (e.action === "yield") return { kind: "pass", seat: e.seat, text: `${who}: ${t("yield_mark")}` };
    const cards = e.cards || e.action;
    const type = e.type ? " · " + L.kindLabel(e.type, cards) : "";
    return { kind: "play", seat: e.seat, text: `${who}${type}:`, cards };
  }
  switch (e.event) {
    case "deal":
      return { kind: "deal", text: t("log_deal", { n: e.number || 1 }) };
    case "redeal":
      return { kind: "deal", text: t("log_redeal") };
    case "emperor":
      return { kind: "role", seat: e.seat, text: t("log_emperor", { name: name(e.seat) }) };
    case "open_solo":
      return { kind: "role", seat: e.seat, text: t("log_open_solo", { name: name(e.seat) }) };
    case "guard_revealed":
      return { kind: "role", seat: e.seat, text: t("log_guard", { name: name(e.seat) }) };
    case "tribute": {
      const given = (e.cards || []).map(([s, c]) => ({ s, c }));
      const text = t("log_tribute", { names: given.map((g) => name(g.s)).join(", ") });
      return { kind: "tribute", text, cards: given.map((g) => g.c).join(" ") };
    }
    case "finished":
      return { kind: "finished", seat: e.seat, text: t("log_finished", { name: name(e.seat), n: e.place }) };
    case "trick":
      return { kind: "trick", seat: e.winner, text: t("log_trick", { name: name(e.winner) }) };
    case "over":
      return { kind: "over", text: t("log_over") };
    default:
      return { kind: "other", text: String(e.event || "") };
  }
}

function shengjiRows(v, L) {
  const rows = [];
  for (const d of v.declarations || []) {
    rows.push({ kind: "decision", seat: d.seat, text: `${L.seatName(d.seat)}: ${t("act_declare", { cards: "" }).trim()}`, cards: d.cards });
  }
  if (v.trump_settled && Number.isInteger(v.declarer)) {
    rows.push({ kind: "role", seat: v.declarer, text: t("log_declarer", { name: L.seatName(v.declarer) }) });
  }
  if (Array.isArray(v.buried) && v.buried.length && (v.phase === "play" || v.phase === "over")) {
    rows.push({ kind: "buried", seat: v.declarer, text: t("log_buried"), cards: v.buried.join(" ") });
  }
  const plays = (list) => {
    for (const p of list || []) rows.push({ kind: "play", seat: p.seat, text: `${L.seatName(p.seat)}:`, cards: p.cards });
  };
  for (const tr of v.tricks || []) {
    plays(tr.plays);
    rows.push({ kind: "trick", seat: tr.winner, text: t("log_trick_points", { name: L.seatName(tr.winner), n: tr.points || 0 }) });
  }
  plays(v.trick);
  if (v.phase === "over") rows.push({ kind: "over", text: t("log_over") });
  return rows;
}

// The plays of the last finished trick: [{seat, cards}] (empty before the first one ends).
/**
 * @param {any} v the view
 * @param {string} game
 * @returns {{seat: number, cards?: string, pass?: string}[]}
 */
export function previousTrick(v, game) {
  if (!v) return [];
  if (game === "shengji") {
    const done = v.tricks || [];
    return done.length ? done[done.length - 1].plays.map((p) => ({ seat: p.seat, cards: p.cards })) : [];
  }
  let cur = [];
  let prev = [];
  for (const e of v.events || []) {
    if (e.event === "deal" || e.event === "redeal") {
      cur = [];
      prev = [];
    } else if (e.event === "trick") {
      prev = cur;
      cur = [];
    } else if (e.event === undefined && e.step === undefined && e.seat !== undefined && e.action !== undefined) {
      if (e.action === "pass" || e.action === "yield") cur.push({ seat: e.seat, pass: e.action });
      else cur.push({ seat: e.seat, cards: e.cards || e.action });
    }
  }
  return prev;
}

// The running score by hand: one row per hand of the room, a column per seat; with `link`,
// each hand's number is a link to its replay 牌谱回放.
/**
 * @param {any[]} hands the room's hands
 * @param {number} n seats
 * @param {(s: number) => string} seatName
 * @param {((num: number) => string) | null} [link] the replay's address of hand `num`
 * @returns {HTMLElement | null}
 */
export function scoreRows(hands, n, seatName, link = null) {
  if (!hands || !hands.length) return null;
  const rowOf = (hd) => (Array.isArray(hd) ? hd : hd && (hd.scores || hd.points)) || [];
  const head = h("tr", {}, h("th", {}, "#"), ...[...Array(n).keys()].map((s) => h("th", {}, seatName(s))));
  const totals = Array(n).fill(0);
  const body = hands.map((hd, i) => {
    const pts = rowOf(hd).slice(0, n);
    pts.forEach((x, s) => (totals[s] += Number(x) || 0));
    const number = (hd && (hd.number || hd.hand)) || i + 1;
    const num = String(number) + (hd && hd.scored === false ? " *" : "");
    const cell = link ? h("a", { href: link(number), "data-testid": "log-replay", "data-hand": String(number), title: t("replay_open") }, num) : num;
    return h("tr", { "data-testid": "log-hand" }, h("td", {}, cell), ...pts.map((x) => h("td", { class: "num" }, String(x))));
  });
  const sum = h("tr", { class: "total" }, h("td", {}, "Σ"), ...totals.map((x) => h("td", { class: "num" }, String(x))));
  return h("table", { class: "scores-table log-scores", "data-testid": "log-scores" }, h("thead", {}, head), h("tbody", {}, ...body, sum));
}
