// @ts-check
// What differs between the games in the viewer's hand, as pure functions of (hand, view):
// how a hand is sorted, what a left click raises, whether the raised cards are a legal
// play; the seats per game and the partnerships. Baohuang keeps the rules of cards.js;
// Shengji 升级 and Shuangkou 双扣 are here. (The table's drawing of each game is in the
// presenters beside this file: baohuang.js, shengji.js, shuangkou.js.)
//   import * as G from "/static/games/rules.js"

import * as C from "../cards.js";

// seats at the table per game (the room says so too; this is the fallback)
export const SEATS = { baohuang: 5, shengji: 4, shuangkou: 4 };

// Is the game played by two teams of partners sitting opposite (seats 0+2, 1+3)?
/** @param {string} game */
export function hasTeams(game) {
  return game === "shengji" || game === "shuangkou";
}

// The partner 对家 of a seat in a team game (the seat opposite), else null.
/**
 * @param {string} game
 * @param {number | null} seat
 * @returns {number | null}
 */
export function partnerOf(game, seat) {
  return hasTeams(game) && Number.isInteger(seat) ? (seat + 2) % 4 : null;
}

// Team index 0 (seats 0, 2) or 1 (seats 1, 3).
/**
 * @param {number} seat
 * @returns {number}
 */
export function teamOf(seat) {
  return seat % 2;
}

// Does a left click raise a single card (Shengji, Shuangkou) or every card of its rank (Baohuang)?
/** @param {string} game */
export function clickRaisesOne(game) {
  return game === "shengji" || game === "shuangkou";
}

// Left click on card `index` in a game where a click toggles that card alone.
/**
 * @param {string[]} hand
 * @param {number[]} raised
 * @param {number} index
 * @returns {number[]}
 */
export function clickOne(hand, raised, index) {
  if (raised.includes(index)) return raised.filter((i) => i !== index);
  return C.normalize(hand, [...raised, index]);
}

// ---------------------------------------------------------------- Shengji

const SJ_RANKS_HIGH = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
// plain suits shown in alternating colours: ♠ ♥ ♣ ♦ (the trump suit leaves the row)
const SJ_SUIT_ROW = ["s", "h", "c", "d"];

// The trump facts of a Shengji view: {level, suit (null: no-trump or not known yet),
// twos, known}. During the deal the standing declaration gives a provisional suit.
/**
 * @param {any} view
 * @returns {{level: string, suit: string | null, twos: boolean, known: boolean}}
 */
export function shengjiTrump(view) {
  const v = view || {};
  const level = v.level || "2";
  const twos = !!(v.options && v.options.twos_trump);
  if (v.trump_settled) return { level, suit: v.trump_suit || null, twos, known: true };
  let suit = null;
  const d = v.declaration;
  if (d && d.cards) {
    const c = C.parseCard(String(d.cards).split(/\s+/)[0]);
    suit = c && c.suit ? c.suit : null;
  }
  return { level, suit, twos, known: false };
}

// Is a card (parsed) a trump in this hand?
/**
 * @param {any} card a parsed card (cards.js parseCard)
 * @param {{level: string, suit: string | null, twos: boolean}} tr
 * @returns {boolean}
 */
export function isTrump(card, tr) {
  if (!card) return false;
  if (card.rank === "BJ" || card.rank === "SJ") return true;
  if (card.rank === tr.level) return true;
  if (tr.twos && card.rank === "2") return true;
  return !!tr.suit && card.suit === tr.suit;
}

// The play-suit of a card: "T" for trumps, else its suit letter.
/**
 * @param {any} card a parsed card (cards.js parseCard)
 * @param {{level: string, suit: string | null, twos: boolean}} tr
 * @returns {string}
 */
export function playSuit(card, tr) {
  return isTrump(card, tr) ? "T" : card.suit;
}

// Sort key, left to right: jokers, trump-suit level card, other level cards, (2s when
// they are trumps), the trump suit A → 3, then the plain suits A → 3 in alternating colours.
function shengjiKey(text, tr) {
  const c = C.parseCard(text);
  if (!c) return [9999, 0];
  const suitPos = (s) => SJ_SUIT_ROW.indexOf(s);
  const r = SJ_RANKS_HIGH.indexOf(c.rank);
  if (c.rank === "BJ") return [0, 0];
  if (c.rank === "SJ") return [1, 0];
  if (c.rank === tr.level) return [c.suit === tr.suit ? 2 : 3, suitPos(c.suit)];
  if (tr.twos && c.rank === "2") return [c.suit === tr.suit ? 4 : 5, suitPos(c.suit)];
  if (tr.suit && c.suit === tr.suit) return [10, r];
  const row = SJ_SUIT_ROW.filter((s) => s !== tr.suit);
  return [100 + 100 * row.indexOf(c.suit), r];
}

/**
 * @param {string[]} hand
 * @param {any} view
 * @returns {string[]}
 */
export function sortShengji(hand, view) {
  const tr = shengjiTrump(view);
  /** @type {[number[], string][]} */
  const keyed = (hand || []).map((x) => [shengjiKey(x, tr), x]);
  keyed.sort((a, b) => a[0][0] - b[0][0] || a[0][1] - b[0][1] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return keyed.map((k) => k[1]);
}

function multisetKey(texts) {
  return [...texts].map(String).sort().join(" ");
}

// Are the raised cards a legal Shengji play? With the seat's legal plays listed, exactly
// one of them; a lead of many possible plays: cards of one play-suit; a follow whose
// plays are not listed: as many cards as the lead.
/**
 * @param {string[]} hand
 * @param {number[]} raised
 * @param {any} view
 * @returns {boolean}
 */
export function shengjiLegal(hand, raised, view) {
  const v = view || {};
  const cards = C.normalize(hand, raised).map((i) => hand[i]);
  if (!cards.length || v.phase !== "play") return false;
  if (Array.isArray(v.legal_actions)) {
    const mine = multisetKey(cards);
    return v.legal_actions.some((a) => multisetKey(String(a).split(/\s+/)) === mine);
  }
  const tr = shengjiTrump(v);
  const trick = v.trick || [];
  if (v.options && v.options.two_colours) return true; // suits by colour: the server judges
  if (!trick.length) {
    const suits = new Set(cards.map((x) => playSuit(C.parseCard(x), tr)));
    return suits.size === 1;
  }
  return cards.length === String(trick[0].cards).split(/\s+/).length;
}

// ---------------------------------------------------------------- Shuangkou

// The rank composition of card text (bare or suited), e.g. "5h 5s 6d 6c" → "5 5 6 6".
function rankKey(text) {
  const cards = C.parseCardList(text);
  if (!cards) return null;
  return cards
    .map((c) => c.strength)
    .sort((a, b) => a - b)
    .join(" ");
}

/**
 * @param {string[]} hand
 * @param {number[]} raised
 * @param {any} view
 * @returns {boolean}
 */
export function shuangkouLegal(hand, raised, view) {
  const v = view || {};
  const cards = C.normalize(hand, raised).map((i) => hand[i]);
  if (!cards.length || !Array.isArray(v.legal_actions)) return false;
  const mine = rankKey(cards.join(" "));
  return v.legal_actions.some((a) => a !== "pass" && rankKey(a) === mine);
}

// ---------------------------------------------------------------- per game

// The viewer's hand in the game's order (a new array).
/**
 * @param {string} game
 * @param {string[]} hand
 * @param {any} view
 * @returns {string[]}
 */
export function sortHand(game, hand, view) {
  if (game === "shengji") return sortShengji(hand, view);
  return C.sortHand(hand); // Baohuang and Shuangkou: 3 … A, 2, SJ, BJ
}

// What a left click on card `index` raises.
/**
 * @param {string} game
 * @param {string[]} hand
 * @param {number[]} raised
 * @param {number} index
 * @returns {number[]}
 */
export function click(game, hand, raised, index) {
  return clickRaisesOne(game) ? clickOne(hand, raised, index) : C.clickCard(hand, raised, index);
}

// Are the raised cards one of the seat's legal plays?
/**
 * @param {string} game
 * @param {string[]} hand
 * @param {number[]} raised
 * @param {any} view
 * @param {string[]} legal the legal actions
 * @returns {boolean}
 */
export function isLegalSelection(game, hand, raised, view, legal) {
  if (game === "shengji") return shengjiLegal(hand, raised, view);
  if (game === "shuangkou") return shuangkouLegal(hand, raised, view);
  return C.isLegalSelection(hand, raised, legal);
}
