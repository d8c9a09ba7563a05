// @ts-check
// The replay viewer 牌谱回放: a finished hand step by step with every seat's cards face up
// (#/replay/{room}/{n}?seat=S, or #/replay/file for a record file dropped on the page or
// opened). The hall sends the frames (GET /api/rooms/{room}/hands/{n}/replay, POST
// /api/replay); the live table's drawing shows each one (mountTable's `replay` option).
// Here: loading the frames, stepping by action or trick, playing at a speed, the keys and
// the seat seen from. Beside it: replay/controls.js (the controls bar), replay/file.js
// (the record file's way in); the 复盘 panel is analysis.js.
// Exports: mountReplay, parseReplayHash; the type Replay.

import * as api from "./api.js";
import { t } from "./i18n.js";
import { h, toast } from "./ui.js";
import { mountTable } from "./table.js";
import { mountAnalysis } from "./analysis.js";
import { actionNode, buildControls, nameOf, seatText, syncControls, syncSeatChoice, SPEEDS } from "./replay/controls.js";
import { fileReplay, recordFileButton, replayErrorText } from "./replay/file.js";

const SPEED_KEY = "paiju.replaySpeed";

/**
 * Where a replay is: a room's hand (seat null: the person's own seat in it, else 0), or
 * the record file last opened.
 * @typedef {{room?: string, number?: number, seat?: number | null, file?: boolean}} ReplayWhere
 */

/**
 * The viewer's state.
 * @typedef {object} ReplayState
 * @property {any} data the frames as the hall sent them ({game, seat, seats, frames …})
 * @property {(any[] | null)[]} logs each frame's whole event log (sent incrementally, rebuilt here)
 * @property {number} step
 * @property {number} seat the seat seen from
 * @property {boolean} playing
 * @property {any} timer
 * @property {number} speed actions per second
 * @property {boolean} destroyed
 * @property {boolean} loading another seat's frames are on their way
 */

/**
 * The controls' elements (replay/controls.js makes them).
 * @typedef {object} ReplayUi
 * @property {HTMLElement} controls
 * @property {HTMLInputElement} slider
 * @property {HTMLElement} marks
 * @property {HTMLElement} count
 * @property {HTMLElement} actionLine
 * @property {HTMLElement} verdictLine
 * @property {HTMLElement} playBtn
 * @property {HTMLSelectElement} speedSelect
 * @property {HTMLSelectElement} seatSelect
 */

/**
 * The replay viewer object shared with its controls.
 * @typedef {object} Replay
 * @property {ReplayState} st
 * @property {ReplayWhere} where
 * @property {import("./table/state.js").AppCtx & {backHash?: string}} ctx
 * @property {HTMLElement} root
 * @property {import("./table.js").TableHandle | null} table
 * @property {any} analysis the 复盘 panel (analysis.js), a room's hands only
 * @property {ReplayUi} ui
 * @property {() => number} last the last frame's index
 * @property {(i?: number) => any} frame
 * @property {(i: number) => void} go
 * @property {() => void} nextTrick
 * @property {() => void} prevTrick
 * @property {() => void} togglePlay
 * @property {(x: number) => void} setSpeed
 * @property {(seat: number) => void} switchSeat
 * @property {() => void} goBack
 */

/**
 * Mount the replay viewer of `where` in `root`.
 * @param {HTMLElement} root
 * @param {ReplayWhere} where
 * @param {Replay["ctx"]} ctx
 */
export function mountReplay(root, where, ctx) {
  /** @type {ReplayState} */
  const st = {
    data: null,
    logs: [],
    step: 0,
    seat: 0,
    playing: false,
    timer: null,
    speed: savedSpeed(),
    destroyed: false,
    loading: false,
  };
  /** @type {Replay} */
  const rp = {
    st,
    where,
    ctx,
    root,
    table: null,
    analysis: null,
    // the rest of the controls' elements are made by buildControls
    ui: /** @type {ReplayUi} */ (/** @type {unknown} */ ({ controls: h("div", { class: "replay-controls", "data-testid": "replay" }) })),
    last: () => (st.data ? st.data.frames.length - 1 : 0),
    frame: (i = st.step) => st.data.frames[i],
    go: (i) => go(rp, i),
    nextTrick: () => nextTrick(rp),
    prevTrick: () => prevTrick(rp),
    togglePlay: () => (st.playing ? pause(rp) : play(rp)),
    setSpeed: (x) => setSpeed(rp, x),
    switchSeat: (seat) => switchSeat(rp, seat),
    goBack: () => ctx.navigate(ctx.backHash || "#/"),
  };
  const onKey = (/** @type {KeyboardEvent} */ e) => onReplayKey(rp, e);
  document.addEventListener("keydown", onKey);

  // ------------------------------------------------------------ 复盘 (a room's hands only)
  if (!where.file) {
    rp.analysis = mountAnalysis({
      url: () => `/api/rooms/${encodeURIComponent(where.room)}/hands/${where.number}/analysis?seat=${st.seat}`,
      nameOf: (/** @type {number} */ s) => nameOf(rp, s),
      seatText,
      open: () => rp.table && rp.table.openPanel("analysis"),
      jump: (/** @type {number} */ step) => {
        pause(rp);
        go(rp, step);
      },
      marksEl: () => rp.ui.marks,
      verdictEl: () => rp.ui.verdictLine,
      actionNode,
    });
  }

  start(rp);

  return {
    destroy() {
      st.destroyed = true;
      clearInterval(st.timer);
      document.removeEventListener("keydown", onKey);
      if (rp.analysis) rp.analysis.destroy();
      if (rp.table) rp.table.destroy();
    },
    rerender() {
      if (!rp.table) {
        start(rp);
        return;
      }
      buildControls(rp);
      syncSeatChoice(rp);
      if (rp.analysis) rp.analysis.rerender();
      go(rp, st.step);
      rp.table.rerender();
    },
  };
}

// ---------------------------------------------------------------- loading

/**
 * A page of its own while there is no table yet: loading, or an error.
 * @param {Replay} rp
 * @param {...HTMLElement} content
 */
function shell(rp, ...content) {
  const back = h("button", { class: "small", "data-testid": "back", onclick: rp.goBack }, "‹ ", t("back"));
  rp.root.replaceChildren(
    h(
      "div",
      { class: "page replay-message-page", "data-testid": "replay-page" },
      h("header", { class: "topbar" }, back, h("div", { class: "room-title" }, h("span", { class: "room-name" }, t("replay_title"))), h("div", { class: "spacer" }), rp.ctx.langButton()),
      h("main", { class: "replay-message" }, ...content),
    ),
  );
}

/**
 * @param {Replay} rp
 * @param {string} text
 */
function showError(rp, text) {
  shell(
    rp,
    h("h2", { "data-testid": "replay-error" }, text),
    h("div", { class: "form-actions" }, h("button", { class: "primary", onclick: rp.goBack }, t("back")), recordFileButton(rp.ctx, "")),
  );
}

/**
 * The frames of the hand seen from `seat`.
 * @param {Replay} rp
 * @param {number} seat
 */
async function fetchFrames(rp, seat) {
  const { where } = rp;
  if (where.file) return api.postJSON(`/api/replay?seat=${seat}`, rp.st.data.record);
  return api.getJSON(`/api/rooms/${encodeURIComponent(where.room)}/hands/${where.number}/replay?seat=${seat}`);
}

/** @param {Replay} rp */
async function start(rp) {
  const { st, where, ctx } = rp;
  if (where.file) {
    const file = fileReplay();
    if (!file) {
      showError(rp, t("replay_no_file"));
      return;
    }
    take(rp, file.data);
    return;
  }
  shell(rp, h("div", { class: "muted", "data-testid": "replay-loading" }, t("replay_loading")));
  try {
    let data = await fetchFrames(rp, Number.isInteger(where.seat) ? where.seat : 0);
    if (st.destroyed) return;
    if (!Number.isInteger(where.seat)) {
      // the person's own seat, when he played in the hand
      const own = ctx.player ? data.seats.find((/** @type {any} */ x) => x.player && x.player.id === ctx.player.id) : null;
      if (own && own.seat !== data.seat) data = await fetchFrames(rp, own.seat);
    }
    if (!st.destroyed) take(rp, data);
  } catch (err) {
    if (!st.destroyed) showError(rp, replayErrorText(err));
  }
}

/**
 * New frames (the first, or another seat's): keep the step, redraw.
 * @param {Replay} rp
 * @param {any} data
 */
function take(rp, data) {
  const { st, where } = rp;
  st.data = data;
  st.seat = data.seat;
  /** @type {any[]} */
  let held = [];
  st.logs = data.frames.map((/** @type {any} */ f) => {
    if (!Array.isArray(f.view.events)) return null;
    held = held.slice(0, f.events_from || 0).concat(f.view.events);
    return held;
  });
  st.step = Math.min(st.step, rp.last());
  if (!rp.table) {
    buildControls(rp);
    rp.table = mountTable(rp.root, where.file ? null : where.room, rp.ctx, {
      replay: { controls: rp.ui.controls, panels: rp.analysis ? { analysis: rp.analysis.panel } : {}, shareURL: () => shareURL(rp), back: rp.goBack },
    });
  }
  syncSeatChoice(rp);
  if (rp.analysis) rp.analysis.setSeat(st.seat);
  go(rp, st.step);
}

/**
 * See the hand from another seat.
 * @param {Replay} rp
 * @param {number} seat
 */
async function switchSeat(rp, seat) {
  const { st, ui } = rp;
  if (st.loading || seat === st.seat) return;
  st.loading = true;
  ui.seatSelect.disabled = true;
  try {
    take(rp, await fetchFrames(rp, seat));
    if (!rp.where.file) history.replaceState(null, "", hashOf(rp, st.seat));
  } catch (err) {
    toast(replayErrorText(err), "error");
    syncSeatChoice(rp);
  } finally {
    st.loading = false;
    ui.seatSelect.disabled = false;
  }
}

/**
 * @param {Replay} rp
 * @param {number} seat
 */
function hashOf(rp, seat) {
  const { where } = rp;
  return where.file ? "#/replay/file" : `#/replay/${encodeURIComponent(where.room)}/${where.number}?seat=${seat}`;
}

/** @param {Replay} rp */
function shareURL(rp) {
  return rp.where.file ? null : `${location.origin}${location.pathname}${hashOf(rp, rp.st.seat)}`;
}

// ---------------------------------------------------------------- a frame as the table's update

/**
 * The room of the replay as the table shows one.
 * @param {Replay} rp
 */
function room(rp) {
  const d = rp.st.data;
  const seats = d.seats.map((/** @type {any} */ x) => ({
    seat: x.seat,
    // computer players by number; a file's seats are unnamed ("Seat 2")
    player: x.player ? x.player.name : x.bot ? t("replay_bot", { n: x.seat + 1 }) : null,
    player_id: x.player ? x.player.id : null,
    bot: null,
    beans: null,
    title: null,
  }));
  return {
    game: d.game,
    name: d.room && d.room.name ? `${t("replay_title")} · ${d.room.name}` : t("replay_title"),
    hand_number: rp.where.file ? null : rp.where.number,
    status: "replay",
    options: d.options || {},
    seats,
  };
}

/**
 * Frame i as the update a socket would send (with every seat's cards, `hands`).
 * @param {Replay} rp
 * @param {number} i
 */
function update(rp, i) {
  const { st } = rp;
  const f = rp.frame(i);
  const view = st.logs[i] ? { ...f.view, events: st.logs[i] } : f.view;
  return { room: room(rp), seat: st.data.seat, turn: i, view, deadline: null, hands: f.hands };
}

// ---------------------------------------------------------------- stepping

/**
 * Show frame i (clamped).
 * @param {Replay} rp
 * @param {number} i
 */
function go(rp, i) {
  const { st } = rp;
  if (!st.data) return;
  st.step = Math.max(0, Math.min(rp.last(), i));
  rp.table.show(update(rp, st.step));
  if (st.playing && st.step >= rp.last()) pause(rp);
  syncControls(rp);
}

/**
 * Next trick: the next frame whose action opened a trick.
 * @param {Replay} rp
 */
function nextTrick(rp) {
  const fs = rp.st.data.frames;
  for (let j = rp.st.step + 1; j < fs.length; j++) if (fs[j].lead) return go(rp, j);
  go(rp, rp.last());
}

/**
 * Previous trick: the last frame before this one whose action opened a trick.
 * @param {Replay} rp
 */
function prevTrick(rp) {
  const fs = rp.st.data.frames;
  for (let j = rp.st.step - 1; j > 0; j--) if (fs[j].lead) return go(rp, j);
  go(rp, 0);
}

/** @param {Replay} rp */
function play(rp) {
  const { st } = rp;
  if (st.step >= rp.last()) go(rp, 0);
  st.playing = true;
  clearInterval(st.timer);
  st.timer = setInterval(() => go(rp, st.step + 1), 1000 / st.speed);
  syncControls(rp);
}

/** @param {Replay} rp */
function pause(rp) {
  const { st } = rp;
  st.playing = false;
  clearInterval(st.timer);
  st.timer = null;
  syncControls(rp);
}

/**
 * @param {Replay} rp
 * @param {number} x actions per second
 */
function setSpeed(rp, x) {
  const { st } = rp;
  st.speed = x;
  try {
    localStorage.setItem(SPEED_KEY, String(x));
  } catch {
    /* storage unavailable */
  }
  if (st.playing) play(rp);
  syncControls(rp);
}

/**
 * The keys: ←/→ an action, ↑/↓ or Shift+←/→ a trick, Home/End, Space play/pause.
 * @param {Replay} rp
 * @param {KeyboardEvent} e
 */
function onReplayKey(rp, e) {
  const { st } = rp;
  if (!st.data || e.ctrlKey || e.metaKey || e.altKey) return;
  const tgt = /** @type {Element} */ (e.target);
  if (tgt.closest && tgt.closest("textarea, select, input:not([type=range])")) return;
  switch (e.key) {
    case "ArrowLeft":
      if (e.shiftKey) prevTrick(rp);
      else go(rp, st.step - 1);
      break;
    case "ArrowRight":
      if (e.shiftKey) nextTrick(rp);
      else go(rp, st.step + 1);
      break;
    case "ArrowUp":
      prevTrick(rp);
      break;
    case "ArrowDown":
      nextTrick(rp);
      break;
    case "Home":
      go(rp, 0);
      break;
    case "End":
      go(rp, rp.last());
      break;
    case " ":
      if (tgt.closest && tgt.closest("button, a, summary")) return; // a focused button takes its own Space
      rp.togglePlay();
      break;
    default:
      return;
  }
  e.preventDefault();
}

/** The speed chosen last time (1 action per second at first). */
function savedSpeed() {
  try {
    const x = Number(localStorage.getItem(SPEED_KEY));
    return SPEEDS.includes(x) ? x : 1;
  } catch {
    return 1;
  }
}

/**
 * Where a replay link points: {room, number, seat} (seat null when not given) or {file: true}.
 * @param {string} hash the address's hash, without '#'
 * @returns {ReplayWhere | null}
 */
export function parseReplayHash(hash) {
  if (/^\/replay\/file\/?$/.test(hash)) return { file: true };
  const m = hash.match(/^\/replay\/([^/?#]+)\/(\d+)\/?(?:\?(.*))?$/);
  if (!m) return null;
  const q = new URLSearchParams(m[3] || "");
  const seat = q.has("seat") && /^\d+$/.test(q.get("seat")) ? Number(q.get("seat")) : null;
  return { room: decodeURIComponent(m[1]), number: Number(m[2]), seat };
}
