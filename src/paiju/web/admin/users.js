// @ts-check
// The console's users: a search, the list (role, beans, disabled, banned, muted), and one
// user's detail (sessions, the last ledger rows, reports against) with the actions: role,
// ban / unban and grant beans (admins), mute / unmute (moderators too) — each with a reason.
// Exports: usersSection.

import * as api from "../api.js";
import { t } from "../i18n.js";
import { h, toast } from "../ui.js";
import { askReason, failed, pager, when } from "./common.js";

const ROLES = ["player", "moderator", "admin"];

/**
 * A number typed in a dialog: an integer as such, anything else as typed (the hall
 * refuses it with its reason), "" as `empty`.
 * @param {string} text
 * @param {number | null} empty
 */
function number(text, empty) {
  if (text === "") return empty;
  return /^-?\d+$/.test(text) ? Number(text) : text;
}

/**
 * The user's state in words: disabled (banned, until when), muted until when.
 * @param {any} u
 * @returns {string}
 */
export function userState(u) {
  const bits = [];
  const now = Date.now();
  if (u.banned_until && Date.parse(u.banned_until) > now) bits.push(t("user_banned_until", { when: when(u.banned_until) }));
  else if (u.disabled) bits.push(t("user_disabled"));
  if (u.muted_until && Date.parse(u.muted_until) > now) bits.push(t("user_muted_until", { when: when(u.muted_until) }));
  return bits.join(" · ") || "–";
}

/**
 * @param {HTMLElement} box
 * @param {boolean} isAdmin the viewer may change roles, ban and grant
 * @returns {{load: () => Promise<void>}}
 */
export function usersSection(box, isAdmin) {
  let offset = 0;
  let chosen = /** @type {number | null} */ (null);
  const q = h("input", { type: "search", placeholder: t("users_search"), "data-testid": "users-q" });
  const search = h("form", { class: "inline-form" }, q, h("button", { type: "submit", class: "small", "data-testid": "users-search" }, t("users_search_go")));
  search.addEventListener("submit", (e) => {
    e.preventDefault();
    offset = 0;
    load();
  });
  const list = h("div", { class: "admin-list", "data-testid": "users" });
  const detail = h("div", { class: "admin-detail", "data-testid": "user-detail" });
  box.replaceChildren(h("div", { class: "panel-head" }, h("h2", {}, t("admin_users")), search), list, detail);

  async function load() {
    try {
      const d = await api.admin.users(q.value.trim(), offset);
      const users = d.users || [];
      const head = ["col_player", "user_username", "col_role", "col_beans", "user_state"].map((k) => h("th", {}, t(k)));
      list.replaceChildren(
        h(
          "table",
          { class: "stats" },
          h("thead", {}, h("tr", {}, ...head)),
          h(
            "tbody",
            {},
            ...users.map((/** @type {any} */ u) =>
              h(
                "tr",
                { "data-testid": `user-${u.id}`, class: u.id === chosen ? "chosen" : "" },
                h("td", {}, h("button", { class: "linklike", "data-testid": `user-open-${u.id}`, onclick: () => open(u.id) }, u.name)),
                h("td", {}, u.username || "–"),
                h("td", {}, t("user_role_" + u.role)),
                h("td", {}, u.beans === null || u.beans === undefined ? "–" : String(u.beans)),
                h("td", {}, userState(u)),
              ),
            ),
          ),
        ),
        pager({ offset, limit: 20, total: d.total || 0 }, users.length, "users", (o) => {
          offset = o;
          load();
        }),
      );
      if (chosen !== null) await open(chosen);
    } catch (err) {
      failed(err);
      list.replaceChildren(h("div", { class: "muted", "data-testid": "admin-error" }, t("admin_load_failed")));
    }
  }

  /** @param {number} id */
  async function open(id) {
    chosen = id;
    try {
      showDetail(await api.admin.user(id));
    } catch (err) {
      failed(err);
    }
  }

  /** @param {any} d */
  function showDetail(d) {
    const u = d.user;
    const act = (/** @type {string} */ what, /** @type {string} */ text, /** @type {() => Promise<any>} */ go) =>
      h(
        "button",
        {
          class: "small",
          "data-testid": `user-${what}`,
          onclick: async () => {
            try {
              if ((await go()) === null) return; // cancelled
              toast(t("admin_done"));
              load();
            } catch (err) {
              failed(err);
            }
          },
        },
        text,
      );
    const ask = async (/** @type {string} */ what, /** @type {import("../dialog.js").Field[]} */ fields, /** @type {(a: Record<string, string>) => Record<string, unknown>} */ body) => {
      const a = await askReason(t("user_do_" + what, { name: u.name }), fields);
      if (!a) return null;
      return api.admin.userAction(u.id, what, { ...body(a), reason: a.reason });
    };
    const buttons = [
      isAdmin
        ? act("role", t("user_action_role"), () =>
            ask("role", [{ name: "role", label: t("col_role"), type: "select", value: u.role, choices: ROLES.map((r) => [r, t("user_role_" + r)]) }], (a) => ({ role: a.role })),
          )
        : null,
      isAdmin
        ? act("ban", t("user_action_ban"), () =>
            ask("ban", [{ name: "minutes", label: t("user_minutes_or_forever"), type: "number" }], (a) => ({ minutes: number(a.minutes, null) })),
          )
        : null,
      isAdmin ? act("unban", t("user_action_unban"), () => ask("unban", [], () => ({}))) : null,
      act("mute", t("user_action_mute"), () => ask("mute", [{ name: "minutes", label: t("user_minutes"), type: "number", required: true, value: "30" }], (a) => ({ minutes: number(a.minutes, 0) }))),
      act("unmute", t("user_action_unmute"), async () => {
        const a = await askReason(t("user_do_unmute", { name: u.name }));
        return a && api.admin.userAction(u.id, "mute", { minutes: 0, reason: a.reason });
      }),
      isAdmin
        ? act("grant", t("user_action_grant"), () => ask("grant", [{ name: "beans", label: t("col_beans"), type: "number", required: true }], (a) => ({ beans: number(a.beans, 0) })))
        : null,
    ];
    const sessions = (d.sessions || []).map((/** @type {any} */ s) =>
      h("tr", {}, h("td", {}, when(s.created_at)), h("td", {}, s.revoked_at ? when(s.revoked_at) : t("session_live")), h("td", {}, s.address || "–")),
    );
    const ledger = (d.ledger || []).map((/** @type {any} */ r) =>
      h("tr", {}, h("td", {}, when(r.created_at)), h("td", { class: "num" }, String(r.amount)), h("td", {}, r.kind), h("td", {}, r.hand_id === null || r.hand_id === undefined ? "–" : String(r.hand_id))),
    );
    detail.replaceChildren(
      h(
        "section",
        { class: "admin-card", "data-testid": `user-detail-${u.id}` },
        h("h3", {}, h("a", { href: `#/player/${u.id}`, class: "link" }, u.name), h("span", { class: "muted" }, ` · ${t("user_role_" + u.role)} · ${userState(u)}`)),
        h(
          "div",
          { class: "muted" },
          [
            u.username ? `${t("user_username")}: ${u.username}` : null,
            u.beans !== null && u.beans !== undefined ? t("beans_n", { n: u.beans }) : null,
            `${t("user_registered")}: ${when(u.created_at)}${u.registered_from ? " · " + u.registered_from : ""}`,
            t("user_reports_against", { n: d.reports_against || 0 }),
          ]
            .filter(Boolean)
            .join(" · "),
        ),
        h("div", { class: "admin-actions" }, ...buttons.filter(Boolean)),
        h("h4", {}, t("user_sessions")),
        sessions.length ? h("table", { class: "stats" }, h("tbody", {}, ...sessions)) : h("div", { class: "muted" }, t("no_data")),
        h("h4", {}, t("user_ledger")),
        ledger.length ? h("table", { class: "stats" }, h("tbody", {}, ...ledger)) : h("div", { class: "muted" }, t("no_data")),
      ),
    );
  }

  return { load };
}
