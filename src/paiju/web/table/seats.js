// @ts-check
// One seat around the felt: its name (online or not, "you"), its badges (role or team
// from the game's presenter, place, standing, 托管, cards left, ready, the turn's timer),
// seat management before a hand (sit, add or remove a bot), its last play in the trick,
// what it said, its menu (seatmenu.js: 举报, 请离座), and in a replay its cards face up.
// Exports: renderSeat.

import * as C from "../cards.js";
import { presenterOf } from "../games/presenters.js";
import * as G from "../games/rules.js";
import { t, getLang } from "../i18n.js";
import { h } from "../ui.js";
import { bubbleOf } from "./chat.js";
import { timerText } from "./clock.js";
import { seatMenuButton } from "./seatmenu.js";
import { kindLabel } from "./text.js";

/** @typedef {import("./state.js").Table} Table */

const BOT_LEVELS = ["hosted", "normal", "strong", "strongest"];
const CLOCK_SVG =
  '<svg viewBox="0 0 16 16" class="icon-svg" aria-hidden="true"><circle cx="8" cy="9" r="6" fill="#fff8e1" stroke="#3e2e00" stroke-width="1.6"/><path d="M8 5.5V9l2.5 1.5" stroke="#3e2e00" stroke-width="1.6" fill="none" stroke-linecap="round"/><rect x="6" y="0.5" width="4" height="2" rx="1" fill="#3e2e00"/></svg>';
const BACK_SVG =
  '<svg viewBox="0 0 14 18" class="back-icon" aria-hidden="true"><rect x="1" y="1" width="12" height="16" rx="2" fill="#1e4fa0" stroke="#fff" stroke-width="1.2"/><path d="M3 4h8v10h-8z" fill="none" stroke="#8fb3ff" stroke-width="0.8"/></svg>';

/**
 * @param {number} s
 * @param {any} v the view
 * @returns {number | null} the seat's place among those who went out
 */
function placeOf(s, v) {
  if (!v) return null;
  const i = (v.finished || []).indexOf(s);
  if (i >= 0) return i + 1;
  return null;
}

/**
 * The seat `s` at `position` (bottom, left, top …).
 * @param {Table} tb
 * @param {number} s
 * @param {string} position
 * @param {any} v the view
 * @param {{cur: Record<number, any>, prev: any}} tricks (felt.js)
 * @returns {HTMLElement}
 */
export function renderSeat(tb, s, position, v, tricks) {
  const { R } = tb;
  const info = tb.seatInfo(s);
  const me = tb.mySeat();
  const game = tb.game();
  const empty = !R && !info.player && !info.bot; // a replay's seat is never free to sit at
  const toAct = v && v.to_act === s && v.phase !== "over";
  const teams = G.hasTeams(game);
  const box = h("div", {
    class:
      "seat-box" +
      (teams ? ` team team-${G.teamOf(s)}` : "") +
      (toAct ? " to-act" : "") +
      (s === me ? " mine" : "") +
      (empty ? " empty" : "") +
      (info.connected === false && info.player ? " offline" : ""),
  });
  box.append(nameLine(tb, s, info, empty));
  const badges = seatBadges(tb, s, v, info, empty, toAct);
  if (badges.childNodes.length) box.append(badges);
  if (R) {
    // a replay: no seat management; every other seat's cards face up (the bottom one's are the hand)
    const cards = tb.U() && tb.U().hands ? tb.U().hands[s] : null;
    if (cards && s !== me) box.append(faceUp(tb, s, cards));
  } else {
    const mgmt = seatManagement(tb, s, info, empty);
    if (mgmt.childNodes.length) box.append(mgmt);
  }
  return h(
    "div",
    {
      class: `seat pos-${position}`,
      "data-testid": `seat-${s}`,
      "data-seat": String(s),
      "data-empty": empty ? "true" : "false",
      "data-role": v && v.emperor === s ? "emperor" : v && v.roles && v.roles[s] ? v.roles[s] : "",
      "data-to-act": toAct ? "true" : "false",
      "data-team": teams ? String(G.teamOf(s)) : "",
      "data-partner": teams && G.partnerOf(game, me) === s ? "true" : "false",
      "data-declarer": game === "shengji" && v && v.declarer === s ? "true" : "false",
    },
    box,
    seatPlay(tb, s, v, tricks),
    bubbleOf(tb, s),
  );
}

/**
 * The name line: online or not, the name (or "empty seat"), "(you)".
 * @param {Table} tb
 * @param {number} s
 * @param {any} info the room's seat
 * @param {boolean} empty
 */
function nameLine(tb, s, info, empty) {
  const line = h("div", { class: "seat-name" });
  if (info.player && !tb.R) {
    line.append(
      h("span", {
        class: "conn " + (info.connected === false ? "off" : "on"),
        title: info.connected === false ? t("offline") : t("online"),
        "data-testid": `conn-${s}`,
        "data-connected": info.connected === false ? "false" : "true",
      }),
    );
  }
  line.append(h("span", { class: "name-text" }, empty ? t("empty_seat") : tb.seatName(s)));
  if (s === tb.selfSeat()) line.append(h("span", { class: "you-mark" }, "(" + t("you") + ")"));
  const menu = seatMenuButton(tb, s, info); // 举报, and the owner's 请离座
  if (menu) line.append(menu);
  return line;
}

/**
 * The seat's badges: role or team, place, standing, 托管, cards left, ready, the timer.
 * @param {Table} tb
 * @param {number} s
 * @param {any} v the view
 * @param {any} info the room's seat
 * @param {boolean} empty
 * @param {boolean} toAct
 */
function seatBadges(tb, s, v, info, empty, toAct) {
  const r = tb.room();
  const badges = h("div", { class: "seat-badges" });
  badges.append(...presenterOf(tb.game()).seatBadges(tb, s, v));
  const place = placeOf(s, v);
  if (place) {
    const text = tb.game() === "shuangkou" ? t("sk_place_" + place) : t("place_" + place);
    badges.append(h("span", { class: `badge place place-${place}`, "data-testid": `place-${s}` }, text));
  }
  if (info.player && (info.title || info.beans !== null)) {
    // 游戏等级 and an account's beans 游戏豆 (guests: the title alone)
    const bits = [];
    if (info.title) bits.push(getLang() === "zh" ? info.title.zh : info.title.en);
    if (info.beans !== null && info.beans !== undefined) bits.push(t("seat_beans", { n: info.beans }));
    badges.append(h("span", { class: "badge standing", "data-testid": `standing-${s}` }, bits.join(" · ")));
  }
  if (info.hosted) {
    const why = info.hosted_reason ? t("hosted_reason_" + info.hosted_reason) : "";
    badges.append(
      h(
        "span",
        { class: "badge hosted", "data-testid": `hosted-${s}`, title: why || null },
        t("hosted_badge") + ` ${info.hosted_times ?? 0}/${r.hosted_lock_after ?? 3}` + (info.locked ? " · " + t("locked") : ""),
      ),
    );
  }
  if (v && v.hand_counts) {
    const cnt = h("span", { class: "badge count", "data-testid": `count-${s}`, title: t("cards_n", { n: v.hand_counts[s] }) });
    cnt.innerHTML = BACK_SVG;
    cnt.append(String(v.hand_counts[s]));
    badges.append(cnt);
  }
  const ready = r.ready;
  if (Array.isArray(ready) && !tb.playing() && !empty && (v ? v.phase === "over" : true)) {
    // 准备: who is ready for the next hand
    const on = !!ready[s];
    badges.append(
      h("span", { class: "badge ready-mark" + (on ? " on" : ""), "data-testid": `ready-${s}`, "data-ready": on ? "true" : "false" }, on ? "✓ " + t("ready_mark") : "…"),
    );
  }
  if (toAct && tb.S.deadlineAt !== null) {
    const clock = h("span", { class: "badge timer-badge" });
    clock.innerHTML = CLOCK_SVG;
    clock.append(h("span", { class: "timer", "data-testid": "timer", "data-seat": String(s) }, timerText(tb)));
    badges.append(clock);
  }
  return badges;
}

/**
 * Seat management (before a hand, or a seat left free): sit, add a bot, remove a bot.
 * @param {Table} tb
 * @param {number} s
 * @param {any} info the room's seat
 * @param {boolean} empty
 */
function seatManagement(tb, s, info, empty) {
  const mgmt = h("div", { class: "seat-mgmt" });
  if (empty && tb.S.update) {
    mgmt.append(h("button", { class: "small primary", "data-testid": `sit-${s}`, onclick: () => tb.send({ type: "sit", seat: s }) }, t("sit")));
    if (!tb.playing()) {
      const bots = h("div", { class: "bot-buttons" }, h("span", { class: "muted small-text" }, t("add_bot") + ":"));
      for (const level of BOT_LEVELS) {
        bots.append(
          h(
            "button",
            { class: "small", "data-testid": `bot-${s}-${level}`, onclick: () => tb.send({ type: "bot", seat: s, level }) },
            t("bot_" + level),
          ),
        );
      }
      mgmt.append(bots);
    }
  } else if (info.bot && !tb.playing()) {
    mgmt.append(
      h(
        "button",
        { class: "small", "data-testid": `bot-${s}-remove`, onclick: () => tb.send({ type: "bot", seat: s, level: null }) },
        t("remove_bot"),
      ),
    );
  }
  return mgmt;
}

/**
 * The seat's last action in the current trick (the game's presenter may draw it itself).
 * @param {Table} tb
 * @param {number} s
 * @param {any} v the view
 * @param {{cur: Record<number, any>, prev: any}} tricks
 */
function seatPlay(tb, s, v, tricks) {
  const { S } = tb;
  const played = h("div", { class: "seat-play", "data-testid": `seat-play-${s}` });
  const last = v && (v.phase === "play" || v.phase === "over") ? tricks.cur[s] : null;
  const own = presenterOf(tb.game()).seatPlay;
  if (own) own(tb, played, s, v);
  else if (last && last.kind === "play") {
    const el = C.playElement(last.cards, { size: "small" });
    if (S.seenPlays.get(s) !== last.i) el.classList.add("fresh"); // slides in from the seat once
    S.seenPlays.set(s, last.i);
    played.append(el);
    if (last.type) played.append(h("div", { class: "play-type", "data-testid": `play-type-${s}` }, kindLabel(last.type, last.cards)));
  } else if (last) played.append(h("span", { class: "pass-mark" }, last.kind === "yield" ? t("yield_mark") : t("pass_mark")));
  return played;
}

/**
 * A replay: the cards a seat still holds, face up, small and overlapping (sorted as its own hand would be).
 * @param {Table} tb
 * @param {number} s
 * @param {string[]} cards
 */
function faceUp(tb, s, cards) {
  const sorted = G.sortHand(tb.game(), cards, tb.V());
  const box = h("div", { class: "seat-cards", "data-testid": `seat-cards-${s}`, "data-count": String(cards.length), "data-cards": sorted.join(" ") });
  for (const c of sorted) box.append(C.cardElement(c, { size: "mini" }));
  return box;
}
