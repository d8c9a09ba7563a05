// @ts-check
// The lobby's side of playing together: the box that opens a room by its code 房间号, and
// the friends list — whom the player follows 关注, online or not, and the listed table
// each sits at (a private table is never told), with a link to watch or join it.
// Exports: codeBox, friendsPanel.

import { t, label } from "../i18n.js";
import { followingList, joinByCode, presence } from "../social.js";
import { h } from "../ui.js";

/**
 * 房间号: a room's short code typed in, and the room opened.
 * @param {any} ctx the app's context
 */
export function codeBox(ctx) {
  const input = /** @type {HTMLInputElement} */ (h("input", { type: "text", maxLength: 8, placeholder: t("room_code"), "data-testid": "room-code", class: "small code-input" }));
  const form = h("form", { class: "code-box" }, input, h("button", { class: "small", type: "submit", "data-testid": "room-code-go" }, t("enter_room")));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (input.value.trim()) joinByCode(input.value, ctx);
  });
  return form;
}

/**
 * 好友: the players followed, online first, each with the listed table he sits at.
 */
export function friendsPanel() {
  const row = (/** @type {any} */ f) =>
    h(
      "div",
      { class: "friend-row", "data-testid": `friend-${f.id}` },
      presence(f),
      h("a", { href: `#/player/${f.id}` }, f.name),
      f.room
        ? h("a", { class: "muted", href: `#/room/${encodeURIComponent(f.room.id)}`, "data-testid": `friend-room-${f.id}` }, `${label(f.room.game)} · ${f.room.name}`)
        : h("span", { class: "muted" }, t(f.online ? "online" : "offline")),
    );
  return h("section", { class: "panel friends-panel" }, h("h2", {}, t("friends")), followingList(row, "friends"));
}
