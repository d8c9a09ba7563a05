// @ts-check
// The table's presenter of Shengji 升级: the declarations during the deal (buttons that
// stay on offer between the seat's decisions, the automatic "no"), the burial of the
// kitty (one `bury` action per card, each after the update of the last), the trick on
// the felt (the last one faded, its winner marked, a failed throw shown), the centre
// (level, trump, declaration, teams' levels, points) and the score screen.
// Exports: automation, buryRaised, decisions, seatBadges, seatPlay, box, scores, dealTotal.

import * as C from "../cards.js";
import { t } from "../i18n.js";
import { h } from "../ui.js";
import { centreTail } from "../table/centre.js";
import { showMessage } from "../table/message.js";
import { factorChip, handsLeft, resultLine, scoresFrame, seatRows, unscored } from "../table/scores.js";
import { AUTO_NO_KEY } from "../table/state.js";
import { cardsSpan } from "../table/text.js";
import * as G from "./rules.js";
import { teamBadges, teamMembers, teamName, teamSide } from "./teams.js";

/** @typedef {import("../table/state.js").Table} Table */

export { teamBadges as seatBadges };

/**
 * The burial queue (one `bury` action per update, each at the turn it follows) and the
 * automatic "no" during the deal when the seat has nothing to declare. Run after every
 * update, whatever the game (another game's table only empties the queue).
 * @param {Table} tb
 */
export function automation(tb) {
  const { S, U } = tb;
  const v = tb.V();
  const u = U();
  if (!v || tb.game() !== "shengji" || !tb.isMyTurn()) {
    if (!v || v.phase !== "bury") S.buryQueue = [];
    return;
  }
  if (v.phase === "bury" && S.buryQueue.length && S.buryTurn !== u.turn) {
    const card = S.buryQueue.shift();
    S.buryTurn = u.turn;
    tb.act("bury " + card);
    return;
  }
  const acts = tb.legal();
  const asking = v.phase === "deal" || v.phase === "steal"; // declarations: the deal and the 抢底 round
  if (asking && S.autoNo && acts.length === 1 && acts[0] === "no" && S.autoNoTurn !== u.turn) {
    S.autoNoTurn = u.turn;
    const turn = u.turn;
    setTimeout(() => {
      if (U() && U().turn === turn && tb.isMyTurn() && S.autoNo) tb.act("no");
    }, 120);
  }
}

/**
 * Bury the raised cards: one `bury` action per card, each sent after the update of the last.
 * @param {Table} tb
 */
export function buryRaised(tb) {
  const { S } = tb;
  const v = tb.V();
  if (!v || v.phase !== "bury" || !tb.isMyTurn() || S.buryQueue.length) return;
  const left = v.kitty_size - (v.buried || []).length;
  const cards = C.normalize(S.hand, S.raised).map((i) => S.hand[i]);
  if (!cards.length || cards.length > left) {
    showMessage(tb, t("prompt_bury", { n: left }), "hint", { ms: 2500 });
    return;
  }
  S.buryQueue = cards;
  S.buryTurn = null;
  S.raised = [];
  tb.refreshSelection();
  automation(tb);
}

/**
 * Before play: declare buttons during the deal, the kitty burial after it.
 * @param {Table} tb
 * @param {HTMLElement} prompt
 * @param {HTMLElement} buttons
 * @param {any} v the view
 * @param {boolean} myTurn
 * @param {string[]} acts the legal actions
 */
export function decisions(tb, prompt, buttons, v, myTurn, acts) {
  const { S } = tb;
  if (v.phase === "deal" || v.phase === "steal") {
    declareButtons(tb, prompt, buttons, v, myTurn, acts);
    return;
  }
  // bury
  if (!myTurn) {
    prompt.append(t("waiting_bury", { name: tb.seatName(v.to_act) }));
    return;
  }
  const left = v.kitty_size - (v.buried || []).length;
  prompt.append(t("prompt_bury", { n: left }), h("span", { class: "attached", "data-testid": "bury-count" }, " · " + t("buried_progress", { k: (v.buried || []).length, n: v.kitty_size })));
  const bury = /** @type {HTMLButtonElement} */ (h("button", { class: "primary", "data-testid": "bury", onclick: () => buryRaised(tb) }, t("bury_button", { n: S.raised.length })));
  bury.disabled = !S.raised.length || S.raised.length > left || S.buryQueue.length > 0;
  buttons.append(bury, tb.room().competition ? "" : h("button", { "data-testid": "hint", onclick: () => tb.send({ type: "hint" }) }, t("hint"))); // 比赛: 不许提示
}

/**
 * The deal and the 抢底 round: a button per declaration on offer, "no", and the
 * automatic "no" switch.
 * @param {Table} tb
 * @param {HTMLElement} prompt
 * @param {HTMLElement} buttons
 * @param {any} v the view
 * @param {boolean} myTurn
 * @param {string[]} acts the legal actions
 */
function declareButtons(tb, prompt, buttons, v, myTurn, acts) {
  const { S } = tb;
  // the fast deal asks each seat for a few hundredths of a second only: the declarations
  // offered at this seat's last decision stay on offer between its decisions, and a click
  // then is queued by the server and made at the seat's next decision (the seed's rule:
  // declare while the cards arrive)
  if (v.phase === "deal" && myTurn) S.dealDeclares = acts.filter((a) => a !== "no");
  else if (v.phase !== "deal") S.dealDeclares = [];
  if (v.phase !== "deal" || myTurn) S.queuedDeclare = null;
  const offered = myTurn ? acts : v.phase === "deal" ? S.dealDeclares : [];
  if (myTurn) prompt.append(t(v.phase === "steal" ? "prompt_steal" : "prompt_deal"));
  else if (v.phase === "steal") prompt.append(t("sj_phase_steal") + " · " + t("waiting_for", { name: tb.seatName(v.to_act) }));
  else {
    // a fixed-width count: the fast deal updates it every few ms and the buttons must not move
    const dealt = h("span", { class: "dealt-count" }, t("cards_dealt", { n: v.cards_dealt, total: dealTotal(v) }));
    prompt.append(t("prompt_deal_wait") + " ", dealt);
  }
  for (const a of offered) {
    const b = h("button", { class: "decide" + (a === "no" ? "" : " primary declare"), "data-testid": "decide-" + a.replace(/ /g, "_") });
    if (a === "no") b.append(t("act_no_declare"));
    else b.append(t("act_declare", { cards: "" }).trim() + " ", cardsSpan(a.split(/\s+/).slice(1).join(" ")));
    if (a !== "no" && S.queuedDeclare === a) b.classList.add("queued");
    b.addEventListener("click", () => tb.act(a));
    buttons.append(b);
  }
  const auto = h(
    "button",
    { class: "small toggle" + (S.autoNo ? " on" : ""), "data-testid": "auto-no", "aria-pressed": S.autoNo ? "true" : "false" },
    t("auto_no"),
  );
  auto.addEventListener("click", () => {
    S.autoNo = !S.autoNo;
    localStorage.setItem(AUTO_NO_KEY, S.autoNo ? "on" : "off");
    tb.renderControls();
    automation(tb);
  });
  buttons.append(auto);
}

/**
 * A seat's cards in the trick: the current trick, or (while the next lead is awaited)
 * the last trick faded, its winning play marked.
 * @param {Table} tb
 * @param {HTMLElement} el the seat's play box
 * @param {number} s
 * @param {any} v the view
 */
export function seatPlay(tb, el, s, v) {
  const { S } = tb;
  if (!v || (v.phase !== "play" && v.phase !== "over")) return;
  const trick = v.trick || [];
  const done = v.tricks || [];
  let play = trick.find((/** @type {any} */ p) => p.seat === s);
  let previous = null;
  if (!trick.length && done.length) {
    previous = done[done.length - 1];
    play = previous.plays.find((/** @type {any} */ p) => p.seat === s);
  }
  if (!play) return;
  const cards = C.playElement(play.cards, { size: "small" });
  const key = previous ? null : `${done.length}:${play.cards}`;
  if (key && S.seenPlays.get(s) !== key) cards.classList.add("fresh"); // slides in from the seat once
  if (key) S.seenPlays.set(s, key);
  el.append(cards);
  if (previous) {
    el.classList.add("previous");
    if (previous.winner === s) {
      el.classList.add("winner");
      el.append(h("div", { class: "play-type win-mark", "data-testid": `trick-winner-${s}` }, "★ " + t("winner_mark")));
    }
    if (previous.failed_throw && previous.leader === s) el.append(failedThrowNote(previous.failed_throw));
  } else if (v.failed_throw && trick[0] && trick[0].seat === s) {
    el.append(failedThrowNote(v.failed_throw));
  }
}

/** @param {string} cards */
function failedThrowNote(cards) {
  return h(
    "div",
    { class: "failed-throw", "data-testid": "failed-throw" },
    h("span", {}, t("failed_throw") + ": "),
    C.playElement(cards, { size: "mini" }),
  );
}

/** @param {any} v the view */
function trumpChip(v) {
  const tr = G.shengjiTrump(v);
  const box = h("span", { class: "chip trump-chip", "data-testid": "trump" });
  if (v.trump_settled) {
    box.dataset.trump = v.trump_suit || "none";
    if (v.trump_suit) {
      const red = v.trump_suit === "h" || v.trump_suit === "d";
      box.append(t("trump") + " ", h("span", { class: "suit-big " + (red ? "red" : "black") }, C.SUIT_SYMBOL[v.trump_suit]));
    } else box.append(t("no_trump"));
  } else {
    box.dataset.trump = "";
    box.append(t("trump_pending"));
    if (tr.suit) box.append(" · ", h("span", { class: "suit-big " + (tr.suit === "h" || tr.suit === "d" ? "red" : "black") }, C.SUIT_SYMBOL[tr.suit]));
  }
  return box;
}

/**
 * The centre of the felt during a hand.
 * @param {Table} tb
 * @param {HTMLElement} box the centre element
 * @param {any} v the view
 * @returns {HTMLElement}
 */
export function centre(tb, box, v) {
  box.classList.add("centre-sj");
  box.append(h("div", { class: "step-name", "data-testid": "step" }, t("sj_phase_" + v.phase)));
  const head = h(
    "div",
    { class: "sj-head", "data-testid": "sj-head" },
    h("span", { class: "chip level-chip", "data-testid": "level" }, t("level_n", { r: C.rankLabel(v.level) })),
    trumpChip(v),
  );
  box.append(head);
  // the declaration standing (during the deal) or the declarer
  const decl = h("div", { class: "sj-decl", "data-testid": "declaration" });
  if (v.declaration) {
    decl.append(t("declared_by", { name: tb.seatName(v.declaration.seat) }) + " ", cardsSpan(v.declaration.cards));
  } else if (v.phase === "deal" || v.phase === "steal") decl.append(t("no_declaration"));
  if (v.revealed_kitty_card) decl.append(h("span", { "data-testid": "kitty-card-trump" }, t("kitty_card_trump") + " "), cardsSpan(v.revealed_kitty_card));
  if (v.declarer !== null && v.declarer !== undefined) {
    decl.append(h("span", { class: "sj-declarer" }, (decl.childNodes.length ? " · " : "") + t("declarer") + ": " + tb.seatName(v.declarer)));
  }
  if (decl.childNodes.length) box.append(decl);
  // team levels
  const levels = h("div", { class: "chips team-levels", "data-testid": "team-levels" });
  for (const team of [0, 1]) {
    const declaring = v.declarer !== null && v.declarer !== undefined && G.teamOf(v.declarer) === team;
    levels.append(
      h(
        "span",
        { class: `chip team-chip team-${team}` + (declaring ? " declaring" : ""), title: teamMembers(tb, team), "data-testid": `team-level-${team}` },
        `${teamName(tb, team)} ${C.rankLabel(v.team_levels[team])}` + (declaring ? " · " + t("declaring_team") : ""),
      ),
    );
  }
  box.append(levels);
  centreProgress(tb, box, v);
  if (v.phase === "over" && v.kitty) {
    box.append(h("div", { class: "pool", "data-testid": "kitty" }, h("div", { class: "muted small-text" }, t("kitty")), C.playElement(v.kitty.join(" "), { size: "mini" })));
  }
  centreTail(tb, box, v);
  return box;
}

/**
 * The centre's line of progress: cards dealt, cards buried, or the points and the last trick.
 * @param {Table} tb
 * @param {HTMLElement} box the centre element
 * @param {any} v the view
 */
function centreProgress(tb, box, v) {
  if (v.phase === "deal") {
    box.append(h("div", { class: "muted small-text", "data-testid": "dealt" }, t("cards_dealt", { n: v.cards_dealt, total: dealTotal(v) })));
  }
  if (v.phase === "bury") {
    const k = (v.buried || []).length;
    if (v.buried) box.append(h("div", { class: "muted small-text", "data-testid": "bury-progress" }, t("buried_progress", { k, n: v.kitty_size })));
    else box.append(h("div", { class: "waiting muted small-text", "data-testid": "waiting" }, t("waiting_bury", { name: tb.seatName(v.declarer) })));
  }
  if (v.phase === "play" || v.phase === "over") {
    const pts = (v.defender_points || 0) + (v.penalty_points || 0);
    const chips = h("div", { class: "chips" }, h("span", { class: "chip points-chip", "data-testid": "defender-points" }, t("defender_points", { n: pts })));
    box.append(chips);
    const done = v.tricks || [];
    if (done.length) {
      const lt = done[done.length - 1];
      box.append(h("div", { class: "muted small-text", "data-testid": "last-trick" }, t("last_trick_won", { name: tb.seatName(lt.winner), n: lt.points })));
    }
    if (v.phase === "play" && !(v.trick || []).length && v.to_act !== null && v.to_act !== undefined) {
      box.append(h("div", { class: "muted small-text" }, v.to_act === tb.selfSeat() ? t("prompt_play_lead") : t("leads", { name: tb.seatName(v.to_act) })));
    }
  }
}

/**
 * The cards of the whole deal (four seats), for "cards dealt n / total".
 * @param {any} v the view
 * @returns {number}
 */
export function dealTotal(v) {
  /** @type {Record<number, number>} */
  const perSeat = { 1: 12, 2: 25, 3: 39 };
  const per = perSeat[(v.options && v.options.decks) || 2] || 25;
  return per * 4;
}

/**
 * The score screen: teams, the declarer, level changes, the defenders' points, the kitty,
 * the new levels, the match's winner or the next declarer.
 * @param {Table} tb
 * @param {any} v the view
 * @returns {HTMLElement}
 */
export function scores(tb, v) {
  const res = v.result || {};
  const d = res.declarer;
  const rows = seatRows(tb, v, (s) => [
    h("td", {}, teamName(tb, G.teamOf(s))),
    h("td", {}, s === d ? t("declarer") : ""),
  ]);
  const table = h(
    "table",
    { class: "scores-table" },
    h("thead", {}, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("team")), h("th", {}, t("role")), h("th", {}, t("level_change")), h("th", {}, t("beans_col")), h("th", {}, t("standings")))),
    h("tbody", {}, ...rows),
  );
  return scoresFrame(tb, resultLine(tb, v, teamSide), table, ...outcomeLines(tb, v, res), scoreDetail(tb, v), handsLeft(tb, v));
}

/**
 * The hand's outcome on the score screen, line by line.
 * @param {Table} tb
 * @param {any} v the view
 * @param {any} res the view's result
 * @returns {(HTMLElement | null)[]}
 */
function outcomeLines(tb, v, res) {
  // deal_passed (cannot_declare_passes_deal 亮不起牌): the hand was void;
  // an unscored hand (every person on 托管) moves no beans and no rating; its levels move as played
  const played = res.deal_passed
    ? t("sj_deal_passed")
    : res.declarers_hold
      ? t("sj_hold", { n: res.levels_up })
      : res.levels_up
        ? t("sj_take_over_up", { n: res.levels_up })
        : t("sj_take_over");
  const outcome = unscored(tb) ? t("sj_unscored") + " · " + played : played;
  return [
    h("div", { class: "sj-outcome", "data-testid": "sj-outcome" }, outcome),
    h(
      "div",
      { class: "small-text", "data-testid": "defender-total" },
      [t("defenders_total", { n: res.defender_points }), t("trick_points", { n: res.trick_points }), res.penalty_points ? t("penalty_points", { n: res.penalty_points }) : null]
        .filter(Boolean)
        .join(" · "),
    ),
    h(
      "div",
      { class: "kitty-line", "data-testid": "kitty-result" },
      h("span", {}, t("kitty") + ": "),
      C.playElement((v.kitty || []).join(" "), { size: "mini" }),
      h(
        "span",
        { class: "small-text" },
        res.kitty_bonus
          ? t("kitty_bonus", { p: res.kitty_points, m: res.kitty_multiplier, b: res.kitty_bonus })
          : t("kitty_kept", { p: res.kitty_points, m: res.kitty_multiplier }),
      ),
    ),
    newLevels(tb, v, res),
    res.jack_reset ? h("div", { class: "small-text" }, t("jack_reset_note")) : null,
    res.match_winner !== null && res.match_winner !== undefined
      ? h("div", { class: "sj-outcome", "data-testid": "match-winner" }, t("match_won", { team: teamName(tb, res.match_winner), r: C.rankLabel(v.level) }))
      : res.next_declarer !== undefined
        ? h("div", { class: "muted small-text" }, t("next_declarer", { name: tb.seatName(res.next_declarer) }))
        : null,
  ];
}

/**
 * Each team's level before → after the hand.
 * @param {Table} tb
 * @param {any} v the view
 * @param {any} res the view's result
 * @returns {HTMLElement}
 */
function newLevels(tb, v, res) {
  return h(
    "div",
    { class: "new-levels", "data-testid": "new-levels" },
    t("new_levels") + ": ",
    ...[0, 1].map((team) =>
      h("span", { class: `chip team-chip team-${team}`, "data-testid": `new-level-${team}` }, `${teamName(tb, team)} ${C.rankLabel(v.team_levels[team])} → ${C.rankLabel((res.team_levels || [])[team])}`),
    ),
  );
}

/**
 * The defenders' points, the kitty points × multiplier, each team's level change.
 * @param {Table} tb
 * @param {any} v the view
 * @returns {HTMLElement | null}
 */
function scoreDetail(tb, v) {
  const d = v.score_detail;
  if (!d || typeof d !== "object") return null;
  const box = h("div", { class: "mults chips", "data-testid": "score-detail" });
  if (d.defender_points !== undefined) {
    const line = d.threshold !== undefined ? " · " + t("sd_threshold", { n: d.threshold }) : "";
    const text = t("sd_defenders", { n: d.defender_points }) + line;
    box.append(factorChip("defender_points", text));
  }
  if (d.kitty_points !== undefined) {
    const counted = d.kitty_counted ?? (d.kitty_points || 0) * (d.kitty_multiplier || 1);
    // the kitty counts only when the defenders win the last trick 抠底: else say why it is 0
    const text = counted || !d.kitty_points ? t("sd_kitty", { p: d.kitty_points, m: d.kitty_multiplier ?? 1, c: counted }) : t("sd_kitty_kept", { p: d.kitty_points });
    box.append(factorChip("kitty", text));
  }
  // the level change: which team goes up and by how many levels (score_detail.level_changes)
  const change = d.level_changes;
  if (change && Number.isInteger(change.team) && change.levels) {
    box.append(factorChip("level_change", t("level_change") + ": " + teamName(tb, change.team) + " +" + change.levels));
  }
  return box.childNodes.length ? box : null;
}
