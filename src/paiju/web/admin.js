// @ts-check
// The admin console (#/admin, #/admin/{section}): reports 举报 (first), users, rooms and the
// audit log, for moderators and admins (/api/me's role); anyone else sees a refusal. The
// hall checks the role on every call; the page only leaves out what the role cannot do.
// Beside it: admin/reports.js, admin/users.js, admin/rooms.js, admin/audit.js (one section
// each) and admin/common.js (the reason dialog, the pager).
// Exports: mountAdmin, isStaff, parseAdminHash.

import { t } from "./i18n.js";
import { accountBar, logo } from "./lobby.js";
import { h } from "./ui.js";
import { auditSection } from "./admin/audit.js";
import { reportsSection } from "./admin/reports.js";
import { roomsSection } from "./admin/rooms.js";
import { usersSection } from "./admin/users.js";

const SECTIONS = ["reports", "users", "rooms", "audit"];

/**
 * A moderator or an admin (the console is theirs).
 * @param {any} player
 * @returns {boolean}
 */
export function isStaff(player) {
  return !!player && (player.role === "admin" || player.role === "moderator");
}

/**
 * The console's section named by the address ("#/admin/users"), or null for another page.
 * @param {string} hash without its "#"
 * @returns {string | null}
 */
export function parseAdminHash(hash) {
  const m = hash.match(/^\/admin(?:\/(\w+))?\/?$/);
  if (!m) return null;
  return m[1] && SECTIONS.includes(m[1]) ? m[1] : "reports";
}

/**
 * @param {HTMLElement} root
 * @param {string} section
 * @param {any} ctx the app's context
 * @returns {{destroy: () => void, rerender: () => void}}
 */
export function mountAdmin(root, section, ctx) {
  const render = () => {
    const top = h(
      "header",
      { class: "topbar" },
      h("a", { class: "brand", href: "#/" }, logo(), t("app_title"), h("span", { class: "muted" }, " · " + t("admin_console"))),
      h("div", { class: "spacer" }),
      accountBar(ctx, () => ctx.navigate(location.hash)),
      ctx.langButton(),
    );
    if (!isStaff(ctx.player)) {
      root.replaceChildren(
        h(
          "div",
          { class: "page admin-page" },
          top,
          h("main", { class: "profile-main" }, h("section", { class: "panel", "data-testid": "admin-refused" }, h("h1", {}, t("admin_console")), h("p", {}, t("reason.not_admin")))),
        ),
      );
      return;
    }
    const tabs = SECTIONS.map((s) =>
      h("a", { class: "tab small" + (s === section ? " active" : ""), href: `#/admin/${s}`, "data-testid": `admin-tab-${s}`, "aria-current": s === section ? "page" : null }, t("admin_" + s)),
    );
    const box = h("section", { class: "panel", "data-testid": `admin-${section}` });
    root.replaceChildren(h("div", { class: "page admin-page", "data-testid": "admin" }, top, h("main", { class: "profile-main" }, h("nav", { class: "tabs admin-tabs" }, ...tabs), box)));
    const isAdmin = ctx.player.role === "admin";
    const part =
      section === "users" ? usersSection(box, isAdmin) : section === "rooms" ? roomsSection(box, isAdmin) : section === "audit" ? auditSection(box) : reportsSection(box);
    part.load();
  };
  render();
  return { destroy() {}, rerender: render };
}
