// @ts-check
// Cards: parsing the card text notation, Baohuang order, card drawing and the hand
// selection logic of the rule pages (spec §8). Everything selection-related is a pure
// function over (hand, raised) so browser tests can call it directly:
//   import * as C from "/static/cards.js"
// A hand is an array of card texts as the server sends them ("7s", "SJ", "BJ*").
// A selection ("raised") is an array of indices into that hand, in ascending order.

import { t } from "./i18n.js";

export const RANKS = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "SJ", "BJ"];
const SUIT_ORDER = { s: 0, h: 1, d: 2, c: 3 };
export const SUIT_SYMBOL = { s: "♠", h: "♥", d: "♦", c: "♣" };
const SYMBOL_SUIT = { "♠": "s", "♥": "h", "♦": "d", "♣": "c" };
const RANK_CHARS = "23456789TJQKA";

// Parse one card text ("Ts", "10♠", "Ah", "SJ", "BJ*", bare "7") into
// {text, rank, suit, marked, strength}; rank is "3".."A", "2", "SJ" or "BJ"; suit null
// for jokers and bare ranks. Returns null for text that is not one card.
/**
 * @param {string} text
 * @returns {{text: string, rank: string, suit: string | null, marked: boolean, strength: number} | null}
 */
export function parseCard(text) {
  const cards = parseCardList(String(text));
  return cards && cards.length === 1 ? cards[0] : null;
}

// Parse card text with any number of cards ("SJ 777", "Ah AA", "BJ BJ 8888", "Ts Ah BJ*")
// into a list of card objects (see parseCard), in the order written; null if unreadable.
/**
 * @param {string} text
 * @returns {{text: string, rank: string, suit: string | null, marked: boolean, strength: number}[] | null}
 */
export function parseCardList(text) {
  const out = [];
  for (const token of String(text).replace(/,/g, " ").split(/\s+/).filter(Boolean)) {
    let i = 0;
    while (i < token.length) {
      const head = token.slice(i, i + 2).toUpperCase();
      if (head === "SJ" || head === "BJ") {
        i += 2;
        const marked = token[i] === "*";
        if (marked) i += 1;
        out.push(makeCard(head, null, marked));
        continue;
      }
      let rank;
      if (token[i] === "1" && token[i + 1] === "0") {
        rank = "T";
        i += 2;
      } else {
        const ch = token[i].toUpperCase();
        if (!RANK_CHARS.includes(ch)) return null;
        rank = ch;
        i += 1;
      }
      let suit = null;
      if (i < token.length) {
        const s = SYMBOL_SUIT[token[i]] || token[i];
        if (s in SUIT_ORDER) {
          suit = s;
          i += 1;
        }
      }
      out.push(makeCard(rank, suit, false));
    }
  }
  return out;
}

function makeCard(rank, suit, marked) {
  return { text: rank + (suit || "") + (marked ? "*" : ""), rank, suit, marked, strength: RANKS.indexOf(rank) };
}

// Baohuang strength of a card text: 3 → 0 … A → 11, 2 → 12, SJ → 13, BJ → 14 (-1 if unreadable).
/**
 * @param {string} text
 * @returns {number}
 */
export function strength(text) {
  const c = parseCard(text);
  return c ? c.strength : -1;
}

// Sort key of a card text: strength, then suit (♠♥♦♣), marked jokers after plain ones.
/** @param {string} text */
export function cardKey(text) {
  const c = parseCard(text);
  if (!c) return [99, 0, 0];
  return [c.strength, c.suit ? SUIT_ORDER[c.suit] : -1, c.marked ? 1 : 0];
}

// Compare two card texts for sorting low to high (3 … A, 2, SJ, BJ).
/**
 * @param {string} a
 * @param {string} b
 * @returns {number}
 */
export function compareCards(a, b) {
  const ka = cardKey(a);
  const kb = cardKey(b);
  for (let i = 0; i < 3; i++) if (ka[i] !== kb[i]) return ka[i] - kb[i];
  return 0;
}

// The hand sorted by Baohuang strength, low to high (a new array).
/**
 * @param {string[]} hand
 * @returns {string[]}
 */
export function sortHand(hand) {
  return [...(hand || [])].sort(compareCards);
}

// Are two hands the same cards in the same order? (keeps a selection across updates)
/**
 * @param {string[]} a
 * @param {string[]} b
 * @returns {boolean}
 */
export function sameHand(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// Indices of every card of the same rank as hand[index] (jokers: the same kind).
/**
 * @param {string[]} hand
 * @param {number} index
 * @returns {number[]}
 */
export function rankGroup(hand, index) {
  const s = strength(hand[index]);
  const out = [];
  hand.forEach((c, i) => {
    if (strength(c) === s) out.push(i);
  });
  return out;
}

// Normalise a selection: unique, in range, ascending.
/**
 * @param {string[]} hand
 * @param {number[]} raised
 * @returns {number[]}
 */
export function normalize(hand, raised) {
  return [...new Set(raised)].filter((i) => Number.isInteger(i) && i >= 0 && i < hand.length).sort((a, b) => a - b);
}

// Left click on card `index`: a raised card is lowered alone; a lowered card raises
// every card of its rank (seed 002: 所有与其点数相同的牌都会被提出), keeping the rest.
/**
 * @param {string[]} hand
 * @param {number[]} raised
 * @param {number} index
 * @returns {number[]}
 */
export function clickCard(hand, raised, index) {
  if (raised.includes(index)) return raised.filter((i) => i !== index);
  return normalize(hand, [...raised, ...rankGroup(hand, index)]);
}

// Ctrl+click on card `index`: raise the range from `anchor` (the last clicked card) to
// `index`, both included, added to what is raised; without an anchor just that card.
/**
 * @param {string[]} hand
 * @param {number[]} raised
 * @param {number | null} anchor
 * @param {number} index
 * @returns {number[]}
 */
export function rangeSelect(hand, raised, anchor, index) {
  const a = anchor === null || anchor === undefined || anchor < 0 || anchor >= hand.length ? index : anchor;
  const lo = Math.min(a, index);
  const hi = Math.max(a, index);
  const add = [];
  for (let i = lo; i <= hi; i++) add.push(i);
  return normalize(hand, [...raised, ...add]);
}

// Press-and-drag: raise the cards from `start` to `current` (the cards passed over),
// added to the selection that was raised when the drag began (`before`).
/**
 * @param {string[]} hand
 * @param {number[]} before
 * @param {number} start
 * @param {number} current
 * @returns {number[]}
 */
export function dragSelect(hand, before, start, current) {
  return rangeSelect(hand, before, start, current);
}

// Lower everything (Ctrl+click on the card area, left click on empty space).
/** @returns {number[]} */
export function clearSelection() {
  return [];
}

// The raised cards as action text, highest first, e.g. "SJ 7s 7h 7d" ('' when none).
/**
 * @param {string[]} hand
 * @param {number[]} raised
 * @returns {string}
 */
export function selectionText(hand, raised) {
  const cards = normalize(hand, raised).map((i) => hand[i]);
  cards.sort((a, b) => compareCards(b, a));
  return cards.join(" ");
}

// The rank composition of card text as the engine writes a play, with no role card:
// big jokers, small jokers, then the run of the ordinary rank ("BJ SJ 777"). Returns
// null when the cards are not one play (two ordinary ranks, or no cards).
/**
 * @param {string} text
 * @returns {string | null}
 */
export function composition(text) {
  const cards = parseCardList(text);
  if (!cards || !cards.length) return null;
  let big = 0;
  let small = 0;
  let rank = null;
  let n = 0;
  for (const c of cards) {
    if (c.rank === "BJ") big++;
    else if (c.rank === "SJ") small++;
    else if (rank === null || rank === c.rank) {
      rank = c.rank;
      n++;
    } else return null;
  }
  const parts = [];
  for (let i = 0; i < big; i++) parts.push("BJ");
  for (let i = 0; i < small; i++) parts.push("SJ");
  if (n) parts.push(rank.repeat(n));
  return parts.join(" ");
}

// Is the play made of the raised cards among the legal actions (compared by rank
// composition, so a role card written "SJ*"/"Ah" in a legal action still matches)?
/**
 * @param {string[]} hand
 * @param {number[]} raised
 * @param {string[]} legal the legal actions
 * @returns {boolean}
 */
export function isLegalSelection(hand, raised, legal) {
  const mine = composition(selectionText(hand, raised));
  if (!mine || !legal) return false;
  return legal.some((a) => a !== "pass" && a !== "yield" && composition(a) === mine);
}

// Pick hand indices for a play text (the hint): a suited or marked card in the text
// ("Ah", "SJ*") must be that exact card; a bare rank or joker takes any card of that
// rank, preferring cards that are not special (marked jokers, the called card given in
// `avoid`) so a hint never reveals a role by accident. Returns null when the hand
// cannot make the play; [] for "pass", "yield" or empty text.
/**
 * @param {string[]} hand
 * @param {string} text
 * @param {(string | null | undefined)[]} [avoid]
 * @returns {number[] | null}
 */
export function matchPlay(hand, text, avoid = []) {
  const action = String(text || "").trim();
  if (!action || action === "pass" || action === "yield") return [];
  const wanted = parseCardList(action);
  if (!wanted) return null;
  const avoidSet = new Set(avoid.filter(Boolean));
  const used = new Set();
  const exact = wanted.filter((c) => c.suit || c.marked);
  const bare = wanted.filter((c) => !(c.suit || c.marked));
  for (const w of exact) {
    const i = hand.findIndex((h, k) => !used.has(k) && h === w.text);
    if (i < 0) return null;
    used.add(i);
  }
  const special = (h) => avoidSet.has(h) || h.endsWith("*");
  for (const w of bare) {
    let best = -1;
    for (let k = 0; k < hand.length; k++) {
      if (used.has(k) || strength(hand[k]) !== w.strength) continue;
      if (!special(hand[k])) {
        best = k;
        break;
      }
      if (best < 0) best = k;
    }
    if (best < 0) return null;
    used.add(best);
  }
  return [...used].sort((a, b) => a - b);
}

// Display text of a rank: "T" → "10", jokers by name in the chosen language.
/**
 * @param {string} rank
 * @returns {string}
 */
export function rankLabel(rank) {
  return rank === "T" ? "10" : rank;
}

// Is a card red (♥ ♦ and the big joker)?
/**
 * @param {{text: string, rank: string, suit: string | null, marked: boolean, strength: number}} card
 * @returns {boolean}
 */
export function isRed(card) {
  return card.suit === "h" || card.suit === "d" || card.rank === "BJ";
}

// ---------------------------------------------------------------- drawing (DOM)

const SCEPTER_SVG =
  '<svg viewBox="0 0 20 40" class="mark-svg" aria-hidden="true"><circle cx="10" cy="6" r="4.5" fill="#d4a017" stroke="#7a5200" stroke-width="1"/>' +
  '<path d="M6 11h8l-2 3h-4z" fill="#d4a017" stroke="#7a5200" stroke-width="0.8"/>' +
  '<rect x="8.5" y="14" width="3" height="22" rx="1" fill="#b8860b" stroke="#7a5200" stroke-width="0.8"/>' +
  '<circle cx="10" cy="37" r="2.2" fill="#d4a017"/></svg>';
const SWORD_SVG =
  '<svg viewBox="0 0 20 40" class="mark-svg" aria-hidden="true"><path d="M10 1l3 5v20h-6v-20z" fill="#cfd8dc" stroke="#37474f" stroke-width="1"/>' +
  '<rect x="3" y="26" width="14" height="3" rx="1" fill="#8d6e63" stroke="#3e2723" stroke-width="0.8"/>' +
  '<rect x="8.5" y="29" width="3" height="8" fill="#5d4037"/><circle cx="10" cy="38" r="2" fill="#8d6e63"/></svg>';
export const CROWN_SVG =
  '<svg viewBox="0 0 24 18" class="icon-svg" aria-hidden="true"><path d="M2 16l-1-11 6 5 5-8 5 8 6-5-1 11z" fill="#f5c518" stroke="#8a6d00" stroke-width="1.2" stroke-linejoin="round"/>' +
  '<circle cx="12" cy="11" r="1.6" fill="#d32f2f"/></svg>';
export const SWORD_ICON = '<svg viewBox="0 0 24 24" class="icon-svg" aria-hidden="true"><path d="M19 2l3 0 0 3-11 11-3-3z" fill="#cfd8dc" stroke="#37474f" stroke-width="1.2"/><path d="M5 12l7 7-2 2-2-2-3 3-2-2 3-3-2-2z" fill="#8d6e63" stroke="#3e2723" stroke-width="1"/></svg>';
export const HOE_ICON = '<svg viewBox="0 0 24 24" class="icon-svg" aria-hidden="true"><path d="M4 21L17 8" stroke="#8d6e63" stroke-width="2.6" stroke-linecap="round"/><path d="M13 3l8 2-3 6-6-4z" fill="#90a4ae" stroke="#37474f" stroke-width="1.2" stroke-linejoin="round"/></svg>';

function jokerFigure(big) {
  const fill = big ? "#c62828" : "#212121";
  return (
    `<svg viewBox="0 0 40 40" class="joker-svg" aria-hidden="true"><path d="M6 30l3-18 7 9 4-14 4 14 7-9 3 18z" fill="${fill}" opacity="0.9"/>` +
    `<rect x="6" y="31" width="28" height="4" rx="1.5" fill="${fill}"/><circle cx="9" cy="11" r="2.3" fill="${fill}"/><circle cx="20" cy="6" r="2.3" fill="${fill}"/><circle cx="31" cy="11" r="2.3" fill="${fill}"/></svg>`
  );
}

// One card element for card text. opts: {size: "full"|"small"|"mini", jokerNames: {BJ, SJ}}
// (the corner letters of the jokers; by default the page language's: 大王/小王, JOKER).
/**
 * @param {string} text
 * @param {{size?: string, jokerNames?: {BJ: string, SJ: string}}} [opts]
 * @returns {HTMLElement}
 */
export function cardElement(text, opts = {}) {
  const c = parseCard(text) || makeCard("?", null, false);
  const el = document.createElement("div");
  el.className = `card ${opts.size || "full"}` + (isRed(c) ? " red" : " black");
  el.dataset.card = text;
  const names = opts.jokerNames || { BJ: t("joker_face_bj"), SJ: t("joker_face_sj") };
  if (c.rank === "BJ" || c.rank === "SJ") {
    const big = c.rank === "BJ";
    el.classList.add("joker", big ? "big-joker" : "small-joker");
    el.title = big ? t("bj") : t("sj"); // the full name: Big Joker / Small Joker
    if (names[c.rank].length > 2) el.classList.add("long-name");
    el.innerHTML =
      `<div class="corner joker-corner">${names[c.rank].split("").map((ch) => `<span>${ch}</span>`).join("")}</div>` +
      `<div class="face">${jokerFigure(big)}</div>` +
      (c.marked ? `<div class="mark" title="${big ? t("emperor_card") : t("guard_card")}">${big ? SCEPTER_SVG : SWORD_SVG}</div>` : "");
    if (c.marked) el.classList.add("marked");
  } else {
    const sym = c.suit ? SUIT_SYMBOL[c.suit] : "";
    el.innerHTML =
      `<div class="corner"><span class="rank">${rankLabel(c.rank)}</span><span class="suit">${sym}</span></div>` +
      `<div class="face"><span class="pip">${sym || rankLabel(c.rank)}</span></div>` +
      `<div class="corner bottom"><span class="rank">${rankLabel(c.rank)}</span><span class="suit">${sym}</span></div>`;
  }
  return el;
}

// A row of small cards for a play text (highest first as written), in an element.
/**
 * @param {string} text
 * @param {{size?: string, jokerNames?: {BJ: string, SJ: string}}} [opts]
 * @returns {HTMLElement}
 */
export function playElement(text, opts = {}) {
  const wrap = document.createElement("div");
  wrap.className = "play-cards";
  const cards = parseCardList(text) || [];
  for (const c of cards) wrap.appendChild(cardElement(c.text, { size: opts.size || "small", jokerNames: opts.jokerNames }));
  return wrap;
}
