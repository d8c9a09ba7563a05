// @ts-check
// The table's WebSocket (/ws/{room}): connecting, pings, reconnecting with backoff, and
// sending. What arrives goes to `onMessage` (table.js dispatches it).
// Exports: connect, send, act.

import * as api from "../api.js";
import { t } from "../i18n.js";
import { toast } from "../ui.js";
import { CLOSE_CODES, onClosed } from "./closed.js";
import { askPassword } from "../social.js";

/** @typedef {import("./state.js").Table} Table */

// ms between pings while a hand is played, and otherwise: a server silent for two pings is
// given up (paused, or cut off without a close) — within 6–9 s at a hand, so that a player
// of a paused server is moved about as soon as another server takes the room over
export const PING_PLAYING = 3000;
export const PING_IDLE = 10000;
export const OPEN_WAIT = 5000; // ms a socket may take to open (a paused server accepts, then says nothing)
export const RETRY_FIRST = 500; // ms before the first reconnection, doubled each time up to
export const RETRY_MAX = 2000; // this: a hall back after an outage is found within seconds
// the hall's reasons for closing a socket that the page reconnects after (shown in the banner)
const RECONNECT_REASONS = new Set(["unavailable", "room_moving", "room_moved", "worker_busy"]);

/**
 * Open the room's socket (again, after a reconnection delay).
 * @param {Table} tb
 * @param {(msg: any) => void} onMessage each message, parsed
 * @param {() => void} onNotFound the room is gone
 */
export function connect(tb, onMessage, onNotFound) {
  const { S, ctx } = tb;
  if (S.destroyed || S.closed) return;
  S.connState = S.attempts ? "reconnecting" : "connecting";
  tb.renderBanner();
  /** @type {WebSocket} */
  let ws;
  try {
    ws = new WebSocket(api.tableSocketURL(tb.roomId));
  } catch {
    scheduleReconnect(tb, onMessage, onNotFound);
    return;
  }
  S.ws = ws;
  /** Give this socket up and reconnect (the proxy sends us to the room's server). */
  const abandon = () => {
    S.ws = null;
    clearInterval(S.pingTimer);
    try {
      ws.close();
    } catch {
      /* closing a dead socket */
    }
    scheduleReconnect(tb, onMessage, onNotFound);
  };
  const opening = setTimeout(() => {
    if (S.ws === ws && ws.readyState === WebSocket.CONNECTING) abandon();
  }, OPEN_WAIT);
  ws.addEventListener("open", () => {
    clearTimeout(opening);
    S.attempts = 0;
    S.connState = "open";
    tb.renderBanner();
    clearInterval(S.pingTimer);
    S.unanswered = 0;
    S.pingedAt = Date.now();
    S.pingTimer = setInterval(() => {
      const playing = S.update && S.update.room && S.update.room.status === "playing";
      if (Date.now() - S.pingedAt < (playing ? PING_PLAYING : PING_IDLE) - 100) return;
      // a server that answered none of two pings: give it up. Pings are counted, not the
      // clock: a laptop woken up runs a late timer once, with no time to answer
      if (S.unanswered >= 2) {
        abandon();
        return;
      }
      S.unanswered += 1;
      S.pingedAt = Date.now();
      send(tb, { type: "ping" }, true);
    }, 500);
  });
  ws.addEventListener("message", (ev) => {
    S.unanswered = 0;
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    if (msg && msg.type === "error" && RECONNECT_REASONS.has(msg.code)) S.closeWhy = msg.code;
    else if (msg && msg.type === "hello") S.closeWhy = null;
    // a refusal before the close (no reply to anything sent): what a final close code means
    if (msg && msg.type === "error" && !msg.reply_to) S.refusal = msg.code || null;
    if (msg && msg.type === "closed") {
      onClosed(tb, msg); // the hall is about to close the socket: never reconnect after it
      return;
    }
    onMessage(msg);
  });
  ws.addEventListener("close", (ev) => {
    clearTimeout(opening);
    if (S.ws !== ws) return;
    S.ws = null;
    clearInterval(S.pingTimer);
    if (S.destroyed) return;
    if (ev.code === 1012 && !S.closeWhy) S.closeWhy = "room_moved";
    if (ev.code === 4423) {  // a password room (social.js asks for it, then opens the table again)
      S.destroyed = true;
      askPassword(tb.roomId, ctx);
      return;
    }
    if (ev.code === 4404 || ev.code === 4004) {
      onNotFound();
      return;
    }
    // an administrator's kick, the session ended, the room closed: say why, stay put
    if (S.closed || ev.code === 4001 || ev.code === 4410 || (ev.code === 4401 && S.refusal !== "no_name")) {
      if (!S.closed) onClosed(tb, { code: ev.code === 4410 && S.refusal ? S.refusal : CLOSE_CODES[ev.code] });
      else tb.renderBanner();
      return;
    }
    if (ev.code === 4401) {
      ctx.player = null;
      S.destroyed = true;
      ctx.navigate(location.hash || "#/");
      return;
    }
    scheduleReconnect(tb, onMessage, onNotFound);
  });
  ws.addEventListener("error", () => {
    /* close follows */
  });
}

/**
 * @param {Table} tb
 * @param {(msg: any) => void} onMessage
 * @param {() => void} onNotFound
 */
function scheduleReconnect(tb, onMessage, onNotFound) {
  const { S } = tb;
  if (S.destroyed || S.closed) return;
  const delay = Math.min(RETRY_MAX, RETRY_FIRST * 2 ** S.attempts) * (0.8 + Math.random() * 0.4);
  S.attempts += 1;
  S.connState = "reconnecting";
  S.retryAt = Date.now() + delay;
  tb.renderBanner();
  clearTimeout(S.retryTimer);
  S.retryTimer = setTimeout(() => connect(tb, onMessage, onNotFound), delay);
}

/**
 * Send a message on the socket; false (and, unless `quiet`, a toast) when it is not open.
 * @param {Table} tb
 * @param {object} msg
 * @param {boolean} [quiet]
 * @returns {boolean}
 */
export function send(tb, msg, quiet = false) {
  const { S } = tb;
  if (S.ws && S.ws.readyState === WebSocket.OPEN) {
    S.ws.send(JSON.stringify(msg));
    return true;
  }
  if (!quiet) toast(t("connection_lost"), "error");
  return false;
}

/**
 * Make a game action at the current turn.
 * @param {Table} tb
 * @param {string} action
 */
export function act(tb, action) {
  const { S } = tb;
  const u = S.update;
  /** @type {Record<string, unknown>} */
  const msg = { type: "act", action };
  if (u && Number.isInteger(u.turn)) msg.turn = u.turn;
  S.lastAct = { action, selection: action === tb.currentSelection() ? action : null };
  send(tb, msg);
}
