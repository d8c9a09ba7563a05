// @ts-check
// The table's top bar (back, the room's name and game, share, seating direction, the
// language, the secondary tools: 上一轮, 牌谱, 记牌器, 快捷语, sound) and the connection banner.
// Exports: renderTopbar, renderBanner, shareURL.

import { inviteDialog } from "../invitations.js";
import { t, label, presetLabel } from "../i18n.js";
import { setSound, soundOn } from "../sound.js";
import { h, toast } from "../ui.js";
import { DIRECTION_KEY, HINT_PASS_KEY } from "./state.js";
import { reasonText } from "./text.js";
import { hidesPast } from "./panels.js";
import { closedText } from "./closed.js";
import { helpHash } from "../help/link.js";

/** @typedef {import("./state.js").Table} Table */

const LINK_SVG =
  '<svg viewBox="0 0 24 24" class="icon-svg" aria-hidden="true"><path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/></svg>';

/** @param {Table} tb */
export function renderTopbar(tb) {
  const { S, R, ctx, roomId } = tb;
  const r = tb.room();
  // seated with no hand going on, the way back stands the person up (no penalty); during a
  // hand it keeps the seat, and says for how long
  const seated = !R && tb.mySeat() !== null && !!S.update;
  const stands = seated && r.status !== "playing";
  const backText = R ? t("back") : stands ? t("back_stand") : t("back_lobby");
  const backTitle = stands ? t("back_stand_title") : seated ? t("back_keep_title") : backText;
  const goBack = () => {
    if (R) return R.back();
    if (stands) tb.send({ type: "stand" }, true);
    ctx.navigate("#/");
  };
  const back = h("button", { class: "small", "data-testid": "back", "data-stands": stands ? "true" : "false", title: backTitle, onclick: goBack }, "‹ ", h("span", { class: "long" }, backText));
  const share = h("button", { class: "small", "data-testid": "share", title: shareURL(tb) || "" });
  share.innerHTML = LINK_SVG;
  share.append(h("span", { class: "long" }, t("share")));
  share.addEventListener("click", () => copyShare(tb));
  const dir = h(
    "button",
    { class: "small", "data-testid": "direction", title: t("direction") },
    S.direction === "cw" ? "↻" : "↺",
    h("span", { class: "long" }, " " + (S.direction === "cw" ? t("clockwise") : t("counterclockwise"))),
  );
  dir.addEventListener("click", () => {
    S.direction = S.direction === "cw" ? "ccw" : "cw";
    localStorage.setItem(DIRECTION_KEY, S.direction);
    tb.render();
  });
  const variant = r.options && r.options.variant;
  tb.dom.topbar.replaceChildren(
    ...[
      back,
      h(
        "div",
        { class: "room-title" },
        h("span", { class: "room-name" }, r.name || roomId || ""),
        h(
          "span",
          { class: "muted room-sub" },
          [label(r.game || "baohuang"), variant ? presetLabel(r.game || "baohuang", variant) : null, r.hand_number ? t("hand_n", { n: r.hand_number }) : null, beansLine(r)]
            .filter(Boolean)
            .join(" · "),
        ),
      ),
      h("div", { class: "spacer" }),
      tb.mySeat() === null && S.update ? h("span", { class: "chip watching", "data-testid": "watching" }, t("watching")) : null,
      r.spectators ? h("span", { class: "muted small-text long", "data-testid": "spectators" }, t("spectators_n", { n: r.spectators })) : null,
      toolsMenu(tb),
      shareURL(tb) ? share : null, // a replay of a file has no address to share
      dir,
      ctx.langButton(),
    ].filter(Boolean),
  );
}

/**
 * The room's bean multipliers and minimum (only when they differ from the plain room).
 * @param {any} r the room
 * @returns {string | null}
 */
function beansLine(r) {
  const b = r.beans;
  if (!b || (b.bean_multiplier === 1 && b.table_multiplier === 1 && !b.min_beans)) return null;
  const min = b.min_beans ? t("room_min_beans", { n: b.min_beans }) : "";
  return t("room_beans", { room: b.bean_multiplier, table: b.table_multiplier, min });
}

/**
 * The secondary toggles: 上一轮 (key L), 牌谱, 记牌器, 快捷语, sound. On a phone they fold
 * into a small menu (⋯) so the top bar keeps one line.
 * @param {Table} tb
 * @returns {HTMLElement}
 */
function toolsMenu(tb) {
  const { S, R } = tb;
  /**
   * @param {string} id
   * @param {string} panel
   * @param {string} text
   */
  const tool = (id, panel, text, title = text) =>
    h(
      "button",
      {
        class: "small tool" + (S.panel === panel ? " on" : ""),
        "data-testid": id,
        title,
        "aria-pressed": S.panel === panel ? "true" : "false",
        onclick: () => tb.togglePanel(panel),
      },
      text,
    );
  const u = tb.U();
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
        tb.renderTopbar();
      },
    },
    t("sound_label"), // words, not emoji: a machine without an emoji font shows empty boxes
  );
  // 提示无则PASS (seed 000: 无则PASS): a setting of this browser, for the games with a pass
  const hintPass = h(
    "button",
    {
      class: "small tool" + (S.hintPass ? " on" : ""),
      "data-testid": "hint-pass-toggle",
      "aria-pressed": S.hintPass ? "true" : "false",
      title: t("hint_pass_help"),
      onclick: () => {
        S.hintPass = !S.hintPass;
        localStorage.setItem(HINT_PASS_KEY, S.hintPass ? "on" : "off");
        tb.renderTopbar();
      },
    },
    t("hint_pass_label"),
  );
  const extra = Object.entries((R && R.panels) || {}).map(([name, p]) => tool(`${name}-toggle`, name, p.title()));
  const items = [
    // 比赛: no looking back during a hand (上一轮, the hand log); the log again once it is over
    hidesPast(tb) ? null : tool("prev-trick", "prev", t("prev_trick"), t("prev_trick") + " (L)"),
    hidesPast(tb) ? null : tool("log-toggle", "log", t("hand_log")),
    ...extra,
    u && u.referee ? tool("referee-toggle", "referee", t("referee")) : null, // a competition's referee (裁判)
    u && u.tracker && tb.mySeat() !== null ? tool("tracker-toggle", "tracker", t("tracker")) : null,
    u && !R ? tool("phrases-toggle", "phrases", t("phrases")) : null,
    !R && u && (tb.mySeat() !== null || (tb.ctx.player && tb.room().created_by === tb.ctx.player.id))
      ? h(
          "button",
          {
            class: "small tool",
            "data-testid": "invite",
            title: t("invite_title"),
            onclick: () => {
              S.toolsOpen = false; // the opened tools menu would cover the seats behind the dialog
              tb.renderTopbar();
              inviteDialog(tb.roomId, { creator: !!tb.ctx.player && tb.room().created_by === tb.ctx.player.id, room: tb.room() });
            },
          },
          t("invite"),
        )
      : null, // 邀请: the link, friends, and the creator's who-may-come (invitations.js)
    R ? null : sound,
    R || tb.game() === "shengji" ? null : hintPass,
    rulesLink(tb),
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
        tb.renderTopbar();
      },
    },
    "⋯",
  );
  return h("div", { class: "tools-wrap" }, more, h("div", { class: "table-tools" + (S.toolsOpen ? " open" : ""), "data-testid": "tools" }, ...items));
}

/**
 * 游戏规则: the game's rules page under this room's options (back to this table from it).
 * @param {Table} tb
 * @returns {HTMLElement | null}
 */
function rulesLink(tb) {
  const r = tb.room();
  if (!r || !r.game) return null;
  const href = helpHash(r.game, r.options || null, tb.R ? null : tb.roomId);
  return h("button", { class: "small tool", "data-testid": "rules-link", title: t("help_title"), onclick: () => tb.ctx.navigate(href) }, t("help_link"));
}

/**
 * The address that opens this table (a replay: its own; a replay of a file has none).
 * @param {Table} tb
 * @returns {string}
 */
export function shareURL(tb) {
  if (tb.R) return tb.R.shareURL();
  return `${location.origin}${location.pathname}#/room/${encodeURIComponent(tb.roomId)}`;
}

/** @param {Table} tb */
async function copyShare(tb) {
  const url = shareURL(tb);
  try {
    await navigator.clipboard.writeText(url);
    toast(t("copied") + ": " + url, "info");
  } catch {
    prompt(t("share"), url);
  }
}

/**
 * The banner over the felt while the socket (re)connects.
 * @param {Table} tb
 */
export function renderBanner(tb) {
  const { S } = tb;
  const { banner, page } = tb.dom;
  page.dataset.connection = S.connState;
  if (S.closed) {
    // the hall ended this page's place: why, and the way out (no reconnection)
    banner.classList.remove("hidden");
    banner.classList.add("closed");
    banner.dataset.closed = S.closed.code;
    banner.replaceChildren(
      h("span", { "data-testid": "closed-text" }, closedText(S.closed)),
      " ",
      h("button", { class: "small", "data-testid": "closed-back", onclick: () => tb.ctx.navigate("#/") }, t("back_lobby")),
    );
    return;
  }
  let text = "";
  if (S.connState === "connecting" && !S.update) text = t("connecting");
  else if (S.connState === "reconnecting") {
    const s = S.retryAt ? Math.max(0, Math.ceil((S.retryAt - Date.now()) / 1000)) : 0;
    // why the hall closed the socket (its database, the room moving, a server restarting)
    text = S.closeWhy ? `${reasonText(S.closeWhy, {}, "")} · ${t("retry_in", { s })}` : t("reconnecting", { s });
  } else if (S.update && tb.room().paused) text = t("table_paused"); // by a competition's referee
  banner.textContent = text;
  banner.classList.toggle("hidden", !text);
}

