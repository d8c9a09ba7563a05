// @ts-check
// 快捷语 at the table: the panel of fixed phrases and emotes (free text when the room
// allows chat), and what the others said — a bubble beside a seated speaker, a toast for
// a spectator, every word in the hand log.
// Exports: phrasesPanel, onSaid, bubbleOf.

import { t } from "../i18n.js";
import { PHRASES, EMOTES, saidText } from "../phrases.js";
import { h, toast } from "../ui.js";
import { isMuted } from "../social.js";

/** @typedef {import("./state.js").Table} Table */

/**
 * 快捷语: the fixed phrases and emotes; free text when the room allows chat
 * @param {Table} tb
 * @returns {HTMLElement}
 */
export function phrasesPanel(tb) {
  const say = (/** @type {object} */ msg) => {
    tb.send({ type: "say", ...msg });
    tb.togglePanel(null);
  };
  const list = h(
    "div",
    { class: "phrase-list" },
    ...PHRASES.map((k) => h("button", { class: "small", "data-testid": `phrase-${k}`, onclick: () => say({ phrase: k }) }, t("phrase." + k))),
  );
  const emotes = h(
    "div",
    { class: "phrase-list emotes" },
    ...EMOTES.map((k) => h("button", { class: "small emote", "data-testid": `phrase-${k}`, onclick: () => say({ phrase: k }) }, t("phrase." + k))),
  );
  /** @type {HTMLElement[]} */
  const parts = [list, emotes];
  const room = tb.room();
  if (room.options && room.options.chat) {
    const input = /** @type {HTMLInputElement} */ (h("input", { type: "text", maxLength: 60, placeholder: t("chat_placeholder"), "data-testid": "chat-input" }));
    const form = h("form", { class: "chat-form" }, input, h("button", { class: "small primary", type: "submit", "data-testid": "chat-send" }, t("chat_send")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (text) say({ text });
    });
    parts.push(form);
  }
  return h("div", { class: "panel-body" }, ...parts);
}

/**
 * `said`: a bubble beside a seated speaker for a few seconds; every word also in the log
 * @param {Table} tb
 * @param {any} msg
 */
export function onSaid(tb, msg) {
  const { S } = tb;
  const seat = Number.isInteger(msg.seat) ? tb.room().seats[msg.seat] : null;
  if (seat && isMuted(tb.roomId, seat.player_id)) return; // muted at this table (social.js)
  S.said.push(msg);
  if (S.said.length > 100) S.said.shift();
  if (Number.isInteger(msg.seat)) {
    S.bubbles.set(msg.seat, { text: saidText(msg), until: Date.now() + 4000 });
    tb.renderFelt();
    setTimeout(() => !S.destroyed && tb.renderFelt(), 4100);
  } else if (S.panel !== "log") {
    toast(t("log_said", { name: msg.name || t("watching"), text: saidText(msg) }), "info", 3000);
  }
  if (S.panel === "log") tb.renderPanel();
}

/**
 * What the seat said a moment ago (快捷语), as a bubble beside it.
 * @param {Table} tb
 * @param {number} s
 * @returns {HTMLElement | null}
 */
export function bubbleOf(tb, s) {
  const b = tb.S.bubbles.get(s);
  if (!b || b.until < Date.now()) return null;
  return h("div", { class: "said-bubble", "data-testid": `bubble-${s}`, role: "status" }, b.text);
}
