// @ts-check
// The partnerships of Shengji 升级 and Shuangkou 双扣 at the table (seats s and s+2 play
// together): a team's name from the viewer's side, its members, the seat badges
// (declarer, partner) and the viewer's side on the score screen.
// Exports: teamName, teamMembers, teamBadges, teamSide.

import { t } from "../i18n.js";
import { h } from "../ui.js";
import * as G from "./rules.js";

/** @typedef {import("../table/state.js").Table} Table */

/**
 * Team of a seat, named from the viewer's side ("Us"/"Them"), else A/B.
 * @param {Table} tb
 * @param {number} team
 * @returns {string}
 */
export function teamName(tb, team) {
  const me = tb.selfSeat();
  if (me !== null && G.hasTeams(tb.game())) return team === G.teamOf(me) ? t("team_us") : t("team_them");
  return team === 0 ? t("team_a") : t("team_b");
}

/**
 * @param {Table} tb
 * @param {number} team
 * @returns {string}
 */
export function teamMembers(tb, team) {
  return [team, team + 2].map((s) => tb.seatName(s)).join(" · ");
}

/**
 * A seat's badges in a partnership game: the Shengji declarer, the viewer's partner.
 * @param {Table} tb
 * @param {number} s
 * @param {any} v the view
 * @returns {HTMLElement[]}
 */
export function teamBadges(tb, s, v) {
  const out = [];
  const me = tb.mySeat();
  if (tb.game() === "shengji" && v && v.declarer === s) {
    out.push(h("span", { class: "badge role role-declarer", "data-testid": `declarer-${s}`, "data-role": "declarer" }, t("declarer_badge")));
  }
  if (me !== null && G.partnerOf(tb.game(), me) === s) {
    out.push(h("span", { class: "badge role role-partner", "data-testid": `partner-${s}`, "data-role": "partner" }, t("partner_badge")));
  }
  return out;
}

/**
 * A partnership game's side: the viewer's team.
 * @param {number} s
 * @returns {{name: string, seats: number[]}}
 */
export function teamSide(s) {
  return { name: t("side_team"), seats: [G.teamOf(s), G.teamOf(s) + 2] };
}
