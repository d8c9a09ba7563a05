// @ts-check
// The console's audit log: every admin action, newest first, paged (who, what, whom, why).
// Exports: auditSection.

import * as api from "../api.js";
import { t } from "../i18n.js";
import { h } from "../ui.js";
import { failed, pager, personLink, when } from "./common.js";

const LIMIT = 50;

/**
 * @param {HTMLElement} box
 * @returns {{load: () => Promise<void>}}
 */
export function auditSection(box) {
  let offset = 0;
  const list = h("div", { class: "admin-list", "data-testid": "audit" });
  box.replaceChildren(h("div", { class: "panel-head" }, h("h2", {}, t("admin_audit"))), list);

  async function load() {
    try {
      const d = await api.admin.audit(offset, LIMIT);
      const entries = d.entries || [];
      const head = ["audit_when", "audit_actor", "audit_action", "audit_target", "audit_room", "audit_detail", "admin_reason"].map((k) => h("th", {}, t(k)));
      list.replaceChildren(
        h(
          "table",
          { class: "stats audit" },
          h("thead", {}, h("tr", {}, ...head)),
          h(
            "tbody",
            {},
            ...entries.map((/** @type {any} */ e) =>
              h(
                "tr",
                { "data-testid": `audit-${e.id}`, "data-action": e.action },
                h("td", {}, when(e.created_at)),
                h("td", {}, e.actor ? personLink(e.actor) : t("audit_system")),
                h("td", {}, actionName(e.action)),
                h("td", {}, personLink(e.target)),
                h("td", {}, e.room || "–"),
                h("td", { class: "detail" }, e.detail && Object.keys(e.detail).length ? JSON.stringify(e.detail) : "–"),
                h("td", {}, e.reason || "–"),
              ),
            ),
          ),
        ),
        pager({ offset, limit: LIMIT, total: d.total || 0 }, entries.length, "audit", (o) => {
          offset = o;
          load();
        }),
      );
    } catch (err) {
      failed(err);
      list.replaceChildren(h("div", { class: "muted", "data-testid": "admin-error" }, t("admin_load_failed")));
    }
  }
  return { load };
}

/**
 * An audit action in words (its code when the page has no name for it: new ones appear).
 * @param {string} action
 */
function actionName(action) {
  const key = "audit_action." + action;
  const text = t(key);
  return text === key ? action : text;
}
