// @ts-check
// The table object every piece of the table page shares: made once by createTable() in
// mountTable (../table.js) and passed down to the seats, the hand, the controls, the
// panels and the game presenters. It holds
//   S     the mutable state (the last update, the raised cards, timers, the open panel …)
//   R     the replay viewer's hooks (null at a live table)
//   dom   the page's fixed elements (felt, dock, controls, hand, message line, panel …)
//   accessors of the last update (V() the view, room(), mySeat(), seatName(s) …)
//   hooks the pieces call one another through (render(), send(), act() …), set by mountTable.
// Exports: createTable, requestAutoSit, DIRECTION_KEY, AUTO_NO_KEY, HINT_PASS_KEY; the types Table,
// TableState, TableDom, ReplayHooks, AppCtx.

import * as C from "../cards.js";
import * as G from "../games/rules.js";
import { t } from "../i18n.js";
import { h } from "../ui.js";

export const DIRECTION_KEY = "paiju.direction";
export const AUTO_NO_KEY = "paiju.autoNo";
export const HINT_PASS_KEY = "paiju.hintPass";
const AUTOSIT_KEY = "paiju.autosit";

/**
 * The app's context (app.js): the player, navigation and the language button.
 * @typedef {object} AppCtx
 * @property {any} player the signed-in player ({id, name …}) or null
 * @property {(hash: string) => void} navigate
 * @property {() => HTMLElement} langButton
 */

/**
 * The replay viewer's hooks (replay.js): its controls shown in place of the play controls,
 * more side panels, the address to share, and the way back.
 * @typedef {object} ReplayHooks
 * @property {HTMLElement} controls
 * @property {Record<string, {title: () => string, body: () => HTMLElement}>} [panels]
 * @property {() => string} shareURL
 * @property {() => void} back
 */

/**
 * The mutable state of one table page.
 * @typedef {object} TableState
 * @property {WebSocket | null} ws
 * @property {boolean} destroyed
 * @property {number} attempts reconnection attempts since the last open socket
 * @property {any} retryTimer
 * @property {number | null} retryAt
 * @property {any} pingTimer
 * @property {number} unanswered pings not answered yet
 * @property {number} pingedAt when the last ping went (ms)
 * @property {string | null} closeWhy the reason code the hall gave for the last closed socket
 * @property {string | null} refusal the code of the last error that answered nothing sent (a refused socket's)
 * @property {{code: string, params?: any, error?: string} | null} closed the hall ended this page's place for good (closed.js): no reconnection
 * @property {any} tickTimer
 * @property {any} hello
 * @property {any} update the last update (room, seat, turn, view, deadline …)
 * @property {any[] | null} events the public event log gathered from the updates
 * @property {string[]} hand the viewer's cards, sorted
 * @property {number[]} raised indices of the raised cards
 * @property {number | null} anchor
 * @property {{start: number, last: number, before: number[], moved: boolean, ctrl: boolean} | null} drag
 * @property {boolean} dealAnim
 * @property {boolean} suppressClick
 * @property {string} lastPointerType
 * @property {number | null} deadlineAt
 * @property {Set<number>} dismissed hand numbers whose score screen was closed
 * @property {number | null} [newcomerHand] the hand whose score screen a newcomer was spared
 * @property {string | null} lastMessage
 * @property {{action: string, selection: string | null} | null} lastAct
 * @property {boolean} autoSit
 * @property {"cw" | "ccw"} direction
 * @property {string} connState "connecting" | "open" | "reconnecting" | "closed" | "replay"
 * @property {number} handLayoutWidth
 * @property {string[]} buryQueue Shengji: cards still to bury, one action per update
 * @property {number | null} buryTurn the turn the last bury action was sent at
 * @property {boolean} autoNo Shengji: answer "no" when nothing can be declared
 * @property {number | null} autoNoTurn
 * @property {boolean} hintPass 提示无则PASS: the hint passes by itself when nothing beats (off by default)
 * @property {{text: string, kind: string, turn: number | null, selection: string | null} | null} msg the message line beside the hand
 * @property {any} msgTimer
 * @property {{action: string, turn: number, ok: boolean, code: any, params: any, error?: any} | null} check the server's answer on the raised cards
 * @property {number} checkSeq
 * @property {Map<string, {action: string, turn: number, reply: ((answer: any) => void) | null}>} checkSent the checks waiting for their answers (`reply`: who takes the answer, else it judges the raised cards)
 * @property {any} checkTimer
 * @property {boolean} checkUnsupported an older server without `check`: judge by the view's legal actions
 * @property {string[]} dealDeclares Shengji: the declarations offered at this seat's last decision of the deal
 * @property {string | null} queuedDeclare the declaration the server queued for this seat's next decision
 * @property {string | null} panel the open side panel: "log" | "tracker" | "prev" | "phrases" | a replay's | null
 * @property {boolean} toolsOpen phones: the small menu of secondary toggles
 * @property {Map<number, {text: string, until: number}>} bubbles what a seat said (快捷语), shown beside it
 * @property {any[]} said every `said` of this visit, for the log
 * @property {Map<number, any>} seenPlays seat → the play last shown (a new one slides in)
 * @property {number | null} readyAt when the countdown to the next hand ends
 * @property {number | null} lastTick the last whole second the timer sound marked
 */

/**
 * The page's fixed elements.
 * @typedef {object} TableDom
 * @property {HTMLElement} page
 * @property {HTMLElement} topbar
 * @property {HTMLElement} banner
 * @property {HTMLElement} felt
 * @property {HTMLElement} dock
 * @property {HTMLElement} controls
 * @property {HTMLElement} handArea
 * @property {HTMLElement} handEl
 * @property {HTMLElement} msgLine
 * @property {HTMLElement} hostedLine
 * @property {HTMLButtonElement} hostedBtn the 托管 switch (set by mountTable)
 * @property {HTMLElement} panelEl
 */

/**
 * The table object.
 * @typedef {object} Table
 * @property {TableState} S
 * @property {ReplayHooks | null} R
 * @property {string} roomId
 * @property {AppCtx} ctx
 * @property {TableDom} dom
 * @property {() => any} U the last update
 * @property {() => any} V its view (null before a hand)
 * @property {() => any} room
 * @property {() => number | null} mySeat
 * @property {() => number} numSeats
 * @property {() => string} game
 * @property {(s: number) => any} seatInfo
 * @property {(s: number) => string} seatName
 * @property {(s: number) => string} seatText "Seat 3"
 * @property {() => boolean} isMyTurn
 * @property {() => number | null} selfSeat the seat the page calls "you"
 * @property {() => string[]} legal
 * @property {() => boolean} playing
 * @property {() => string} currentSelection the raised cards as action text
 * @property {() => string[]} messageNames
 * @property {(msg: object, quiet?: boolean) => boolean} send
 * @property {(action: string) => void} act
 * @property {() => void} render
 * @property {() => void} renderTopbar
 * @property {() => void} renderBanner
 * @property {() => void} renderFelt
 * @property {() => void} renderControls
 * @property {(force?: boolean) => void} renderPanel
 * @property {() => void} renderHand
 * @property {() => void} refreshSelection
 * @property {(name: string | null) => void} togglePanel
 */

/**
 * Ask the table of `roomId` to sit the viewer at the first empty seat on arrival.
 * @param {string} roomId
 */
export function requestAutoSit(roomId) {
  try {
    sessionStorage.setItem(AUTOSIT_KEY, roomId);
  } catch {
    /* storage unavailable */
  }
}

/** @param {string} roomId */
function takeAutoSit(roomId) {
  try {
    const v = sessionStorage.getItem(AUTOSIT_KEY);
    if (v === roomId) {
      sessionStorage.removeItem(AUTOSIT_KEY);
      return true;
    }
  } catch {
    /* storage unavailable */
  }
  return false;
}

/**
 * The fresh state of a table page.
 * @param {string} roomId
 * @param {ReplayHooks | null} R
 * @returns {TableState}
 */
function initialState(roomId, R) {
  return {
    ws: null,
    destroyed: false,
    attempts: 0,
    retryTimer: null,
    retryAt: null,
    pingTimer: null,
    unanswered: 0,
    pingedAt: 0,
    closeWhy: null,
    refusal: null,
    closed: null,
    tickTimer: null,
    hello: null,
    update: null,
    events: null,
    hand: [],
    raised: [],
    anchor: null,
    drag: null,
    dealAnim: false,
    suppressClick: false,
    lastPointerType: "mouse",
    deadlineAt: null,
    dismissed: new Set(),
    lastMessage: null,
    lastAct: null,
    autoSit: !R && takeAutoSit(roomId),
    direction: localStorage.getItem(DIRECTION_KEY) === "ccw" ? "ccw" : "cw",
    connState: R ? "replay" : "connecting",
    handLayoutWidth: 0,
    buryQueue: [],
    buryTurn: null,
    autoNo: localStorage.getItem(AUTO_NO_KEY) !== "off",
    autoNoTurn: null,
    hintPass: localStorage.getItem(HINT_PASS_KEY) === "on",
    msg: null,
    msgTimer: null,
    check: null,
    checkSeq: 0,
    checkSent: new Map(),
    checkTimer: null,
    checkUnsupported: false,
    dealDeclares: [],
    queuedDeclare: null,
    panel: null,
    toolsOpen: false,
    bubbles: new Map(),
    said: [],
    seenPlays: new Map(),
    readyAt: null,
    lastTick: null,
  };
}

/**
 * The page's skeleton: top bar, banner, felt, the dock (controls and hand) and the side
 * panel (牌谱, 记牌器, 上一轮, 快捷语: over the felt on a desktop, a drawer on a phone).
 * @param {HTMLElement} root
 * @param {string} roomId
 * @param {ReplayHooks | null} R
 * @returns {TableDom}
 */
function skeleton(root, roomId, R) {
  const page = h("div", { class: "page table-page" + (R ? " replay-page" : ""), "data-testid": "table", "data-room": roomId || "", "data-mode": R ? "replay" : "live" });
  const topbar = h("header", { class: "topbar table-topbar" });
  const banner = h("div", { class: "banner hidden", "data-testid": "banner" });
  const felt = h("div", { class: "felt" });
  const dock = h("div", { class: "dock" });
  const controls = h("div", { class: "controls" });
  const handArea = h("div", { class: "hand-area", "data-testid": "hand-area" });
  const handEl = h("div", { class: "hand", "data-testid": "hand" });
  // the message line: reasons, hints and notices about the viewer's own play, kept out of the felt
  const msgLine = h("div", {
    class: "table-message hidden",
    "data-testid": "message",
    role: "status",
    "aria-live": "polite",
  });
  const hostedLine = h("div", { class: "hosted-banner hidden", "data-testid": "hosted-banner", role: "alert" });
  handArea.appendChild(handEl);
  dock.append(hostedLine, controls, handArea);
  const panelEl = h("aside", { class: "table-panel hidden", "data-testid": "panel" });
  page.append(topbar, banner, felt, dock, panelEl);
  root.replaceChildren(page);
  const hostedBtn = /** @type {HTMLButtonElement} */ (/** @type {unknown} */ (null)); // made by mountTable
  return { page, topbar, banner, felt, dock, controls, handArea, handEl, msgLine, hostedLine, hostedBtn, panelEl };
}

const unset = () => {
  throw new Error("table hook not set");
};

/**
 * The table object of a page: its state, its elements and the accessors of the last
 * update. The hooks (render, send …) are set by mountTable.
 * @param {HTMLElement} root
 * @param {string} roomId
 * @param {AppCtx} ctx
 * @param {ReplayHooks | null} R
 * @returns {Table}
 */
export function createTable(root, roomId, ctx, R) {
  const S = initialState(roomId, R);
  const U = () => S.update;
  const V = () => (S.update ? S.update.view : null);
  const room = () => (S.update ? S.update.room : {});
  const mySeat = () => (S.update && Number.isInteger(S.update.seat) ? S.update.seat : null);
  const game = () => room().game || (V() && V().game) || "baohuang";
  const numSeats = () => {
    const r = room();
    if (r.seats && r.seats.length) return r.seats.length;
    const v = V();
    return v && v.hand_counts ? v.hand_counts.length : /** @type {Record<string, number>} */ (G.SEATS)[game()] || 5;
  };
  /** @param {number} s */
  const seatInfo = (s) => (room().seats || []).find((/** @type {any} */ x) => x.seat === s) || { seat: s, player: null, bot: null };
  /** @param {number} s */
  const seatName = (s) => {
    const i = seatInfo(s);
    if (i.player) return i.player;
    if (i.bot) return t("bot_label", { n: s + 1, level: t("bot_" + i.bot) });
    return t("seat_n", { n: s + 1 });
  };
  const isMyTurn = () => {
    const v = V();
    return !R && !!v && mySeat() !== null && v.to_act === mySeat();
  };
  // The seat the page calls "you": the viewer's own. A replay is seen from its bottom seat,
  // which is "you" only when the person watching played there.
  const selfSeat = () => {
    if (!R) return mySeat();
    const me = mySeat();
    const id = ctx.player ? ctx.player.id : null;
    return me !== null && id !== null && seatInfo(me).player_id === id ? me : null;
  };
  const legal = () => {
    const v = V();
    return (v && isMyTurn() && v.legal_actions) || [];
  };
  // Who was on 托管 when the hand ended (the room message names them): their names are
  // kept in message_names, as the table is dissolved and the seats are free.
  const messageNames = () => {
    const r = room();
    const seats = r.message_seats || [];
    const names = r.message_names || [];
    return seats.map((/** @type {number} */ s, /** @type {number} */ i) => names[i] || (s === mySeat() ? t("you") : seatName(s)));
  };
  return {
    S,
    R,
    roomId,
    ctx,
    dom: skeleton(root, roomId, R),
    U,
    V,
    room,
    mySeat,
    numSeats,
    game,
    seatInfo,
    seatName,
    seatText: (s) => t("seat_n", { n: Number(s) + 1 }),
    isMyTurn,
    selfSeat,
    legal,
    playing: () => room().status === "playing",
    currentSelection: () => C.selectionText(S.hand, S.raised),
    messageNames,
    send: unset,
    act: unset,
    render: unset,
    renderTopbar: unset,
    renderBanner: unset,
    renderFelt: unset,
    renderControls: unset,
    renderPanel: unset,
    renderHand: unset,
    refreshSelection: unset,
    togglePanel: unset,
  };
}
