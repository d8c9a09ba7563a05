// @ts-check
// The console's rooms: the open tables, who sits in each seat, kick a seat (mid-hand the
// seed's leave penalty, 托管 takes over; before a hand it just unseats) and close a room
// (admins) — each with a reason.
// Exports: roomsSection.

import * as api from "../api.js";
import { t, label } from "../i18n.js";
import { h, toast } from "../ui.js";
import { askReason, failed } from "./common.js";

/**
 * @param {HTMLElement} box
 * @param {boolean} isAdmin the viewer may close rooms
 * @returns {{load: () => Promise<void>}}
 */
export function roomsSection(box, isAdmin) {
  const list = h("div", { class: "admin-list", "data-testid": "admin-rooms" });
  const refresh = h("button", { class: "small", "data-testid": "rooms-refresh", onclick: () => load() }, t("refresh"));
  box.replaceChildren(h("div", { class: "panel-head" }, h("h2", {}, t("admin_rooms")), refresh), list);

  async function load() {
    try {
      const d = await api.admin.rooms();
      const rooms = d.rooms || [];
      list.replaceChildren(...(rooms.length ? rooms.map((r) => roomCard(r, isAdmin, load)) : [h("div", { class: "muted empty" }, t("no_rooms_open"))]));
    } catch (err) {
      failed(err);
      list.replaceChildren(h("div", { class: "muted", "data-testid": "admin-error" }, t("admin_load_failed")));
    }
  }
  return { load };
}

/**
 * One room: its seats with a kick button each, and its close button.
 * @param {any} r a lobby entry with each seat's player_id and name
 * @param {boolean} isAdmin
 * @param {() => void} reload
 */
function roomCard(r, isAdmin, reload) {
  const seats = (r.seats || []).map((/** @type {any} */ s) => {
    const who = s.name || s.player;
    const person = who && s.player_id !== null && s.player_id !== undefined;
    const text = person ? who : s.bot ? t("bot_label", { n: s.seat + 1, level: t("bot_" + s.bot) }) : t("empty_seat");
    return h(
      "li",
      { "data-testid": `admin-seat-${r.id}-${s.seat}` },
      h("span", { class: "muted" }, t("seat_n", { n: s.seat + 1 }) + " "),
      person ? h("a", { href: `#/player/${s.player_id}`, class: "link" }, text) : text,
      person ? " " : null,
      person ? h("button", { class: "small", "data-testid": `kick-${r.id}-${s.seat}`, onclick: () => kick(r, s.seat, who, reload) }, t("admin_kick")) : null,
    );
  });
  return h(
    "article",
    { class: "admin-card", "data-testid": `admin-room-${r.id}` },
    h(
      "div",
      { class: "admin-card-head" },
      h("a", { href: `#/room/${encodeURIComponent(r.id)}`, class: "link" }, r.name || r.id),
      h("span", { class: "muted" }, ` · ${label(r.game || "baohuang")} · ${t("status_" + r.status)}` + (r.hand_number ? " · " + t("hand_n", { n: r.hand_number }) : "")),
      isAdmin ? h("button", { class: "small danger", "data-testid": `close-${r.id}`, onclick: () => closeRoom(r, reload) }, t("admin_close_room")) : null,
    ),
    h("ul", { class: "admin-seats" }, ...seats),
  );
}

/**
 * @param {any} r
 * @param {number} seat
 * @param {string} who
 * @param {() => void} reload
 */
async function kick(r, seat, who, reload) {
  const a = await askReason(t("admin_kick_title", { name: who, room: r.name || r.id }));
  if (!a) return;
  try {
    const d = await api.admin.kick(r.id, seat, a.reason);
    toast(d && d.penalty ? t("admin_kicked_penalty", { name: who, n: d.penalty }) : t("admin_kicked", { name: who }));
    reload();
  } catch (err) {
    failed(err);
  }
}

/**
 * @param {any} r
 * @param {() => void} reload
 */
async function closeRoom(r, reload) {
  const a = await askReason(t("admin_close_title", { room: r.name || r.id }));
  if (!a) return;
  try {
    await api.admin.closeRoom(r.id, a.reason);
    toast(t("admin_room_closed"));
    reload();
  } catch (err) {
    failed(err);
  }
}
