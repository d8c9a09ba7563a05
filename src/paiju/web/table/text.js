// @ts-check
// The table's words: cards, actions, combination kinds, room messages and reason codes as
// the page shows them, in the current language. Pure functions of their arguments (no
// table state), so the lobby, the replay viewer and the analysis use them too.
// Exports: cardLabel, cardSpan, cardsSpan, actionLabel, declareLabel, kindLabel,
// roomMessage, paramText, reasonText, replayHash.

import * as C from "../cards.js";
import { t } from "../i18n.js";
import { h } from "../ui.js";

/**
 * Text of a card for labels: "♥A", "10♠"-style with the suit first, jokers by name.
 * @param {string} text
 * @returns {string}
 */
export function cardLabel(text) {
  const c = C.parseCard(text);
  if (!c) return text;
  if (c.rank === "BJ") return t("bj") + (c.marked ? "*" : "");
  if (c.rank === "SJ") return t("sj") + (c.marked ? "*" : "");
  return (c.suit ? C.SUIT_SYMBOL[c.suit] : "") + C.rankLabel(c.rank);
}

/**
 * A card's label in its colour.
 * @param {string} text
 * @returns {HTMLElement}
 */
export function cardSpan(text) {
  const c = C.parseCard(text);
  return h("span", { class: "card-label " + (c && C.isRed(c) ? "red" : "black") }, cardLabel(text));
}

/**
 * Several cards ("Th Th") as coloured labels in a row.
 * @param {string} text
 * @returns {HTMLElement}
 */
export function cardsSpan(text) {
  return h("span", { class: "cards-inline" }, ...String(text).split(/\s+/).filter(Boolean).map((c) => cardSpan(c)));
}

/**
 * The button label of a pre-play decision or play-phase word (accept → 登基 …).
 * @param {string} action
 * @param {string} [step]
 * @returns {string}
 */
export function actionLabel(action, step) {
  const [word, arg] = String(action).split(/\s+/, 2);
  switch (word) {
    case "call":
      return t("act_call", { card: cardLabel(arg) });
    case "take":
      return t("act_take", { card: cardLabel(arg) });
    case "no":
      if (["reveal", "grab", "rebel", "kick"].includes(step ?? "")) return t("act_no_" + step);
      return t("act_no");
    default:
      return t("act_" + word);
  }
}

/**
 * Shengji: "declare Th Th" → "Declare ♥10 ♥10"; "no" → "Pass".
 * @param {string} action
 * @returns {string}
 */
export function declareLabel(action) {
  if (action === "no") return t("act_no_declare");
  const cards = action.split(/\s+/).slice(1).map(cardLabel).join(" ");
  return t("act_declare", { cards });
}

/**
 * Label of a combination type (bombs with their size).
 * @param {string} type
 * @param {string} cards
 * @returns {string}
 */
export function kindLabel(type, cards) {
  if (type === "bomb") {
    const n = (C.parseCardList(cards) || []).length;
    return n > 4 ? t("kind_bomb_n", { n }) : t("kind_bomb");
  }
  return t("kind_" + type);
}

/**
 * A room message: a known code ("dissolved" …) in the current language, else as sent;
 * `names` (who was on 托管 when the hand ended) picks the sentence that names them.
 * @param {string} msg
 * @param {string[]} [names]
 * @returns {string}
 */
export function roomMessage(msg, names = []) {
  const key = "msg_" + msg;
  if (names.length && t(key + "_names") !== key + "_names") return t(key + "_names", { names: names.join(", ") });
  const text = t(key);
  return text === key ? msg : text;
}

/**
 * A reason parameter as the page shows it: card text as card labels (大王, ♥A), a
 * combination kind by its name, anything else as sent.
 * @param {unknown} value
 * @returns {string}
 */
export function paramText(value) {
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return value.map(paramText).join(" ");
  if (typeof value !== "string") return value === null || value === undefined ? "" : String(value);
  const kind = "kind_" + value;
  if (/^[a-z_]+$/.test(value) && t(kind) !== kind) return t(kind);
  if (/^[a-z_]+$/.test(value) && t("act_" + value) !== "act_" + value) return t("act_" + value);
  if (value.length === 1 && value in C.SUIT_SYMBOL) return C.SUIT_SYMBOL[value];
  // card text starts with a rank (2-9, 10, T J Q K A) or a joker (SJ, BJ)
  const cards = /^(?:[2-9TJQKA]|10|SJ|BJ)[0-9TJQKASBshdc*♠♥♦♣ ,]*$/.test(value) ? C.parseCardList(value) : null;
  if (cards && cards.length) return cards.map((c) => cardLabel(c.text)).join(" ");
  return value;
}

/**
 * The sentence of a reason code in the page's language (i18n key "reason.<code>"), its
 * {param} places filled; the English text the server sent when the code has none.
 * @param {string | null | undefined} code
 * @param {Record<string, unknown> | null} [params]
 * @param {string | null} [fallback]
 * @param {((seat: number) => string) | null} [seatText]
 * @returns {string}
 */
export function reasonText(code, params, fallback, seatText = null) {
  const key = "reason." + code;
  if (code && t(key) !== key) {
    /** @type {Record<string, string>} */
    const filled = {};
    for (const [k, v] of Object.entries(params || {})) {
      filled[k] = k === "seat" && seatText && Number.isInteger(v) ? seatText(Number(v)) : paramText(v);
    }
    return t(key, filled);
  }
  return fallback || t("reason.illegal");
}

/**
 * The replay of a finished hand of a room (the score history links each one).
 * @param {string} roomId
 * @param {number | string} number
 * @param {number | null} [seat]
 * @returns {string}
 */
export function replayHash(roomId, number, seat = null) {
  const q = Number.isInteger(seat) ? `?seat=${seat}` : "";
  return `#/replay/${encodeURIComponent(roomId)}/${number}${q}`;
}
