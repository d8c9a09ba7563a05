// @ts-check
// The replay viewer's controls, shown where the table's play controls are: the step
// buttons (start, trick back, back, play/pause, forward, trick forward, end), the slider
// with the 复盘 marks, the step count, the action that led to the frame, the speed, the
// seat seen from, the record-file button and the keys' help.
// Exports: buildControls, syncSeatChoice, syncControls, actionNode, nameOf, seatText, SPEEDS.

import * as C from "../cards.js";
import { t } from "../i18n.js";
import { h, toast } from "../ui.js";
import { actionLabel, cardLabel } from "../table/text.js";
import { recordFileButton } from "./file.js";

/** @typedef {import("../replay.js").Replay} Replay */

export const SPEEDS = [0.5, 1, 2, 4]; // actions per second

/** @type {Record<string, string>} */
const ICONS = {
  start: '<path d="M5 4h2.5v16H5zM20 4v16L8.5 12z"/>',
  prevTrick: '<path d="M12 4v16L2 12zM22 4v16L12 12z"/>',
  prev: '<path d="M17 4v16L5 12z"/>',
  play: '<path d="M7 4v16l13-8z"/>',
  pause: '<path d="M6 4h4.5v16H6zM13.5 4H18v16h-4.5z"/>',
  next: '<path d="M7 4v16l12-8z"/>',
  nextTrick: '<path d="M2 4v16l10-8zM12 4v16l10-8z"/>',
  end: '<path d="M4 4v16l11.5-8zM16.5 4H19v16h-2.5z"/>',
};

/** @param {string} name */
function icon(name) {
  const span = h("span", { class: "replay-icon", "aria-hidden": "true" });
  span.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18" fill="currentColor">${ICONS[name]}</svg>`;
  return span;
}

/** @param {number} s */
export const seatText = (s) => t("seat_n", { n: Number(s) + 1 });

/**
 * @param {string} id
 * @param {string} iconName
 * @param {string} text
 * @param {string} keys
 * @param {() => void} onclick
 */
function button(id, iconName, text, keys, onclick) {
  const tip = keys ? `${text} (${keys})` : text;
  const b = h("button", { class: "replay-btn" + (id === "replay-play" ? " primary" : ""), "data-testid": id, title: tip, "aria-label": text, onclick });
  b.append(icon(iconName));
  return b;
}

/**
 * Make the controls anew in rp.ui.controls (the language may have changed).
 * @param {Replay} rp
 */
export function buildControls(rp) {
  const { st, ui } = rp;
  const last = () => rp.last();
  ui.playBtn = button("replay-play", "play", t("replay_play"), t("key_space"), rp.togglePlay);
  const buttons = h(
    "div",
    { class: "replay-buttons", role: "group", "aria-label": t("replay_title"), title: t("replay_keys") },
    button("replay-start", "start", t("replay_start"), "Home", () => rp.go(0)),
    button("replay-prev-trick", "prevTrick", t("replay_prev_trick"), "↑", rp.prevTrick),
    button("replay-prev", "prev", t("replay_prev"), "←", () => rp.go(st.step - 1)),
    ui.playBtn,
    button("replay-next", "next", t("replay_next"), "→", () => rp.go(st.step + 1)),
    button("replay-next-trick", "nextTrick", t("replay_next_trick"), "↓", rp.nextTrick),
    button("replay-end", "end", t("replay_end"), "End", () => rp.go(last())),
  );
  const slider = /** @type {HTMLInputElement} */ (
    h("input", { type: "range", min: "0", max: "0", step: "1", value: "0", class: "replay-slider", "data-testid": "replay-slider", "aria-label": t("replay_seek") })
  );
  ui.slider = slider;
  slider.addEventListener("input", () => rp.go(Number(slider.value)));
  ui.marks = h("div", { class: "replay-marks", "data-testid": "replay-marks" });
  ui.count = h("span", { class: "replay-count", "data-testid": "replay-count" });
  const seek = h("div", { class: "replay-seek" }, h("div", { class: "replay-slider-wrap" }, slider, ui.marks), ui.count);
  const speedSelect = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { "data-testid": "replay-speed", title: t("replay_speed") },
      ...SPEEDS.map((x) => h("option", { value: String(x), selected: x === st.speed }, `${x}×`)),
    )
  );
  ui.speedSelect = speedSelect;
  speedSelect.addEventListener("change", () => rp.setSpeed(Number(speedSelect.value)));
  const seatSelect = /** @type {HTMLSelectElement} */ (h("select", { "data-testid": "replay-seat", title: t("replay_seat_help") }));
  ui.seatSelect = seatSelect;
  seatSelect.addEventListener("change", () => rp.switchSeat(Number(seatSelect.value)));
  const keys = h("button", { class: "small replay-keys", "data-testid": "replay-keys", title: t("replay_keys"), "aria-label": t("replay_keys") }, "?");
  keys.addEventListener("click", () => toast(t("replay_keys"), "info", 8000));
  const options = h(
    "div",
    { class: "replay-options" },
    h("label", {}, t("replay_speed") + " ", speedSelect),
    h("label", {}, t("replay_seat") + " ", seatSelect),
    rp.analysis ? rp.analysis.button : null,
    recordFileButton(rp.ctx),
    keys,
  );
  ui.actionLine = h("span", { class: "replay-action", "data-testid": "replay-action" });
  ui.verdictLine = h("div", { class: "replay-verdict hidden", "data-testid": "replay-verdict", role: "status" });
  const info = h("div", { class: "replay-info" }, ui.actionLine);
  ui.controls.replaceChildren(buttons, seek, info, ui.verdictLine, options);
}

/**
 * The seat choice: every seat of the hand, the one seen from chosen.
 * @param {Replay} rp
 */
export function syncSeatChoice(rp) {
  const { st, ui } = rp;
  const d = st.data;
  ui.seatSelect.replaceChildren(
    ...d.seats.map((/** @type {any} */ x) => {
      const name = x.player ? x.player.name : x.bot ? t("replay_bot", { n: x.seat + 1 }) : seatText(x.seat);
      return h("option", { value: String(x.seat), selected: x.seat === st.seat }, `${seatText(x.seat)} · ${name}`);
    }),
  );
  ui.seatSelect.value = String(st.seat);
}

/**
 * The controls as the replay is now: the step, playing or not, the speed, the action.
 * @param {Replay} rp
 */
export function syncControls(rp) {
  const { st, ui } = rp;
  const { controls, playBtn } = ui;
  if (!st.data || !ui.slider) return;
  const n = rp.last();
  ui.slider.max = String(n);
  ui.slider.value = String(st.step);
  ui.count.textContent = t("replay_step", { k: st.step, n });
  controls.dataset.step = String(st.step);
  controls.dataset.total = String(n);
  controls.dataset.seat = String(st.seat);
  controls.dataset.playing = st.playing ? "true" : "false";
  controls.dataset.speed = String(st.speed);
  controls.dataset.game = st.data.game;
  if (rp.table) rp.table.page.dataset.replayStep = String(st.step);
  playBtn.replaceChildren(icon(st.playing ? "pause" : "play"));
  const playText = st.playing ? t("replay_pause") : t("replay_play");
  playBtn.title = `${playText} (${t("key_space")})`;
  playBtn.setAttribute("aria-label", playText);
  playBtn.setAttribute("aria-pressed", st.playing ? "true" : "false");
  ui.speedSelect.value = String(st.speed);
  ui.actionLine.replaceChildren(...describe(rp, st.step));
  if (rp.analysis) rp.analysis.at(st.step, n);
}

/**
 * "Bot 3: ♥3 ♥3" for the action that led to frame i ("after the deal" for frame 0).
 * @param {Replay} rp
 * @param {number} i
 * @returns {(string | HTMLElement)[]}
 */
function describe(rp, i) {
  const f = rp.frame(i);
  if (!i || f.actor === null || f.actor === undefined) return [t("replay_after_deal")];
  const name = nameOf(rp, f.actor);
  const prev = rp.frame(i - 1).view;
  return [name + ": ", actionNode(f.action, prev && (prev.step || prev.phase), playedCards(rp, i, f))];
}

/**
 * The cards a play put down, from the event log (a Shuangkou action names ranks only).
 * @param {Replay} rp
 * @param {number} i
 * @param {any} f the frame
 * @returns {string | null}
 */
function playedCards(rp, i, f) {
  const log = rp.st.logs[i];
  if (!log) return null;
  for (let k = log.length - 1; k >= 0 && k >= log.length - 6; k--) {
    const e = log[k];
    if (e.seat === f.actor && e.action === f.action && e.cards) return e.cards;
  }
  return null;
}

/**
 * A seat's name in the replay: the player's, a bot by number, else "Seat n".
 * @param {Replay} rp
 * @param {number} s
 * @returns {string}
 */
export function nameOf(rp, s) {
  const x = rp.st.data.seats.find((/** @type {any} */ y) => y.seat === s);
  if (x && x.player) return x.player.name;
  if (x && x.bot) return t("replay_bot", { n: s + 1 });
  return seatText(s);
}

/**
 * An action as shown: cards by their labels, a pass or a decision by its word.
 * @param {string} action
 * @param {string | null} [step]
 * @param {string | null} [cards] the cards a play put down (when the action names ranks only)
 * @returns {HTMLElement}
 */
export function actionNode(action, step = null, cards = null) {
  const text = String(action || "");
  if (text === "pass") return h("span", { class: "replay-pass" }, t("pass_mark"));
  if (text === "yield") return h("span", { class: "replay-pass" }, t("yield_mark"));
  if (text.startsWith("bury ")) return h("span", {}, t("replay_bury", { cards: labels(text.slice(5)) }));
  if (text.startsWith("declare ")) return h("span", {}, t("act_declare", { cards: labels(text.slice(8)) }));
  if (text === "no" && (step === "deal" || step === "steal")) return h("span", {}, t("act_no_declare")); // 升级: 不亮
  const shown = cards || text;
  const list = /^[0-9TJQKASB]/.test(shown) ? C.parseCardList(shown) : null;
  if (list && list.length) {
    return h(
      "span",
      { class: "cards-inline", "data-cards": shown },
      ...list.map((c) => h("span", { class: "card-label " + (C.isRed(c) ? "red" : "black") }, cardLabel(c.text))),
    );
  }
  return h("span", {}, actionLabel(text, step));
}

/** @param {string} text */
function labels(text) {
  return String(text).split(/\s+/).filter(Boolean).map(cardLabel).join(" ");
}
