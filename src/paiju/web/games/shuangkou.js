// @ts-check
// The table's presenter of Shuangkou 双扣: the centre of the felt (the teams, the play to
// beat with its kind, 接风, the finishing order) and the score screen (places, the result
// 双扣 / 单扣 / 平扣 with its factor, the match score).
// Exports: seatBadges, box, scores.

import * as C from "../cards.js";
import { t } from "../i18n.js";
import { h } from "../ui.js";
import { centreTail } from "../table/centre.js";
import { factorChip, handsLeft, resultLine, scoresFrame, seatRows } from "../table/scores.js";
import { kindLabel } from "../table/text.js";
import * as G from "./rules.js";
import { teamBadges, teamMembers, teamName, teamSide } from "./teams.js";

/** @typedef {import("../table/state.js").Table} Table */

export { teamBadges as seatBadges };

/**
 * The centre of the felt during a hand.
 * @param {Table} tb
 * @param {HTMLElement} box the centre element
 * @param {any} v the view
 * @param {{cur: Record<number, any>, prev: any}} tricks the current and the previous trick (felt.js)
 * @returns {HTMLElement}
 */
export function centre(tb, box, v, tricks) {
  const { seatName } = tb;
  box.append(h("div", { class: "step-name", "data-testid": "step" }, t("step_" + (v.phase === "over" ? "over" : "play"))));
  const teams = h("div", { class: "chips team-levels sk-teams" });
  for (const team of [0, 1]) {
    teams.append(h("span", { class: `chip team-chip team-${team}`, title: teamMembers(tb, team), "data-testid": `team-${team}` }, `${teamName(tb, team)}: ${teamMembers(tb, team)}`));
  }
  box.append(teams);
  if (v.phase === "play" || v.phase === "over") {
    const trick = v.trick || [];
    const lastPlay = h("div", { class: "last-play", "data-testid": "last-play" });
    const top = v.last_play || (trick.length ? trick[trick.length - 1] : null);
    if (top) {
      lastPlay.append(
        h("div", { class: "who" }, `${t("to_beat")}: ${seatName(top.seat)} · `, h("b", { "data-testid": "combo-type" }, kindLabel(top.type, top.cards))),
        C.playElement(top.cards, { size: "small" }),
      );
    } else if (tricks.prev && tricks.prev.plays.length) {
      const w = tricks.prev.plays[tricks.prev.plays.length - 1];
      lastPlay.classList.add("previous");
      lastPlay.append(h("div", { class: "who" }, `${t("last_trick")}: ${seatName(w.seat)} · ${kindLabel(w.type, w.cards)}`), C.playElement(w.cards, { size: "small" }));
    }
    if (v.phase === "play" && !trick.length && v.to_act !== null && v.to_act !== undefined) {
      const prev = tricks.prev;
      if (prev && prev.leader !== undefined && prev.leader !== prev.winner) {
        lastPlay.append(h("div", { class: "chip mult", "data-testid": "jiefeng" }, t("jiefeng", { name: seatName(prev.leader) })));
      } else {
        lastPlay.append(h("div", { class: "muted small-text" }, v.to_act === tb.selfSeat() ? t("prompt_play_lead") : t("leads", { name: seatName(v.to_act) })));
      }
    }
    box.append(lastPlay);
  }
  if ((v.finished || []).length) {
    box.append(
      h(
        "div",
        { class: "chips", "data-testid": "finish-order" },
        ...v.finished.map((/** @type {number} */ s, /** @type {number} */ i) => h("span", { class: `chip place-chip team-chip team-${G.teamOf(s)}` }, `${t("sk_place_" + (i + 1))} ${seatName(s)}`)),
      ),
    );
  }
  centreTail(tb, box, v);
  return box;
}

/**
 * "We won a 双扣" / "They won …" (a spectator: "Team A won …").
 * @param {Table} tb
 * @param {number} team
 * @param {string} result
 */
function skResult(tb, team, result) {
  const me = tb.selfSeat();
  if (me === null) return t("sk_result", { team: teamName(tb, team), result });
  return t(team === G.teamOf(me) ? "sk_result_us" : "sk_result_them", { result });
}

/**
 * The score screen.
 * @param {Table} tb
 * @param {any} v the view
 * @returns {HTMLElement}
 */
export function scores(tb, v) {
  const r = tb.room();
  const finished = v.finished || [];
  const rows = seatRows(tb, v, (s) => {
    const i = finished.indexOf(s);
    return [h("td", {}, teamName(tb, G.teamOf(s))), h("td", {}, i >= 0 ? t("sk_place_" + (i + 1)) : "—")];
  });
  const table = h(
    "table",
    { class: "scores-table" },
    h("thead", {}, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("team")), h("th", {}, t("place")), h("th", {}, t("points")), h("th", {}, t("beans_col")), h("th", {}, t("standings")))),
    h("tbody", {}, ...rows),
  );
  const winners = v.winners && v.winners.length ? G.teamOf(v.winners[0]) : null;
  const result = h(
    "div",
    { class: "sj-outcome", "data-testid": "sk-result", "data-result": v.result || "" },
    winners === null ? "" : skResult(tb, winners, t("result_" + v.result)),
  );
  const st = r.standings || [];
  const match = h(
    "div",
    { class: "new-levels", "data-testid": "match-score" },
    t("match_score") + ": ",
    // a team's score is what each of its players has (partners score alike; a leave penalty is its player's own)
    ...[0, 1].map((team) => h("span", { class: `chip team-chip team-${team}`, "data-testid": `match-score-${team}` }, `${teamName(tb, team)} ${Math.max(st[team] || 0, st[team + 2] || 0)}`)),
  );
  const order = h("div", { class: "small-text", "data-testid": "finish-order-result" }, t("finish_order") + ": " + finished.map((/** @type {number} */ s) => tb.seatName(s)).join(" → "));
  const d = v.score_detail;
  const factor =
    d && typeof d === "object" && d.result
      ? h("div", { class: "mults chips", "data-testid": "score-detail" }, factorChip(d.result, `${t("result_" + d.result)} ×${d.factor ?? 1}`))
      : null;
  return scoresFrame(tb, resultLine(tb, v, teamSide), result, factor, table, order, tb.R ? null : match, handsLeft(tb, v)); // a replay knows the hand, not the match
}
