// @ts-check
// The controls over the hand: the prompt (whose turn, what to do), and the buttons of the
// moment — a game's decisions before play (its presenter's), 出牌 / 不出 / 提示 in play,
// 准备 / 站起 between hands, 托管 and 离开 — kept as they are when an update changes
// nothing (the fast deal updates many times a second: a click under way must land).
// A replay shows its own controls here instead.
// Exports: renderControls.

import * as baohuang from "../games/baohuang.js";
import * as shengji from "../games/shengji.js";
import { t } from "../i18n.js";
import { h } from "../ui.js";
import { countdownEl } from "./clock.js";
import { renderHostedBanner, updateHostedButton } from "./hosted.js";
import { readyButton } from "./ready.js";
import { playRaised } from "./selection.js";

/** @typedef {import("./state.js").Table} Table */

/** @param {Table} tb */
export function renderControls(tb) {
  const { S, R } = tb;
  const { controls, msgLine } = tb.dom;
  if (R) {
    // a replay: its own controls (replay.js) where the play controls are
    if (R.controls.parentNode !== controls) controls.replaceChildren(R.controls);
    return;
  }
  const v = tb.V();
  const me = tb.mySeat();
  const buttons = h("div", { class: "buttons" });
  const prompt = h("div", { class: "prompt", "data-testid": "prompt" });
  if (me === null) {
    prompt.append(S.update ? t("watching") : t("connecting"));
    controls.replaceChildren(prompt, msgLine);
    renderHostedBanner(tb);
    return;
  }
  const info = tb.seatInfo(me);
  const myTurn = tb.isMyTurn();
  const acts = tb.legal();
  if (v && tb.game() === "shengji" && ["deal", "steal", "bury"].includes(v.phase)) {
    shengji.decisions(tb, prompt, buttons, v, myTurn, acts);
  } else if (v && v.phase === "setup" && myTurn) {
    baohuang.decisions(tb, prompt, buttons, v, acts);
  } else if (v && v.phase === "play") {
    playButtons(tb, prompt, buttons, v, myTurn, acts);
  } else if (v && v.phase === "setup" && v.to_act !== null && v.to_act !== undefined) {
    prompt.append(t("waiting_for", { name: tb.seatName(v.to_act) }) + " · " + t("step_" + v.step));
  } else if (!tb.playing()) {
    betweenHands(tb, prompt, buttons, me);
  }
  if (tb.playing()) {
    updateHostedButton(tb, info);
    buttons.append(tb.dom.hostedBtn.cloneNode(true)); // its stand-in while the rows are compared below
  }
  buttons.append(h("button", { class: "danger", "data-testid": "leave", onclick: () => leave(tb) }, t("leave")));
  showControls(tb, prompt, buttons);
}

/**
 * Put the prompt and the buttons in place: the same buttons as shown (the fast deal
 * updates many times a second) keep their elements, so a click under way still lands.
 * @param {Table} tb
 * @param {HTMLElement} prompt
 * @param {HTMLElement} buttons
 */
function showControls(tb, prompt, buttons) {
  const { controls, msgLine, hostedBtn } = tb.dom;
  const shown = controls.querySelector(":scope > .buttons");
  const same = shown && shown.outerHTML === buttons.outerHTML;
  const shownPrompt = controls.querySelector(":scope > .prompt");
  if (same && shownPrompt && shownPrompt.outerHTML === prompt.outerHTML) {
    renderHostedBanner(tb);
    return;
  }
  if (same) {
    // the buttons stay where they are (moving them detaches them: a click under way on
    // 托管 while updates come fast would be lost); only the prompt is new
    if (shownPrompt) shownPrompt.replaceWith(prompt);
    else controls.insertBefore(prompt, controls.firstChild);
    if (msgLine.parentNode !== controls) controls.insertBefore(msgLine, shown);
    renderHostedBanner(tb);
    return;
  }
  const standIn = buttons.querySelector('[data-testid="hosted"]');
  if (standIn) standIn.replaceWith(hostedBtn);
  controls.replaceChildren(prompt, msgLine, buttons);
  renderHostedBanner(tb);
}

/**
 * In play: 出牌, 不出 (not in Shengji), 提示, and 让 where the game offers it.
 * @param {Table} tb
 * @param {HTMLElement} prompt
 * @param {HTMLElement} buttons
 * @param {any} v the view
 * @param {boolean} myTurn
 * @param {string[]} acts the legal actions
 */
function playButtons(tb, prompt, buttons, v, myTurn, acts) {
  if (myTurn) prompt.append(t(v.trick && v.trick.length ? "prompt_play" : "prompt_play_lead"));
  else if (v.to_act !== null && v.to_act !== undefined) prompt.append(t("waiting_for", { name: tb.seatName(v.to_act) }));
  const inPlay = myTurn;
  buttons.append(
    ...[
      h("button", { class: "primary", "data-testid": "play", disabled: !inPlay, onclick: () => playRaised(tb) }, t("play")),
      tb.game() === "shengji" ? null : h("button", { "data-testid": "pass", disabled: !(inPlay && acts.includes("pass")), onclick: () => tb.act("pass") }, t("pass")),
      tb.room().competition // 比赛: 不许提示
        ? null
        : h("button", { "data-testid": "hint", disabled: !inPlay, onclick: () => tb.send(tb.S.hintPass ? { type: "hint", auto_pass: true } : { type: "hint" }) }, t("hint")),
    ].filter(Boolean),
  );
  if (inPlay && acts.includes("yield")) {
    buttons.append(h("button", { "data-testid": "decide-yield", onclick: () => tb.act("yield") }, t("act_yield")));
  }
}

/**
 * Between hands: 准备 / 开始 once every seat is taken (with the countdown), and 站起.
 * @param {Table} tb
 * @param {HTMLElement} prompt
 * @param {HTMLElement} buttons
 * @param {number} me the viewer's seat
 */
function betweenHands(tb, prompt, buttons, me) {
  const r = tb.room();
  const allTaken = (r.seats || []).length > 0 && (r.seats || []).every((/** @type {any} */ s) => s.player || s.bot);
  if (allTaken) {
    buttons.append(readyButton(tb, "start", "primary"));
    const cd = countdownEl(tb);
    if (cd) prompt.append(cd);
    else if (Array.isArray(r.ready) && r.ready[me]) prompt.append(t("ready_wait"));
  } else prompt.append(t("need_all_seats", { n: tb.numSeats() }));
  buttons.append(h("button", { "data-testid": "stand", onclick: () => tb.send({ type: "stand" }) }, t("stand")));
}

/**
 * 离开: during a hand, after the penalty is confirmed; then back to the lobby.
 * @param {Table} tb
 */
function leave(tb) {
  const me = tb.mySeat();
  if (me !== null && tb.playing()) {
    const pen = (tb.room().options && tb.room().options.leave_penalty) ?? 40;
    if (!confirm(t("leave_confirm", { n: pen }))) return;
  }
  if (me !== null) tb.send({ type: "leave" }, true);
  setTimeout(() => tb.ctx.navigate("#/"), 150);
}
