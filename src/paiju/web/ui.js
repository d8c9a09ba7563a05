// @ts-check
// Small DOM helpers shared by the pages: h() builds elements, toast() shows a message,
// confirmBox() asks a translated yes/no question inside the page.

// h("button", {class: "x", "data-testid": "play", onclick: fn}, "text", child, …)
/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs]
 * @param {...any} children nodes, text, arrays of them; null, undefined and false are skipped
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k in el && !k.startsWith("data-") && !k.startsWith("aria-") && k !== "list") {
      try {
        /** @type {any} */ (el)[k] = v;
      } catch {
        el.setAttribute(k, v === true ? "" : v);
      }
    } else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

let box = null;

// Show a short message at the top of the screen (kind: "error" | "info").
/**
 * @param {string} message
 * @param {string} [kind]
 * @param {number} [ms]
 */
export function toast(message, kind = "info", ms = 4000) {
  if (!box || !document.body.contains(box)) {
    box = h("div", { class: "toasts", "aria-live": "polite" });
    document.body.appendChild(box);
  }
  const el = h("div", { class: `toast ${kind}`, "data-testid": "toast", role: kind === "error" ? "alert" : "status" }, message);
  el.addEventListener("click", () => el.remove());
  box.appendChild(el);
  while (box.children.length > 4) box.firstChild.remove();
  setTimeout(() => {
    el.classList.add("fade");
    setTimeout(() => el.remove(), 400);
  }, ms);
  return el;
}

// Remove the toasts of one kind at once (an error answered by a later success).
/** @param {string} kind */
export function clearToasts(kind) {
  if (box) box.querySelectorAll(`.toast.${kind}`).forEach((el) => el.remove());
}

// An in-page confirmation (window.confirm cannot be translated or styled): a small dialog
// over the page with the question and two buttons. Resolves true for "yes".
/**
 * @param {string} message
 * @param {{yes?: string, no?: string, testid?: string}} options
 * @returns {Promise<boolean>}
 */
export function confirmBox(message, { yes = "OK", no = "Cancel", testid = "confirm" } = {}) {
  return new Promise((resolve) => {
    const done = (answer) => {
      overlay.remove();
      document.removeEventListener("keydown", onKey, true);
      resolve(answer);
    };
    const onKey = (e) => {
      if (e.key === "Escape") done(false);
    };
    const yesBtn = h("button", { class: "primary", "data-testid": testid + "-yes", onclick: () => done(true) }, yes);
    const noBtn = h("button", { "data-testid": testid + "-no", onclick: () => done(false) }, no);
    const overlay = h(
      "div",
      { class: "confirm-overlay", "data-testid": testid, role: "dialog", "aria-modal": "true" },
      h(
        "div",
        { class: "confirm-card" },
        h("p", { class: "confirm-text", "data-testid": testid + "-text" }, message),
        h("div", { class: "form-actions" }, noBtn, yesBtn),
      ),
    );
    // a click beside the dialog is "no"; clicks inside it do not reach the table below
    overlay.addEventListener("click", (e) => {
      e.stopPropagation();
      if (e.target === overlay) done(false);
    });
    overlay.addEventListener("contextmenu", (e) => e.stopPropagation());
    document.addEventListener("keydown", onKey, true);
    document.body.appendChild(overlay);
    yesBtn.focus();
  });
}
