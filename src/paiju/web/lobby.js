// @ts-check
// The login screen and the lobby: the list of rooms (join / watch), 快速开始 per game, and
// the create-room form built from GET /api/games (lobby/roomform.js). Also the account
// bar and the logo the other pages share.
// Exports: mountLogin, errorText, accountBar, logo, mountLobby.

import * as api from "./api.js";
import { t, label, presetLabel } from "./i18n.js";
import { reasonText } from "./table/text.js";
import { recordFileButton } from "./replay/file.js";
import { normalizeGames, roomForm } from "./lobby/roomform.js";
import { codeBox, friendsPanel } from "./lobby/friends.js";
import { helpHash } from "./help/link.js";
import { clearToasts, h, toast } from "./ui.js";

// ---------------------------------------------------------------- login

// The first screen: play as a guest with a name (one click), or log in to an account, or
// register one. An account keeps its beans 游戏豆, rating and history on every browser.
/**
 * @param {HTMLElement} root
 * @param {any} ctx the app's context
 * @param {(player: any) => void} onLogin
 */
export function mountLogin(root, ctx, onLogin) {
  let mode = "guest";
  const input = h("input", {
    type: "text",
    maxLength: 24,
    autocomplete: "nickname",
    placeholder: t("name_placeholder"),
    "data-testid": "login-name",
  });
  const user = h("input", { type: "text", maxLength: 20, autocomplete: "username", placeholder: t("username"), "data-testid": "login-username" });
  const pass = h("input", { type: "password", maxLength: 128, autocomplete: "current-password", placeholder: t("password"), "data-testid": "login-password" });
  const button = h("button", { class: "primary big", type: "submit", "data-testid": "login" }, t("login_button"));
  const prompt_ = h("label", {}, t("login_prompt"));
  const form = h("form", { class: "login-form" }, prompt_, user, pass, input, button);
  const tabs = ["guest", "account", "register"].map((m) =>
    h("button", { type: "button", class: "tab small", "data-testid": `login-tab-${m}`, onclick: () => show(m) }, t("login_tab_" + m)),
  );
  function show(m) {
    mode = m;
    tabs.forEach((b, i) => b.classList.toggle("active", ["guest", "account", "register"][i] === m));
    input.classList.toggle("hidden", m === "account");
    user.classList.toggle("hidden", m === "guest");
    pass.classList.toggle("hidden", m === "guest");
    pass.autocomplete = m === "register" ? "new-password" : "current-password";
    input.placeholder = m === "register" ? t("name_optional") : t("name_placeholder");
    prompt_.textContent = t("login_prompt_" + m);
    button.textContent = t(m === "guest" ? "login_button" : m === "account" ? "login_account" : "register_button");
    setTimeout(() => (m === "guest" ? input : user).focus(), 0);
  }
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (mode === "guest" && !name) {
      toast(t("name_required"), "error");
      input.focus();
      return;
    }
    button.disabled = true;
    try {
      let player;
      if (mode === "guest") player = await api.login(name);
      else if (mode === "account") player = await api.accountLogin(user.value.trim(), pass.value);
      else player = await api.register(user.value.trim(), pass.value, name);
      clearToasts("error"); // an earlier refusal is answered now
      onLogin(await api.me() || player);
    } catch (err) {
      toast(errorText(err), "error");
      button.disabled = false;
    }
  });
  // a language switch translates the form in place: what was typed stays
  const render = () => {
    input.placeholder = t("name_placeholder");
    user.placeholder = t("username");
    pass.placeholder = t("password");
    tabs.forEach((b, i) => (b.textContent = t("login_tab_" + ["guest", "account", "register"][i])));
    root.replaceChildren(
      h(
        "div",
        { class: "page login-page" },
        h("header", { class: "topbar" }, h("div", { class: "brand" }, logo(), t("app_title")), h("div", { class: "spacer" }), ctx.langButton()),
        h("main", { class: "login-card" }, h("h1", {}, t("login_title")), h("div", { class: "tabs" }, ...tabs), form),
      ),
    );
  };
  render();
  show(ctx.registerFirst ? "register" : "guest");
  ctx.registerFirst = false;
  return {
    destroy() {},
    rerender() {
      render();
      show(mode);
    },
  };
}

// A refused request in the page's language (its reason code), else the hall's sentence.
/**
 * @param {any} err
 * @returns {string}
 */
export function errorText(err) {
  return err && err.code ? reasonText(err.code, err.params, err.message) : String((err && err.message) || err);
}

// A room's bean multipliers and minimum in the lobby (none for a plain room).
function beansChip(r) {
  const b = r.beans;
  if (!b || (b.bean_multiplier === 1 && b.table_multiplier === 1 && !b.min_beans && !b.own_multiplier)) return null;
  const min = b.min_beans ? t("room_min_beans", { n: b.min_beans }) : "";
  const own = b.own_multiplier ? " · " + t("own_multiplier") : "";
  return h("span", { class: "chip beans-chip", "data-testid": `beans-${r.id}` }, t("room_beans", { room: b.bean_multiplier, table: b.table_multiplier, min }) + own);
}

// 同IP不能同桌: a small marker on the rooms that keep one account playing for beans per address.
function addressChip(r) {
  if (!r.beans || !r.beans.one_per_address) return null;
  return h("span", { class: "chip address-chip", "data-testid": `one-per-address-${r.id}`, title: label("help.one_per_address") }, t("room_one_per_address"));
}

// The player's part of the top bar: beans 游戏豆 (an account's) with 救济 when it is due, the
// profile and the leaderboard, the admin console (moderators and admins), and log out (an
// account) or register (a guest keeps its hands).
/**
 * @param {any} ctx the app's context
 * @param {() => void} onChange after a log-out, a registration or 救济
 * @returns {HTMLElement}
 */
export function accountBar(ctx, onChange) {
  const bar = h("span", { class: "account-bar" });
  fillAccountBar(bar, ctx, onChange);
  // the balance changes with every hand and the page's copy is the login's: ask again
  api
    .me()
    .then((me) => {
      const p = ctx.player;
      if (!me || !p || me.id !== p.id || ["beans", "relief_due", "start_pending"].every((k) => me[k] === p[k])) return;
      ctx.player = { ...p, ...me };
      bar.replaceChildren();
      fillAccountBar(bar, ctx, onChange);
    })
    .catch(() => {}); // the bar keeps what it shows
  return bar;
}

/**
 * @param {HTMLElement} bar
 * @param {any} ctx
 * @param {() => void} onChange
 */
function fillAccountBar(bar, ctx, onChange) {
  const p = ctx.player;
  if (!p.guest && p.beans !== undefined && p.beans !== null) {
    bar.appendChild(h("span", { class: "beans", "data-testid": "my-beans", title: t("beans_help") }, t("beans_n", { n: p.beans })));
    if (p.start_pending) {
      bar.appendChild(h("span", { class: "small muted", "data-testid": "start-pending", title: t("start_pending_help") }, t("start_pending", { n: p.start_pending })));
    }
    if (p.relief_due) {
      const relief = h("button", { class: "small", "data-testid": "relief" }, t("relief"));
      relief.addEventListener("click", async () => {
        try {
          const d = await api.relief();
          ctx.player = { ...p, beans: d.beans, relief_due: false };
          toast(t("relief_given", { n: d.beans }));
          onChange();
        } catch (err) {
          toast(errorText(err), "error");
        }
      });
      bar.appendChild(relief);
    }
  }
  bar.appendChild(h("a", { class: "small link", href: `#/player/${p.id}`, "data-testid": "my-profile" }, t("profile")));
  bar.appendChild(h("a", { class: "small link", href: "#/leaderboard", "data-testid": "leaderboard-link" }, t("leaderboard")));
  if (p.role === "admin" || p.role === "moderator") {
    bar.appendChild(h("a", { class: "small link", href: "#/admin", "data-testid": "admin-link" }, t("admin_console")));
  }
  if (p.guest) {
    const reg = h("button", { class: "small", "data-testid": "register" }, t("register_button"));
    reg.addEventListener("click", () => {
      ctx.player = null; // the register form; the guest's cookie stays, so its player is kept
      ctx.registerFirst = true;
      onChange();
    });
    bar.appendChild(reg);
  } else {
    const out = h("button", { class: "small", "data-testid": "logout" }, t("logout"));
    out.addEventListener("click", async () => {
      try {
        await api.logout();
      } catch (err) {
        toast(errorText(err), "error");
      }
      ctx.player = null;
      onChange();
    });
    bar.appendChild(out);
  }
}

/** @returns {HTMLElement} */
export function logo() {
  const span = h("span", { class: "logo" });
  span.innerHTML =
    '<svg viewBox="0 0 32 32" aria-hidden="true"><rect x="4" y="5" width="16" height="22" rx="3" fill="#fff" stroke="#333" transform="rotate(-12 12 16)"/>' +
    '<rect x="11" y="4" width="16" height="22" rx="3" fill="#fff" stroke="#333" transform="rotate(10 19 15)"/>' +
    '<text x="19" y="20" font-size="11" text-anchor="middle" fill="#c62828" transform="rotate(10 19 15)">♥</text></svg>';
  return span;
}

// ---------------------------------------------------------------- lobby

/**
 * A room in the lobby's list: its name, game, status, beans, seats, and join / watch.
 * @param {any} ctx the app's context
 * @param {any} r the room (GET /api/rooms)
 * @returns {HTMLElement}
 */
function roomRow(ctx, r) {
  const seats = r.seats || [];
  const taken = seats.filter((s) => s.player || s.bot).length;
  const total = seats.length || 5;
  const variant = r.options && r.options.variant;
  const join = h("button", { class: "primary", "data-testid": `join-${r.id}` }, t("join"));
  join.addEventListener("click", () => ctx.openRoom(r.id, true));
  const watch = h("button", { "data-testid": `watch-${r.id}` }, t("watch"));
  watch.addEventListener("click", () => ctx.openRoom(r.id, false));
  if (taken >= total) join.disabled = r.your_seat === null || r.your_seat === undefined; // "you" by player id, never by name
  if (r.status === "damaged") {
    // set aside by the hall: its current hand does not replay; nobody can sit or watch
    join.disabled = true;
    watch.disabled = true;
  }
  const people = seats.filter((s) => s.player).map((s) => s.player);
  const bots = seats.filter((s) => s.bot).length;
  const names = [...people, ...(bots ? [t("bots_n", { n: bots })] : [])];
  return h(
    "div",
    { class: "room-row", "data-testid": "room-row", "data-room-id": r.id },
    h(
      "div",
      { class: "room-main" },
      h("div", { class: "room-name" }, r.name || r.id),
      h(
        "div",
        { class: "room-meta" },
        h("span", { class: "chip" }, label(r.game || "baohuang")),
        variant ? h("span", { class: "chip" }, presetLabel(r.game, variant)) : null,
        h("span", { class: `chip status-${r.status}`, title: r.damaged || "" }, t("status_" + r.status)),
        beansChip(r),
        addressChip(r),
        r.competition ? h("span", { class: "chip competition-chip", "data-testid": `competition-${r.id}`, title: label("help.competition") }, t("room_competition")) : null,
        r.password ? h("span", { class: "chip lock-chip", "data-testid": `password-${r.id}`, title: t("room_password") }, t("room_locked")) : null,
        r.spectators ? h("span", { class: "muted" }, t("spectators_n", { n: r.spectators })) : null,
      ),
      h("div", { class: "room-seats muted" }, `${t("seats")} ${taken}/${total}` + (names.length ? " · " + names.join(", ") : "")),
    ),
    h("div", { class: "room-actions" }, join, watch),
  );
}

/**
 * The lobby: the rooms (polled every 4 s while the page is shown), 快速开始 per game, the
 * create-room form.
 * @param {HTMLElement} root
 * @param {any} ctx the app's context
 * @returns {{destroy: () => void}}
 */
export function mountLobby(root, ctx) {
  let destroyed = false;
  let games = [];
  let pollTimer = null;
  const roomList = h("div", { class: "room-list", "data-testid": "room-list" }, h("div", { class: "muted" }, "…"));
  const formBox = h("div", { class: "create-box" }, h("div", { class: "muted" }, "…"));
  const nameLabel = h("span", { class: "who" }, t("hello", { name: ctx.player.name }));
  const renameBtn = h("button", { class: "small", "data-testid": "rename" }, t("rename"));
  renameBtn.addEventListener("click", async () => {
    const name = prompt(t("login_prompt"), ctx.player.name);
    if (!name || !name.trim()) return;
    try {
      ctx.player = await api.login(name.trim());
      nameLabel.textContent = t("hello", { name: ctx.player.name });
    } catch (err) {
      toast(err.message, "error");
    }
  });
  const account = accountBar(ctx, () => ctx.navigate("#/"));
  const refreshBtn = h("button", { class: "small", "data-testid": "refresh" }, t("refresh"));
  refreshBtn.addEventListener("click", () => loadRooms());
  // the rooms of one game (GET /api/rooms?game=) and 快速开始 per game, filled once the games are known
  const filter = h("select", { class: "small", "data-testid": "room-filter", title: t("game") }, h("option", { value: "" }, t("filter_all")));
  filter.addEventListener("change", () => loadRooms());
  const quickBar = h("div", { class: "quick-start", "data-testid": "quick-start-bar" });

  root.replaceChildren(
    h(
      "div",
      { class: "page lobby-page", "data-testid": "lobby" },
      h(
        "header",
        { class: "topbar" },
        h("div", { class: "brand" }, logo(), t("app_title"), h("span", { class: "muted" }, " · " + t("lobby"))),
        h("div", { class: "spacer" }),
        nameLabel,
        renameBtn,
        account,
        ctx.langButton(),
      ),
      h(
        "main",
        { class: "lobby-main" },
        h("section", { class: "panel rooms-panel" }, h("div", { class: "panel-head" }, h("h2", {}, t("rooms")), filter, refreshBtn, codeBox(ctx), recordFileButton(ctx)), quickBar, roomList),
        h("section", { class: "panel create-panel" }, h("h2", {}, t("create_room")), formBox),
        friendsPanel(),
      ),
    ),
  );

  async function loadRooms() {
    try {
      const { rooms, stale } = await api.rooms(filter.value);
      if (!destroyed) renderRooms(rooms, stale);
    } catch (err) {
      if (!destroyed) roomList.replaceChildren(h("div", { class: "muted" }, err.message));
    }
  }

  /**
   * @param {any[]} rooms
   * @param {boolean} stale some rooms as last seen (the hall's servers could not reach each other)
   */
  function renderRooms(rooms, stale) {
    const note = stale ? [h("div", { class: "muted stale", "data-testid": "rooms-stale" }, t("rooms_stale"))] : [];
    if (!rooms.length) {
      roomList.replaceChildren(...note, h("div", { class: "muted empty" }, t("no_rooms")));
      return;
    }
    const rows = rooms.map((r) => roomRow(ctx, r));
    roomList.replaceChildren(...note, ...rows);
  }

  async function loadGames() {
    try {
      games = normalizeGames(await api.games());
    } catch (err) {
      formBox.replaceChildren(h("div", { class: "muted" }, err.message));
      return;
    }
    if (destroyed) return;
    formBox.replaceChildren(roomForm(ctx, games));
    renderQuickStart();
  }

  function renderQuickStart() {
    const chosen = filter.value;
    filter.replaceChildren(h("option", { value: "" }, t("filter_all")), ...games.map((g) => h("option", { value: g.name }, label(g.name, g.title || g.name))));
    filter.value = chosen;
    quickBar.replaceChildren(
      ...games.map((g) => {
        const b = h("button", { class: "primary small", "data-testid": `quick-start-${g.name}` }, t("quick_start") + " · " + label(g.name, g.title || g.name));
        b.addEventListener("click", async () => {
          b.disabled = true;
          try {
            const d = await api.quickStart(g.name, t("quick_room_name", { game: label(g.name, g.title || g.name) }));
            ctx.openRoom(d.room, false); // the hall has seated the player already
          } catch (err) {
            toast(err.message, "error");
            b.disabled = false;
          }
        });
        return b;
      }),
      // 游戏规则 of each game (#/help/{game})
      h("span", { class: "help-links" }, t("help_title") + ": ", ...games.map((g) => h("a", { class: "small link", href: helpHash(g.name), "data-testid": `help-link-${g.name}` }, label(g.name, g.title || g.name)))),
    );
  }

  loadRooms();
  loadGames();
  pollTimer = setInterval(() => {
    if (!document.hidden) loadRooms();
  }, 4000);
  return {
    destroy() {
      destroyed = true;
      clearInterval(pollTimer);
    },
  };
}
