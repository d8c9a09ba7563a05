// @ts-check
// The viewer's hand (spec §8): the cards laid out in one or more overlapping rows sized
// for the screen, the raised selection, and its gestures — click (what a click raises is
// the game's: games/rules.js), Ctrl+click for a range, press-and-drag across cards, a
// click on empty space lowers all, right-click plays the raised cards (or passes with
// none raised; a touch's long press is not a right-click). A replay's hand is only shown.
// Exports: renderHand, refreshSelection, attachHandGestures.

import * as C from "../cards.js";
import { buryRaised } from "../games/shengji.js";
import * as G from "../games/rules.js";
import { t } from "../i18n.js";
import { h } from "../ui.js";
import { showMessage } from "./message.js";
import { playRaised, scheduleCheck, selectionLegal } from "./selection.js";
import { reasonText } from "./text.js";

/** @typedef {import("./state.js").Table} Table */

/**
 * The card sizes: the stylesheet may size the hand for the screen (--hand-cw, --hand-ch,
 * --hand-min-step, --hand-max-step).
 * @param {HTMLElement} handArea
 */
function handMetrics(handArea) {
  const css = getComputedStyle(handArea);
  const px = (/** @type {string} */ name, /** @type {number} */ fallback) => parseFloat(css.getPropertyValue(name)) || fallback;
  const narrow = window.innerWidth < 600;
  const cw = px("--hand-cw", narrow ? 50 : 72);
  const ch = px("--hand-ch", narrow ? 70 : 100);
  const minStep = px("--hand-min-step", narrow ? 19 : 22);
  const maxStep = px("--hand-max-step", narrow ? 30 : 40);
  return { cw, ch, minStep, maxStep };
}

/** @param {Table} tb */
export function renderHand(tb) {
  const { S, R } = tb;
  const { handArea, handEl } = tb.dom;
  const hand = S.hand;
  const { cw, ch, minStep, maxStep } = handMetrics(handArea);
  const width = Math.max(200, handArea.clientWidth - 16);
  S.handLayoutWidth = handArea.clientWidth;
  const perRowMax = Math.max(1, Math.floor((width - cw) / minStep) + 1);
  const rows = Math.max(1, Math.ceil(hand.length / perRowMax));
  const perRow = Math.ceil(hand.length / rows) || 1;
  const step = perRow > 1 ? Math.min(maxStep, (width - cw) / (perRow - 1)) : maxStep;
  handEl.style.setProperty("--cw", cw + "px");
  handEl.style.setProperty("--ch", ch + "px");
  handEl.style.setProperty("--step", step.toFixed(2) + "px");
  handEl.style.setProperty("--rows", String(rows));
  // Shengji burial: the cards that came from the kitty are marked
  const v = tb.V();
  /** @type {Record<string, number>} */
  const kitty = {};
  if (v && v.phase === "bury" && Array.isArray(v.kitty_received)) for (const c of v.kitty_received) kitty[c] = (kitty[c] || 0) + 1;
  const rowEls = [];
  for (let r = 0; r < rows; r++) {
    const row = h("div", { class: "hand-row" });
    for (let i = r * perRow; i < Math.min(hand.length, (r + 1) * perRow); i++) {
      // the slot is as wide as the visible strip of the card (so a click at its
      // centre lands on it); the full card face overflows under the next slot
      const slot = h("div", { class: "hand-card", "data-testid": "card", "data-card": hand[i], "data-index": String(i), "data-raised": "false" });
      slot.appendChild(C.cardElement(hand[i], { size: "full" }));
      if (kitty[hand[i]] > 0 && (v.buried || []).length === 0) {
        kitty[hand[i]] -= 1;
        slot.classList.add("from-kitty");
        slot.dataset.kitty = "true";
      }
      row.appendChild(slot);
    }
    rowEls.push(row);
  }
  handEl.replaceChildren(...rowEls);
  handEl.classList.toggle("readonly", !!R);
  handEl.classList.toggle("dealing", !!S.dealAnim);
  if (S.dealAnim) {
    handEl.querySelectorAll(".hand-card").forEach((el, i) => /** @type {HTMLElement} */ (el).style.setProperty("--deal-i", String(Math.min(i, 40))));
    S.dealAnim = false;
  }
  handArea.classList.toggle("empty", !hand.length);
  refreshSelection(tb);
}

/**
 * Show the raised cards raised, and what follows from them: the play button's verdict
 * (the server's check), the reason a selection is refused, the bury button's count.
 * @param {Table} tb
 */
export function refreshSelection(tb) {
  const { S } = tb;
  const { handEl, controls } = tb.dom;
  const set = new Set(S.raised);
  for (const el of handEl.querySelectorAll(".hand-card")) {
    const card = /** @type {HTMLElement} */ (el);
    const up = set.has(Number(card.dataset.index));
    card.classList.toggle("raised", up);
    card.dataset.raised = up ? "true" : "false";
  }
  const sel = tb.currentSelection();
  // a message about other raised cards (or none) goes
  if (S.msg && S.msg.selection !== null && S.msg.selection !== sel) showMessage(tb, null);
  const playBtn = /** @type {HTMLButtonElement | null} */ (controls.querySelector('[data-testid="play"]'));
  if (playBtn) {
    const verdict = selectionLegal(tb);
    playBtn.classList.toggle("ready", verdict === true);
    playBtn.disabled = verdict !== true;
    playBtn.dataset.check = !sel || !tb.isMyTurn() ? "none" : verdict === null ? "pending" : verdict ? "ok" : "illegal";
    const c = S.check;
    const about = sel && c && c.action === sel && !S.checkUnsupported;
    if (verdict === false && about && !(S.msg && S.msg.selection === sel && S.msg.kind === "error")) {
      showMessage(tb, reasonText(c.code, c.params, c.error, tb.seatText), "error", { selection: sel });
    }
    scheduleCheck(tb);
  }
  const buryBtn = /** @type {HTMLButtonElement | null} */ (controls.querySelector('[data-testid="bury"]'));
  if (buryBtn) {
    const v = tb.V();
    const left = v ? v.kitty_size - (v.buried || []).length : 0;
    buryBtn.textContent = t("bury_button", { n: S.raised.length });
    buryBtn.disabled = !S.raised.length || S.raised.length > left || S.buryQueue.length > 0;
    buryBtn.classList.toggle("ready", S.raised.length === left);
  }
  handEl.dataset.selection = C.selectionText(S.hand, S.raised);
}

/**
 * The hand's gestures: pointer (click / Ctrl+click / press-and-drag on the cards), a
 * click on empty space, right-click. Returns the function that removes the listeners
 * put on the document.
 * @param {Table} tb
 * @returns {() => void}
 */
export function attachHandGestures(tb) {
  const { S, R } = tb;
  const { handEl, page } = tb.dom;
  /**
   * @param {number} x
   * @param {number} y
   */
  const cardIndexAt = (x, y) => {
    const el = document.elementFromPoint(x, y);
    const card = el && el.closest ? /** @type {HTMLElement | null} */ (el.closest(".hand-card")) : null;
    return card && handEl.contains(card) ? Number(card.dataset.index) : null;
  };
  handEl.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || R) return; // a replay's hand is only shown
    const card = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest(".hand-card"));
    if (!card) return;
    e.preventDefault();
    S.drag = {
      start: Number(card.dataset.index),
      last: Number(card.dataset.index),
      before: [...S.raised],
      moved: false,
      ctrl: e.ctrlKey || e.metaKey,
    };
  });
  const onMove = (/** @type {PointerEvent} */ e) => {
    const d = S.drag;
    if (!d || d.ctrl) return;
    const i = cardIndexAt(e.clientX, e.clientY);
    if (i === null || i === d.last) return;
    d.moved = true;
    d.last = i;
    S.raised = C.dragSelect(S.hand, d.before, d.start, i);
    refreshSelection(tb);
  };
  const onUp = (/** @type {PointerEvent} */ e) => {
    const d = S.drag;
    if (!d) return;
    S.drag = null;
    if (d.moved) {
      S.anchor = d.last;
      S.suppressClick = true; // the click that ends a drag lands between cards
      setTimeout(() => (S.suppressClick = false), 0);
      return;
    }
    const i = cardIndexAt(e.clientX, e.clientY);
    const idx = i === null ? d.start : i;
    if (d.ctrl) S.raised = C.rangeSelect(S.hand, S.raised, S.anchor, idx);
    else S.raised = G.click(tb.game(), S.hand, S.raised, idx);
    S.anchor = idx;
    refreshSelection(tb);
  };
  document.addEventListener("pointermove", onMove);
  document.addEventListener("pointerup", onUp);
  const onCancel = () => (S.drag = null);
  const onAnyDown = (/** @type {PointerEvent} */ e) => (S.lastPointerType = e.pointerType || "mouse");
  document.addEventListener("pointerdown", onAnyDown, true);
  document.addEventListener("pointercancel", onCancel);
  page.addEventListener("click", (e) => onPageClick(tb, e));
  page.addEventListener("contextmenu", (e) => onContextMenu(tb, e));
  return () => {
    document.removeEventListener("pointermove", onMove);
    document.removeEventListener("pointerup", onUp);
    document.removeEventListener("pointercancel", onCancel);
    document.removeEventListener("pointerdown", onAnyDown, true);
  };
}

/**
 * Ctrl+click on the card area (not a card) or a left click on empty space: lower all
 * @param {Table} tb
 * @param {MouseEvent} e
 */
function onPageClick(tb, e) {
  const { S } = tb;
  if (e.button !== 0 || S.suppressClick) return;
  const tgt = /** @type {Element} */ (e.target);
  if (tgt.closest(".hand-card")) return;
  if (tgt.closest("button, a, input, select, textarea, label, summary, .scores-card, .topbar")) return;
  if (S.raised.length) {
    S.raised = C.clearSelection();
    refreshSelection(tb);
  }
}

/**
 * Right-click: play the raised cards, or pass with none raised; no context menu
 * @param {Table} tb
 * @param {MouseEvent} e
 */
function onContextMenu(tb, e) {
  const { S, R } = tb;
  const tgt = /** @type {Element} */ (e.target);
  if (tgt.closest("input, textarea, select, .topbar")) return;
  e.preventDefault();
  if (e.ctrlKey && e.button === 0) {
    // macOS turns Ctrl+click into a context menu: treat it as the Ctrl+click it is
    if (tgt.closest(".hand-area") && !tgt.closest(".hand-card")) {
      S.raised = C.clearSelection();
      refreshSelection(tb);
    }
    return;
  }
  if (S.lastPointerType === "touch" || S.lastPointerType === "pen") return; // a long press is not a right-click
  if (R) return;
  const v = tb.V();
  if (!v || !tb.isMyTurn()) return;
  if (v.phase === "bury" && S.raised.length) {
    buryRaised(tb);
    return;
  }
  if (v.phase !== "play") return;
  if (S.raised.length) playRaised(tb);
  else if (tb.game() !== "shengji") tb.act("pass"); // Shengji has no pass
}
