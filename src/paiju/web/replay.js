// The replay viewer 牌谱回放: a finished hand step by step with every seat's cards face up
// (#/replay/{room}/{n}?seat=S, or #/replay/file for a record file dropped on the page or
// opened). The hall sends the frames (GET /api/rooms/{room}/hands/{n}/replay, POST
// /api/replay); the live table's drawing shows each one (mountTable's `replay` option).
// Here: loading the frames, stepping by action or trick, playing at a speed, the keys,
// the seat seen from, and the record file's way in. The 复盘 panel is analysis.js.

import * as api from "./api.js";
import * as C from "./cards.js";
import { t } from "./i18n.js";
import { h, toast } from "./ui.js";
import { mountTable, reasonText, cardLabel, actionLabel } from "./table.js";
import { mountAnalysis } from "./analysis.js";

const SPEEDS = [0.5, 1, 2, 4]; // actions per second
const SPEED_KEY = "paiju.replaySpeed";
// the frames of the record file last opened (a page's memory only: a reload forgets them)
let fileReplay = null;

const ICONS = {
  start: '<path d="M5 4h2.5v16H5zM20 4v16L8.5 12z"/>',
  prevTrick: '<path d="M12 4v16L2 12zM22 4v16L12 12z"/>',
  prev: '<path d="M17 4v16L5 12z"/>',
  play: '<path d="M7 4v16l13-8z"/>',
  pause: '<path d="M6 4h4.5v16H6zM13.5 4H18v16h-4.5z"/>',
  next: '<path d="M7 4v16l12-8z"/>',
  nextTrick: '<path d="M2 4v16l10-8zM12 4v16l10-8z"/>',
  end: '<path d="M4 4v16l11.5-8zM16.5 4H19v16h-2.5z"/>',
};

function icon(name) {
  const span = h("span", { class: "replay-icon", "aria-hidden": "true" });
  span.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18" fill="currentColor">${ICONS[name]}</svg>`;
  return span;
}

const seatText = (s) => t("seat_n", { n: Number(s) + 1 });

export function replayErrorText(err) {
  if (err && err.code) return reasonText(err.code, err.params, err.message, seatText);
  if (err && err.status === 404) return t("replay_missing");
  return String((err && err.message) || err);
}

// ---------------------------------------------------------------- a record file
// Read a record file, have the hall make its frames, and show them (#/replay/file).
export async function openRecordFile(file, ctx) {
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch {
    toast(reasonText("bad_record"), "error", 6000);
    return;
  }
  try {
    const data = await api.postJSON("/api/replay?seat=0", record);
    fileReplay = { data, name: file.name || "" };
    ctx.navigate("#/replay/file");
  } catch (err) {
    toast(replayErrorText(err), "error", 6000);
  }
}

// A button that opens a record file (a .json from the hands list or `paiju` tools).
export function recordFileButton(ctx, cls = "small") {
  const input = h("input", { type: "file", accept: ".json,application/json", class: "hidden", "data-testid": "record-file" });
  input.addEventListener("change", () => {
    const file = input.files && input.files[0];
    input.value = "";
    if (file) openRecordFile(file, ctx);
  });
  const button = h("button", { class: cls, "data-testid": "open-record", title: t("replay_file_help") }, t("replay_open_file"));
  button.addEventListener("click", () => input.click());
  return h("span", { class: "record-file" }, button, input);
}

// Dropping a record file anywhere on the app opens its replay.
export function installRecordDrop(ctx) {
  const hasFiles = (e) => e.dataTransfer && Array.from(e.dataTransfer.types || []).includes("Files");
  document.addEventListener("dragover", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault(); // (else the browser leaves the app to show the file)
    e.dataTransfer.dropEffect = "copy";
    document.body.classList.add("dropping");
  });
  document.addEventListener("dragleave", (e) => {
    if (!e.relatedTarget) document.body.classList.remove("dropping");
  });
  document.addEventListener("drop", (e) => {
    document.body.classList.remove("dropping");
    if (!hasFiles(e)) return;
    e.preventDefault();
    const file = e.dataTransfer.files && e.dataTransfer.files[0];
    if (file && ctx.player) openRecordFile(file, ctx); // the viewer is for a person with a name
  });
}

// ---------------------------------------------------------------- the viewer
// `where`: {room, number, seat (null: the person's own seat in the hand, else 0)} or {file: true}.
export function mountReplay(root, where, ctx) {
  const st = {
    data: null,
    logs: [], // each frame's whole event log (sent incrementally, rebuilt here)
    step: 0,
    seat: 0,
    playing: false,
    timer: null,
    speed: savedSpeed(),
    destroyed: false,
    loading: false,
  };
  let table = null;
  let analysis = null;
  const last = () => (st.data ? st.data.frames.length - 1 : 0);
  const frame = (i = st.step) => st.data.frames[i];

  // ------------------------------------------------------------ loading
  function shell(...content) {
    const back = h("button", { class: "small", "data-testid": "back", onclick: goBack }, "‹ ", t("back"));
    root.replaceChildren(
      h(
        "div",
        { class: "page replay-message-page", "data-testid": "replay-page" },
        h("header", { class: "topbar" }, back, h("div", { class: "room-title" }, h("span", { class: "room-name" }, t("replay_title"))), h("div", { class: "spacer" }), ctx.langButton()),
        h("main", { class: "replay-message" }, ...content),
      ),
    );
  }

  function showError(text) {
    shell(
      h("h2", { "data-testid": "replay-error" }, text),
      h("div", { class: "form-actions" }, h("button", { class: "primary", onclick: goBack }, t("back")), recordFileButton(ctx, "")),
    );
  }

  async function fetchFrames(seat) {
    if (where.file) return api.postJSON(`/api/replay?seat=${seat}`, st.data.record);
    return api.getJSON(`/api/rooms/${encodeURIComponent(where.room)}/hands/${where.number}/replay?seat=${seat}`);
  }

  async function start() {
    if (where.file) {
      if (!fileReplay) {
        showError(t("replay_no_file"));
        return;
      }
      take(fileReplay.data);
      return;
    }
    shell(h("div", { class: "muted", "data-testid": "replay-loading" }, t("replay_loading")));
    try {
      let data = await fetchFrames(Number.isInteger(where.seat) ? where.seat : 0);
      if (st.destroyed) return;
      if (!Number.isInteger(where.seat)) {
        // the person's own seat, when he played in the hand
        const own = ctx.player ? data.seats.find((x) => x.player && x.player.id === ctx.player.id) : null;
        if (own && own.seat !== data.seat) data = await fetchFrames(own.seat);
      }
      if (!st.destroyed) take(data);
    } catch (err) {
      if (!st.destroyed) showError(replayErrorText(err));
    }
  }

  // New frames (the first, or another seat's): keep the step, redraw.
  function take(data) {
    st.data = data;
    st.seat = data.seat;
    let held = [];
    st.logs = data.frames.map((f) => {
      if (!Array.isArray(f.view.events)) return null;
      held = held.slice(0, f.events_from || 0).concat(f.view.events);
      return held;
    });
    st.step = Math.min(st.step, last());
    if (!table) {
      buildControls();
      table = mountTable(root, where.file ? null : where.room, ctx, {
        replay: { controls, panels: analysis ? { analysis: analysis.panel } : {}, shareURL, back: goBack },
      });
    }
    syncSeatChoice();
    if (analysis) analysis.setSeat(st.seat);
    go(st.step);
  }

  async function switchSeat(seat) {
    if (st.loading || seat === st.seat) return;
    st.loading = true;
    seatSelect.disabled = true;
    try {
      take(await fetchFrames(seat));
      if (!where.file) history.replaceState(null, "", hashOf(st.seat));
    } catch (err) {
      toast(replayErrorText(err), "error");
      syncSeatChoice();
    } finally {
      st.loading = false;
      seatSelect.disabled = false;
    }
  }

  function hashOf(seat) {
    return where.file ? "#/replay/file" : `#/replay/${encodeURIComponent(where.room)}/${where.number}?seat=${seat}`;
  }

  function shareURL() {
    return where.file ? null : `${location.origin}${location.pathname}${hashOf(st.seat)}`;
  }

  function goBack() {
    ctx.navigate(ctx.backHash || "#/");
  }

  // ------------------------------------------------------------ a frame as the table's update
  function room() {
    const d = st.data;
    const seats = d.seats.map((x) => ({
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
      hand_number: where.file ? null : where.number,
      status: "replay",
      options: d.options || {},
      seats,
    };
  }

  function update(i) {
    const f = frame(i);
    const view = st.logs[i] ? { ...f.view, events: st.logs[i] } : f.view;
    return { room: room(), seat: st.data.seat, turn: i, view, deadline: null, hands: f.hands };
  }

  // ------------------------------------------------------------ stepping
  function go(i) {
    if (!st.data) return;
    st.step = Math.max(0, Math.min(last(), i));
    table.show(update(st.step));
    if (st.playing && st.step >= last()) pause();
    syncControls();
  }

  // next trick: the next frame whose action opened a trick; previous: the last such frame before this one
  function nextTrick() {
    const fs = st.data.frames;
    for (let j = st.step + 1; j < fs.length; j++) if (fs[j].lead) return go(j);
    go(last());
  }

  function prevTrick() {
    const fs = st.data.frames;
    for (let j = st.step - 1; j > 0; j--) if (fs[j].lead) return go(j);
    go(0);
  }

  function play() {
    if (st.step >= last()) go(0);
    st.playing = true;
    clearInterval(st.timer);
    st.timer = setInterval(() => go(st.step + 1), 1000 / st.speed);
    syncControls();
  }

  function pause() {
    st.playing = false;
    clearInterval(st.timer);
    st.timer = null;
    syncControls();
  }

  const togglePlay = () => (st.playing ? pause() : play());

  function setSpeed(x) {
    st.speed = x;
    try {
      localStorage.setItem(SPEED_KEY, String(x));
    } catch {
      /* storage unavailable */
    }
    if (st.playing) play();
    syncControls();
  }

  // ------------------------------------------------------------ controls
  const controls = h("div", { class: "replay-controls", "data-testid": "replay" });
  let slider, marks, count, actionLine, verdictLine, playBtn, speedSelect, seatSelect;

  function button(id, iconName, text, keys, onclick) {
    const tip = keys ? `${text} (${keys})` : text;
    const b = h("button", { class: "replay-btn" + (id === "replay-play" ? " primary" : ""), "data-testid": id, title: tip, "aria-label": text, onclick });
    b.append(icon(iconName));
    return b;
  }

  function buildControls() {
    playBtn = button("replay-play", "play", t("replay_play"), t("key_space"), togglePlay);
    const buttons = h(
      "div",
      { class: "replay-buttons", role: "group", "aria-label": t("replay_title"), title: t("replay_keys") },
      button("replay-start", "start", t("replay_start"), "Home", () => go(0)),
      button("replay-prev-trick", "prevTrick", t("replay_prev_trick"), "↑", prevTrick),
      button("replay-prev", "prev", t("replay_prev"), "←", () => go(st.step - 1)),
      playBtn,
      button("replay-next", "next", t("replay_next"), "→", () => go(st.step + 1)),
      button("replay-next-trick", "nextTrick", t("replay_next_trick"), "↓", nextTrick),
      button("replay-end", "end", t("replay_end"), "End", () => go(last())),
    );
    slider = h("input", { type: "range", min: "0", max: "0", step: "1", value: "0", class: "replay-slider", "data-testid": "replay-slider", "aria-label": t("replay_seek") });
    slider.addEventListener("input", () => go(Number(slider.value)));
    marks = h("div", { class: "replay-marks", "data-testid": "replay-marks" });
    count = h("span", { class: "replay-count", "data-testid": "replay-count" });
    const seek = h("div", { class: "replay-seek" }, h("div", { class: "replay-slider-wrap" }, slider, marks), count);
    speedSelect = h(
      "select",
      { "data-testid": "replay-speed", title: t("replay_speed") },
      ...SPEEDS.map((x) => h("option", { value: String(x), selected: x === st.speed }, `${x}×`)),
    );
    speedSelect.addEventListener("change", () => setSpeed(Number(speedSelect.value)));
    seatSelect = h("select", { "data-testid": "replay-seat", title: t("replay_seat_help") });
    seatSelect.addEventListener("change", () => switchSeat(Number(seatSelect.value)));
    const keys = h("button", { class: "small replay-keys", "data-testid": "replay-keys", title: t("replay_keys"), "aria-label": t("replay_keys") }, "?");
    keys.addEventListener("click", () => toast(t("replay_keys"), "info", 8000));
    const options = h(
      "div",
      { class: "replay-options" },
      h("label", {}, t("replay_speed") + " ", speedSelect),
      h("label", {}, t("replay_seat") + " ", seatSelect),
      analysis ? analysis.button : null,
      recordFileButton(ctx),
      keys,
    );
    actionLine = h("span", { class: "replay-action", "data-testid": "replay-action" });
    verdictLine = h("div", { class: "replay-verdict hidden", "data-testid": "replay-verdict", role: "status" });
    const info = h("div", { class: "replay-info" }, actionLine);
    controls.replaceChildren(buttons, seek, info, verdictLine, options);
  }

  function syncSeatChoice() {
    const d = st.data;
    seatSelect.replaceChildren(
      ...d.seats.map((x) => {
        const name = x.player ? x.player.name : x.bot ? t("replay_bot", { n: x.seat + 1 }) : seatText(x.seat);
        return h("option", { value: String(x.seat), selected: x.seat === st.seat }, `${seatText(x.seat)} · ${name}`);
      }),
    );
    seatSelect.value = String(st.seat);
  }

  function syncControls() {
    if (!st.data || !slider) return;
    const n = last();
    slider.max = String(n);
    slider.value = String(st.step);
    count.textContent = t("replay_step", { k: st.step, n });
    controls.dataset.step = String(st.step);
    controls.dataset.total = String(n);
    controls.dataset.seat = String(st.seat);
    controls.dataset.playing = st.playing ? "true" : "false";
    controls.dataset.speed = String(st.speed);
    controls.dataset.game = st.data.game;
    if (table) table.page.dataset.replayStep = String(st.step);
    playBtn.replaceChildren(icon(st.playing ? "pause" : "play"));
    const playText = st.playing ? t("replay_pause") : t("replay_play");
    playBtn.title = `${playText} (${t("key_space")})`;
    playBtn.setAttribute("aria-label", playText);
    playBtn.setAttribute("aria-pressed", st.playing ? "true" : "false");
    speedSelect.value = String(st.speed);
    actionLine.replaceChildren(...describe(st.step));
    if (analysis) analysis.at(st.step, n);
  }

  // "Bot 3: ♥3 ♥3" for the action that led to frame i ("after the deal" for frame 0).
  function describe(i) {
    const f = frame(i);
    if (!i || f.actor === null || f.actor === undefined) return [t("replay_after_deal")];
    const name = nameOf(f.actor);
    const prev = frame(i - 1).view;
    return [name + ": ", actionNode(f.action, prev && (prev.step || prev.phase), playedCards(i, f))];
  }

  // the cards a play put down, from the event log (a Shuangkou action names ranks only)
  function playedCards(i, f) {
    const log = st.logs[i];
    if (!log) return null;
    for (let k = log.length - 1; k >= 0 && k >= log.length - 6; k--) {
      const e = log[k];
      if (e.seat === f.actor && e.action === f.action && e.cards) return e.cards;
    }
    return null;
  }

  function nameOf(s) {
    const x = st.data.seats.find((y) => y.seat === s);
    if (x && x.player) return x.player.name;
    if (x && x.bot) return t("replay_bot", { n: s + 1 });
    return seatText(s);
  }

  // ------------------------------------------------------------ keys
  // ←/→ an action, ↑/↓ or Shift+←/→ a trick, Home/End, Space play/pause
  function onKey(e) {
    if (!st.data || e.ctrlKey || e.metaKey || e.altKey) return;
    const tgt = e.target;
    if (tgt.closest && tgt.closest("textarea, select, input:not([type=range])")) return;
    switch (e.key) {
      case "ArrowLeft":
        if (e.shiftKey) prevTrick();
        else go(st.step - 1);
        break;
      case "ArrowRight":
        if (e.shiftKey) nextTrick();
        else go(st.step + 1);
        break;
      case "ArrowUp":
        prevTrick();
        break;
      case "ArrowDown":
        nextTrick();
        break;
      case "Home":
        go(0);
        break;
      case "End":
        go(last());
        break;
      case " ":
        if (tgt.closest && tgt.closest("button, a, summary")) return; // a focused button takes its own Space
        togglePlay();
        break;
      default:
        return;
    }
    e.preventDefault();
  }
  document.addEventListener("keydown", onKey);

  // ------------------------------------------------------------ 复盘 (a room's hands only)
  if (!where.file) {
    analysis = mountAnalysis({
      url: () => `/api/rooms/${encodeURIComponent(where.room)}/hands/${where.number}/analysis?seat=${st.seat}`,
      nameOf,
      seatText,
      open: () => table && table.openPanel("analysis"),
      jump: (step) => {
        pause();
        go(step);
      },
      marksEl: () => marks,
      verdictEl: () => verdictLine,
      actionNode,
    });
  }

  start();

  return {
    destroy() {
      st.destroyed = true;
      clearInterval(st.timer);
      document.removeEventListener("keydown", onKey);
      if (analysis) analysis.destroy();
      if (table) table.destroy();
    },
    rerender() {
      if (!table) {
        start();
        return;
      }
      buildControls();
      syncSeatChoice();
      if (analysis) analysis.rerender();
      go(st.step);
      table.rerender();
    },
  };
}

// An action as shown: cards by their labels, a pass or a decision by its word.
export function actionNode(action, step = null, cards = null) {
  const text = String(action || "");
  if (text === "pass") return h("span", { class: "replay-pass" }, t("pass_mark"));
  if (text === "yield") return h("span", { class: "replay-pass" }, t("yield_mark"));
  if (text.startsWith("bury ")) return h("span", {}, t("replay_bury", { cards: labels(text.slice(5)) }));
  if (text.startsWith("declare ")) return h("span", {}, t("act_declare", { cards: labels(text.slice(8)) }));
  if (text === "no" && (step === "deal" || step === "steal")) return h("span", {}, t("act_no_declare")); // 升级: 不亮
  const shown = cards || text;
  const list = /^[0-9TJQKASB]/.test(shown) ? C.parseCardList(shown) : null;
  if (list && list.length) {
    return h(
      "span",
      { class: "cards-inline", "data-cards": shown },
      ...list.map((c) => h("span", { class: "card-label " + (C.isRed(c) ? "red" : "black") }, cardLabel(c.text))),
    );
  }
  return h("span", {}, actionLabel(text, step));
}

function labels(text) {
  return String(text).split(/\s+/).filter(Boolean).map(cardLabel).join(" ");
}

function savedSpeed() {
  try {
    const x = Number(localStorage.getItem(SPEED_KEY));
    return SPEEDS.includes(x) ? x : 1;
  } catch {
    return 1;
  }
}

// Where a replay link points: {room, number, seat} (seat null when not given) or {file: true}.
export function parseReplayHash(hash) {
  if (/^\/replay\/file\/?$/.test(hash)) return { file: true };
  const m = hash.match(/^\/replay\/([^/?#]+)\/(\d+)\/?(?:\?(.*))?$/);
  if (!m) return null;
  const q = new URLSearchParams(m[3] || "");
  const seat = q.has("seat") && /^\d+$/.test(q.get("seat")) ? Number(q.get("seat")) : null;
  return { room: decodeURIComponent(m[1]), number: Number(m[2]), seat };
}
