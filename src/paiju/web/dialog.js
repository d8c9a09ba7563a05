// @ts-check
// A small form in a dialog over the page (the confirmation's look, ui.js): a title, a few
// fields, cancel and OK. The 举报 dialog and every admin action that needs a reason use
// it. Resolves to the fields' values by name, or null when cancelled.
// Exports: formBox; the type Field.

import { h } from "./ui.js";

/**
 * One field of the form. type "select" takes `choices` ([value, label] pairs).
 * @typedef {object} Field
 * @property {string} name
 * @property {string} label
 * @property {"text" | "number" | "select"} [type]
 * @property {[string, string][]} [choices]
 * @property {string} [value]
 * @property {boolean} [required]
 * @property {number} [maxLength]
 * @property {string} [placeholder]
 */

/**
 * @param {string} title
 * @param {Field[]} fields
 * @param {{yes?: string, no?: string, testid?: string, note?: string}} options
 * @returns {Promise<Record<string, string> | null>}
 */
export function formBox(title, fields, { yes = "OK", no = "Cancel", testid = "form", note = "" } = {}) {
  return new Promise((resolve) => {
    /** @type {Record<string, HTMLInputElement | HTMLSelectElement>} */
    const inputs = {};
    const rows = fields.map((f) => {
      const id = `${testid}-${f.name}`;
      const input =
        f.type === "select"
          ? h("select", { "data-testid": id, id }, ...(f.choices || []).map(([v, text]) => h("option", { value: v, selected: v === f.value }, text)))
          : h("input", {
              type: f.type || "text",
              "data-testid": id,
              id,
              value: f.value || "",
              required: !!f.required,
              maxLength: f.maxLength || null,
              placeholder: f.placeholder || null,
              min: f.type === "number" ? "0" : null,
            });
      inputs[f.name] = input;
      return h("label", { class: "form-row", for: id }, h("span", {}, f.label), input);
    });
    const done = (/** @type {Record<string, string> | null} */ answer) => {
      overlay.remove();
      document.removeEventListener("keydown", onKey, true);
      resolve(answer);
    };
    const onKey = (/** @type {KeyboardEvent} */ e) => {
      if (e.key === "Escape") done(null);
    };
    const form = h(
      "form",
      { class: "confirm-card form-card" },
      h("p", { class: "confirm-text", "data-testid": testid + "-title" }, title),
      note ? h("p", { class: "muted small-text" }, note) : null,
      ...rows,
      h(
        "div",
        { class: "form-actions" },
        h("button", { type: "button", "data-testid": testid + "-no", onclick: () => done(null) }, no),
        h("button", { type: "submit", class: "primary", "data-testid": testid + "-yes" }, yes),
      ),
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      /** @type {Record<string, string>} */
      const values = {};
      for (const [k, el] of Object.entries(inputs)) values[k] = el.value.trim();
      done(values);
    });
    const overlay = h("div", { class: "confirm-overlay", "data-testid": testid, role: "dialog", "aria-modal": "true" }, form);
    // a click beside the dialog cancels; clicks inside it do not reach the table below
    overlay.addEventListener("click", (e) => {
      e.stopPropagation();
      if (e.target === overlay) done(null);
    });
    overlay.addEventListener("contextmenu", (e) => e.stopPropagation());
    document.addEventListener("keydown", onKey, true);
    document.body.appendChild(overlay);
    const first = Object.values(inputs)[0];
    if (first) first.focus();
  });
}
