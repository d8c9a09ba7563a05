// The table page: one WebSocket per room (/ws/{room}), the seats around the felt, the
// trick in the centre, the viewer's hand with the selection interaction of spec §8,
// decision and play buttons, seat management before a hand, and the score screen.
// The replay viewer 牌谱回放 (replay.js) draws with the same code: mountTable's `replay`
// option feeds it frames instead of a socket's updates and puts its controls in the dock.

import * as api from "./api.js";
import * as C from "./cards.js";
import * as G from "./games.js";
import { t, label, getLang } from "./i18n.js";
import { h, toast, confirmBox } from "./ui.js";
import { logRows, previousTrick, scoreRows } from "./handlog.js";
import { playSound, setSound, soundOn } from "./sound.js";
import { PHRASES, EMOTES, saidText } from "./phrases.js";

const POSITIONS = {
  // position of the seat `k` places after the viewer (k = 0 is the viewer, at the bottom)
  5: { cw: ["bottom", "left", "topleft", "topright", "right"], ccw: ["bottom", "right", "topright", "topleft", "left"] },
  4: { cw: ["bottom", "left", "top", "right"], ccw: ["bottom", "right", "top", "left"] },
};
const BOT_LEVELS = ["hosted", "normal", "strong", "strongest"];
const LINK_SVG =
  '<svg viewBox="0 0 24 24" class="icon-svg" aria-hidden="true"><path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/></svg>';
const CLOCK_SVG =
  '<svg viewBox="0 0 16 16" class="icon-svg" aria-hidden="true"><circle cx="8" cy="9" r="6" fill="#fff8e1" stroke="#3e2e00" stroke-width="1.6"/><path d="M8 5.5V9l2.5 1.5" stroke="#3e2e00" stroke-width="1.6" fill="none" stroke-linecap="round"/><rect x="6" y="0.5" width="4" height="2" rx="1" fill="#3e2e00"/></svg>';
const DIRECTION_KEY = "paiju.direction";
const AUTO_NO_KEY = "paiju.autoNo";
const AUTOSIT_KEY = "paiju.autosit";

// Ask the table of `roomId` to sit the viewer at the first empty seat on arrival.
export function requestAutoSit(roomId) {
  try {
    sessionStorage.setItem(AUTOSIT_KEY, roomId);
  } catch {
    /* storage unavailable */
  }
}

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

// Text of a card for labels: "♥A", "10♠"-style with the suit first, jokers by name.
export function cardLabel(text) {
  const c = C.parseCard(text);
  if (!c) return text;
  if (c.rank === "BJ") return t("bj") + (c.marked ? "*" : "");
  if (c.rank === "SJ") return t("sj") + (c.marked ? "*" : "");
  return (c.suit ? C.SUIT_SYMBOL[c.suit] : "") + C.rankLabel(c.rank);
}

function cardSpan(text) {
  const c = C.parseCard(text);
  return h("span", { class: "card-label " + (c && C.isRed(c) ? "red" : "black") }, cardLabel(text));
}

// The button label of a pre-play decision or play-phase word (accept → 登基 …).
export function actionLabel(action, step) {
  const [word, arg] = String(action).split(/\s+/, 2);
  switch (word) {
    case "call":
      return t("act_call", { card: cardLabel(arg) });
    case "take":
      return t("act_take", { card: cardLabel(arg) });
    case "no":
      if (["reveal", "grab", "rebel", "kick"].includes(step)) return t("act_no_" + step);
      return t("act_no");
    default:
      return t("act_" + word);
  }
}

// A room message: a known code ("dissolved" …) in the current language, else as sent;
// `names` (who was on 托管 when the hand ended) picks the sentence that names them.
export function roomMessage(msg, names = []) {
  const key = "msg_" + msg;
  if (names.length && t(key + "_names") !== key + "_names") return t(key + "_names", { names: names.join(", ") });
  const text = t(key);
  return text === key ? msg : text;
}

// A reason parameter as the page shows it: card text as card labels (大王, ♥A), a
// combination kind by its name, anything else as sent.
function paramText(value) {
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

// The sentence of a reason code in the page's language (i18n key "reason.<code>"), its
// {param} places filled; the English text the server sent when the code has none.
export function reasonText(code, params, fallback, seatText = null) {
  const key = "reason." + code;
  if (code && t(key) !== key) {
    const filled = {};
    for (const [k, v] of Object.entries(params || {})) {
      filled[k] = k === "seat" && seatText && Number.isInteger(v) ? seatText(v) : paramText(v);
    }
    return t(key, filled);
  }
  return fallback || t("reason.illegal");
}

// The replay of a finished hand of a room (the score history links each one).
export function replayHash(roomId, number, seat = null) {
  const q = Number.isInteger(seat) ? `?seat=${seat}` : "";
  return `#/replay/${encodeURIComponent(roomId)}/${number}${q}`;
}

// `replay`: the replay viewer's hooks — {controls: the element shown in place of the play
// controls, panels: {name: {title(), body()}} more side panels, shareURL(), back()}. No
// socket then: replay.js feeds synthetic updates to show(), each with every seat's cards
// (`hands`), and the hand cannot be selected.
export function mountTable(root, roomId, ctx, { replay = null } = {}) {
  const R = replay;
  const S = {
    ws: null,
    destroyed: false,
    attempts: 0,
    retryTimer: null,
    retryAt: null,
    pingTimer: null,
    tickTimer: null,
    hello: null,
    update: null,
    hand: [],
    raised: [],
    anchor: null,
    drag: null,
    deadlineAt: null,
    dismissed: new Set(),
    lastMessage: null,
    autoSit: !R && takeAutoSit(roomId),
    direction: localStorage.getItem(DIRECTION_KEY) === "ccw" ? "ccw" : "cw",
    connState: R ? "replay" : "connecting",
    handLayoutWidth: 0,
    buryQueue: [], // Shengji: cards still to bury, one action per update
    buryTurn: null, // the turn the last bury action was sent at
    autoNo: localStorage.getItem(AUTO_NO_KEY) !== "off", // Shengji: answer "no" when nothing can be declared
    autoNoTurn: null,
    msg: null, // the message line beside the hand: {text, kind, turn, selection}
    msgTimer: null,
    check: null, // the server's answer on the raised cards: {action, turn, ok, code, params, error}
    checkSeq: 0,
    checkSent: new Map(), // id → {action, turn, then}: the checks waiting for their answers
    checkTimer: null,
    checkUnsupported: false, // an older server without `check`: judge by the view's legal actions
    dealDeclares: [], // Shengji: the declarations offered at this seat's last decision of the deal
    queuedDeclare: null, // the declaration the server queued for this seat's next decision
    panel: null, // the open side panel: "log" | "tracker" | "prev" | "phrases" | null
    toolsOpen: false, // phones: the small menu of secondary toggles
    bubbles: new Map(), // seat → {text, until}: what the seat said (快捷语), shown beside it
    said: [], // every `said` of this visit, for the log (spectators' words are shown only there)
    seenPlays: new Map(), // seat → the event index of its play last shown (a new one slides in)
    readyAt: null, // when the countdown to the next hand ends (room.ready_deadline)
    lastTick: null, // the last whole second the timer sound marked
  };

  // ------------------------------------------------------------ skeleton
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
  // the 托管 switch is one element for the whole table, updated in place: while 托管 plays
  // the updates come many times a second, and a button made anew each time cannot be clicked
  const hostedBtn = h("button", {
    "data-testid": "hosted",
    onclick: () => toggleHosted(hostedBtn.getAttribute("aria-pressed") !== "true"),
  });
  handArea.appendChild(handEl);
  dock.append(hostedLine, controls, handArea);
  // the side panel (牌谱, 记牌器, 上一轮, 快捷语): over the felt on a desktop, a drawer on a phone
  const panelEl = h("aside", { class: "table-panel hidden", "data-testid": "panel" });
  page.append(topbar, banner, felt, dock, panelEl);
  root.replaceChildren(page);

  // ------------------------------------------------------------ connection
  const PING_EVERY = 10000; // ms between pings: a silent server is given up after two
  function connect() {
    if (S.destroyed) return;
    S.connState = S.attempts ? "reconnecting" : "connecting";
    renderBanner();
    let ws;
    try {
      ws = new WebSocket(api.tableSocketURL(roomId));
    } catch (e) {
      scheduleReconnect();
      return;
    }
    S.ws = ws;
    ws.addEventListener("open", () => {
      S.attempts = 0;
      S.connState = "open";
      renderBanner();
      clearInterval(S.pingTimer);
      S.unanswered = 0;
      S.pingTimer = setInterval(() => {
        // a server that answered none of two pings (paused, or cut off without a close): give
        // this socket up and reconnect — the proxy sends us to the room's new server. Pings are
        // counted, not the clock: a laptop woken up runs a late timer once, with no time to answer
        if (S.unanswered >= 2) {
          S.ws = null;
          clearInterval(S.pingTimer);
          try {
            ws.close();
          } catch (e) {
            /* closing a dead socket */
          }
          scheduleReconnect();
          return;
        }
        S.unanswered += 1;
        send({ type: "ping" }, true);
      }, PING_EVERY);
    });
    ws.addEventListener("message", (ev) => {
      S.unanswered = 0;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      onMessage(msg);
    });
    ws.addEventListener("close", (ev) => {
      if (S.ws !== ws) return;
      S.ws = null;
      clearInterval(S.pingTimer);
      if (S.destroyed) return;
      if (ev.code === 4404 || ev.code === 4004) {
        showNotFound();
        return;
      }
      if (ev.code === 4401) {
        ctx.player = null;
        S.destroyed = true;
        ctx.navigate(location.hash || "#/");
        return;
      }
      scheduleReconnect();
    });
    ws.addEventListener("error", () => {
      /* close follows */
    });
  }

  function scheduleReconnect() {
    if (S.destroyed) return;
    const delay = Math.min(10000, 500 * 2 ** S.attempts) * (0.8 + Math.random() * 0.4);
    S.attempts += 1;
    S.connState = "reconnecting";
    S.retryAt = Date.now() + delay;
    renderBanner();
    clearTimeout(S.retryTimer);
    S.retryTimer = setTimeout(connect, delay);
  }

  function send(msg, quiet = false) {
    if (S.ws && S.ws.readyState === WebSocket.OPEN) {
      S.ws.send(JSON.stringify(msg));
      return true;
    }
    if (!quiet) toast(t("connection_lost"), "error");
    return false;
  }

  function act(action) {
    const u = S.update;
    const msg = { type: "act", action };
    if (u && Number.isInteger(u.turn)) msg.turn = u.turn;
    S.lastAct = { action, selection: action === currentSelection() ? action : null };
    send(msg);
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "hello":
        S.hello = msg;
        break;
      case "update":
        onUpdate(msg);
        break;
      case "hint":
        onHint(msg);
        break;
      case "check":
        onCheck(msg);
        break;
      case "queued":
        // a declaration sent between this seat's decisions of the deal: made at its next one
        S.queuedDeclare = msg.action;
        const shown = msg.action.replace(/^declare\s+/, "").split(/\s+/).map(cardLabel).join(" ");
        showMessage(t("declare_queued", { cards: shown }), "info", { ms: 2500 });
        break;
      case "error":
        onError(msg);
        break;
      case "said":
        onSaid(msg);
        break;
      default:
        break;
    }
  }

  // ------------------------------------------------------------ the message line
  // kind: "error" (a refused action or selection), "hint" (nothing beats …), "info".
  // A message about the raised cards goes when they change; others after `ms`.
  function showMessage(text, kind = "info", { ms = 0, selection = null } = {}) {
    clearTimeout(S.msgTimer);
    S.msg = text ? { text, kind, selection, turn: U() ? U().turn : null } : null;
    if (S.msg && ms) S.msgTimer = setTimeout(() => showMessage(null), ms);
    renderMessage();
  }

  function renderMessage() {
    const m = S.msg;
    msgLine.textContent = m ? m.text : "";
    msgLine.className = "table-message" + (m ? " " + m.kind : " hidden");
    msgLine.dataset.kind = m ? m.kind : "";
    controls.classList.toggle("has-message", !!m);
  }

  function onError(msg) {
    S.buryQueue = [];
    const unknownType = /unknown message type/.test(String(msg.error || ""));
    if (msg.reply_to === "check" || (unknownType && S.checkSent.size)) {
      // a check is never shown as an error; an older server without `check`: the view's
      // legal actions judge the selection
      if (unknownType) S.checkUnsupported = true;
      for (const [, sent] of S.checkSent) if (sent.then) sent.then(null);
      S.checkSent.clear();
      refreshSelection();
      return;
    }
    const played = msg.reply_to === "act" && S.lastAct ? S.lastAct.selection : null;
    if (played && played !== currentSelection()) return; // about cards no longer raised
    showMessage(reasonText(msg.code, msg.params, msg.error, seatText), "error", { selection: currentSelection() });
  }

  const seatText = (s) => t("seat_n", { n: Number(s) + 1 });

  // ------------------------------------------------------------ check: is the selection legal?
  const currentSelection = () => C.selectionText(S.hand, S.raised);

  // Ask the server (debounced) whether the raised cards are a legal play now.
  function scheduleCheck() {
    clearTimeout(S.checkTimer);
    const v = V();
    const sel = currentSelection();
    if (S.checkUnsupported || !sel || !v || v.phase !== "play" || !isMyTurn()) return;
    const turn = U().turn;
    if (S.check && S.check.action === sel && S.check.turn === turn) return;
    for (const sent of S.checkSent.values()) if (!sent.then && sent.action === sel && sent.turn === turn) return;
    S.checkTimer = setTimeout(() => sendCheck(sel, turn), 80);
  }

  // Send a `check`; `then(answer | null)` is called with the answer (null: no answer possible).
  function sendCheck(action, turn, then = null) {
    const id = "c" + ++S.checkSeq;
    const msg = { type: "check", action, id };
    if (Number.isInteger(turn)) msg.turn = turn;
    S.checkSent.set(id, { action, turn, then });
    if (!send(msg, true)) {
      S.checkSent.delete(id);
      if (then) then(null);
    }
  }

  function onCheck(msg) {
    const sent = S.checkSent.get(msg.id);
    if (!sent) return;
    S.checkSent.delete(msg.id);
    if (sent.then) {
      sent.then(msg);
      return;
    }
    if (!U() || U().turn !== sent.turn || currentSelection() !== sent.action) return; // an old selection
    const { ok, code, params, error } = msg;
    S.check = { action: sent.action, turn: sent.turn, ok: !!ok, code, params, error };
    refreshSelection();
  }

  // The server's word on the raised cards now: true / false, or null while it is not known.
  function selectionLegal() {
    const sel = currentSelection();
    if (!sel || !isMyTurn()) return false;
    if (S.checkUnsupported) return G.isLegalSelection(game(), S.hand, S.raised, V(), legal());
    const c = S.check;
    if (c && c.action === sel && U() && c.turn === U().turn) return c.ok;
    return null;
  }

  // ------------------------------------------------------------ state helpers
  const U = () => S.update;
  const V = () => (S.update ? S.update.view : null);
  const room = () => (S.update ? S.update.room : {});
  const mySeat = () => (S.update && Number.isInteger(S.update.seat) ? S.update.seat : null);
  const numSeats = () => {
    const r = room();
    if (r.seats && r.seats.length) return r.seats.length;
    const v = V();
    return v && v.hand_counts ? v.hand_counts.length : G.SEATS[game()] || 5;
  };
  const game = () => room().game || (V() && V().game) || "baohuang";
  const seatInfo = (s) => ((room().seats || []).find((x) => x.seat === s) || { seat: s, player: null, bot: null });
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
  const playing = () => room().status === "playing";

  function onUpdate(u) {
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
    window.paijuTable = { update: u, tracker: u.tracker || null }; // for the browser tests
    if (!R) updateSounds(prev, u);
    const rd = u.room ? u.room.ready_deadline : null;
    S.readyAt = typeof rd === "number" ? Date.now() + rd * 1000 : null;
    if (u.turn !== prevTurn) {
      S.check = null; // a check answers for one turn
      if (S.msg && S.msg.turn !== u.turn) showMessage(null);
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
      renderHand();
    }
    const msg = u.room && u.room.message;
    if (msg && msg !== S.lastMessage) showMessage(roomMessage(msg, messageNames()), "info", { ms: 12000 });
    S.lastMessage = msg || null;
    if (prevHandNo !== null && u.room && u.room.hand_number !== prevHandNo) S.dismissed.clear();
    if (S.autoSit) {
      S.autoSit = false;
      if (mySeat() === null) {
        const free = (u.room.seats || []).find((s) => !s.player && !s.bot);
        if (free) send({ type: "sit", seat: free.seat });
      }
    }
    render();
    if (S.panel) renderPanel();
    shengjiAutomation();
  }

  // Who was on 托管 when the hand ended (the room message names them): their names are
  // kept in message_names, as the table is dissolved and the seats are free.
  function messageNames() {
    const r = room();
    const seats = r.message_seats || [];
    const names = r.message_names || [];
    return seats.map((s, i) => names[i] || (s === mySeat() ? t("you") : seatName(s)));
  }

  // "托管 (timeout) · 托管 2/3"
  function hostedText(info) {
    const reason = info.hosted_reason ? t("hosted_reason_" + info.hosted_reason) : t("hosted_on");
    return reason + " · " + hostedCount(info);
  }

  function hostedCount(info) {
    const max = room().hosted_lock_after ?? 3;
    return t("hosted_count", { n: info.hosted_times ?? 0, max });
  }

  // The banner while the viewer is on 托管 during a hand: why, the count, the lock, and
  // that the table is dissolved if the hand ends so.
  function renderHostedBanner() {
    const me = mySeat();
    const v = V();
    const info = me === null ? {} : seatInfo(me);
    const on = me !== null && playing() && !!info.hosted && !!v && v.phase !== "over";
    hostedLine.classList.toggle("hidden", !on);
    if (!on) {
      hostedLine.replaceChildren();
      return;
    }
    hostedLine.dataset.reason = info.hosted_reason || "";
    hostedLine.replaceChildren(
      ...[
        h("b", { "data-testid": "hosted-reason" }, hostedText(info)),
        info.locked ? h("span", { "data-testid": "hosted-locked" }, " · " + t("hosted_locked_note")) : null,
        h("span", { class: "hosted-warning", "data-testid": "hosted-warning" }, " · " + t("hosted_dissolve_warning")),
      ].filter(Boolean), // replaceChildren would show a null as the text "null"
    );
  }

  // The 托管 button: the rule first, then 托管 on confirmation; off at once.
  async function toggleHosted(on) {
    if (on) {
      const max = room().hosted_lock_after ?? 3;
      const yes = await confirmBox(t("hosted_confirm", { max }), {
        yes: t("hosted_confirm_yes"),
        no: t("cancel"),
        testid: "hosted-confirm",
      });
      if (!yes) return;
    }
    send({ type: "hosted", on });
  }

  // Shengji: the burial queue (one `bury` action per update, each at the turn it follows)
  // and the automatic "no" during the deal when the seat has nothing to declare.
  function shengjiAutomation() {
    const v = V();
    const u = U();
    if (!v || game() !== "shengji" || !isMyTurn()) {
      if (!v || v.phase !== "bury") S.buryQueue = [];
      return;
    }
    if (v.phase === "bury" && S.buryQueue.length && S.buryTurn !== u.turn) {
      const card = S.buryQueue.shift();
      S.buryTurn = u.turn;
      act("bury " + card);
      return;
    }
    const acts = legal();
    const asking = v.phase === "deal" || v.phase === "steal"; // declarations: the deal and the 抢底 round
    if (asking && S.autoNo && acts.length === 1 && acts[0] === "no" && S.autoNoTurn !== u.turn) {
      S.autoNoTurn = u.turn;
      const turn = u.turn;
      setTimeout(() => {
        if (U() && U().turn === turn && isMyTurn() && S.autoNo) act("no");
      }, 120);
    }
  }

  // 提示: raise what the server suggests (every press at a turn the next suggestion, the
  // server cycles); never act. Nothing beats: say so and raise nothing.
  function onHint(msg) {
    if (!isMyTurn()) return;
    const action = String(msg.action || "");
    const v = V();
    const turn = U().turn;
    if (msg.pass || action === "pass" || !action) {
      S.raised = [];
      refreshSelection();
      showMessage(t("hint_nothing_beats"), "hint", { selection: "" });
      return;
    }
    if (action === "yield" || action === "no" || action.startsWith("declare ")) {
      const what = action === "yield" ? t("act_yield") : declareLabel(action);
      showMessage(t("hint_suggests", { action: what }), "hint", { selection: currentSelection() });
      return;
    }
    let idx = Array.isArray(msg.cards) && msg.cards.length ? indicesOf(msg.cards) : null;
    if (idx === null && action.startsWith("bury ")) {
      // an older server: one card to bury per hint, added to what is raised
      const i = S.hand.findIndex((c, k) => c === action.slice(5).trim() && !S.raised.includes(k));
      idx = i >= 0 ? C.normalize(S.hand, [...S.raised, i]) : null;
    }
    if (idx === null && !action.startsWith("bury ")) idx = C.matchPlay(S.hand, action, [v && v.called]);
    if (idx === null) {
      showMessage(t("hint_suggests", { action: paramText(action) }), "hint");
      return;
    }
    S.raised = C.normalize(S.hand, idx);
    S.anchor = null;
    // the server suggested it: a legal play at this turn (a check confirms it anyway)
    if (v && v.phase === "play") S.check = { action: currentSelection(), turn, ok: true, code: null, params: {} };
    if (msg.count > 1) {
      showMessage(t("hint_n_of", { i: (msg.index ?? 0) + 1, n: msg.count }), "hint", { selection: currentSelection() });
    }
    else if (S.msg && S.msg.kind !== "info") showMessage(null);
    refreshSelection();
  }

  // Hand indices of exactly these card texts (a multiset), or null when the hand lacks one.
  function indicesOf(cards) {
    const used = new Set();
    for (const c of cards) {
      const i = S.hand.findIndex((x, k) => !used.has(k) && x === c);
      if (i < 0) return C.matchPlay(S.hand, cards.join(" "), [V() && V().called]);
      used.add(i);
    }
    return [...used].sort((a, b) => a - b);
  }

  // ------------------------------------------------------------ rendering
  function render() {
    renderTopbar();
    renderBanner();
    renderFelt();
    renderControls();
    refreshSelection();
    const v = V();
    page.dataset.game = game();
    page.dataset.phase = v ? v.phase || "" : "none";
    page.dataset.step = v ? v.step || "" : "";
    page.dataset.toAct = v && v.to_act !== null && v.to_act !== undefined ? String(v.to_act) : "";
    page.dataset.mySeat = mySeat() === null ? "" : String(mySeat());
    page.dataset.status = room().status || "";
    page.dataset.turn = U() ? String(U().turn) : "";
    page.dataset.handNumber = room().hand_number !== undefined ? String(room().hand_number) : "";
  }

  function renderTopbar() {
    const r = room();
    const backText = R ? t("back") : t("back_lobby");
    const back = h("button", { class: "small", "data-testid": "back", title: backText, onclick: () => (R ? R.back() : ctx.navigate("#/")) }, "‹ ", h("span", { class: "long" }, backText));
    const share = h("button", { class: "small", "data-testid": "share", title: shareURL() || "" });
    share.innerHTML = LINK_SVG;
    share.append(h("span", { class: "long" }, t("share")));
    share.addEventListener("click", () => copyShare());
    const dir = h(
      "button",
      { class: "small", "data-testid": "direction", title: t("direction") },
      S.direction === "cw" ? "↻" : "↺",
      h("span", { class: "long" }, " " + (S.direction === "cw" ? t("clockwise") : t("counterclockwise"))),
    );
    dir.addEventListener("click", () => {
      S.direction = S.direction === "cw" ? "ccw" : "cw";
      localStorage.setItem(DIRECTION_KEY, S.direction);
      render();
    });
    const variant = r.options && r.options.variant;
    topbar.replaceChildren(
      ...[
      back,
      h(
        "div",
        { class: "room-title" },
        h("span", { class: "room-name" }, r.name || roomId || ""),
        h(
          "span",
          { class: "muted room-sub" },
          [label(r.game || "baohuang"), variant ? label(variant) : null, r.hand_number ? t("hand_n", { n: r.hand_number }) : null, beansLine(r)]
            .filter(Boolean)
            .join(" · "),
        ),
      ),
      h("div", { class: "spacer" }),
      mySeat() === null && S.update ? h("span", { class: "chip watching", "data-testid": "watching" }, t("watching")) : null,
      r.spectators ? h("span", { class: "muted small-text long", "data-testid": "spectators" }, t("spectators_n", { n: r.spectators })) : null,
      toolsMenu(),
      shareURL() ? share : null, // a replay of a file has no address to share
      dir,
      ctx.langButton(),
      ].filter(Boolean),
    );
  }

  // the room's bean multipliers and minimum (only when they differ from the plain room)
  function beansLine(r) {
    const b = r.beans;
    if (!b || (b.bean_multiplier === 1 && b.table_multiplier === 1 && !b.min_beans)) return null;
    const min = b.min_beans ? t("room_min_beans", { n: b.min_beans }) : "";
    return t("room_beans", { room: b.bean_multiplier, table: b.table_multiplier, min });
  }

  // The secondary toggles: 上一轮 (key L), 牌谱, 记牌器, 快捷语, sound. On a phone they fold
  // into a small menu (⋯) so the top bar keeps one line.
  function toolsMenu() {
    const tool = (id, panel, text, title = text) =>
      h(
        "button",
        {
          class: "small tool" + (S.panel === panel ? " on" : ""),
          "data-testid": id,
          title,
          "aria-pressed": S.panel === panel ? "true" : "false",
          onclick: () => togglePanel(panel),
        },
        text,
      );
    const u = U();
    const sound = h(
      "button",
      {
        class: "small tool" + (soundOn() ? " on" : ""),
        "data-testid": "sound-toggle",
        "data-on": soundOn() ? "true" : "false",
        "aria-pressed": soundOn() ? "true" : "false",
        title: soundOn() ? t("sound_on") : t("sound_off"),
        onclick: () => {
          setSound(!soundOn());
          renderTopbar();
        },
      },
      t("sound_label"), // words, not emoji: a machine without an emoji font shows empty boxes
    );
    const extra = Object.entries((R && R.panels) || {}).map(([name, p]) => tool(`${name}-toggle`, name, p.title()));
    const items = [
      tool("prev-trick", "prev", t("prev_trick"), t("prev_trick") + " (L)"),
      tool("log-toggle", "log", t("hand_log")),
      ...extra,
      u && u.tracker && mySeat() !== null ? tool("tracker-toggle", "tracker", t("tracker")) : null,
      u && !R ? tool("phrases-toggle", "phrases", t("phrases")) : null,
      R ? null : sound,
    ].filter(Boolean);
    const more = h(
      "button",
      {
        class: "small tools-more",
        "data-testid": "tools-more",
        title: t("tool_more"),
        "aria-expanded": S.toolsOpen ? "true" : "false",
        onclick: () => {
          S.toolsOpen = !S.toolsOpen;
          renderTopbar();
        },
      },
      "⋯",
    );
    return h("div", { class: "tools-wrap" }, more, h("div", { class: "table-tools" + (S.toolsOpen ? " open" : ""), "data-testid": "tools" }, ...items));
  }

  function togglePanel(name) {
    S.panel = S.panel === name ? null : name;
    S.toolsOpen = false;
    renderTopbar();
    renderPanel();
  }

  // ------------------------------------------------------------ the side panel
  const logHelpers = {
    seatName: (s) => (s === selfSeat() ? t("you") : seatName(s)),
    actionLabel,
    kindLabel: (type, cards) => kindLabel(type, cards),
  };

  function renderPanel(force = false) {
    const v = V();
    const which = S.panel;
    // a replay's own panel (复盘) is kept up to date in place by replay.js: drawn anew it
    // would lose its scroll position at every step
    if (!force && which && R && R.panels && R.panels[which] && panelEl.dataset.panel === which) return;
    panelEl.classList.toggle("hidden", !which);
    panelEl.dataset.panel = which || "";
    if (!which) {
      panelEl.replaceChildren();
      return;
    }
    const close = h("button", { class: "small", "data-testid": "panel-close", title: t("close"), onclick: () => togglePanel(null) }, "✕");
    const titles = { log: t("hand_log"), tracker: t("tracker"), prev: t("prev_trick"), phrases: t("phrases") };
    const bodies = { log: logPanel, tracker: trackerPanel, prev: prevPanel, phrases: phrasesPanel };
    for (const [name, p] of Object.entries((R && R.panels) || {})) {
      titles[name] = p.title();
      bodies[name] = () => p.body();
    }
    const body = bodies[which](v);
    panelEl.replaceChildren(h("div", { class: "panel-head" }, h("h3", {}, titles[which]), close), body);
  }

  function rowElement(row) {
    return h(
      "li",
      { class: "log-row log-" + row.kind, "data-testid": "log-row", "data-kind": row.kind, "data-seat": row.seat ?? "" },
      h("span", {}, row.text + (row.cards ? " " : "")),
      row.cards ? cardsSpan(row.cards) : null,
    );
  }

  function logPanel(v) {
    const rows = logRows(v, game(), logHelpers);
    const list = h("ol", { class: "log-list", "data-testid": "hand-log", "data-count": String(rows.length) }, ...rows.map(rowElement));
    const said = S.said.slice(-20).map((m) =>
      h("li", { class: "log-row log-said", "data-testid": "log-said" }, t("log_said", { name: m.name || t("watching"), text: saidText(m) })),
    );
    const parts = [rows.length ? list : h("div", { class: "muted small-text", "data-testid": "hand-log" }, t("log_empty"))];
    if (said.length) parts.push(h("ol", { class: "log-list said-list" }, ...said));
    const scores = scoreRows(room().hands || [], numSeats(), seatName);
    if (scores) parts.push(h("div", { class: "muted small-text" }, t("history")), scores);
    const box = h("div", { class: "panel-body" }, ...parts);
    requestAnimationFrame(() => (list.scrollTop = list.scrollHeight)); // the latest event in sight
    return box;
  }

  // 记牌器: per rank, the copies not yet seen from this seat (update.tracker, from the hall)
  function trackerPanel() {
    const tr = (U() && U().tracker) || {};
    const order = (r) => (C.RANKS.indexOf(r) < 0 ? 99 : C.RANKS.indexOf(r));
    const ranks = Object.keys(tr).sort((a, b) => order(b) - order(a));
    const head = h("tr", {}, ...ranks.map((r) => h("th", {}, r === "BJ" ? t("bj") : r === "SJ" ? t("sj") : C.rankLabel(r))));
    const body = h(
      "tr",
      {},
      ...ranks.map((r) => h("td", { class: "num" + (tr[r] ? "" : " zero"), "data-testid": `tracker-${r}`, "data-count": String(tr[r]) }, String(tr[r]))),
    );
    return h(
      "div",
      { class: "panel-body" },
      h("div", { class: "muted small-text" }, t("tracker_title")),
      h("table", { class: "tracker-table", "data-testid": "tracker" }, h("thead", {}, head), h("tbody", {}, body)),
    );
  }

  // 上一轮: every play of the last finished trick
  function prevPanel(v) {
    const plays = previousTrick(v, game());
    if (!plays.length) return h("div", { class: "panel-body muted", "data-testid": "prev-trick-plays", "data-count": "0" }, t("prev_trick_none"));
    return h(
      "div",
      { class: "panel-body", "data-testid": "prev-trick-plays", "data-count": String(plays.length) },
      ...plays.map((p) =>
        h(
          "div",
          { class: "prev-row", "data-testid": "prev-play", "data-seat": String(p.seat), "data-cards": p.cards || "" },
          h("span", { class: "hl-name" }, logHelpers.seatName(p.seat) + ": "),
          p.cards ? C.playElement(p.cards, { size: "mini" }) : h("span", { class: "pass-mark" }, p.pass === "yield" ? t("yield_mark") : t("pass_mark")),
        ),
      ),
    );
  }

  // 快捷语: the fixed phrases and emotes; free text when the room allows chat
  function phrasesPanel() {
    const say = (msg) => {
      send({ type: "say", ...msg });
      togglePanel(null);
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
    const parts = [list, emotes];
    if (room().options && room().options.chat) {
      const input = h("input", { type: "text", maxLength: 60, placeholder: t("chat_placeholder"), "data-testid": "chat-input" });
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

  // `said`: a bubble beside a seated speaker for a few seconds; every word also in the log
  function onSaid(msg) {
    S.said.push(msg);
    if (S.said.length > 100) S.said.shift();
    if (Number.isInteger(msg.seat)) {
      S.bubbles.set(msg.seat, { text: saidText(msg), until: Date.now() + 4000 });
      renderFelt();
      setTimeout(() => !S.destroyed && renderFelt(), 4100);
    } else if (S.panel !== "log") {
      toast(t("log_said", { name: msg.name || t("watching"), text: saidText(msg) }), "info", 3000);
    }
    if (S.panel === "log") renderPanel();
  }

  // ------------------------------------------------------------ sounds
  // your turn, a play (a bomb or jokers louder), a pass; the last seconds in the tick
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

  function isBig(e) {
    const type = String(e.type || "");
    if (/bomb|rocket|joker/.test(type)) return true;
    const cards = C.parseCardList(e.cards || e.action) || [];
    return cards.length > 0 && cards.every((c) => c.rank === "BJ" || c.rank === "SJ");
  }

  function shareURL() {
    if (R) return R.shareURL();
    return `${location.origin}${location.pathname}#/room/${encodeURIComponent(roomId)}`;
  }

  async function copyShare() {
    const url = shareURL();
    try {
      await navigator.clipboard.writeText(url);
      toast(t("copied") + ": " + url, "info");
    } catch {
      prompt(t("share"), url);
    }
  }

  function renderBanner() {
    let text = "";
    if (S.connState === "connecting" && !S.update) text = t("connecting");
    else if (S.connState === "reconnecting") {
      const s = S.retryAt ? Math.max(0, Math.ceil((S.retryAt - Date.now()) / 1000)) : 0;
      text = t("reconnecting", { s });
    }
    banner.textContent = text;
    banner.classList.toggle("hidden", !text);
    page.dataset.connection = S.connState;
  }

  function positions() {
    const n = numSeats();
    const table = POSITIONS[n] || POSITIONS[5];
    return table[S.direction] || table.cw;
  }

  function trickState(v) {
    // From the events: each seat's last action in the current trick, and the previous trick.
    let cur = {};
    let curList = [];
    let prev = null;
    let index = -1;
    for (const e of (v && v.events) || []) {
      index += 1;
      if (e.event === "deal" || e.event === "redeal") {
        cur = {};
        curList = [];
        prev = null;
        continue;
      }
      if (e.event === "trick") {
        prev = { winner: e.winner, leader: e.leader, plays: curList };
        cur = {};
        curList = [];
        continue;
      }
      if (e.event !== undefined || e.step !== undefined || e.seat === undefined || e.action === undefined) continue;
      if (e.action === "pass" || e.action === "yield") cur[e.seat] = { kind: e.action, i: index };
      else {
        const cards = e.cards || e.action;
        cur[e.seat] = { kind: "play", cards, type: e.type || null, i: index };
        curList.push({ seat: e.seat, cards, type: e.type || null });
      }
    }
    return { cur, prev };
  }

  function renderFelt() {
    const v = V();
    const r = room();
    const n = numSeats();
    const me = mySeat();
    const base = me === null ? 0 : me;
    const pos = positions();
    const tricks = trickState(v);
    const children = [];
    for (let k = 0; k < n; k++) {
      const s = (base + k) % n;
      children.push(renderSeat(s, pos[k] || "bottom", v, tricks));
    }
    children.push(renderCentre(v, tricks));
    if (v && v.phase === "over" && !S.dismissed.has(r.hand_number)) children.push(renderScores(v));
    felt.replaceChildren(...children);
    felt.dataset.seats = String(n);
  }

  function roleBadge(s, v) {
    if (!v) return null;
    const role = v.emperor === s ? "emperor" : v.roles ? v.roles[s] : null;
    const hoe = (v.rebels_declared || []).includes(s);
    const soloText = v.solo === "open" ? t("open_solo") : v.solo === "hidden" ? t("hidden_solo") : null;
    if (role === "emperor") {
      const b = h("span", { class: "badge role role-emperor", "data-role": "emperor" });
      b.innerHTML = C.CROWN_SVG;
      b.append(t("role_emperor") + (soloText ? " · " + soloText : ""));
      return b;
    }
    if (role === "guard") {
      const b = h("span", { class: "badge role role-guard", "data-role": "guard" });
      b.innerHTML = C.SWORD_ICON;
      b.append(t("role_guard"));
      return b;
    }
    if (hoe) {
      const b = h("span", { class: "badge role role-hoe", "data-role": "rebel" });
      b.innerHTML = C.HOE_ICON;
      b.append(t("role_hoe"));
      return b;
    }
    if (role === "rebel") return h("span", { class: "badge role role-rebel", "data-role": "rebel" }, t("role_rebel"));
    if (v.emperor === null || v.emperor === undefined) {
      if (v.step === "emperor" && v.emperor_card_holder === s) {
        const b = h("span", { class: "badge role role-holder", "data-role": "holder" });
        b.innerHTML = C.CROWN_SVG;
        b.append(t("emperor_card") + (v.attached ? " · " + t("attached_n", { n: v.attached }) : ""));
        return b;
      }
      return null;
    }
    return h("span", { class: "badge role role-unknown", "data-role": "unknown" }, t("role_unknown"));
  }

  function placeOf(s, v) {
    if (!v) return null;
    const i = (v.finished || []).indexOf(s);
    if (i >= 0) return i + 1;
    return null;
  }

  function renderSeat(s, position, v, tricks) {
    const info = seatInfo(s);
    const r = room();
    const me = mySeat();
    const empty = !R && !info.player && !info.bot; // a replay's seat is never free to sit at
    const toAct = v && v.to_act === s && v.phase !== "over";
    const teams = G.hasTeams(game());
    const box = h("div", {
      class:
        "seat-box" +
        (teams ? ` team team-${G.teamOf(s)}` : "") +
        (toAct ? " to-act" : "") +
        (s === me ? " mine" : "") +
        (empty ? " empty" : "") +
        (info.connected === false && info.player ? " offline" : ""),
    });
    // name line
    const nameLine = h("div", { class: "seat-name" });
    if (info.player && !R) {
      nameLine.append(
        h("span", {
          class: "conn " + (info.connected === false ? "off" : "on"),
          title: info.connected === false ? t("offline") : t("online"),
          "data-testid": `conn-${s}`,
          "data-connected": info.connected === false ? "false" : "true",
        }),
      );
    }
    nameLine.append(h("span", { class: "name-text" }, empty ? t("empty_seat") : seatName(s)));
    if (s === selfSeat()) nameLine.append(h("span", { class: "you-mark" }, "(" + t("you") + ")"));
    box.append(nameLine);
    // badges
    const badges = h("div", { class: "seat-badges" });
    if (teams) badges.append(...teamBadges(s, v));
    else {
      const role = roleBadge(s, v);
      if (role) badges.append(role);
    }
    const place = placeOf(s, v);
    if (place) {
      const text = game() === "shuangkou" ? t("sk_place_" + place) : t("place_" + place);
      badges.append(h("span", { class: `badge place place-${place}`, "data-testid": `place-${s}` }, text));
    }
    if (info.player && (info.title || info.beans !== null)) {
      // 游戏等级 and an account's beans 游戏豆 (guests: the title alone)
      const bits = [];
      if (info.title) bits.push(getLang() === "zh" ? info.title.zh : info.title.en);
      if (info.beans !== null && info.beans !== undefined) bits.push(t("seat_beans", { n: info.beans }));
      badges.append(h("span", { class: "badge standing", "data-testid": `standing-${s}` }, bits.join(" · ")));
    }
    if (info.hosted) {
      const why = info.hosted_reason ? t("hosted_reason_" + info.hosted_reason) : "";
      badges.append(
        h(
          "span",
          { class: "badge hosted", "data-testid": `hosted-${s}`, title: why || null },
          t("hosted_badge") + " " + `${info.hosted_times ?? 0}/${r.hosted_lock_after ?? 3}` + (info.locked ? " · " + t("locked") : ""),
        ),
      );
    }
    if (v && v.hand_counts) {
      const cnt = h("span", { class: "badge count", "data-testid": `count-${s}`, title: t("cards_n", { n: v.hand_counts[s] }) });
      cnt.innerHTML = '<svg viewBox="0 0 14 18" class="back-icon" aria-hidden="true"><rect x="1" y="1" width="12" height="16" rx="2" fill="#1e4fa0" stroke="#fff" stroke-width="1.2"/><path d="M3 4h8v10h-8z" fill="none" stroke="#8fb3ff" stroke-width="0.8"/></svg>';
      cnt.append(String(v.hand_counts[s]));
      badges.append(cnt);
    }
    const ready = r.ready;
    if (Array.isArray(ready) && !playing() && !empty && (v ? v.phase === "over" : true)) {
      // 准备: who is ready for the next hand
      const on = !!ready[s];
      badges.append(
        h("span", { class: "badge ready-mark" + (on ? " on" : ""), "data-testid": `ready-${s}`, "data-ready": on ? "true" : "false" }, on ? "✓ " + t("ready_mark") : "…"),
      );
    }
    if (toAct && S.deadlineAt !== null) {
      const clock = h("span", { class: "badge timer-badge" });
      clock.innerHTML = CLOCK_SVG;
      clock.append(h("span", { class: "timer", "data-testid": "timer", "data-seat": String(s) }, timerText()));
      badges.append(clock);
    }
    if (badges.childNodes.length) box.append(badges);
    // seat management (before a hand, or a seat left free)
    const mgmt = h("div", { class: "seat-mgmt" });
    if (R) {
      // a replay: no seat management; every other seat's cards face up (the bottom one's are the hand)
      const cards = U() && U().hands ? U().hands[s] : null;
      if (cards && s !== me) box.append(faceUp(s, cards));
    } else if (empty && S.update) {
      mgmt.append(h("button", { class: "small primary", "data-testid": `sit-${s}`, onclick: () => send({ type: "sit", seat: s }) }, t("sit")));
      if (!playing()) {
        const bots = h("div", { class: "bot-buttons" }, h("span", { class: "muted small-text" }, t("add_bot") + ":"));
        for (const level of BOT_LEVELS) {
          bots.append(
            h(
              "button",
              { class: "small", "data-testid": `bot-${s}-${level}`, onclick: () => send({ type: "bot", seat: s, level }) },
              t("bot_" + level),
            ),
          );
        }
        mgmt.append(bots);
      }
    } else if (info.bot && !playing()) {
      mgmt.append(
        h(
          "button",
          { class: "small", "data-testid": `bot-${s}-remove`, onclick: () => send({ type: "bot", seat: s, level: null }) },
          t("remove_bot"),
        ),
      );
    }
    if (mgmt.childNodes.length) box.append(mgmt);
    // the seat's last action in the current trick
    const played = h("div", { class: "seat-play", "data-testid": `seat-play-${s}` });
    const last = v && (v.phase === "play" || v.phase === "over") ? tricks.cur[s] : null;
    if (game() === "shengji") shengjiSeatPlay(played, s, v);
    else if (last && last.kind === "play") {
      const el = C.playElement(last.cards, { size: "small" });
      if (S.seenPlays.get(s) !== last.i) el.classList.add("fresh"); // slides in from the seat once
      S.seenPlays.set(s, last.i);
      played.append(el);
      if (last.type) played.append(h("div", { class: "play-type", "data-testid": `play-type-${s}` }, kindLabel(last.type, last.cards)));
    } else if (last) played.append(h("span", { class: "pass-mark" }, last.kind === "yield" ? t("yield_mark") : t("pass_mark")));
    return h(
      "div",
      {
        class: `seat pos-${position}`,
        "data-testid": `seat-${s}`,
        "data-seat": String(s),
        "data-empty": empty ? "true" : "false",
        "data-role": v && v.emperor === s ? "emperor" : v && v.roles && v.roles[s] ? v.roles[s] : "",
        "data-to-act": toAct ? "true" : "false",
        "data-team": teams ? String(G.teamOf(s)) : "",
        "data-partner": teams && G.partnerOf(game(), mySeat()) === s ? "true" : "false",
        "data-declarer": game() === "shengji" && v && v.declarer === s ? "true" : "false",
      },
      box,
      played,
      bubbleOf(s),
    );
  }

  // A replay: the cards a seat still holds, face up, small and overlapping (sorted as its own hand would be).
  function faceUp(s, cards) {
    const sorted = G.sortHand(game(), cards, V());
    const box = h("div", { class: "seat-cards", "data-testid": `seat-cards-${s}`, "data-count": String(cards.length), "data-cards": sorted.join(" ") });
    for (const c of sorted) box.append(C.cardElement(c, { size: "mini" }));
    return box;
  }

  // What the seat said a moment ago (快捷语), as a bubble beside it.
  function bubbleOf(s) {
    const b = S.bubbles.get(s);
    if (!b || b.until < Date.now()) return null;
    return h("div", { class: "said-bubble", "data-testid": `bubble-${s}`, role: "status" }, b.text);
  }

  function timerText() {
    if (S.deadlineAt === null) return "";
    const left = Math.max(0, Math.ceil((S.deadlineAt - Date.now()) / 1000));
    return String(left);
  }

  function chip(cls, ...content) {
    return h("span", { class: "chip " + cls }, ...content);
  }

  function renderCentre(v, tricks) {
    const r = room();
    const centre = h("div", { class: "centre", "data-testid": "centre" });
    if (!v) {
      const seats = r.seats || [];
      const n = seats.length || numSeats();
      const taken = seats.filter((s) => s.player || s.bot).length;
      centre.append(
        h("div", { class: "step-name" }, t("status_" + (r.status || "waiting"))),
        h("div", { class: "muted" }, `${t("seats")} ${taken}/${n}`),
      );
      if (taken < n) centre.append(h("div", { class: "muted small-text" }, t("need_all_seats", { n })));
      return centre;
    }
    if (game() === "shengji") return shengjiCentre(centre, v);
    if (game() === "shuangkou") return shuangkouCentre(centre, v, tricks);
    centre.append(h("div", { class: "step-name", "data-testid": "step" }, t("step_" + v.step)));
    const chips = h("div", { class: "chips", "data-testid": "multipliers" });
    if (v.called) chips.append(chip("called", t("called") + " ", cardSpan(v.called)));
    if (v.solo === "open") chips.append(chip("mult", t("open_solo")));
    if (v.solo === "hidden") chips.append(chip("mult", t("hidden_solo")));
    if (v.open_guard) chips.append(chip("mult", t("open_guard") + " ×2"));
    if (v.rebellion) chips.append(chip("mult", t("rebellion") + " ×2"));
    if (v.kicks) chips.append(chip("mult", t("kick") + " ×" + 2 ** v.kicks));
    if (v.deals > 1) chips.append(chip("info", t("deals_n", { n: v.deals })));
    if (chips.childNodes.length) centre.append(chips);
    if (v.step === "tribute" && v.tribute_pool && v.tribute_pool.length) {
      centre.append(
        h("div", { class: "pool", "data-testid": "tribute-pool" }, h("div", { class: "muted small-text" }, t("tribute_pool")), C.playElement(v.tribute_pool.join(" "), { size: "small" })),
      );
    }
    if (v.phase === "play" || v.phase === "over") {
      const trick = v.trick || [];
      const lastPlay = h("div", { class: "last-play", "data-testid": "last-play" });
      if (trick.length) {
        const top = trick[trick.length - 1];
        lastPlay.append(h("div", { class: "who" }, `${t("to_beat")}: ${seatName(top.seat)}`), C.playElement(top.cards, { size: "small" }));
      } else if (tricks.prev && tricks.prev.plays.length) {
        const w = tricks.prev.plays[tricks.prev.plays.length - 1];
        lastPlay.classList.add("previous");
        lastPlay.append(h("div", { class: "who" }, `${t("last_trick")}: ${seatName(w.seat)}`), C.playElement(w.cards, { size: "small" }));
      }
      if (v.phase === "play" && !trick.length && v.to_act !== null && v.to_act !== undefined) {
        lastPlay.append(h("div", { class: "muted small-text" }, v.to_act === selfSeat() ? t("you_lead") : t("leads", { name: seatName(v.to_act) })));
      }
      centre.append(lastPlay);
    }
    if (v.phase !== "over" && v.to_act !== null && v.to_act !== undefined && v.to_act !== selfSeat()) {
      centre.append(h("div", { class: "waiting muted small-text" }, t("waiting_for", { name: seatName(v.to_act) })));
    }
    if (v.phase === "over" && S.dismissed.has(r.hand_number)) {
      centre.append(
        h("button", { class: "small", "data-testid": "show-scores", onclick: () => (S.dismissed.delete(r.hand_number), render()) }, t("show_scores")),
      );
    }
    return centre;
  }

  // ------------------------------------------------------------ Shengji 升级 and Shuangkou 双扣

  // "declare Th Th" → "Declare ♥10 ♥10"; "no" → "Pass"
  function declareLabel(action) {
    if (action === "no") return t("act_no_declare");
    const cards = action.split(/\s+/).slice(1).map(cardLabel).join(" ");
    return t("act_declare", { cards });
  }

  function cardsSpan(text) {
    return h("span", { class: "cards-inline" }, ...String(text).split(/\s+/).filter(Boolean).map((c) => cardSpan(c)));
  }

  // Label of a Shuangkou combination type (bombs with their size).
  function kindLabel(type, cards) {
    if (type === "bomb") {
      const n = (C.parseCardList(cards) || []).length;
      return n > 4 ? t("kind_bomb_n", { n }) : t("kind_bomb");
    }
    return t("kind_" + type);
  }

  // Team of a seat, named from the viewer's side ("Us"/"Them"), else A/B.
  function teamName(team) {
    const me = selfSeat();
    if (me !== null && G.hasTeams(game())) return team === G.teamOf(me) ? t("team_us") : t("team_them");
    return team === 0 ? t("team_a") : t("team_b");
  }

  function teamMembers(team) {
    return [team, team + 2].map((s) => seatName(s)).join(" · ");
  }

  function teamBadges(s, v) {
    const out = [];
    const me = mySeat();
    if (game() === "shengji" && v && v.declarer === s) {
      out.push(h("span", { class: "badge role role-declarer", "data-testid": `declarer-${s}`, "data-role": "declarer" }, t("declarer_badge")));
    }
    if (me !== null && G.partnerOf(game(), me) === s) {
      out.push(h("span", { class: "badge role role-partner", "data-testid": `partner-${s}`, "data-role": "partner" }, t("partner_badge")));
    }
    return out;
  }

  // A seat's cards in the Shengji trick: the current trick, or (while the next lead is
  // awaited) the last trick faded, its winning play marked.
  function shengjiSeatPlay(el, s, v) {
    if (!v || (v.phase !== "play" && v.phase !== "over")) return;
    const trick = v.trick || [];
    const done = v.tricks || [];
    let play = trick.find((p) => p.seat === s);
    let previous = null;
    if (!trick.length && done.length) {
      previous = done[done.length - 1];
      play = previous.plays.find((p) => p.seat === s);
    }
    if (!play) return;
    const cards = C.playElement(play.cards, { size: "small" });
    const key = previous ? null : `${done.length}:${play.cards}`;
    if (key && S.seenPlays.get(s) !== key) cards.classList.add("fresh"); // slides in from the seat once
    if (key) S.seenPlays.set(s, key);
    el.append(cards);
    if (previous) {
      el.classList.add("previous");
      if (previous.winner === s) {
        el.classList.add("winner");
        el.append(h("div", { class: "play-type win-mark", "data-testid": `trick-winner-${s}` }, "★ " + t("winner_mark")));
      }
      if (previous.failed_throw && previous.leader === s) el.append(failedThrowNote(previous.failed_throw));
    } else if (v.failed_throw && trick[0] && trick[0].seat === s) {
      el.append(failedThrowNote(v.failed_throw));
    }
  }

  function failedThrowNote(cards) {
    return h(
      "div",
      { class: "failed-throw", "data-testid": "failed-throw" },
      h("span", {}, t("failed_throw") + ": "),
      C.playElement(cards, { size: "mini" }),
    );
  }

  function trumpChip(v) {
    const tr = G.shengjiTrump(v);
    const box = h("span", { class: "chip trump-chip", "data-testid": "trump" });
    if (v.trump_settled) {
      box.dataset.trump = v.trump_suit || "none";
      if (v.trump_suit) {
        const red = v.trump_suit === "h" || v.trump_suit === "d";
        box.append(t("trump") + " ", h("span", { class: "suit-big " + (red ? "red" : "black") }, C.SUIT_SYMBOL[v.trump_suit]));
      } else box.append(t("no_trump"));
    } else {
      box.dataset.trump = "";
      box.append(t("trump_pending"));
      if (tr.suit) box.append(" · ", h("span", { class: "suit-big " + (tr.suit === "h" || tr.suit === "d" ? "red" : "black") }, C.SUIT_SYMBOL[tr.suit]));
    }
    return box;
  }

  function shengjiCentre(centre, v) {
    centre.classList.add("centre-sj");
    centre.append(h("div", { class: "step-name", "data-testid": "step" }, t("sj_phase_" + v.phase)));
    const head = h(
      "div",
      { class: "sj-head", "data-testid": "sj-head" },
      h("span", { class: "chip level-chip", "data-testid": "level" }, t("level_n", { r: C.rankLabel(v.level) })),
      trumpChip(v),
    );
    centre.append(head);
    // the declaration standing (during the deal) or the declarer
    const decl = h("div", { class: "sj-decl", "data-testid": "declaration" });
    if (v.declaration) {
      decl.append(t("declared_by", { name: seatName(v.declaration.seat) }) + " ", cardsSpan(v.declaration.cards));
    } else if (v.phase === "deal" || v.phase === "steal") decl.append(t("no_declaration"));
    if (v.revealed_kitty_card) decl.append(h("span", { "data-testid": "kitty-card-trump" }, t("kitty_card_trump") + " "), cardsSpan(v.revealed_kitty_card));
    if (v.declarer !== null && v.declarer !== undefined) {
      decl.append(h("span", { class: "sj-declarer" }, (decl.childNodes.length ? " · " : "") + t("declarer") + ": " + seatName(v.declarer)));
    }
    if (decl.childNodes.length) centre.append(decl);
    // team levels
    const levels = h("div", { class: "chips team-levels", "data-testid": "team-levels" });
    for (const team of [0, 1]) {
      const declaring = v.declarer !== null && v.declarer !== undefined && G.teamOf(v.declarer) === team;
      levels.append(
        h(
          "span",
          { class: `chip team-chip team-${team}` + (declaring ? " declaring" : ""), title: teamMembers(team), "data-testid": `team-level-${team}` },
          `${teamName(team)} ${C.rankLabel(v.team_levels[team])}` + (declaring ? " · " + t("declaring_team") : ""),
        ),
      );
    }
    centre.append(levels);
    if (v.phase === "deal") {
      centre.append(h("div", { class: "muted small-text", "data-testid": "dealt" }, t("cards_dealt", { n: v.cards_dealt, total: dealTotal(v) })));
    }
    if (v.phase === "bury") {
      const k = (v.buried || []).length;
      if (v.buried) centre.append(h("div", { class: "muted small-text", "data-testid": "bury-progress" }, t("buried_progress", { k, n: v.kitty_size })));
      else centre.append(h("div", { class: "muted small-text" }, t("waiting_bury", { name: seatName(v.declarer) })));
    }
    if (v.phase === "play" || v.phase === "over") {
      const pts = (v.defender_points || 0) + (v.penalty_points || 0);
      const chips = h("div", { class: "chips" }, h("span", { class: "chip points-chip", "data-testid": "defender-points" }, t("defender_points", { n: pts })));
      centre.append(chips);
      const done = v.tricks || [];
      if (done.length) {
        const lt = done[done.length - 1];
        centre.append(h("div", { class: "muted small-text", "data-testid": "last-trick" }, t("last_trick_won", { name: seatName(lt.winner), n: lt.points })));
      }
      if (v.phase === "play" && !(v.trick || []).length && v.to_act !== null && v.to_act !== undefined) {
        centre.append(h("div", { class: "muted small-text" }, v.to_act === selfSeat() ? t("prompt_play_lead") : t("leads", { name: seatName(v.to_act) })));
      }
    }
    if (v.phase === "over" && v.kitty) {
      centre.append(h("div", { class: "pool", "data-testid": "kitty" }, h("div", { class: "muted small-text" }, t("kitty")), C.playElement(v.kitty.join(" "), { size: "mini" })));
    }
    centreTail(centre, v);
    return centre;
  }

  function dealTotal(v) {
    const per = { 1: 12, 2: 25, 3: 39 }[(v.options && v.options.decks) || 2] || 25;
    return per * 4;
  }

  function shuangkouCentre(centre, v, tricks) {
    centre.append(h("div", { class: "step-name", "data-testid": "step" }, t("step_" + (v.phase === "over" ? "over" : "play"))));
    const teams = h("div", { class: "chips team-levels sk-teams" });
    for (const team of [0, 1]) {
      teams.append(h("span", { class: `chip team-chip team-${team}`, title: teamMembers(team), "data-testid": `team-${team}` }, `${teamName(team)}: ${teamMembers(team)}`));
    }
    centre.append(teams);
    if (v.phase === "play" || v.phase === "over") {
      const trick = v.trick || [];
      const lastPlay = h("div", { class: "last-play", "data-testid": "last-play" });
      const top = v.last_play || (trick.length ? trick[trick.length - 1] : null);
      if (top) {
        lastPlay.append(
          h("div", { class: "who" }, `${t("to_beat")}: ${seatName(top.seat)} · `, h("b", { "data-testid": "combo-type" }, kindLabel(top.type, top.cards))),
          C.playElement(top.cards, { size: "small" }),
        );
      } else if (tricks.prev && tricks.prev.plays.length) {
        const w = tricks.prev.plays[tricks.prev.plays.length - 1];
        lastPlay.classList.add("previous");
        lastPlay.append(h("div", { class: "who" }, `${t("last_trick")}: ${seatName(w.seat)} · ${kindLabel(w.type, w.cards)}`), C.playElement(w.cards, { size: "small" }));
      }
      if (v.phase === "play" && !trick.length && v.to_act !== null && v.to_act !== undefined) {
        const prev = tricks.prev;
        if (prev && prev.leader !== undefined && prev.leader !== prev.winner) {
          lastPlay.append(h("div", { class: "chip mult", "data-testid": "jiefeng" }, t("jiefeng", { name: seatName(prev.leader) })));
        } else {
          lastPlay.append(h("div", { class: "muted small-text" }, v.to_act === selfSeat() ? t("prompt_play_lead") : t("leads", { name: seatName(v.to_act) })));
        }
      }
      centre.append(lastPlay);
    }
    if ((v.finished || []).length) {
      centre.append(
        h(
          "div",
          { class: "chips", "data-testid": "finish-order" },
          ...v.finished.map((s, i) => h("span", { class: `chip place-chip team-chip team-${G.teamOf(s)}` }, `${t("sk_place_" + (i + 1))} ${seatName(s)}`)),
        ),
      );
    }
    centreTail(centre, v);
    return centre;
  }

  function centreTail(centre, v) {
    const r = room();
    if (v.phase !== "over" && v.to_act !== null && v.to_act !== undefined && v.to_act !== selfSeat()) {
      centre.append(h("div", { class: "waiting muted small-text" }, t("waiting_for", { name: seatName(v.to_act) })));
    }
    if (v.phase === "over" && S.dismissed.has(r.hand_number)) {
      centre.append(
        h("button", { class: "small", "data-testid": "show-scores", onclick: () => (S.dismissed.delete(r.hand_number), render()) }, t("show_scores")),
      );
    }
  }

  // The score screen's frame: title, close button, content, hand history and "next hand".
  function scoresFrame(...content) {
    const r = room();
    const me = mySeat();
    const allTaken = (r.seats || []).length > 0 && (r.seats || []).every((s) => s.player || s.bot);
    const next = !R && me !== null && allTaken && r.status !== "playing" ? readyButton("next-hand", "primary big") : null;
    const close = h("button", { class: "small", "data-testid": "close-scores", onclick: () => (S.dismissed.add(r.hand_number), render()) }, t("close"));
    return h(
      "div",
      { class: "scores-overlay", "data-testid": "scores" },
      h(
        "div",
        { class: "scores-card" },
        h("div", { class: "scores-head" }, h("h2", {}, t("scores") + (r.hand_number ? " · " + t("hand_n", { n: r.hand_number }) : "")), close),
        ...content,
        r.message ? h("div", { class: "room-message", "data-testid": "room-message" }, roomMessage(r.message, messageNames())) : null,
        historyTable(r.hands || [], numSeats()),
        h("div", { class: "form-actions" }, countdownEl(), next),
      ),
    );
  }

  // The room's record of the hand on the score screen (scored, unscored_reason …), if any.
  function handEntry() {
    const r = room();
    const hands = r.hands || [];
    if (r.status === "playing" || !hands.length) return null;
    return hands.find((hd) => hd && hd.number === r.hand_number) || hands[hands.length - 1];
  }

  // Each seat's points as the hall counts them: 0 for everyone in a hand not scored.
  function shownScores(v) {
    const e = handEntry();
    if (e && e.scored === false) return (v.scores || Array(numSeats()).fill(0)).map(() => 0);
    return v.scores || null;
  }

  // "You won · your side won" (or lost / drew), or why the hand is not scored.
  function resultLine(v, sideOf) {
    const e = handEntry();
    const me = selfSeat();
    if (e && e.scored === false) {
      const why = t("unscored_" + (e.unscored_reason || "all_hosted"));
      const attrs = { class: "result-line unscored", "data-testid": "result-line", "data-result": "unscored" };
      return h("div", attrs, t("not_scored") + " · " + why);
    }
    const scores = v.scores || [];
    if (me === null || scores[me] === undefined) return null;
    const word = (n) => (n > 0 ? "won" : n < 0 ? "lost" : "drew");
    const mine = word(scores[me]);
    const parts = [t("result_you_" + mine)];
    const side = sideOf ? sideOf(me) : null;
    if (side) {
      const pts = side.seats.reduce((a, s) => a + (scores[s] || 0), 0);
      parts.push(t("result_side_" + word(pts), { side: side.name }));
    }
    const attrs = { class: "result-line " + mine, "data-testid": "result-line", "data-result": mine };
    return h("div", attrs, parts.join(" · "));
  }

  // The cards still held when the hand ended, per seat, as small labels.
  function handsLeft(v) {
    const left = v.hands_left;
    if (!Array.isArray(left) || !left.some((cards) => cards && cards.length)) return null;
    const rows = [];
    for (let s = 0; s < numSeats(); s++) {
      const cards = left[s] || [];
      rows.push(
        h(
          "div",
          { class: "hands-left-row" + (s === mySeat() ? " mine" : ""), "data-testid": `hands-left-${s}`, "data-cards": cards.join(" ") },
          h("span", { class: "hl-name" }, seatName(s) + ": "),
          cards.length ? cardsSpan(cards.join(" ")) : h("span", { class: "muted" }, t("hands_left_none")),
        ),
      );
    }
    const title = h("div", { class: "muted small-text" }, t("hands_left"));
    return h("div", { class: "hands-left", "data-testid": "hands-left" }, title, ...rows);
  }

  function factorChip(name, text) {
    return h("span", { class: "chip mult", "data-testid": "factor", "data-name": name }, text);
  }

  function seatRows(v, cells) {
    const r = room();
    const rows = [];
    const shown = shownScores(v);
    for (let s = 0; s < numSeats(); s++) {
      const pts = shown ? shown[s] : null;
      const total = r.standings ? r.standings[s] : null;
      rows.push(
        h(
          "tr",
          { class: (s === mySeat() ? "mine " : "") + `team-row team-${G.teamOf(s)}`, "data-seat": String(s) },
          h("td", {}, seatName(s)),
          ...cells(s),
          h("td", { class: "num " + (pts > 0 ? "pos" : pts < 0 ? "neg" : "") }, pts === null || pts === undefined ? "" : (pts > 0 ? "+" : "") + pts),
          h("td", { class: "num" }, total === null || total === undefined ? "" : String(total)),
        ),
      );
    }
    return rows;
  }

  function shengjiScores(v) {
    const res = v.result || {};
    const d = res.declarer;
    const rows = seatRows(v, (s) => [
      h("td", {}, teamName(G.teamOf(s))),
      h("td", {}, s === d ? t("declarer") : ""),
    ]);
    const table = h(
      "table",
      { class: "scores-table" },
      h("thead", {}, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("team")), h("th", {}, t("role")), h("th", {}, t("level_change")), h("th", {}, t("standings")))),
      h("tbody", {}, ...rows),
    );
    const outcome = res.declarers_hold
      ? t("sj_hold", { n: res.levels_up })
      : res.levels_up
        ? t("sj_take_over_up", { n: res.levels_up })
        : t("sj_take_over");
    const lines = [
      h("div", { class: "sj-outcome", "data-testid": "sj-outcome" }, outcome),
      h(
        "div",
        { class: "small-text", "data-testid": "defender-total" },
        [t("defenders_total", { n: res.defender_points }), t("trick_points", { n: res.trick_points }), res.penalty_points ? t("penalty_points", { n: res.penalty_points }) : null]
          .filter(Boolean)
          .join(" · "),
      ),
      h(
        "div",
        { class: "kitty-line", "data-testid": "kitty-result" },
        h("span", {}, t("kitty") + ": "),
        C.playElement((v.kitty || []).join(" "), { size: "mini" }),
        h(
          "span",
          { class: "small-text" },
          res.kitty_bonus
            ? t("kitty_bonus", { p: res.kitty_points, m: res.kitty_multiplier, b: res.kitty_bonus })
            : t("kitty_kept", { p: res.kitty_points, m: res.kitty_multiplier }),
        ),
      ),
      h(
        "div",
        { class: "new-levels", "data-testid": "new-levels" },
        t("new_levels") + ": ",
        ...[0, 1].map((team) =>
          h("span", { class: `chip team-chip team-${team}`, "data-testid": `new-level-${team}` }, `${teamName(team)} ${C.rankLabel(v.team_levels[team])} → ${C.rankLabel((res.team_levels || [])[team])}`),
        ),
      ),
      res.jack_reset ? h("div", { class: "small-text" }, t("jack_reset_note")) : null,
      res.match_winner !== null && res.match_winner !== undefined
        ? h("div", { class: "sj-outcome", "data-testid": "match-winner" }, t("match_won", { team: teamName(res.match_winner), r: C.rankLabel(v.level) }))
        : res.next_declarer !== undefined
          ? h("div", { class: "muted small-text" }, t("next_declarer", { name: seatName(res.next_declarer) }))
          : null,
    ];
    return scoresFrame(resultLine(v, teamSide), table, ...lines, shengjiDetail(v, res), handsLeft(v));
  }

  // A partnership game's side: the viewer's team.
  function teamSide(s) {
    return { name: t("side_team"), seats: [G.teamOf(s), G.teamOf(s) + 2] };
  }

  // Shengji: the defenders' points, the kitty points × multiplier, each team's level change.
  function shengjiDetail(v, res) {
    const d = v.score_detail;
    if (!d || typeof d !== "object") return null;
    const box = h("div", { class: "mults chips", "data-testid": "score-detail" });
    if (d.defender_points !== undefined) {
      const line = d.threshold !== undefined ? " · " + t("sd_threshold", { n: d.threshold }) : "";
      const text = t("sd_defenders", { n: d.defender_points }) + line;
      box.append(factorChip("defender_points", text));
    }
    if (d.kitty_points !== undefined) {
      const counted = d.kitty_counted ?? (d.kitty_points || 0) * (d.kitty_multiplier || 1);
      box.append(factorChip("kitty", t("sd_kitty", { p: d.kitty_points, m: d.kitty_multiplier ?? 1, c: counted })));
    }
    // the level change: which team goes up and by how many levels (score_detail.level_changes)
    const change = d.level_changes;
    if (change && Number.isInteger(change.team) && change.levels) {
      box.append(factorChip("level_change", t("level_change") + ": " + teamName(change.team) + " +" + change.levels));
    }
    return box.childNodes.length ? box : null;
  }

  function skResult(team, result) {
    const me = selfSeat();
    if (me === null) return t("sk_result", { team: teamName(team), result });
    return t(team === G.teamOf(me) ? "sk_result_us" : "sk_result_them", { result });
  }

  function shuangkouScores(v) {
    const r = room();
    const finished = v.finished || [];
    const rows = seatRows(v, (s) => {
      const i = finished.indexOf(s);
      return [h("td", {}, teamName(G.teamOf(s))), h("td", {}, i >= 0 ? t("sk_place_" + (i + 1)) : "—")];
    });
    const table = h(
      "table",
      { class: "scores-table" },
      h("thead", {}, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("team")), h("th", {}, t("place")), h("th", {}, t("points")), h("th", {}, t("standings")))),
      h("tbody", {}, ...rows),
    );
    const winners = v.winners && v.winners.length ? G.teamOf(v.winners[0]) : null;
    const result = h(
      "div",
      { class: "sj-outcome", "data-testid": "sk-result", "data-result": v.result || "" },
      winners === null ? "" : skResult(winners, t("result_" + v.result)),
    );
    const st = r.standings || [];
    const match = h(
      "div",
      { class: "new-levels", "data-testid": "match-score" },
      t("match_score") + ": ",
      // a team's score is what each of its players has (partners score alike; a leave penalty is its player's own)
      ...[0, 1].map((team) => h("span", { class: `chip team-chip team-${team}`, "data-testid": `match-score-${team}` }, `${teamName(team)} ${Math.max(st[team] || 0, st[team + 2] || 0)}`)),
    );
    const order = h("div", { class: "small-text", "data-testid": "finish-order-result" }, t("finish_order") + ": " + finished.map((s) => seatName(s)).join(" → "));
    const d = v.score_detail;
    const factor =
      d && typeof d === "object" && d.result
        ? h("div", { class: "mults chips", "data-testid": "score-detail" }, factorChip(d.result, `${t("result_" + d.result)} ×${d.factor ?? 1}`))
        : null;
    return scoresFrame(resultLine(v, teamSide), result, factor, table, order, R ? null : match, handsLeft(v)); // a replay knows the hand, not the match
  }

  function renderScores(v) {
    if (game() === "shengji") return shengjiScores(v);
    if (game() === "shuangkou") return shuangkouScores(v);
    const r = room();
    const n = numSeats();
    const places = v.places || [];
    const placeOfSeat = (s) => {
      const i = places.indexOf(s);
      return i >= 0 ? i + 1 : null;
    };
    const rows = [];
    const shown = shownScores(v);
    for (let s = 0; s < n; s++) {
      const role = v.roles && v.roles[s];
      const pts = shown ? shown[s] : null;
      const total = r.standings ? r.standings[s] : null;
      const p = placeOfSeat(s); // every seat has a place: those left holding cards by their cards (§4)
      rows.push(
        h(
          "tr",
          { class: s === mySeat() ? "mine" : "", "data-seat": String(s) },
          h("td", {}, seatName(s)),
          h("td", {}, role ? t("role_" + role) + ((v.rebels_declared || []).includes(s) ? " · " + t("role_hoe") : "") : "?"),
          h("td", {}, p ? t("place_" + p) : "—"),
          h("td", { class: "num " + (pts > 0 ? "pos" : pts < 0 ? "neg" : "") }, pts === null || pts === undefined ? "" : (pts > 0 ? "+" : "") + pts),
          h("td", { class: "num" }, total === null || total === undefined ? "" : String(total)),
        ),
      );
    }
    // the emperor's side (皇帝 and 侍卫, or the emperor alone) against the rebels
    const sideOf = (s) => {
      const roles = v.roles || [];
      const emperorSide = (x) => roles[x] === "emperor" || roles[x] === "guard" || v.emperor === x;
      if (!roles.length && v.emperor === undefined) return null;
      const mine = emperorSide(s);
      const seats = [...Array(n).keys()].filter((x) => emperorSide(x) === mine);
      if (mine && seats.length === 1) return null; // alone: the side is the player
      return { name: t(mine ? "side_emperor" : "side_rebels"), seats: seats.slice(0, 1) };
    };
    return scoresFrame(
      resultLine(v, sideOf),
      h(
        "table",
        { class: "scores-table" },
        h("thead", {}, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("role")), h("th", {}, t("place")), h("th", {}, t("points")), h("th", {}, t("standings")))),
        h("tbody", {}, ...rows),
      ),
      baohuangDetail(v),
      handsLeft(v),
    );
  }

  // Baohuang: how the score came about — the kind with its base number, then every
  // multiplier with its factor (明保 ×2, 造反 ×2, 踢 ×2 each, 上贡 ×n).
  function baohuangDetail(v) {
    const d = v.score_detail;
    const head = h("span", {}, t("multipliers") + ": ");
    const box = h("div", { class: "mults chips", "data-testid": "score-multipliers" }, head);
    if (d && typeof d === "object") {
      const kind = { pair: t("sd_pair"), open_solo: t("open_solo"), hidden_solo: t("hidden_solo") }[d.kind] || d.kind;
      box.append(factorChip(d.kind || "base", t("sd_base", { kind, n: d.base ?? "?" })));
      for (const f of d.factors || []) {
        const key = "factor_" + f.name;
        const name = t(key) === key ? f.name : t(key);
        box.append(factorChip(f.name, `${name} ×${f.factor}`));
      }
      if (d.multiplier !== undefined) box.append(h("b", { "data-testid": "multiplier-total" }, `= ×${d.multiplier}`));
      if (d.kick_split) box.append(h("span", { class: "muted small-text" }, t("sd_kick_split")));
      return box;
    }
    // an older server: the view's flags (no base numbers)
    const mults = [];
    if (v.solo === "open") mults.push(t("open_solo"));
    if (v.solo === "hidden") mults.push(t("hidden_solo"));
    if (v.open_guard) mults.push(t("open_guard") + " ×2");
    if (v.rebellion) mults.push(t("rebellion") + " ×2");
    if (v.kicks) mults.push(t("kick") + " ×" + 2 ** v.kicks);
    box.append(mults.length ? mults.join(" · ") : "×1");
    return box;
  }

  function historyTable(hands, n) {
    if (!hands.length) return null;
    const rowOf = (hd) => (Array.isArray(hd) ? hd : hd && (hd.scores || hd.points)) || [];
    const head = h("tr", {}, h("th", {}, "#"));
    for (let s = 0; s < n; s++) head.append(h("th", {}, seatName(s)));
    // each finished hand's number opens its replay 牌谱回放, from the viewer's seat
    const numberCell = (hd, i) => {
      const num = (hd && (hd.number || hd.hand)) || i + 1;
      const text = String(num) + (hd && hd.scored === false ? " *" : "");
      if (R || !roomId) return h("td", {}, text);
      const link = h("a", { href: replayHash(roomId, num, mySeat()), "data-testid": "history-replay", "data-hand": String(num), title: t("replay_open") }, text);
      return h("td", {}, link);
    };
    const body = hands.map((hd, i) => h("tr", {}, numberCell(hd, i), ...rowOf(hd).slice(0, n).map((x) => h("td", { class: "num" }, String(x)))));
    const note = hands.some((hd) => hd && hd.scored === false) ? h("div", { class: "muted small-text" }, t("not_scored_mark")) : null;
    return h(
      "details",
      { class: "history", "data-testid": "history" },
      h("summary", {}, t("history") + ` (${hands.length})`),
      h("table", { class: "scores-table" }, h("thead", {}, head), h("tbody", {}, ...body)),
      note,
    );
  }

  function renderControls() {
    if (R) {
      // a replay: its own controls (replay.js) where the play controls are
      if (R.controls.parentNode !== controls) controls.replaceChildren(R.controls);
      return;
    }
    const v = V();
    const r = room();
    const me = mySeat();
    const parts = [];
    const buttons = h("div", { class: "buttons" });
    const prompt = h("div", { class: "prompt", "data-testid": "prompt" });
    if (me === null) {
      prompt.append(S.update ? t("watching") : t("connecting"));
      controls.replaceChildren(prompt, msgLine);
      renderHostedBanner();
      return;
    }
    const info = seatInfo(me);
    const myTurn = isMyTurn();
    const acts = legal();
    if (v && game() === "shengji" && ["deal", "steal", "bury"].includes(v.phase)) {
      shengjiControls(prompt, buttons, v, myTurn, acts);
    } else if (v && v.phase === "setup" && myTurn) {
      prompt.append(t("prompt_" + v.step));
      if (v.step === "emperor" && v.attached_cards && v.attached_cards.length) {
        prompt.append(h("span", { class: "attached" }, " · " + t("attached_cards") + ": "), C.playElement(v.attached_cards.join(" "), { size: "mini" }));
      }
      for (const a of acts) {
        const word = a.split(" ")[0];
        const b = h("button", { class: "decide" + (["no", "abdicate"].includes(word) ? "" : " primary"), "data-testid": "decide-" + a.replace(/ /g, "_") });
        const arg = a.split(" ")[1];
        if (arg && (word === "call" || word === "take")) {
          b.append(word === "call" ? t("called") + " " : t("step_tribute") + " ", cardSpan(arg));
        } else b.append(actionLabel(a, v.step));
        b.addEventListener("click", () => (word === "call" ? callCard(a) : act(a)));
        buttons.append(b);
      }
    } else if (v && v.phase === "play") {
      if (myTurn) prompt.append(t(v.trick && v.trick.length ? "prompt_play" : "prompt_play_lead"));
      else if (v.to_act !== null && v.to_act !== undefined) prompt.append(t("waiting_for", { name: seatName(v.to_act) }));
      const inPlay = myTurn;
      buttons.append(
        ...[
          h("button", { class: "primary", "data-testid": "play", disabled: !inPlay, onclick: () => playRaised() }, t("play")),
          game() === "shengji" ? null : h("button", { "data-testid": "pass", disabled: !(inPlay && acts.includes("pass")), onclick: () => act("pass") }, t("pass")),
          h("button", { "data-testid": "hint", disabled: !inPlay, onclick: () => send({ type: "hint" }) }, t("hint")),
        ].filter(Boolean),
      );
      if (inPlay && acts.includes("yield")) {
        buttons.append(h("button", { "data-testid": "decide-yield", onclick: () => act("yield") }, t("act_yield")));
      }
    } else if (v && v.phase === "setup" && v.to_act !== null && v.to_act !== undefined) {
      prompt.append(t("waiting_for", { name: seatName(v.to_act) }) + " · " + t("step_" + v.step));
    } else if (!playing()) {
      const allTaken = (r.seats || []).length > 0 && (r.seats || []).every((s) => s.player || s.bot);
      if (allTaken) {
        buttons.append(readyButton("start", "primary"));
        const cd = countdownEl();
        if (cd) prompt.append(cd);
        else if (Array.isArray(r.ready) && r.ready[me]) prompt.append(t("ready_wait"));
      } else prompt.append(t("need_all_seats", { n: numSeats() }));
      buttons.append(h("button", { "data-testid": "stand", onclick: () => send({ type: "stand" }) }, t("stand")));
    }
    if (playing()) {
      const hosted = !!info.hosted;
      hostedBtn.className = "toggle" + (hosted ? " on" : "");
      hostedBtn.setAttribute("aria-pressed", hosted ? "true" : "false");
      hostedBtn.disabled = hosted && !!info.locked;
      hostedBtn.title = hosted && info.locked ? t("hosted_locked_note") : t("hosted_rule_short");
      const label_ = hosted ? t("cancel_hosted") : t("hosted");
      const count = hosted ? " " + hostedCount(info) : null;
      const shownCount = hostedBtn.querySelector(".hosted-count");
      if (hostedBtn.firstChild?.nodeValue !== label_ || (shownCount ? shownCount.textContent : null) !== count) {
        hostedBtn.replaceChildren(label_, count === null ? "" : h("span", { class: "hosted-count", "data-testid": "hosted-count" }, count));
      }
      buttons.append(hostedBtn.cloneNode(true)); // its stand-in while the rows are compared below
    }
    buttons.append(h("button", { class: "danger", "data-testid": "leave", onclick: () => leave() }, t("leave")));
    // the same buttons as shown (the fast deal updates many times a second): keep the
    // elements, so a click under way still lands on them
    const shown = controls.querySelector(":scope > .buttons");
    const same = shown && shown.outerHTML === buttons.outerHTML;
    const shownPrompt = controls.querySelector(":scope > .prompt");
    if (same && shownPrompt && shownPrompt.outerHTML === prompt.outerHTML) {
      renderHostedBanner();
      return;
    }
    if (same) {
      // the buttons stay where they are (moving them detaches them: a click under way on
      // 托管 while updates come fast would be lost); only the prompt is new
      if (shownPrompt) shownPrompt.replaceWith(prompt);
      else controls.insertBefore(prompt, controls.firstChild);
      if (msgLine.parentNode !== controls) controls.insertBefore(msgLine, shown);
      renderHostedBanner();
      return;
    }
    const standIn = buttons.querySelector('[data-testid="hosted"]');
    if (standIn) standIn.replaceWith(hostedBtn);
    parts.push(prompt, msgLine, buttons);
    controls.replaceChildren(...parts);
    renderHostedBanner();
  }

  // 准备 between hands (a hall with room.ready): pressed once, then "ready ✓"; the first
  // hand of a room and an older hall: 开始 / 下一局 sends `start`
  function readyButton(testid, cls) {
    const r = room();
    const me = mySeat();
    if (!Array.isArray(r.ready) || !V()) {
      return h("button", { class: cls, "data-testid": testid, onclick: () => send({ type: "start" }) }, V() ? t("next_hand") : t("start"));
    }
    const done = !!r.ready[me];
    const button = h(
      "button",
      { class: cls + (done ? " done" : ""), "data-testid": testid, "data-ready": done ? "true" : "false", disabled: done, onclick: () => send({ type: "ready" }) },
      done ? t("ready_done") : t("ready"),
    );
    return ownMultiplier(button);
  }

  // 个人倍数: in a room that allows it, the seat's own bean multiplier (1-4) beside 准备
  function ownMultiplier(button) {
    const r = room();
    const me = mySeat();
    if (!r.beans || !r.beans.own_multiplier || me === null) return button;
    const own = (r.seats[me] && r.seats[me].own) || 1;
    const select = h(
      "select",
      { class: "own-multiplier", "data-testid": "own-multiplier", title: t("own_multiplier") },
      ...[1, 2, 3, 4].map((n) => h("option", { value: String(n), selected: n === own }, "×" + n)),
    );
    select.addEventListener("change", () => send({ type: "own", value: Number(select.value) }));
    return h("span", { class: "ready-group" }, h("label", {}, t("own_multiplier"), " ", select), button);
  }

  // the countdown to the next hand (room.ready_deadline), kept up to date by the tick
  function countdownEl() {
    if (S.readyAt === null || playing()) return null;
    return h("span", { class: "ready-countdown", "data-testid": "ready-countdown" }, t("ready_countdown", { s: readySeconds() }));
  }

  const readySeconds = () => Math.max(0, Math.ceil((S.readyAt - Date.now()) / 1000));

  // Baohuang: the emperor calls a card. When he holds every copy of it he plays 暗独 alone
  // (the view's solo_calls, else the check's warning): ask first.
  function callCard(action) {
    const v = V();
    const turn = U().turn;
    const ask = async () => {
      const yes = await confirmBox(t("confirm_call_solo", { card: cardLabel(action.split(/\s+/)[1] || "") }), {
        yes: t("confirm_call_solo_yes"),
        no: t("cancel"),
        testid: "solo-confirm",
      });
      if (yes && U() && U().turn === turn) act(action);
    };
    if (v && Array.isArray(v.solo_calls)) {
      if (v.solo_calls.includes(action)) ask();
      else act(action);
      return;
    }
    if (S.checkUnsupported) {
      act(action);
      return;
    }
    sendCheck(action, turn, (answer) => {
      if (answer && answer.warning === "call_makes_solo") ask();
      else if (U() && U().turn === turn) act(action);
    });
  }

  // Shengji before play: declare buttons during the deal, the kitty burial after it.
  function shengjiControls(prompt, buttons, v, myTurn, acts) {
    if (v.phase === "deal" || v.phase === "steal") {
      // the fast deal asks each seat for a few hundredths of a second only: the declarations
      // offered at this seat's last decision stay on offer between its decisions, and a click
      // then is queued by the server and made at the seat's next decision (the seed's rule:
      // declare while the cards arrive)
      if (v.phase === "deal" && myTurn) S.dealDeclares = acts.filter((a) => a !== "no");
      else if (v.phase !== "deal") S.dealDeclares = [];
      if (v.phase !== "deal" || myTurn) S.queuedDeclare = null;
      const offered = myTurn ? acts : v.phase === "deal" ? S.dealDeclares : [];
      if (myTurn) prompt.append(t(v.phase === "steal" ? "prompt_steal" : "prompt_deal"));
      else if (v.phase === "steal") prompt.append(t("sj_phase_steal") + " · " + t("waiting_for", { name: seatName(v.to_act) }));
      else {
        // a fixed-width count: the fast deal updates it every few ms and the buttons must not move
        const dealt = h("span", { class: "dealt-count" }, t("cards_dealt", { n: v.cards_dealt, total: dealTotal(v) }));
        prompt.append(t("prompt_deal_wait") + " ", dealt);
      }
      for (const a of offered) {
        const b = h("button", { class: "decide" + (a === "no" ? "" : " primary declare"), "data-testid": "decide-" + a.replace(/ /g, "_") });
        if (a === "no") b.append(t("act_no_declare"));
        else b.append(t("act_declare", { cards: "" }).trim() + " ", cardsSpan(a.split(/\s+/).slice(1).join(" ")));
        if (a !== "no" && S.queuedDeclare === a) b.classList.add("queued");
        b.addEventListener("click", () => act(a));
        buttons.append(b);
      }
      const auto = h(
        "button",
        { class: "small toggle" + (S.autoNo ? " on" : ""), "data-testid": "auto-no", "aria-pressed": S.autoNo ? "true" : "false" },
        t("auto_no"),
      );
      auto.addEventListener("click", () => {
        S.autoNo = !S.autoNo;
        localStorage.setItem(AUTO_NO_KEY, S.autoNo ? "on" : "off");
        renderControls();
        shengjiAutomation();
      });
      buttons.append(auto);
      return;
    }
    // bury
    if (!myTurn) {
      prompt.append(t("waiting_bury", { name: seatName(v.to_act) }));
      return;
    }
    const left = v.kitty_size - (v.buried || []).length;
    prompt.append(t("prompt_bury", { n: left }), h("span", { class: "attached", "data-testid": "bury-count" }, " · " + t("buried_progress", { k: (v.buried || []).length, n: v.kitty_size })));
    const bury = h("button", { class: "primary", "data-testid": "bury", onclick: () => buryRaised() }, t("bury_button", { n: S.raised.length }));
    bury.disabled = !S.raised.length || S.raised.length > left || S.buryQueue.length > 0;
    buttons.append(bury, h("button", { "data-testid": "hint", onclick: () => send({ type: "hint" }) }, t("hint")));
  }

  // Bury the raised cards: one `bury` action per card, each sent after the update of the last.
  function buryRaised() {
    const v = V();
    if (!v || v.phase !== "bury" || !isMyTurn() || S.buryQueue.length) return;
    const left = v.kitty_size - (v.buried || []).length;
    const cards = C.normalize(S.hand, S.raised).map((i) => S.hand[i]);
    if (!cards.length || cards.length > left) {
      showMessage(t("prompt_bury", { n: left }), "hint", { ms: 2500 });
      return;
    }
    S.buryQueue = cards;
    S.buryTurn = null;
    S.raised = [];
    refreshSelection();
    shengjiAutomation();
  }

  function leave() {
    const me = mySeat();
    if (me !== null && playing()) {
      const pen = (room().options && room().options.leave_penalty) ?? 40;
      if (!confirm(t("leave_confirm", { n: pen }))) return;
    }
    if (me !== null) send({ type: "leave" }, true);
    setTimeout(() => ctx.navigate("#/"), 150);
  }

  // Play the raised cards: refused at once (with the reason) when the server said they
  // are not a legal play; while its answer is awaited the server judges the act itself.
  function playRaised() {
    if (!isMyTurn()) return;
    const text = currentSelection();
    if (!text) {
      showMessage(t("select_cards_first"), "hint", { selection: "" });
      return;
    }
    if (selectionLegal() === false) {
      const c = S.check;
      const why = c ? reasonText(c.code, c.params, c.error, seatText) : t("reason.illegal");
      showMessage(why, "error", { selection: text });
      msgLine.classList.remove("flash");
      void msgLine.offsetWidth; // restart the flash
      msgLine.classList.add("flash");
      return;
    }
    act(text);
  }

  // ------------------------------------------------------------ the hand
  function handMetrics() {
    // style.css may size the hand for the screen (--hand-cw, --hand-ch, --hand-min-step, --hand-max-step)
    const css = getComputedStyle(handArea);
    const px = (name, fallback) => parseFloat(css.getPropertyValue(name)) || fallback;
    const narrow = window.innerWidth < 600;
    const cw = px("--hand-cw", narrow ? 50 : 72);
    const ch = px("--hand-ch", narrow ? 70 : 100);
    const minStep = px("--hand-min-step", narrow ? 19 : 22);
    const maxStep = px("--hand-max-step", narrow ? 30 : 40);
    return { cw, ch, minStep, maxStep };
  }

  function renderHand() {
    const hand = S.hand;
    const { cw, ch, minStep, maxStep } = handMetrics();
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
    const v = V();
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
      handEl.querySelectorAll(".hand-card").forEach((el, i) => el.style.setProperty("--deal-i", String(Math.min(i, 40))));
      S.dealAnim = false;
    }
    handArea.classList.toggle("empty", !hand.length);
    refreshSelection();
  }

  function refreshSelection() {
    const set = new Set(S.raised);
    for (const el of handEl.querySelectorAll(".hand-card")) {
      const up = set.has(Number(el.dataset.index));
      el.classList.toggle("raised", up);
      el.dataset.raised = up ? "true" : "false";
    }
    const sel = currentSelection();
    // a message about other raised cards (or none) goes
    if (S.msg && S.msg.selection !== null && S.msg.selection !== sel) showMessage(null);
    const playBtn = controls.querySelector('[data-testid="play"]');
    if (playBtn) {
      const verdict = selectionLegal();
      playBtn.classList.toggle("ready", verdict === true);
      playBtn.disabled = verdict !== true;
      playBtn.dataset.check = !sel || !isMyTurn() ? "none" : verdict === null ? "pending" : verdict ? "ok" : "illegal";
      const c = S.check;
      const about = sel && c && c.action === sel && !S.checkUnsupported;
      if (verdict === false && about && !(S.msg && S.msg.selection === sel && S.msg.kind === "error")) {
        showMessage(reasonText(c.code, c.params, c.error, seatText), "error", { selection: sel });
      }
      scheduleCheck();
    }
    const buryBtn = controls.querySelector('[data-testid="bury"]');
    if (buryBtn) {
      const v = V();
      const left = v ? v.kitty_size - (v.buried || []).length : 0;
      buryBtn.textContent = t("bury_button", { n: S.raised.length });
      buryBtn.disabled = !S.raised.length || S.raised.length > left || S.buryQueue.length > 0;
      buryBtn.classList.toggle("ready", S.raised.length === left);
    }
    handEl.dataset.selection = C.selectionText(S.hand, S.raised);
  }

  function cardIndexAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const card = el && el.closest ? el.closest(".hand-card") : null;
    return card && handEl.contains(card) ? Number(card.dataset.index) : null;
  }

  // pointer: click / Ctrl+click / press-and-drag on the cards
  handEl.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || R) return; // a replay's hand is only shown
    const card = e.target.closest(".hand-card");
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
  const onMove = (e) => {
    const d = S.drag;
    if (!d || d.ctrl) return;
    const i = cardIndexAt(e.clientX, e.clientY);
    if (i === null || i === d.last) return;
    d.moved = true;
    d.last = i;
    S.raised = C.dragSelect(S.hand, d.before, d.start, i);
    refreshSelection();
  };
  const onUp = (e) => {
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
    else S.raised = G.click(game(), S.hand, S.raised, idx);
    S.anchor = idx;
    refreshSelection();
  };
  document.addEventListener("pointermove", onMove);
  document.addEventListener("pointerup", onUp);
  const onCancel = () => (S.drag = null);
  const onAnyDown = (e) => (S.lastPointerType = e.pointerType || "mouse");
  document.addEventListener("pointerdown", onAnyDown, true);
  document.addEventListener("pointercancel", onCancel);

  // Ctrl+click on the card area (not a card) or a left click on empty space: lower all
  page.addEventListener("click", (e) => {
    if (e.button !== 0 || S.suppressClick) return;
    const tgt = e.target;
    if (tgt.closest(".hand-card")) return;
    if (tgt.closest("button, a, input, select, textarea, label, summary, .scores-card, .topbar")) return;
    if (S.raised.length) {
      S.raised = C.clearSelection();
      refreshSelection();
    }
  });

  // right-click: play the raised cards, or pass with none raised; no context menu
  page.addEventListener("contextmenu", (e) => {
    if (e.target.closest("input, textarea, select, .topbar")) return;
    e.preventDefault();
    if (e.ctrlKey && e.button === 0) {
      // macOS turns Ctrl+click into a context menu: treat it as the Ctrl+click it is
      if (e.target.closest(".hand-area") && !e.target.closest(".hand-card")) {
        S.raised = C.clearSelection();
        refreshSelection();
      }
      return;
    }
    if (S.lastPointerType === "touch" || S.lastPointerType === "pen") return; // a long press is not a right-click
    if (R) return;
    const v = V();
    if (!v || !isMyTurn()) return;
    if (v.phase === "bury" && S.raised.length) {
      buryRaised();
      return;
    }
    if (v.phase !== "play") return;
    if (S.raised.length) playRaised();
    else if (game() !== "shengji") act("pass"); // Shengji has no pass
  });

  // L: the previous trick 上一轮 (not while typing)
  const onKey = (e) => {
    if (e.target.closest && e.target.closest("input, textarea, select")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "l" || e.key === "L") togglePanel("prev");
    else if (e.key === "Escape" && S.panel) togglePanel(null);
  };
  document.addEventListener("keydown", onKey);

  const onResize = () => {
    if (Math.abs(handArea.clientWidth - S.handLayoutWidth) > 4) renderHand();
  };
  window.addEventListener("resize", onResize);

  // countdown (a replay has no clock)
  if (!R) S.tickTimer = setInterval(() => {
    const el = felt.querySelector('[data-testid="timer"]');
    if (el) {
      el.textContent = timerText();
      el.parentElement.classList.toggle("urgent", S.deadlineAt !== null && S.deadlineAt - Date.now() < 10000);
      // the last five seconds of the viewer's own turn tick
      const left = Math.ceil((S.deadlineAt - Date.now()) / 1000);
      if (isMyTurn() && left <= 5 && left > 0 && left !== S.lastTick) {
        S.lastTick = left;
        playSound("tick");
      }
    }
    if (S.readyAt !== null) {
      for (const cd of page.querySelectorAll('[data-testid="ready-countdown"]')) cd.textContent = t("ready_countdown", { s: readySeconds() });
    }
    if (S.connState === "reconnecting") renderBanner();
  }, 250);

  function showNotFound() {
    S.destroyed = true;
    page.replaceChildren(
      topbar,
      h(
        "div",
        { class: "not-found" },
        h("h2", {}, t("not_found")),
        h("button", { class: "primary", onclick: () => ctx.navigate("#/") }, t("back_lobby")),
      ),
    );
  }

  // ------------------------------------------------------------ start
  renderTopbar();
  renderBanner();
  renderControls();
  if (!R) startLive();

  function startLive() {
    api
      .room(roomId)
      .then((r) => {
        if (S.destroyed) return;
        if (!S.update && r) {
          // show the room while the socket connects
          S.update = { room: r.room || r, seat: null, turn: 0, view: null, deadline: null };
          render();
          S.update = null;
        }
      })
      .catch((err) => {
        if (err && err.status === 404) {
          clearTimeout(S.retryTimer);
          if (S.ws) S.ws.close();
          showNotFound();
        }
      });
    connect();
  }

  return {
    destroy() {
      S.destroyed = true;
      clearTimeout(S.retryTimer);
      clearInterval(S.pingTimer);
      clearInterval(S.tickTimer);
      document.removeEventListener("pointermove", onMove);
      document.removeEventListener("pointerup", onUp);
      document.removeEventListener("pointercancel", onCancel);
      document.removeEventListener("pointerdown", onAnyDown, true);
      window.removeEventListener("resize", onResize);
      document.removeEventListener("keydown", onKey);
      if (S.ws) {
        const ws = S.ws;
        S.ws = null;
        ws.close();
      }
    },
    rerender() {
      render();
      renderHand();
      renderPanel(true);
    },
    // the replay viewer: show a frame (an update as the socket would send it, with `hands`)
    show(u) {
      onUpdate(u);
    },
    openPanel(name) {
      if (S.panel !== name) togglePanel(name);
    },
    page,
  };
}
