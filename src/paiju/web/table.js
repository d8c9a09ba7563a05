// @ts-check
// The table page: one WebSocket per room (/ws/{room}), the seats around the felt, the
// trick in the centre, the viewer's hand with the selection interaction of spec §8,
// decision and play buttons, seat management before a hand, and the score screen.
// The replay viewer 牌谱回放 (replay.js) draws with the same code: mountTable's `replay`
// option feeds it frames instead of a socket's updates and puts its controls in the dock.
//
// mountTable puts the pieces together; each lives in a module of its own:
//   table/state.js      the table object shared by all pieces (state, elements, accessors)
//   table/socket.js     the socket: connect, reconnect, send, act
//   table/update.js     an update arriving: the log, the hand, messages, sounds
//   table/topbar.js     the top bar, its tools, the connection banner
//   table/felt.js       the felt: seats placed around it, the centre, the score screen
//   table/seats.js      one seat: name, badges, seat management, its play
//   table/seatmenu.js   a seated person's menu: 举报 (report), the owner's 请离座 (unseat)
//   table/closed.js     the hall ending the page's place (kick, session, room closed), notices
//   table/centre.js     the centre's shared parts
//   table/scores.js     the score screen's shared parts
//   table/controls.js   the prompt and buttons over the hand (hosted.js: 托管, ready.js: 准备)
//   table/hand.js       the hand, its selection and gestures
//   table/selection.js  the server's check of the raised cards, hints, playing them
//   table/message.js    the message line beside the hand
//   table/panels.js     the side panel: 牌谱, 记牌器, 上一轮 (chat.js: 快捷语 and bubbles)
//   table/clock.js      the turn's timer, the countdown to the next hand, the tick
//   table/text.js       labels of cards, actions, kinds, reasons (used by other pages too)
//   games/*.js          one presenter per game (baohuang, shengji, shuangkou) and the
//                       games' hand rules (rules.js)
// Exports: mountTable, requestAutoSit.

import * as api from "./api.js";
import { t } from "./i18n.js";
import { h } from "./ui.js";
import { onSaid } from "./table/chat.js";
import { onNotice } from "./table/closed.js";
import { startTick } from "./table/clock.js";
import { renderControls } from "./table/controls.js";
import { renderFelt } from "./table/felt.js";
import { attachHandGestures, refreshSelection, renderHand } from "./table/hand.js";
import { hostedButton } from "./table/hosted.js";
import { onError, showMessage } from "./table/message.js";
import { renderPanel, togglePanel } from "./table/panels.js";
import { onReported } from "./table/seatmenu.js";
import { onCheck, onHint } from "./table/selection.js";
import { act, connect, send } from "./table/socket.js";
import { createTable } from "./table/state.js";
import { cardLabel } from "./table/text.js";
import { renderBanner, renderTopbar } from "./table/topbar.js";
import { onUpdate } from "./table/update.js";

export { requestAutoSit } from "./table/state.js";

/** @typedef {import("./table/state.js").Table} Table */

/**
 * What mountTable hands back: its page, and the ways to redraw, feed and close it.
 * @typedef {object} TableHandle
 * @property {() => void} destroy
 * @property {() => void} rerender draw everything anew (the language changed)
 * @property {(u: any) => void} show the replay viewer: show a frame
 * @property {(name: string) => void} openPanel
 * @property {HTMLElement} page
 */

/**
 * Mount the table of `roomId` in `root`.
 *
 * `replay`: the replay viewer's hooks — {controls: the element shown in place of the play
 * controls, panels: {name: {title(), body()}} more side panels, shareURL(), back()}. No
 * socket then: replay.js feeds synthetic updates to show(), each with every seat's cards
 * (`hands`), and the hand cannot be selected.
 * @param {HTMLElement} root
 * @param {string} roomId
 * @param {import("./table/state.js").AppCtx} ctx
 * @param {{replay?: import("./table/state.js").ReplayHooks | null}} options
 * @returns {TableHandle}
 */
export function mountTable(root, roomId, ctx, { replay = null } = {}) {
  const tb = createTable(root, roomId, ctx, replay);
  const { S, R } = tb;
  const { page } = tb.dom;
  // the hooks the pieces call one another through
  Object.assign(tb, {
    send: (/** @type {object} */ msg, quiet = false) => send(tb, msg, quiet),
    act: (/** @type {string} */ action) => act(tb, action),
    render: () => render(tb),
    renderTopbar: () => renderTopbar(tb),
    renderBanner: () => renderBanner(tb),
    renderFelt: () => renderFelt(tb),
    renderControls: () => renderControls(tb),
    renderPanel: (force = false) => renderPanel(tb, force),
    renderHand: () => renderHand(tb),
    refreshSelection: () => refreshSelection(tb),
    togglePanel: (/** @type {string | null} */ name) => togglePanel(tb, name),
  });
  tb.dom.hostedBtn = hostedButton(tb);

  const detachGestures = attachHandGestures(tb);
  // L: the previous trick 上一轮 (not while typing)
  const onKey = (/** @type {KeyboardEvent} */ e) => {
    const target = /** @type {Element} */ (e.target);
    if (target.closest && target.closest("input, textarea, select")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "l" || e.key === "L") tb.togglePanel("prev");
    else if (e.key === "Escape" && S.panel) tb.togglePanel(null);
  };
  document.addEventListener("keydown", onKey);
  const onResize = () => {
    if (Math.abs(tb.dom.handArea.clientWidth - S.handLayoutWidth) > 4) tb.renderHand();
  };
  window.addEventListener("resize", onResize);
  // the hand's area also narrows without a window resize: a side panel (复盘, 记牌器) opening beside the felt
  const handObserver = typeof ResizeObserver === "function" ? new ResizeObserver(onResize) : null;
  if (handObserver) handObserver.observe(tb.dom.handArea);
  // countdown (a replay has no clock)
  if (!R) startTick(tb);

  // ------------------------------------------------------------ start
  tb.renderTopbar();
  tb.renderBanner();
  tb.renderControls();
  if (!R) startLive(tb);

  return {
    destroy() {
      S.destroyed = true;
      clearTimeout(S.retryTimer);
      clearInterval(S.pingTimer);
      clearInterval(S.tickTimer);
      detachGestures();
      window.removeEventListener("resize", onResize);
      if (handObserver) handObserver.disconnect();
      document.removeEventListener("keydown", onKey);
      if (S.ws) {
        const ws = S.ws;
        S.ws = null;
        ws.close();
      }
    },
    rerender() {
      tb.render();
      tb.renderHand();
      tb.renderPanel(true);
    },
    // the replay viewer: show a frame (an update as the socket would send it, with `hands`)
    show(u) {
      onUpdate(tb, u);
    },
    openPanel(name) {
      if (S.panel !== name) tb.togglePanel(name);
    },
    page,
  };
}

/**
 * Draw the whole table from the last update, and mark the page with its state (for the
 * stylesheet and the browser tests).
 * @param {Table} tb
 */
function render(tb) {
  const { page } = tb.dom;
  tb.renderTopbar();
  tb.renderBanner();
  tb.renderFelt();
  tb.renderControls();
  tb.refreshSelection();
  const v = tb.V();
  const room = tb.room();
  const mySeat = tb.mySeat();
  page.dataset.game = tb.game();
  page.dataset.phase = v ? v.phase || "" : "none";
  page.dataset.step = v ? v.step || "" : "";
  page.dataset.toAct = v && v.to_act !== null && v.to_act !== undefined ? String(v.to_act) : "";
  page.dataset.mySeat = mySeat === null ? "" : String(mySeat);
  page.dataset.status = room.status || "";
  page.dataset.turn = tb.U() ? String(tb.U().turn) : "";
  page.dataset.handNumber = room.hand_number !== undefined ? String(room.hand_number) : "";
}

/**
 * A message from the socket, to the piece it is for.
 * @param {Table} tb
 * @param {any} msg
 */
function onMessage(tb, msg) {
  switch (msg.type) {
    case "hello":
      tb.S.hello = msg;
      break;
    case "update":
      onUpdate(tb, msg);
      break;
    case "hint":
      onHint(tb, msg);
      break;
    case "check":
      onCheck(tb, msg);
      break;
    case "queued": {
      // a declaration sent between this seat's decisions of the deal: made at its next one
      tb.S.queuedDeclare = msg.action;
      const shown = msg.action.replace(/^declare\s+/, "").split(/\s+/).map(cardLabel).join(" ");
      showMessage(tb, t("declare_queued", { cards: shown }), "info", { ms: 2500 });
      break;
    }
    case "error":
      onError(tb, msg);
      break;
    case "said":
      onSaid(tb, msg);
      break;
    case "notice":
      onNotice(tb, msg);
      break;
    case "reported":
      onReported(tb, msg);
      break;
    default:
      break;
  }
}

/**
 * The room does not exist (any more): say so, with the way back to the lobby.
 * @param {Table} tb
 */
function showNotFound(tb) {
  const { page, topbar } = tb.dom;
  tb.S.destroyed = true;
  page.replaceChildren(
    topbar,
    h(
      "div",
      { class: "not-found" },
      h("h2", {}, t("not_found")),
      h("button", { class: "primary", onclick: () => tb.ctx.navigate("#/") }, t("back_lobby")),
    ),
  );
}

/**
 * A live table: show the room while the socket connects, then connect.
 * @param {Table} tb
 */
function startLive(tb) {
  const { S } = tb;
  api
    .room(tb.roomId)
    .then((r) => {
      if (S.destroyed) return;
      if (!S.update && r) {
        // show the room while the socket connects
        S.update = { room: r.room || r, seat: null, turn: 0, view: null, deadline: null };
        tb.render();
        S.update = null;
      }
    })
    .catch((err) => {
      if (err && err.status === 404) {
        clearTimeout(S.retryTimer);
        if (S.ws) S.ws.close();
        showNotFound(tb);
      }
    });
  connect(tb, (msg) => onMessage(tb, msg), () => showNotFound(tb));
}
