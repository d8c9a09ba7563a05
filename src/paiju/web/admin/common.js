// @ts-check
// What the admin console's sections share: asking for the reason every action needs, the
// pager of a paged list, times and people as links, and a refused call's sentence.
// Exports: askReason, pager, when, personLink, failed.

import { t } from "../i18n.js";
import { formBox } from "../dialog.js";
import { errorText } from "../lobby.js";
import { h, toast } from "../ui.js";

/**
 * A dialog for one admin action: its own fields, then the reason (1-200 characters, required).
 * @param {string} title
 * @param {import("../dialog.js").Field[]} [fields]
 * @returns {Promise<Record<string, string> | null>}
 */
export function askReason(title, fields = []) {
  return formBox(title, [...fields, { name: "reason", label: t("admin_reason"), required: true, maxLength: 200 }], {
    yes: t("admin_do"),
    no: t("cancel"),
    testid: "admin-ask",
  });
}

/**
 * Previous / "1–20 of 57" / next.
 * @param {{offset: number, limit: number, total: number}} page
 * @param {number} shown rows on this page
 * @param {string} testid
 * @param {(offset: number) => void} go
 * @returns {HTMLElement}
 */
export function pager(page, shown, testid, go) {
  const prev = h("button", { class: "small", disabled: page.offset === 0, "data-testid": `${testid}-prev`, onclick: () => go(Math.max(0, page.offset - page.limit)) }, t("page_prev"));
  const next = h(
    "button",
    { class: "small", disabled: page.offset + page.limit >= page.total, "data-testid": `${testid}-next`, onclick: () => go(page.offset + page.limit) },
    t("page_next"),
  );
  const where = t("page_of", { from: page.total ? page.offset + 1 : 0, to: page.offset + shown, total: page.total });
  return h("div", { class: "pager" }, prev, h("span", { class: "muted" }, where), next);
}

/**
 * An ISO time (or none) as the page's locale shows it.
 * @param {string | null | undefined} iso
 * @returns {string}
 */
export function when(iso) {
  if (!iso) return "–";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : d.toLocaleString();
}

/**
 * A person {id, name} as a link to the profile ("–" for nobody).
 * @param {{id: number, name: string} | null | undefined} who
 * @returns {HTMLElement | string}
 */
export function personLink(who) {
  if (!who) return "–";
  return h("a", { href: `#/player/${who.id}`, class: "link" }, who.name);
}

/**
 * A refused call: its reason in the page's language, as a toast.
 * @param {unknown} err
 */
export function failed(err) {
  toast(errorText(err), "error");
}
