// @ts-check
// The address of a game's rules page #/help/{game} (help.js) and a small link to it, for
// the lobby, the room form, the table's menu and the profile.

import { t } from "../i18n.js";
import { h } from "../ui.js";

/**
 * The address of a game's rules under these room options (from that room, when given).
 * @param {string} game
 * @param {Record<string, unknown> | null} [options]
 * @param {string | null} [room]
 */
export function helpHash(game, options = null, room = null) {
  const q = new URLSearchParams();
  if (options && Object.keys(options).length) q.set("options", JSON.stringify(options));
  if (room) q.set("room", room);
  const s = q.toString();
  return `#/help/${encodeURIComponent(game)}${s ? "?" + s : ""}`;
}

/**
 * A small link to a game's rules page.
 * @param {string} game
 * @param {Record<string, unknown> | null} [options]
 * @param {string} [testid]
 */
export function helpLink(game, options = null, testid = `help-link-${game}`) {
  return h("a", { class: "small link help-link", href: helpHash(game, options), "data-testid": testid, title: t("help_title") }, t("help_link"));
}
