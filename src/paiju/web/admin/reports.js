// @ts-check
// The console's reports 举报 (open ones first): who reported whom and why, the chat lines
// stored with the report, the room and hand with its replay one click away (every hand
// face up), and closing it with an outcome.
// Exports: reportsSection.

import * as api from "../api.js";
import { t } from "../i18n.js";
import { saidText } from "../phrases.js";
import { replayHash } from "../table/text.js";
import { h, toast } from "../ui.js";
import { failed, pager, personLink, when } from "./common.js";

/**
 * @param {HTMLElement} box where the section draws itself
 * @returns {{load: () => Promise<void>}}
 */
export function reportsSection(box) {
  let offset = 0;
  const status = h(
    "select",
    {
      "data-testid": "reports-status",
      onchange: () => {
        offset = 0;
        load();
      },
    },
    ...["open", "closed", "all"].map((s) => h("option", { value: s }, t("reports_" + s))),
  );
  const list = h("div", { class: "admin-list", "data-testid": "reports" }, h("div", { class: "muted" }, "…"));
  box.replaceChildren(h("div", { class: "panel-head" }, h("h2", {}, t("admin_reports")), status), list);

  async function load() {
    try {
      const d = await api.admin.reports(status.value, offset);
      const reports = d.reports || [];
      list.replaceChildren(
        ...(reports.length ? reports.map((r) => reportCard(r, load)) : [h("div", { class: "muted empty" }, t("reports_none"))]),
        pager({ offset, limit: 20, total: d.total || 0 }, reports.length, "reports", (o) => {
          offset = o;
          load();
        }),
      );
    } catch (err) {
      list.replaceChildren(h("div", { class: "muted", "data-testid": "admin-error" }, errorLine(err)));
    }
  }
  return { load };
}

/** @param {any} err */
function errorLine(err) {
  failed(err);
  return t("admin_load_failed");
}

/**
 * One report.
 * @param {any} r
 * @param {() => void} reload
 */
function reportCard(r, reload) {
  const where = [r.room_name || r.room, Number.isInteger(r.hand) ? t("hand_n", { n: r.hand }) : null].filter(Boolean).join(" · ");
  const replay =
    r.room && Number.isInteger(r.hand)
      ? h("a", { href: replayHash(r.room, r.hand), class: "link", "data-testid": "report-replay" }, t("replay_short"))
      : null;
  const chat = (r.chat || []).map((/** @type {any} */ c) =>
    h("li", {}, h("span", { class: "muted" }, new Date(c.at).toLocaleTimeString() + " "), `${c.name || t("seat_n", { n: Number(c.seat) + 1 })}: ${saidText(c)}`),
  );
  return h(
    "article",
    { class: "admin-card report-card", "data-testid": `report-${r.id}`, "data-status": r.status },
    h(
      "div",
      { class: "admin-card-head" },
      h("b", {}, `#${r.id} · ${t("report_reason_" + r.reason)}`),
      h("span", { class: "muted" }, " · " + when(r.created_at)),
    ),
    h("div", {}, t("report_by"), " ", personLink(r.reporter), " → ", t("report_against"), " ", h("span", { "data-testid": "report-reported" }, personLink(r.reported))),
    r.text ? h("blockquote", { "data-testid": "report-text" }, r.text) : null,
    where || replay ? h("div", {}, where, " ", replay) : null,
    chat.length ? h("details", { open: true }, h("summary", {}, t("report_chat", { n: chat.length })), h("ul", { class: "report-chat", "data-testid": "report-chat" }, ...chat)) : null,
    r.status === "open" ? closeForm(r, reload) : h("div", { class: "muted", "data-testid": "report-outcome" }, t("report_closed_by", { when: when(r.handled_at) }), " ", personLink(r.handled_by), ": ", r.outcome || "–"),
  );
}

/**
 * Close a report with its outcome (what was done, for the other moderators).
 * @param {any} r
 * @param {() => void} reload
 */
function closeForm(r, reload) {
  const outcome = h("input", { type: "text", maxLength: 200, required: true, placeholder: t("report_outcome"), "data-testid": "report-outcome-input" });
  const form = h("form", { class: "inline-form" }, outcome, h("button", { type: "submit", class: "small primary", "data-testid": "report-close" }, t("report_close")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await api.admin.closeReport(r.id, outcome.value.trim());
      toast(t("report_closed"));
      reload();
    } catch (err) {
      failed(err);
    }
  });
  return form;
}
