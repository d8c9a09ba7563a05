// @ts-check
// The table's WebSocket (/ws/{room}): connecting, pings, reconnecting with backoff, and
// sending. What arrives goes to `onMessage` (table.js dispatches it).
// Exports: connect, send, act.

import * as api from "../api.js";
import { t } from "../i18n.js";
import { toast } from "../ui.js";

/** @typedef {import("./state.js").Table} Table */

const PING_EVERY = 10000; // ms between pings: a silent server is given up after two

/**
 * Open the room's socket (again, after a reconnection delay).
 * @param {Table} tb
 * @param {(msg: any) => void} onMessage each message, parsed
 * @param {() => void} onNotFound the room is gone
 */
export function connect(tb, onMessage, onNotFound) {
  const { S, ctx } = tb;
  if (S.destroyed) return;
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
  ws.addEventListener("open", () => {
    S.attempts = 0;
    S.connState = "open";
    tb.renderBanner();
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
        } catch {
          /* closing a dead socket */
        }
        scheduleReconnect(tb, onMessage, onNotFound);
        return;
      }
      S.unanswered += 1;
      send(tb, { type: "ping" }, true);
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
      onNotFound();
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
  if (S.destroyed) return;
  const delay = Math.min(10000, 500 * 2 ** S.attempts) * (0.8 + Math.random() * 0.4);
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
