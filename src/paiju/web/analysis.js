// @ts-check
// 复盘 in the replay viewer: the hall's analysis of the bottom seat's decisions in the card
// play (POST starts it, GET polls it about once a second: /api/rooms/{room}/hands/{n}/analysis).
// Its side panel lists the decisions judged — 疑问手 (dubious) and 失误 (mistakes) marked —
// each with the play made, the better one, both estimates ± their standard error, the loss
// and the double-dummy estimate 明牌估计; a row jumps to the position before its decision.
// The marks are ticks on the replay's slider; the verdict of the decision about to be made
// is a line by the controls.
// Exports: mountAnalysis.

import * as api from "./api.js";
import { t } from "./i18n.js";
import { h, toast } from "./ui.js";
import { reasonText } from "./table/text.js";

const POLL_MS = 1000;

/**
 * What the replay viewer gives the analysis.
 * @typedef {object} AnalysisHooks
 * @property {() => string} url the analysis of the seat shown
 * @property {(seat: number) => string} nameOf
 * @property {(seat: number) => string} seatText
 * @property {() => void} open the panel
 * @property {(step: number) => void} jump
 * @property {() => HTMLElement | null} marksEl the replay's slider ticks
 * @property {() => HTMLElement | null} verdictEl the replay's verdict line
 * @property {(action: string) => HTMLElement} actionNode an action as shown
 */

/**
 * The analysis of one replay: its state, the replay's hooks and its elements.
 * @typedef {object} Analysis
 * @property {{state: string, done: number, total: number, result: any, error: string | null, timer: any, seq: number, step: number, last: number, seat?: number, destroyed: boolean}} A
 *   state: none | queued | running | done | failed | unavailable; seq: answers to an older request (another seat) are dropped
 * @property {AnalysisHooks} hooks
 * @property {HTMLElement} body the panel's body
 * @property {HTMLElement} button the 复盘 button
 */

/**
 * The 复盘 of a replay: its button, its panel, and the viewer's calls as it moves.
 * @param {AnalysisHooks} hooks
 */
export function mountAnalysis(hooks) {
  /** @type {Analysis} */
  const an = {
    A: {
      state: "none", // none | queued | running | done | failed | unavailable
      done: 0,
      total: 0,
      result: null,
      error: null,
      timer: null,
      seq: 0, // answers to an older request (another seat) are dropped
      step: 0,
      last: 0,
      destroyed: false,
    },
    hooks,
    body: h("div", { class: "panel-body review-body", "data-testid": "review" }),
    button: h("button", { class: "small replay-review", "data-testid": "replay-review", onclick: () => ask(an) }),
  };
  const { A } = an;
  const panel = { title: () => t("review_title"), body: () => an.body };
  return {
    button: an.button,
    panel,
    // the viewer is at frame `step` of `last`
    at(/** @type {number} */ step, /** @type {number} */ last) {
      const moved = last !== A.last;
      A.step = step;
      A.last = last;
      if (moved) renderMarks(an);
      renderVerdict(an);
      markCurrent(an);
    },
    // the seat shown changed (or the first frames came): its analysis, if any
    setSeat(/** @type {number} */ seat) {
      if (A.seat === seat) return;
      A.seat = seat;
      A.seq += 1;
      stopPolling(an);
      A.state = "none";
      A.result = null;
      render(an);
      poll(an);
    },
    rerender: () => render(an),
    destroy() {
      A.destroyed = true;
      stopPolling(an);
    },
  };
}

/**
 * The 复盘 button: the panel, and the analysis started when there is none yet.
 * @param {Analysis} an
 */
function ask(an) {
  an.hooks.open();
  if (an.A.state === "none" || an.A.state === "failed") start(an);
}

/** @param {Analysis} an */
async function start(an) {
  const { A, hooks } = an;
  const seq = ++A.seq;
  stopPolling(an);
  A.state = "queued";
  A.done = 0;
  A.total = 0;
  render(an);
  try {
    const answer = await api.postJSON(hooks.url());
    if (seq === A.seq) apply(an, answer);
  } catch (err) {
    if (seq !== A.seq || A.destroyed) return;
    A.state = "failed";
    A.error = err && err.code ? reasonText(err.code, err.params, err.message, hooks.seatText) : String((err && err.message) || err);
    toast(A.error, "error");
    render(an);
  }
}

/** @param {Analysis} an */
async function poll(an) {
  const { A } = an;
  const seq = A.seq;
  try {
    const answer = await api.getJSON(an.hooks.url());
    if (seq === A.seq) apply(an, answer);
  } catch (err) {
    if (seq !== A.seq || A.destroyed) return;
    // a hand the hall cannot analyse (gone, not over): no analysis to offer
    A.state = err && err.status === 404 ? "unavailable" : A.state;
    if (A.state === "queued" || A.state === "running") schedule(an);
    render(an);
  }
}

/**
 * @param {Analysis} an
 * @param {any} answer the hall's answer
 */
function apply(an, answer) {
  const { A } = an;
  if (A.destroyed) return;
  A.state = answer.state;
  A.done = answer.done || 0;
  A.total = answer.total || 0;
  A.error = answer.error || null;
  A.result = answer.state === "done" ? answer.analysis : null;
  if (A.state === "queued" || A.state === "running") schedule(an);
  render(an);
}

/** @param {Analysis} an */
function schedule(an) {
  stopPolling(an);
  if (!an.A.destroyed) an.A.timer = setTimeout(() => poll(an), POLL_MS);
}

/** @param {Analysis} an */
function stopPolling(an) {
  clearTimeout(an.A.timer);
  an.A.timer = null;
}

// ------------------------------------------------------------ drawing

/** @param {Analysis} an */
function render(an) {
  renderButton(an);
  renderBody(an);
  renderMarks(an);
  renderVerdict(an);
}

/** @param {Analysis} an */
function renderButton(an) {
  const { A, button } = an;
  const busy = A.state === "queued" || A.state === "running";
  button.textContent = t("review") + (busy ? ` ${A.done}/${A.total || "…"}` : "");
  button.title = t("review_help_short");
  button.classList.toggle("busy", busy);
  button.classList.toggle("hidden", A.state === "unavailable");
  button.dataset.state = A.state;
}

/** @param {Analysis} an */
function renderBody(an) {
  const { A, body } = an;
  body.dataset.state = A.state;
  const parts = [];
  if (A.state === "none" || A.state === "unavailable") {
    parts.push(h("p", { class: "muted small-text" }, t("review_intro")));
    if (A.state === "none") parts.push(h("button", { class: "primary", "data-testid": "review-start", onclick: () => start(an) }, t("review_start")));
  } else if (A.state === "queued" || A.state === "running") {
    parts.push(progressBar(an), h("p", { class: "muted small-text" }, t("review_intro")));
  } else if (A.state === "failed") {
    parts.push(
      h("p", { class: "review-error", "data-testid": "review-error", role: "alert" }, t("review_failed", { error: A.error || "" })),
      h("button", { class: "primary", "data-testid": "review-start", onclick: () => start(an) }, t("review_retry")),
    );
  } else if (A.state === "done" && A.result) {
    parts.push(...resultParts(an, A.result));
  }
  const scroll = body.scrollTop;
  body.replaceChildren(...parts);
  body.scrollTop = scroll;
  markCurrent(an);
}

/** @param {Analysis} an */
function progressBar(an) {
  const { A } = an;
  const total = A.total || 0;
  const pct = total ? Math.round((100 * A.done) / total) : 0;
  const bar = h(
    "div",
    {
      class: "review-progress",
      role: "progressbar",
      "aria-valuemin": "0",
      "aria-valuemax": String(total),
      "aria-valuenow": String(A.done),
      "aria-label": t("review_title"),
      "data-testid": "review-progress",
      "data-state": A.state,
    },
    h("div", { class: "review-progress-fill", style: `width: ${pct}%` }),
  );
  const text = A.state === "queued" ? t("review_queued") : t("review_running", { done: A.done, total });
  return h("div", { class: "review-progress-box" }, bar, h("div", { class: "small-text", "data-testid": "review-progress-text" }, text));
}

/**
 * @param {Analysis} an
 * @param {any} a the analysis
 */
function resultParts(an, a) {
  const s = a.summary || {};
  const summary = h(
    "div",
    {
      class: "review-summary",
      "data-testid": "review-summary",
      "data-decisions": String(s.decisions ?? 0),
      "data-dubious": String(s.dubious ?? 0),
      "data-mistakes": String(s.mistakes ?? 0),
    },
    h("b", {}, t("review_summary", { decisions: t("review_decisions", { n: s.decisions ?? 0 }), dubious: s.dubious ?? 0, mistakes: t("review_mistakes", { n: s.mistakes ?? 0 }) })),
    typeof s.loss === "number" ? h("span", { class: "muted" }, " · " + t("review_loss_total", { loss: num(s.loss) })) : null,
  );
  const help = h("p", { class: "muted small-text" }, t("review_help") + (a.game === "shengji" ? " " + t("review_unit_shengji") : ""));
  const decisions = [...(a.decisions || [])].sort((x, y) => x.step - y.step);
  const list = decisions.length
    ? h("ol", { class: "review-list", "data-testid": "review-list" }, ...decisions.map((d) => row(an, d)))
    : h("p", { class: "muted", "data-testid": "review-list" }, t("review_none"));
  return [summary, skipped(a.not_analysed || []), help, list];
}

/**
 * Why some decisions have no estimate: forced, before the play, no world to sample.
 * @param {any[]} items
 */
function skipped(items) {
  if (!items.length) return null;
  /** @type {Record<string, number>} */
  const by = {};
  for (const d of items) by[d.why] = (by[d.why] || 0) + 1;
  /** @type {Record<string, string>} */
  const keys = { forced: "review_skipped_forced", before_play: "review_skipped_before" };
  const texts = Object.entries(by).map(([why, n]) => {
    const key = keys[why] || "review_skipped_other";
    return t(key, { n });
  });
  return h("p", { class: "small-text review-skipped", "data-testid": "review-skipped" }, t("review_not_analysed") + " " + texts.join(" · "));
}

/**
 * A decision in the panel's list; a click (or Enter) jumps to the position before it.
 * @param {Analysis} an
 * @param {any} d the decision
 */
function row(an, d) {
  const li = h(
    "li",
    {
      class: "review-row" + (d.mark ? " mark-" + d.mark : ""),
      "data-testid": "review-row",
      "data-step": String(d.step),
      "data-mark": d.mark || "",
      tabindex: "0",
      role: "button",
      title: t("review_jump"),
    },
    h("div", { class: "review-head" }, h("span", { class: "review-step" }, t("review_at", { k: d.step })), markBadge(d.mark)),
    ...verdictParts(an, d).map((p) => h("div", { class: "review-line" }, ...p)),
  );
  const jump = () => an.hooks.jump(d.step);
  li.addEventListener("click", jump);
  li.addEventListener("keydown", (e) => {
    if (e.key === "Enter") jump();
  });
  return li;
}

/** @param {string | null} mark */
function markBadge(mark) {
  if (!mark) return null;
  return h("span", { class: "badge review-mark mark-" + mark, "data-mark": mark }, t("review_" + mark));
}

/**
 * The lines that judge a decision: the play made and its estimate, the better play, the loss, 明牌估计.
 * @param {Analysis} an
 * @param {any} d the decision
 * @returns {(string | HTMLElement)[][]}
 */
function verdictParts(an, d) {
  const { actionNode } = an.hooks;
  const lines = [[h("span", { class: "review-label" }, t("review_taken") + " "), actionNode(d.action), " ", est(d.taken)]];
  if (d.best && d.best.action !== d.action) {
    lines.push([
      h("span", { class: "review-label" }, t("review_best") + " "),
      h("span", { "data-testid": "review-best" }, actionNode(d.best.action)),
      " ",
      est(d.best),
      " · " + t("review_loss", { loss: num(d.loss), se: num(d.loss_se, false) }),
    ]);
  } else lines.push([h("span", { class: "muted" }, t("review_best_same"))]);
  if (d.dd) {
    const dd = [h("span", { class: "review-label" }, t("review_dd") + ": "), t("review_dd_taken", { v: num(d.dd.taken) })];
    if (d.dd.best && d.dd.best.action !== d.action) {
      dd.push(" · " + t("review_best") + " ", actionNode(d.dd.best.action), " " + num(d.dd.best.value));
    }
    lines.push([h("span", { class: "review-dd", "data-testid": "review-dd" }, ...dd)]);
  }
  return lines;
}

/**
 * An estimate "+0.50 ±0.10".
 * @param {any} e
 * @returns {HTMLElement | string}
 */
function est(e) {
  if (!e || typeof e.mean !== "number") return "";
  return h("span", { class: "review-est" }, `${num(e.mean)} ±${num(e.se, false)}`);
}

/**
 * @param {Analysis} an
 * @param {number} step
 */
function decisionAt(an, step) {
  const { A } = an;
  return A.result ? (A.result.decisions || []).find((/** @type {any} */ d) => d.step === step) || null : null;
}

/**
 * The row of the decision about to be made, in sight.
 * @param {Analysis} an
 */
function markCurrent(an) {
  for (const el of an.body.querySelectorAll(".review-row")) {
    const li = /** @type {HTMLElement} */ (el);
    const on = Number(li.dataset.step) === an.A.step;
    li.classList.toggle("current", on);
    if (on && !li.dataset.shown) li.scrollIntoView({ block: "nearest" });
    li.dataset.shown = on ? "true" : "";
  }
}

/**
 * Ticks on the slider at the marked decisions.
 * @param {Analysis} an
 */
function renderMarks(an) {
  const { A, hooks } = an;
  const box = hooks.marksEl();
  if (!box) return;
  const marked = A.result ? (A.result.decisions || []).filter((/** @type {any} */ d) => d.mark) : [];
  const n = Math.max(1, A.last);
  box.replaceChildren(
    ...marked.map((/** @type {any} */ d) => {
      const p = d.step / n;
      // under the thumb's centre: the range's track is inset by half a thumb (16 px) at each end
      const tick = h("span", {
        class: "replay-mark mark-" + d.mark,
        "data-testid": "replay-mark",
        "data-step": String(d.step),
        "data-mark": d.mark,
        title: `${t("review_at", { k: d.step })} · ${t("review_" + d.mark)}`,
        style: `left: calc(${(100 * p).toFixed(3)}% + ${(8 - 16 * p).toFixed(2)}px)`,
      });
      tick.addEventListener("click", () => hooks.jump(d.step));
      return tick;
    }),
  );
}

/**
 * The verdict of the decision made at this frame (frames[step] is the position before it).
 * @param {Analysis} an
 */
function renderVerdict(an) {
  const el = an.hooks.verdictEl();
  if (!el) return;
  const d = decisionAt(an, an.A.step);
  el.classList.toggle("hidden", !d);
  el.dataset.step = d ? String(d.step) : "";
  el.dataset.mark = d ? d.mark || "good" : "";
  if (!d) {
    el.replaceChildren();
    return;
  }
  const head = h("b", { class: "review-verdict-head" }, d.mark ? t("review_" + d.mark) : t("review_good"));
  const parts = verdictParts(an, d).flatMap((p, i) => (i ? [" · ", ...p] : p));
  el.replaceChildren(head, " ", ...parts);
}

/**
 * A score with its sign and two decimals (a standard error without the sign).
 * @param {unknown} x
 * @returns {string}
 */
function num(x, signed = true) {
  if (typeof x !== "number" || !isFinite(x)) return "–";
  const s = x.toFixed(2);
  return signed && x > 0 ? "+" + s : s;
}
