// @ts-check
// An update arrives (from the socket, or a replay's frame): the event log is gathered,
// the hand sorted (dealt in with a short rise when new), the room's message shown, the
// viewer seated if it asked to be, the sounds of the moment played, the page drawn, and
// Shengji's automatic actions run.
// Exports: onUpdate.

import * as C from "../cards.js";
import * as G from "../games/rules.js";
import { automation } from "../games/shengji.js";
import { playSound } from "../sound.js";
import { showMessage } from "./message.js";
import { notMyHand } from "./scores.js";
import { roomMessage } from "./text.js";

/** @typedef {import("./state.js").Table} Table */

/**
 * @param {Table} tb
 * @param {any} u the update
 */
export function onUpdate(tb, u) {
  const { S, R } = tb;
  // The server sends the public event log incrementally: events_from is where u.view.events starts.
  if (u.view && Array.isArray(u.view.events)) {
    const from = typeof u.events_from === "number" ? u.events_from : 0;
    S.events = (from > 0 && S.events ? S.events.slice(0, from) : []).concat(u.view.events);
    u.view.events = S.events;
  }
  const prevHandNo = S.update && S.update.room ? S.update.room.hand_number : null;
  const prevTurn = S.update ? S.update.turn : null;
  const prev = S.update;
  S.update = u;
  /** @type {any} */ (window).paijuTable = { update: u, tracker: u.tracker || null }; // for the browser tests
  if (!R) updateSounds(prev, u);
  const rd = u.room ? u.room.ready_deadline : null;
  S.readyAt = typeof rd === "number" ? Date.now() + rd * 1000 : null;
  if (u.turn !== prevTurn) {
    S.check = null; // a check answers for one turn
    if (S.msg && S.msg.turn !== u.turn) showMessage(tb, null);
  }
  S.deadlineAt = typeof u.deadline === "number" ? Date.now() + u.deadline * 1000 : null;
  const v = u.view;
  const hand = v && Array.isArray(v.hand) ? G.sortHand((u.room && u.room.game) || v.game, v.hand, v) : [];
  if (!C.sameHand(hand, S.hand)) {
    // a new hand's cards are dealt in (lightly: a short staggered rise)
    S.dealAnim = !R && (hand.length > S.hand.length + 1 || (prevHandNo !== null && u.room && u.room.hand_number !== prevHandNo));
    S.hand = hand;
    S.raised = [];
    S.anchor = null;
    S.drag = null;
    tb.renderHand();
  }
  const msg = u.room && u.room.message;
  if (msg && msg !== S.lastMessage) showMessage(tb, roomMessage(msg, tb.messageNames()), "info", { ms: 12000 });
  S.lastMessage = msg || null;
  if (prevHandNo !== null && u.room && u.room.hand_number !== prevHandNo) S.dismissed.clear();
  // a newcomer is not shown the score screen of a hand somebody else played at their seat (once:
  // "show scores" still opens it)
  if (u.room && u.room.status !== "playing" && S.newcomerHand !== u.room.hand_number && notMyHand(tb)) {
    S.newcomerHand = u.room.hand_number;
    S.dismissed.add(u.room.hand_number);
  }
  if (S.autoSit) {
    S.autoSit = false;
    if (tb.mySeat() === null) {
      const free = (u.room.seats || []).find((/** @type {any} */ s) => !s.player && !s.bot);
      if (free) tb.send({ type: "sit", seat: free.seat });
    }
  }
  tb.render();
  if (S.panel) tb.renderPanel();
  automation(tb);
}

/**
 * Your turn, a play (a bomb or jokers louder), a pass.
 * @param {any} prev the update before
 * @param {any} u the update
 */
function updateSounds(prev, u) {
  if (!prev || !u.view) return;
  const me = u.seat;
  const v = u.view;
  const was = prev.view && prev.view.to_act === me && prev.turn === u.turn;
  if (Number.isInteger(me) && v.to_act === me && v.phase !== "over" && !was && prev.turn !== u.turn) playSound("turn");
  const before = prev.view && Array.isArray(prev.view.events) ? prev.view.events.length : 0;
  const events = Array.isArray(v.events) ? v.events : [];
  const fresh = events.length > before ? events.slice(before) : [];
  for (const e of fresh.slice(-1)) {
    if (e.event !== undefined || e.step !== undefined || e.action === undefined) continue;
    if (e.action === "pass" || e.action === "yield") playSound("pass");
    else playSound(isBig(e) ? "bomb" : "play");
  }
}

/**
 * A bomb, a rocket, or jokers only.
 * @param {any} e an event
 * @returns {boolean}
 */
function isBig(e) {
  const type = String(e.type || "");
  if (/bomb|rocket|joker/.test(type)) return true;
  const cards = C.parseCardList(e.cards || e.action) || [];
  return cards.length > 0 && cards.every((c) => c.rank === "BJ" || c.rank === "SJ");
}
