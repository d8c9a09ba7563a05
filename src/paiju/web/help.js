// @ts-check
// A game's rules page 游戏介绍 | 游戏规则 | 游戏等级 (#/help/{game}?options=…&room=…): the
// introduction, the rules as a room's options set them (the hall resolves them: GET
// /api/games/{game}), scoring with a worked example, beans 游戏豆 at the room's multipliers,
// and the title ladder with the player's progress. The words are in help/{game}.js.
// Exports: mountHelp, parseHelpHash, applying; the type HelpContent (links: help/link.js).

import * as api from "./api.js";
import { t, label, getLang, presetLabel } from "./i18n.js";
import { errorText, logo } from "./lobby.js";
import { h } from "./ui.js";
import { helpHash } from "./help/link.js";
import baohuang from "./help/baohuang.js";
import shengji from "./help/shengji.js";
import shuangkou from "./help/shuangkou.js";

/**
 * A rule as text of the options (null: it does not apply under them), and the room options
 * it depends on (shown beside it, so a player knows which option of the room form sets it).
 * @typedef {(o: any) => (string | null | undefined)} TextOf
 * @typedef {{opts: string[], zh: string | TextOf, en: string | TextOf}} HelpItem
 * @typedef {{lines: string[], scores: number[], names: string[]}} HelpExample
 * @typedef {object} HelpContent
 * @property {{zh: string[], en: string[]}} intro
 * @property {HelpItem[]} rules
 * @property {HelpItem[]} scoring
 * @property {{opts: string[], zh: (o: any) => HelpExample, en: (o: any) => HelpExample}} example
 */

/** @type {Record<string, HelpContent>} */
const CONTENT = { baohuang, shengji, shuangkou };
const GAMES = Object.keys(CONTENT);

/**
 * The rules page an address names, or null.
 * @param {string} hash without its "#"
 * @returns {{game: string, options: Record<string, unknown>, room: string | null} | null}
 */
export function parseHelpHash(hash) {
  const m = hash.match(/^\/help\/([a-z]+)(?:\?(.*))?$/);
  if (!m) return null;
  const q = new URLSearchParams(m[2] || "");
  /** @type {Record<string, unknown>} */
  let options = {};
  try {
    const o = JSON.parse(q.get("options") || "{}");
    if (o && typeof o === "object" && !Array.isArray(o)) options = o;
  } catch {
    options = {}; // a mangled address: the default rules
  }
  return { game: m[1], options, room: q.get("room") };
}

/**
 * @param {string | TextOf} text
 * @param {any} o
 */
function say(text, o) {
  return typeof text === "function" ? text(o) : text;
}

/**
 * Every rule of `items` that applies under the options `o`, in the page's language.
 * @param {HelpItem[]} items
 * @param {any} o
 * @returns {{text: string, opts: string[]}[]}
 */
export function applying(items, o) {
  const lang = getLang() === "zh" ? "zh" : "en";
  return items.map((it) => ({ text: say(it[lang], o), opts: it.opts })).filter((x) => x.text);
}

/**
 * @param {HTMLElement} root
 * @param {{game: string, options: Record<string, unknown>, room: string | null}} where
 * @param {any} ctx the app's context
 * @returns {{destroy: () => void, rerender: () => void}}
 */
export function mountHelp(root, where, ctx) {
  let destroyed = false;
  let rules = null;
  let me = null;
  const body = h("main", { class: "help-main", "data-testid": "help" }, h("div", { class: "muted" }, "…"));
  const content = CONTENT[where.game];

  function render() {
    const back = where.room
      ? h("a", { class: "small link", href: `#/room/${encodeURIComponent(where.room)}`, "data-testid": "help-back" }, "‹ " + t("help_back_room"))
      : h("a", { class: "small link", href: "#/", "data-testid": "help-back" }, "‹ " + t("back_lobby"));
    const tabs = h(
      "nav",
      { class: "help-tabs" },
      ...GAMES.map((g) => h("a", { class: "tab" + (g === where.game ? " on" : ""), href: helpHash(g), "data-testid": `help-tab-${g}` }, label(g))),
    );
    root.replaceChildren(
      h(
        "div",
        { class: "page help-page" },
        h(
          "header",
          { class: "topbar" },
          h("a", { class: "brand", href: "#/" }, logo(), t("app_title"), h("span", { class: "muted" }, " · " + t("help_title"))),
          back,
          h("div", { class: "spacer" }),
          ctx.langButton(),
        ),
        tabs,
        body,
      ),
    );
  }

  async function load() {
    if (!content) {
      body.replaceChildren(h("div", { class: "muted", "data-testid": "help-error" }, t("help_no_game", { game: where.game })));
      return;
    }
    try {
      const mine = ctx.player ? api.player(ctx.player.id, 0, 1).catch(() => null) : Promise.resolve(null);
      const [r, p] = await Promise.all([api.gameRules(where.game, where.options), mine]);
      if (destroyed) return;
      rules = r;
      me = p;
      show();
    } catch (err) {
      if (!destroyed) body.replaceChildren(h("div", { class: "muted", "data-testid": "help-error" }, errorText(err)));
    }
  }

  function show() {
    if (!rules || !content) return;
    const o = rules.options;
    const lang = getLang() === "zh" ? "zh" : "en";
    // options chosen beside the preset are "the rules you chose", not the preset's
    const chosen = Object.keys(where.options).some((k) => k !== "variant");
    const which = where.room
      ? t("help_room_rules")
      : chosen
        ? t("help_chosen_rules")
        : rules.preset
          ? t("help_preset_rules", { preset: presetLabel(where.game, rules.preset) })
          : Object.keys(where.options).length
            ? t("help_chosen_rules")
            : t("help_default_rules");
    const reset = Object.keys(where.options).length ? h("a", { class: "small link", href: helpHash(where.game), "data-testid": "help-default" }, t("help_show_default")) : null;
    body.replaceChildren(
      h(
        "section",
        { class: "panel help-head" },
        h("h1", { "data-testid": "help-heading" }, label(where.game) + " · " + t("help_title")),
        h("div", { class: "muted help-which", "data-testid": "help-which" }, which, reset ? " · " : "", reset),
      ),
      section("intro", t("help_intro"), ...content.intro[lang].map((p) => h("p", {}, p))),
      section("rules", t("help_rules"), ruleList(applying(content.rules, o))),
      section("scoring", t("help_scoring"), ruleList(applying(content.scoring, o)), example(content.example[lang](o), o)),
      section("beans", t("help_beans"), ...beans(o)),
      section("titles", t("help_titles"), ...ladder()),
    );
  }

  /**
   * @param {string} id
   * @param {string} title
   * @param {...any} children
   */
  function section(id, title, ...children) {
    return h("section", { class: "panel help-section", "data-testid": `help-${id}` }, h("h2", {}, title), ...children);
  }

  /** @param {{text: string, opts: string[]}[]} items */
  function ruleList(items) {
    return h(
      "ul",
      { class: "help-rules" },
      ...items.map((it) =>
        h(
          "li",
          {},
          it.text,
          ...it.opts.map((name) => h("span", { class: "chip opt-tag", "data-option": name, title: label("help." + name, name) }, label("opt." + name, name))),
        ),
      ),
    );
  }

  /**
   * The worked example: its reasoning, then each seat's points and beans at this room's multipliers.
   * @param {HelpExample} ex
   * @param {any} o
   */
  function example(ex, o) {
    const times = Number(o.bean_multiplier) * Number(o.table_multiplier);
    return h(
      "div",
      { class: "help-example", "data-testid": "help-example" },
      h("h3", {}, t("help_example")),
      ...ex.lines.map((line) => h("p", {}, line)),
      h(
        "table",
        { class: "stats" },
        h("thead", {}, h("tr", {}, h("th", {}, t("help_col_seat")), h("th", {}, t("col_points")), h("th", {}, t("help_col_beans", { n: times })))),
        h(
          "tbody",
          {},
          ...ex.scores.map((s, i) => h("tr", {}, h("td", {}, `${i} · ${ex.names[i]}`), h("td", {}, signed(s)), h("td", {}, signed(s * times)))),
        ),
      ),
      h("p", { class: "muted" }, t("help_example_beans")),
    );
  }

  /** @param {any} o */
  function beans(o) {
    const need = Math.max(Number(o.min_beans), Number(rules.hand_cost));
    return [
      h("p", {}, t("help_beans_formula")),
      h("p", { "data-testid": "help-multipliers" }, t("help_beans_room", { room: o.bean_multiplier, table: o.table_multiplier })),
      h("p", {}, o.own_multiplier ? t("help_own_on") : t("help_own_off")),
      h("p", { "data-testid": "help-hand-cost" }, t("help_hand_cost", { points: rules.max_hand_points, room: o.bean_multiplier, table: o.table_multiplier, cost: rules.hand_cost, need })),
      h("p", { class: "muted" }, t("help_beans_guests")),
    ];
  }

  function ladder() {
    const mine = me && me.games && me.games[where.game];
    const points = mine ? Number(mine.points) : null;
    const level = mine ? mine.title.level : null;
    const name = (/** @type {any} */ x) => (getLang() === "zh" ? x.zh : x.en);
    let progress;
    if (!mine) progress = h("p", { class: "muted" }, t("help_no_progress"));
    else {
      const next = rules.titles.find((x) => x.level === level + 1);
      progress = h(
        "p",
        { "data-testid": "help-progress" },
        next
          ? t("help_progress", { points, title: name(mine.title), left: next.floor - points, next: name(next) })
          : t("help_progress_top", { points, title: name(mine.title) }),
      );
    }
    const table = h(
      "table",
      { class: "stats help-ladder", "data-testid": "help-ladder" },
      h("thead", {}, h("tr", {}, h("th", {}, t("help_col_level")), h("th", {}, t("col_title")), h("th", {}, t("help_col_from")))),
      h(
        "tbody",
        {},
        ...rules.titles.map((x) =>
          h(
            "tr",
            { class: x.level === level ? "current" : "", "data-testid": `ladder-row-${x.level}`, title: getLang() === "zh" ? x.en : x.zh },
            h("td", {}, String(x.level)),
            h("td", {}, name(x)),
            h("td", {}, String(x.floor)),
          ),
        ),
      ),
    );
    return [h("p", {}, t("help_titles_what")), progress, table];
  }

  render();
  load();
  return {
    destroy() {
      destroyed = true;
    },
    rerender() {
      render();
      show();
    },
  };
}

/** @param {number} n */
function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}
