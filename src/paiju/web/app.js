// @ts-check
// The app: identity check (login screen when /api/me says null), the hash router
// (#/ lobby, #/room/{id} table, #/replay/… the replay viewer, #/help/{game} a game's rules,
// #/admin… the admin console)
// and the language switch
// shared by every page; a record file dropped anywhere opens its replay.

import * as api from "./api.js";
import { mountAdmin, parseAdminHash } from "./admin.js";
import { mountHelp, parseHelpHash } from "./help.js";
import { t, getLang, setLang, toggleLang } from "./i18n.js";
import { mountLogin, mountLobby } from "./lobby.js";
import { mountLeaderboard, mountProfile } from "./profile.js";
import { mountTable, requestAutoSit } from "./table.js";
import { mountReplay, parseReplayHash } from "./replay.js";
import { installRecordDrop } from "./replay/file.js";
import { acceptInvite } from "./social.js";
import { watchInvitations } from "./invitations.js";
import { h, toast } from "./ui.js";

const root = document.getElementById("app");
const ctx = {
  player: null,
  backHash: null, // the page before this one (the replay viewer's way back)
  navigate,
  langButton,
  openRoom(id, sit) {
    if (sit) requestAutoSit(id);
    navigate(`#/room/${encodeURIComponent(id)}`);
  },
};
let current = null;
let currentHash = null;
/** @type {{stop: () => void} | null} */
let invitations = null; // the invitations sent to the account, on every page (invitations.js)

// The language switch button (every page's top bar has one).
function langButton() {
  const b = h("button", { class: "small lang", "data-testid": "lang", title: "中文 / English" }, t("lang_switch"));
  b.addEventListener("click", () => {
    toggleLang();
    document.title = t("app_title") + (getLang() === "zh" ? " Paiju" : " 牌局");
    if (current && current.rerender) current.rerender();
    else route();
  });
  return b;
}

function navigate(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

/**
 * The page the address names.
 * @returns {{page: "room", id: string, invite?: string} | {page: "replay", where: any} | {page: "help", where: any} | {page: "player", id: number} | {page: "leaderboard"} | {page: "admin", section: string} | {page: "lobby"}}
 */
function parseRoute() {
  const hash = location.hash.replace(/^#/, "") || "/";
  const m = hash.match(/^\/room\/([^/?#]+)/);
  if (m) return { page: "room", id: decodeURIComponent(m[1]), invite: (hash.match(/[?&]invite=([^&#]+)/) || [])[1] };
  const replay = parseReplayHash(hash);
  if (replay) return { page: "replay", where: replay };
  const help = parseHelpHash(hash);
  if (help) return { page: "help", where: help };
  const p = hash.match(/^\/player\/(\d+)/);
  if (p) return { page: "player", id: Number(p[1]) };
  if (hash.startsWith("/leaderboard")) return { page: "leaderboard" };
  const section = parseAdminHash(hash);
  if (section) return { page: "admin", section };
  return { page: "lobby" };
}

async function route() {
  if (current) {
    current.destroy();
    current = null;
  }
  const account = ctx.player && !ctx.player.guest;
  if (account && !invitations) invitations = watchInvitations(ctx);
  else if (!account && invitations) {
    invitations.stop();
    invitations = null;
  }
  if (!ctx.player) {
    current = mountLogin(root, ctx, (player) => {
      ctx.player = player;
      route();
    });
    return;
  }
  const r = parseRoute();
  if (location.hash !== currentHash) {
    // back from a replay: to the page it was opened from (not to another replay)
    if (currentHash !== null && !currentHash.startsWith("#/replay/")) ctx.backHash = currentHash;
    currentHash = location.hash;
  }
  if (r.page === "room" && r.invite) acceptInvite(r.id, decodeURIComponent(r.invite)); // seated, then the table opens
  else if (r.page === "room") current = mountTable(root, r.id, ctx);
  else if (r.page === "replay") current = mountReplay(root, r.where, ctx);
  else if (r.page === "help") current = mountHelp(root, r.where, ctx);
  else if (r.page === "player") current = mountProfile(root, r.id, ctx);
  else if (r.page === "leaderboard") current = mountLeaderboard(root, ctx);
  else if (r.page === "admin") current = mountAdmin(root, r.section, ctx);
  else current = mountLobby(root, ctx);
}

async function boot() {
  setLang(getLang());
  window.addEventListener("hashchange", route);
  installRecordDrop(ctx);
  try {
    ctx.player = await api.me();
  } catch (err) {
    toast(err.message, "error");
  }
  route();
}

boot();
