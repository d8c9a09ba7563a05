// @ts-check
// Inviting friends 邀请好友 and the invitations a player receives.
// - inviteDialog: the table's 邀请 — copy the room's link, invite a followed player (his
//   open page shows it), and for the room's creator who may come: private or listed, the
//   password set or removed, the seats reserved for named players, a new link (the old one
//   stops working).
// - watchInvitations: on every page of an account, the invitations sent to it, asked every
//   few seconds (GET /api/invitations), each shown with "join" and "dismiss".
// Exports: inviteDialog, watchInvitations.

import * as api from "./api.js";
import { t, label } from "./i18n.js";
import { copyInvite, followingList, presence } from "./social.js";
import { reasonText } from "./table/text.js";
import { h, toast } from "./ui.js";

const ASK_EVERY = 8000; // ms between two looks for invitations (a stored invitation lasts 10 minutes)

/** @param {any} err */
function refused(err) {
  toast(err && err.code ? reasonText(err.code, err.params || {}, err.message) : String(err && err.message), "error");
}

/**
 * 邀请: the dialog of a room's invitations (and, for its creator, of who may come).
 * @param {string} roomId
 * @param {{creator: boolean, room: any}} where the room as the table last showed it
 */
export function inviteDialog(roomId, { creator, room }) {
  const path = `/api/rooms/${encodeURIComponent(roomId)}`;
  const close = () => {
    overlay.remove();
    document.removeEventListener("keydown", onKey, true);
  };
  const onKey = (/** @type {KeyboardEvent} */ e) => {
    if (e.key === "Escape") close();
  };
  const invite = (/** @type {any} */ f) => {
    const send = /** @type {HTMLButtonElement} */ (h("button", { class: "small", "data-testid": `invite-friend-${f.id}` }, t("invite_send")));
    send.addEventListener("click", async () => {
      send.disabled = true;
      try {
        await api.postJSON(`${path}/invite`, { player: f.id });
        send.textContent = t("invite_sent");
      } catch (err) {
        refused(err);
        send.disabled = false;
      }
    });
    return h("div", { class: "friend-row" }, presence(f), h("span", {}, f.name), send);
  };
  const list = followingList(invite, "invite-friends");
  const card = h(
    "div",
    { class: "confirm-card form-card invite-card" },
    h("p", { class: "confirm-text" }, t("invite_title")),
    h("button", { class: "small", "data-testid": "invite-copy", onclick: () => copyInvite(roomId) }, t("invite_copy")),
    h("h3", {}, t("invite_friends")),
    list,
    creator ? accessForm(path, room) : null,
    h("div", { class: "form-actions" }, h("button", { type: "button", "data-testid": "invite-close", onclick: close }, t("close"))),
  );
  const overlay = h("div", { class: "confirm-overlay", "data-testid": "invite-dialog", role: "dialog", "aria-modal": "true" }, card);
  overlay.addEventListener("click", (e) => {
    e.stopPropagation();
    if (e.target === overlay) close();
  });
  document.addEventListener("keydown", onKey, true);
  document.body.appendChild(overlay);
}

/**
 * The creator's part: private, password, reserved seats, a new link.
 * @param {string} path the room's API path
 * @param {any} room
 */
function accessForm(path, room) {
  const privateBox = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", "data-testid": "access-private", checked: !!room.private }));
  const password = /** @type {HTMLInputElement} */ (
    h("input", { type: "text", maxLength: 32, "data-testid": "access-password", placeholder: t(room.password ? "access_password_keep" : "access_password_none") })
  );
  const noPassword = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", "data-testid": "access-no-password" }));
  const reserved = (room.reserved || []).map((/** @type {number | null} */ pid, /** @type {number} */ seat) => {
    const name = pid !== null ? (room.seats || []).find((/** @type {any} */ s) => s.player_id === pid)?.player : null;
    return /** @type {HTMLInputElement} */ (
      h("input", { type: "text", maxLength: 20, "data-testid": `access-reserved-${seat}`, value: pid === null ? "" : name || `#${pid}`, placeholder: t("username") })
    );
  });
  const newLink = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", "data-testid": "access-new-invite" }));
  const form = h(
    "form",
    { class: "access-form", "data-testid": "access-form" },
    h("h3", {}, t("access_title")),
    h("label", { class: "form-row check" }, privateBox, h("span", {}, label("help.private"))),
    h("label", { class: "form-row" }, h("span", {}, t("room_password")), password),
    room.password ? h("label", { class: "form-row check" }, noPassword, h("span", {}, t("access_password_off"))) : null,
    h("div", { class: "form-row" }, h("span", {}, t("access_reserved")), h("div", { class: "reserved-seats" }, ...reserved.map((input, i) => h("label", {}, t("seat_n", { n: i + 1 }) + " ", input)))),
    h("label", { class: "form-row check" }, newLink, h("span", {}, t("access_new_invite"))),
    h("div", { class: "form-actions" }, h("button", { type: "submit", class: "primary", "data-testid": "access-save" }, t("save"))),
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    /** @type {Record<string, any>} */
    const body = { private: privateBox.checked, new_invite: newLink.checked };
    if (noPassword.checked) body.password = "";
    else if (password.value) body.password = password.value;
    body.reserved = Object.fromEntries(
      reserved.map((input, seat) => [String(seat), /^#\d+$/.test(input.value.trim()) ? Number(input.value.trim().slice(1)) : input.value.trim()]).filter(([, who]) => who !== ""),
    );
    try {
      await api.postJSON(`${path}/access`, body);
      toast(t("access_saved"), "info");
      password.value = "";
      newLink.checked = false;
    } catch (err) {
      refused(err);
    }
  });
  return form;
}

/**
 * The invitations sent to this account, shown as they come until joined or dismissed.
 * @param {{navigate: (hash: string) => void}} ctx
 * @returns {{stop: () => void}}
 */
export function watchInvitations(ctx) {
  /** @type {Map<number, HTMLElement>} */
  const shown = new Map();
  const box = h("div", { class: "invitations", "data-testid": "invitations", "aria-live": "polite" });
  document.body.appendChild(box);
  const answer = async (/** @type {any} */ inv, /** @type {boolean} */ join) => {
    shown.get(inv.id)?.remove();
    try {
      await api.postJSON(`/api/invitations/${inv.id}/dismiss`, {});
    } catch {
      // gone already: nothing to keep
    }
    if (join) ctx.navigate(`#/room/${encodeURIComponent(inv.room)}?invite=${encodeURIComponent(inv.invite)}`);
  };
  const look = async () => {
    if (document.hidden) return;
    let got;
    try {
      got = await api.getJSON("/api/invitations");
    } catch {
      return; // a guest, or the hall away: look again later
    }
    for (const inv of got.invitations || []) {
      if (shown.has(inv.id)) continue;
      const card = h(
        "div",
        { class: "invitation", "data-testid": `invitation-${inv.id}` },
        h("span", {}, t("invited_by", { name: inv.from.name, game: label(inv.game), room: inv.name })),
        h("button", { class: "small primary", "data-testid": "invitation-join", onclick: () => answer(inv, true) }, t("join")),
        h("button", { class: "small", "data-testid": "invitation-dismiss", onclick: () => answer(inv, false) }, t("dismiss")),
      );
      shown.set(inv.id, card);
      box.appendChild(card);
    }
  };
  look();
  const timer = setInterval(look, ASK_EVERY);
  return {
    stop() {
      clearInterval(timer);
      box.remove();
    },
  };
}
