// @ts-check
// Playing together on the page: follow 关注 and block 拉黑 (the seat's ⋯ and the profile),
// the friends list, a room's invitation link 邀请 (copied), the invitation link opened
// (#/room/{id}?invite=…: the hall admits and seats the friend), a password room's prompt,
// the join-by-code box, and muting one player's chat at one table (this page only).
// Exports: follow, block, friends, followingList, presence, relationButtons, copyInvite, acceptInvite, askPassword,
// joinByCode, isMuted, toggleMute.

import * as api from "./api.js";
import { t } from "./i18n.js";
import { formBox } from "./dialog.js";
import { h, toast } from "./ui.js";
import { reasonText } from "./table/text.js";

/** @param {any} err */
function refused(err) {
  toast(err && err.code ? reasonText(err.code, err.params || {}, err.message) : String(err && err.message), "error");
}

/**
 * 关注 (on) or no longer; true when the hall took it.
 * @param {number} player
 * @param {boolean} on
 */
export async function follow(player, on) {
  try {
    await api.postJSON("/api/follow", { player, on });
    toast(t(on ? "followed" : "unfollowed"), "info");
    return true;
  } catch (err) {
    refused(err);
    return false;
  }
}

/**
 * 拉黑 (on) or unblock; true when the hall took it.
 * @param {number} player
 * @param {boolean} on
 */
export async function block(player, on) {
  try {
    await api.postJSON("/api/block", { player, on });
    toast(t(on ? "blocked" : "unblocked"), "info");
    return true;
  } catch (err) {
    refused(err);
    return false;
  }
}

/** @returns {Promise<{following: any[], blocked: any[], guest: boolean} | null>} */
export async function friends() {
  try {
    return await api.getJSON("/api/friends");
  } catch {
    return null;
  }
}

/**
 * The players followed, online first, each drawn by `row`, filled when the list arrives; a
 * guest is asked to register (follows are stored per account).
 * @param {(f: any) => HTMLElement} row
 * @param {string} testid
 * @returns {HTMLElement}
 */
export function followingList(row, testid) {
  const list = h("div", { class: "friends-list", "data-testid": testid }, h("div", { class: "muted" }, "…"));
  friends().then((got) => {
    if (!got || got.guest) {
      list.replaceChildren(h("div", { class: "muted" }, t("reason.register_to_follow")));
      return;
    }
    if (!got.following.length) {
      list.replaceChildren(h("div", { class: "muted" }, t("no_friends")));
      return;
    }
    list.replaceChildren(...[...got.following].sort((a, b) => Number(b.online) - Number(a.online)).map(row));
  });
  return list;
}

/**
 * A friend's presence dot.
 * @param {any} f
 */
export function presence(f) {
  return h("span", { class: "presence " + (f.online ? "on" : "off"), title: t(f.online ? "online" : "offline") }, f.online ? "●" : "○");
}

/**
 * A profile's 关注 and 拉黑 buttons, each showing what it would do now (the state read
 * from /api/friends; a guest's click is told to register).
 * @param {number} player
 * @returns {HTMLElement}
 */
export function relationButtons(player) {
  const state = { following: false, blocked: false };
  const followBtn = h("button", { class: "small", "data-testid": "profile-follow" }, t("follow"));
  const blockBtn = h("button", { class: "small", "data-testid": "profile-block" }, t("block"));
  const show = () => {
    followBtn.textContent = t(state.following ? "unfollow" : "follow");
    blockBtn.textContent = t(state.blocked ? "unblock" : "block");
    followBtn.dataset.on = String(state.following);
    blockBtn.dataset.on = String(state.blocked);
  };
  followBtn.addEventListener("click", async () => {
    if (await follow(player, !state.following)) state.following = !state.following;
    show();
  });
  blockBtn.addEventListener("click", async () => {
    if (await block(player, !state.blocked)) {
      state.blocked = !state.blocked;
      if (state.blocked) state.following = false; // blocking stops following
    }
    show();
  });
  friends().then((got) => {
    if (!got) return;
    state.following = got.following.some((f) => f.id === player);
    state.blocked = got.blocked.some((f) => f.id === player);
    show();
  });
  return h("span", { class: "relation-buttons" }, followBtn, blockBtn);
}

/**
 * 邀请: the room's invitation link, copied (or shown to copy by hand when the browser refuses).
 * @param {string} roomId
 * @returns {Promise<string | null>} the link
 */
export async function copyInvite(roomId) {
  let got;
  try {
    got = await api.getJSON(`/api/rooms/${encodeURIComponent(roomId)}/invite`);
  } catch (err) {
    refused(err);
    return null;
  }
  const link = `${location.origin}${location.pathname}#/room/${encodeURIComponent(roomId)}?invite=${encodeURIComponent(got.invite)}`;
  try {
    await navigator.clipboard.writeText(link);
    toast(t("invite_copied", { code: got.code || "–" }), "info", 6000);
  } catch {
    await formBox(t("invite_copy_hint"), [{ name: "link", label: t("invite_link"), value: link }], { yes: t("yes"), no: t("cancel"), testid: "invite" });
  }
  return link;
}

/**
 * The invitation link opened: the hall admits and seats the friend, then the table opens
 * (the token leaves the address, so a reload does not ask again).
 * @param {string} roomId
 * @param {string} token
 */
export async function acceptInvite(roomId, token) {
  try {
    const got = await api.postJSON(`/api/rooms/${encodeURIComponent(roomId)}/join`, { invite: token, sit: true });
    if (got.seat === null || got.seat === undefined) toast(t("invite_no_seat"), "info", 6000);
  } catch (err) {
    refused(err);
  }
  location.replace(`#/room/${encodeURIComponent(roomId)}`);
}

/**
 * A password room refused the table's socket: ask for the password, then open it again.
 * @param {string} roomId
 * @param {{navigate: (hash: string) => void}} ctx
 */
export async function askPassword(roomId, ctx) {
  for (;;) {
    const answer = await formBox(t("room_password_title"), [{ name: "password", label: t("room_password"), maxLength: 32, required: true }], {
      yes: t("enter_room"),
      no: t("cancel"),
      testid: "room-password",
    });
    if (!answer) {
      ctx.navigate("#/");
      return;
    }
    try {
      await api.postJSON(`/api/rooms/${encodeURIComponent(roomId)}/join`, { password: answer.password });
      ctx.navigate(`#/room/${encodeURIComponent(roomId)}`);
      return;
    } catch (err) {
      refused(err);
    }
  }
}

/**
 * 房间号: find a room by its short code and open it.
 * @param {string} code
 * @param {{navigate: (hash: string) => void}} ctx
 */
export async function joinByCode(code, ctx) {
  try {
    const got = await api.getJSON(`/api/codes/${encodeURIComponent(code.trim())}`);
    ctx.navigate(`#/room/${encodeURIComponent(got.room)}`);
  } catch (err) {
    refused(err);
  }
}

// muted players per room: this page only, forgotten on reload (the hall stores no chat)
/** @type {Map<string, Set<number>>} */
const muted = new Map();

/**
 * @param {string} roomId
 * @param {number | null | undefined} player
 */
export function isMuted(roomId, player) {
  return player !== null && player !== undefined && !!muted.get(roomId)?.has(player);
}

/**
 * @param {string} roomId
 * @param {number} player
 */
export function toggleMute(roomId, player) {
  const set = muted.get(roomId) || new Set();
  if (set.has(player)) set.delete(player);
  else set.add(player);
  muted.set(roomId, set);
  toast(t(set.has(player) ? "muted_here" : "unmuted_here"), "info");
}
