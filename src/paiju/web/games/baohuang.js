// @ts-check
// The table's presenter of Baohuang 保皇: the role badges (皇帝, 侍卫, 锄头 …), the centre
// of the felt (the step, the called card, the multipliers, the tribute pool, the play to
// beat), the setup decisions (登基, calling a card with its 暗独 warning, 上贡 …) and the
// score screen with its multipliers. Baohuang is also the table's default game.
// Exports: seatBadges, box, decisions, scores.

import * as C from "../cards.js";
import { t } from "../i18n.js";
import { h, confirmBox } from "../ui.js";
import { centreTail, chip } from "../table/centre.js";
import { beansCell, factorChip, handsLeft, resultLine, scoresFrame, shownScores } from "../table/scores.js";
import { sendCheck } from "../table/selection.js";
import { actionLabel, cardLabel, cardSpan } from "../table/text.js";

/** @typedef {import("../table/state.js").Table} Table */

/**
 * A seat's role badge: 皇帝 (with 明独 / 暗独), 侍卫, 锄头 (a declared rebel), 反贼, the
 * holder of the emperor card before 登基, or unknown.
 * @param {Table} _tb
 * @param {number} s
 * @param {any} v the view
 * @returns {HTMLElement[]}
 */
export function seatBadges(_tb, s, v) {
  const role = roleBadge(s, v);
  return role ? [role] : [];
}

/**
 * @param {number} s
 * @param {any} v the view
 * @returns {HTMLElement | null}
 */
function roleBadge(s, v) {
  if (!v) return null;
  const role = v.emperor === s ? "emperor" : v.roles ? v.roles[s] : null;
  const hoe = (v.rebels_declared || []).includes(s);
  const soloText = v.solo === "open" ? t("open_solo") : v.solo === "hidden" ? t("hidden_solo") : null;
  if (role === "emperor") {
    const b = h("span", { class: "badge role role-emperor", "data-role": "emperor" });
    b.innerHTML = C.CROWN_SVG;
    b.append(t("role_emperor") + (soloText ? " · " + soloText : ""));
    return b;
  }
  if (role === "guard") {
    const b = h("span", { class: "badge role role-guard", "data-role": "guard" });
    b.innerHTML = C.SWORD_ICON;
    b.append(t("role_guard"));
    return b;
  }
  if (hoe) {
    const b = h("span", { class: "badge role role-hoe", "data-role": "rebel" });
    b.innerHTML = C.HOE_ICON;
    b.append(t("role_hoe"));
    return b;
  }
  if (role === "rebel") return h("span", { class: "badge role role-rebel", "data-role": "rebel" }, t("role_rebel"));
  if (v.emperor === null || v.emperor === undefined) {
    if (v.step === "emperor" && v.emperor_card_holder === s) {
      const b = h("span", { class: "badge role role-holder", "data-role": "holder" });
      b.innerHTML = C.CROWN_SVG;
      b.append(t("emperor_card") + (v.attached ? " · " + t("attached_n", { n: v.attached }) : ""));
      return b;
    }
    return null;
  }
  return h("span", { class: "badge role role-unknown", "data-role": "unknown" }, t("role_unknown"));
}

/**
 * The centre of the felt during a hand.
 * @param {Table} tb
 * @param {HTMLElement} box the centre element
 * @param {any} v the view
 * @param {{cur: Record<number, any>, prev: any}} tricks the current and the previous trick (felt.js)
 * @returns {HTMLElement}
 */
export function centre(tb, box, v, tricks) {
  box.append(h("div", { class: "step-name", "data-testid": "step" }, t("step_" + v.step)));
  const chips = h("div", { class: "chips", "data-testid": "multipliers" });
  if (v.called) chips.append(chip("called", t("called") + " ", cardSpan(v.called)));
  if (v.solo === "open") chips.append(chip("mult", t("open_solo")));
  if (v.solo === "hidden") chips.append(chip("mult", t("hidden_solo")));
  if (v.open_guard) chips.append(chip("mult", t("open_guard") + " ×2"));
  if (v.rebellion) chips.append(chip("mult", t("rebellion") + " ×2"));
  if (v.kicks) chips.append(chip("mult", t("kick") + " ×" + 2 ** v.kicks));
  if (v.deals > 1) chips.append(chip("info", t("deals_n", { n: v.deals })));
  if (chips.childNodes.length) box.append(chips);
  if (v.step === "tribute" && v.tribute_pool && v.tribute_pool.length) {
    box.append(
      h("div", { class: "pool", "data-testid": "tribute-pool" }, h("div", { class: "muted small-text" }, t("tribute_pool")), C.playElement(v.tribute_pool.join(" "), { size: "small" })),
    );
  }
  if (v.phase === "play" || v.phase === "over") {
    const trick = v.trick || [];
    const lastPlay = h("div", { class: "last-play", "data-testid": "last-play" });
    if (trick.length) {
      const top = trick[trick.length - 1];
      lastPlay.append(h("div", { class: "who" }, `${t("to_beat")}: ${tb.seatName(top.seat)}`), C.playElement(top.cards, { size: "small" }));
    } else if (tricks.prev && tricks.prev.plays.length) {
      const w = tricks.prev.plays[tricks.prev.plays.length - 1];
      lastPlay.classList.add("previous");
      lastPlay.append(h("div", { class: "who" }, `${t("last_trick")}: ${tb.seatName(w.seat)}`), C.playElement(w.cards, { size: "small" }));
    }
    if (v.phase === "play" && !trick.length && v.to_act !== null && v.to_act !== undefined) {
      lastPlay.append(h("div", { class: "muted small-text" }, v.to_act === tb.selfSeat() ? t("you_lead") : t("leads", { name: tb.seatName(v.to_act) })));
    }
    box.append(lastPlay);
  }
  centreTail(tb, box, v);
  return box;
}

/**
 * The setup decisions at the viewer's turn (登基, 保 …, calling a card, 上贡): a prompt
 * and one button per legal action.
 * @param {Table} tb
 * @param {HTMLElement} prompt
 * @param {HTMLElement} buttons
 * @param {any} v the view
 * @param {string[]} acts the legal actions
 */
export function decisions(tb, prompt, buttons, v, acts) {
  // 明保: every seat but the emperor's is asked, so that nobody learns who the guard is by
  // who was asked; only the guard may reveal — the prompt says so to every seat
  const help = v.step === "reveal" ? t("reveal_help") : null;
  prompt.append(help ? h("span", { class: "has-help", title: help, "data-testid": "reveal-prompt" }, t("prompt_reveal")) : t("prompt_" + v.step));
  if (v.step === "emperor" && v.attached_cards && v.attached_cards.length) {
    prompt.append(h("span", { class: "attached" }, " · " + t("attached_cards") + ": "), C.playElement(v.attached_cards.join(" "), { size: "mini" }));
  }
  for (const a of acts) {
    const word = a.split(" ")[0];
    const attrs = { class: "decide" + (["no", "abdicate"].includes(word) ? "" : " primary"), "data-testid": "decide-" + a.replace(/ /g, "_") };
    const b = h("button", help ? { ...attrs, title: help } : attrs);
    const arg = a.split(" ")[1];
    if (arg && (word === "call" || word === "take")) {
      b.append(word === "call" ? t("called") + " " : t("step_tribute") + " ", cardSpan(arg));
    } else b.append(actionLabel(a, v.step));
    b.addEventListener("click", () => (word === "call" ? callCard(tb, a) : tb.act(a)));
    buttons.append(b);
  }
}

/**
 * The emperor calls a card. When he holds every copy of it he plays 暗独 alone (the
 * view's solo_calls, else the check's warning): ask first.
 * @param {Table} tb
 * @param {string} action
 */
function callCard(tb, action) {
  const { S, U } = tb;
  const v = tb.V();
  const turn = U().turn;
  const ask = async () => {
    const yes = await confirmBox(t("confirm_call_solo", { card: cardLabel(action.split(/\s+/)[1] || "") }), {
      yes: t("confirm_call_solo_yes"),
      no: t("cancel"),
      testid: "solo-confirm",
    });
    if (yes && U() && U().turn === turn) tb.act(action);
  };
  if (v && Array.isArray(v.solo_calls)) {
    if (v.solo_calls.includes(action)) ask();
    else tb.act(action);
    return;
  }
  if (S.checkUnsupported) {
    tb.act(action);
    return;
  }
  sendCheck(tb, action, turn, (answer) => {
    if (answer && answer.warning === "call_makes_solo") ask();
    else if (U() && U().turn === turn) tb.act(action);
  });
}

/**
 * The score screen: role, place, points and standings per seat, then the multipliers.
 * @param {Table} tb
 * @param {any} v the view
 * @returns {HTMLElement}
 */
export function scores(tb, v) {
  const r = tb.room();
  const n = tb.numSeats();
  const places = v.places || [];
  const placeOfSeat = (/** @type {number} */ s) => {
    const i = places.indexOf(s);
    return i >= 0 ? i + 1 : null;
  };
  const rows = [];
  const shown = shownScores(tb, v);
  for (let s = 0; s < n; s++) {
    const role = v.roles && v.roles[s];
    const pts = shown ? shown[s] : null;
    const total = r.standings ? r.standings[s] : null;
    const p = placeOfSeat(s); // every seat has a place: those left holding cards by their cards (§4)
    rows.push(
      h(
        "tr",
        { class: s === tb.mySeat() ? "mine" : "", "data-seat": String(s) },
        h("td", {}, tb.seatName(s)),
        h("td", {}, role ? t("role_" + role) + ((v.rebels_declared || []).includes(s) ? " · " + t("role_hoe") : "") : "?"),
        h("td", {}, p ? t("place_" + p) : "—"),
        h("td", { class: "num " + (pts > 0 ? "pos" : pts < 0 ? "neg" : "") }, pts === null || pts === undefined ? "" : (pts > 0 ? "+" : "") + pts),
        beansCell(tb, s),
        h("td", { class: "num" }, total === null || total === undefined ? "" : String(total)),
      ),
    );
  }
  // the emperor's side (皇帝 and 侍卫, or the emperor alone) against the rebels
  const sideOf = (/** @type {number} */ s) => {
    const roles = v.roles || [];
    const emperorSide = (/** @type {number} */ x) => roles[x] === "emperor" || roles[x] === "guard" || v.emperor === x;
    if (!roles.length && v.emperor === undefined) return null;
    const mine = emperorSide(s);
    const seats = [...Array(n).keys()].filter((x) => emperorSide(x) === mine);
    if (mine && seats.length === 1) return null; // alone: the side is the player
    return { name: t(mine ? "side_emperor" : "side_rebels"), seats: seats.slice(0, 1) };
  };
  return scoresFrame(
    tb,
    resultLine(tb, v, sideOf),
    h(
      "table",
      { class: "scores-table" },
      h("thead", {}, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("role")), h("th", {}, t("place")), h("th", {}, t("points")), h("th", {}, t("beans_col")), h("th", {}, t("standings")))),
      h("tbody", {}, ...rows),
    ),
    scoreDetail(v),
    handsLeft(tb, v),
  );
}

/**
 * Where the base number comes from: a pair's 6 − (emperor's place + guard's place), a
 * solo's place of the emperor (score_detail.places).
 * @param {any} d score_detail
 * @returns {string}
 */
function baseWhy(d) {
  const p = d.places || {};
  if (!Number.isInteger(p.emperor)) return "";
  if (d.kind === "pair" && Number.isInteger(p.guard)) return " = " + t("sd_base_pair", { e: p.emperor, g: p.guard });
  return " · " + t("sd_base_solo", { e: p.emperor });
}

/**
 * How the score came about — the kind with its base number, then every multiplier with
 * its factor (明保 ×2, 造反 ×2, 踢 ×2 each, 上贡 ×n).
 * @param {any} v the view
 * @returns {HTMLElement}
 */
function scoreDetail(v) {
  const d = v.score_detail;
  const head = h("span", {}, t("multipliers") + ": ");
  const box = h("div", { class: "mults chips", "data-testid": "score-multipliers" }, head);
  if (d && typeof d === "object") {
    /** @type {Record<string, string>} */
    const kinds = { pair: t("sd_pair"), open_solo: t("open_solo"), hidden_solo: t("hidden_solo") };
    const kind = kinds[d.kind] || d.kind;
    box.append(factorChip(d.kind || "base", t("sd_base", { kind, n: d.base ?? "?" }) + baseWhy(d)));
    for (const f of d.factors || []) {
      const key = "factor_" + f.name;
      const name = t(key) === key ? f.name : t(key);
      box.append(factorChip(f.name, `${name} ×${f.factor}`));
    }
    if (d.multiplier !== undefined) box.append(h("b", { "data-testid": "multiplier-total" }, `= ×${d.multiplier}`));
    if (d.base === 0) box.append(h("span", { class: "small-text", "data-testid": "base-zero" }, t("sd_base_zero")));
    if (d.kick_split) box.append(h("span", { class: "muted small-text" }, t("sd_kick_split")));
    return box;
  }
  // an older server: the view's flags (no base numbers)
  const mults = [];
  if (v.solo === "open") mults.push(t("open_solo"));
  if (v.solo === "hidden") mults.push(t("hidden_solo"));
  if (v.open_guard) mults.push(t("open_guard") + " ×2");
  if (v.rebellion) mults.push(t("rebellion") + " ×2");
  if (v.kicks) mults.push(t("kick") + " ×" + 2 ** v.kicks);
  box.append(mults.length ? mults.join(" · ") : "×1");
  return box;
}
