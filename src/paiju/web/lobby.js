// The login screen and the lobby: the list of rooms (join / watch) and the create-room
// form built from GET /api/games (game, preset, every option, turn timeout).

import * as api from "./api.js";
import { t, label } from "./i18n.js";
import { reasonText } from "./table.js";
import { recordFileButton } from "./replay.js";
import { h, toast } from "./ui.js";

// ---------------------------------------------------------------- login

// The first screen: play as a guest with a name (one click), or log in to an account, or
// register one. An account keeps its beans 游戏豆, rating and history on every browser.
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
      input.focus();
      return;
    }
    button.disabled = true;
    try {
      let player;
      if (mode === "guest") player = await api.login(name);
      else if (mode === "account") player = await api.accountLogin(user.value.trim(), pass.value);
      else player = await api.register(user.value.trim(), pass.value, name);
      onLogin(await api.me() || player);
    } catch (err) {
      toast(errorText(err), "error");
      button.disabled = false;
    }
  });
  root.replaceChildren(
    h(
      "div",
      { class: "page login-page" },
      h("header", { class: "topbar" }, h("div", { class: "brand" }, logo(), t("app_title")), h("div", { class: "spacer" }), ctx.langButton()),
      h("main", { class: "login-card" }, h("h1", {}, t("login_title")), h("div", { class: "tabs" }, ...tabs), form),
    ),
  );
  show(ctx.registerFirst ? "register" : "guest");
  ctx.registerFirst = false;
  return { destroy() {} };
}

// A refused request in the page's language (its reason code), else the hall's sentence.
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

// The player's part of the top bar: beans 游戏豆 (an account's) with 救济 when it is due, the
// profile and the leaderboard, and log out (an account) or register (a guest keeps its hands).
export function accountBar(ctx, onChange) {
  const p = ctx.player;
  const bar = h("span", { class: "account-bar" });
  if (!p.guest && p.beans !== undefined && p.beans !== null) {
    bar.appendChild(h("span", { class: "beans", "data-testid": "my-beans", title: t("beans_help") }, t("beans_n", { n: p.beans })));
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
  return bar;
}

export function logo() {
  const span = h("span", { class: "logo" });
  span.innerHTML =
    '<svg viewBox="0 0 32 32" aria-hidden="true"><rect x="4" y="5" width="16" height="22" rx="3" fill="#fff" stroke="#333" transform="rotate(-12 12 16)"/>' +
    '<rect x="11" y="4" width="16" height="22" rx="3" fill="#fff" stroke="#333" transform="rotate(10 19 15)"/>' +
    '<text x="19" y="20" font-size="11" text-anchor="middle" fill="#c62828" transform="rotate(10 19 15)">♥</text></svg>';
  return span;
}

// ---------------------------------------------------------------- /api/games

// Normalise the /api/games answer into [{name, presets: [{name, values}], options:
// [{name, type, choices, default, description}]}], whatever reasonable shape it has
// (a list or a mapping of games; options as a list or a mapping; presets as names,
// a mapping name → toggles, or a list of {name, options}).
export function normalizeGames(data) {
  let games = data && data.games !== undefined ? data.games : data;
  if (!games) return [];
  if (!Array.isArray(games)) games = Object.entries(games).map(([name, g]) => ({ name, ...(g || {}) }));
  // the options every room has, kept by the hall (记牌器, chat, beans): after each game's own
  const hallOptions = data && Array.isArray(data.hall_options) ? data.hall_options : [];
  return games.map((g) => {
    let options = g.options || [];
    if (!Array.isArray(options)) options = Object.entries(options).map(([name, o]) => ({ name, ...(o || {}) }));
    options = options.concat(hallOptions.filter((o) => !options.some((x) => x.name === o.name)));
    options = options.map((o) => ({
      name: o.name,
      type: String(o.type || (o.choices ? "choice" : typeof o.default)).toLowerCase(),
      choices: o.choices || o.enum || null,
      default: o.default,
      description: o.description || o.help || "",
      min: o.min ?? o.minimum,
      max: o.max ?? o.maximum,
    }));
    let presets = g.presets || g.variants || [];
    if (Array.isArray(presets)) {
      presets = presets.map((p) =>
        typeof p === "string" ? { name: p, values: null } : { name: p.name, values: p.options || p.values || p.toggles || null },
      );
    } else {
      presets = Object.entries(presets).map(([name, v]) => ({
        name,
        values: v && typeof v === "object" && !Array.isArray(v) ? v.options || v.values || v : null,
      }));
    }
    const variantOpt = options.find((o) => o.name === "variant");
    if (!presets.length && variantOpt && variantOpt.choices) presets = variantOpt.choices.map((name) => ({ name, values: null }));
    return {
      name: g.name || g.game || g.id,
      title: g.title || null,
      presets,
      defaultPreset: g.default_preset || g.default_variant || (variantOpt && variantOpt.default) || (presets[0] && presets[0].name),
      options: options.filter(
        (o) => o.name !== "variant" && o.name !== g.preset_option && !HIDDEN_OPTIONS.has(o.name) && o.type !== "object" && o.type !== "null",
      ),
      turnTimeout: g.turn_timeout ?? null,
      presetOption: g.preset_option === undefined ? "variant" : g.preset_option,
      seats: g.seats || null,
    };
  });
}

const RANK_CHOICES = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2"];
const HIDDEN_OPTIONS = new Set(["tribute_due"]);

function isBool(o) {
  return o.type === "bool" || o.type === "boolean";
}
function isNumber(o) {
  return ["int", "integer", "number", "float"].includes(o.type);
}

// ---------------------------------------------------------------- lobby

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
        h("section", { class: "panel rooms-panel" }, h("div", { class: "panel-head" }, h("h2", {}, t("rooms")), filter, refreshBtn, recordFileButton(ctx)), quickBar, roomList),
        h("section", { class: "panel create-panel" }, h("h2", {}, t("create_room")), formBox),
      ),
    ),
  );

  async function loadRooms() {
    try {
      const rooms = await api.rooms(filter.value);
      if (!destroyed) renderRooms(rooms);
    } catch (err) {
      if (!destroyed) roomList.replaceChildren(h("div", { class: "muted" }, err.message));
    }
  }

  function renderRooms(rooms) {
    if (!rooms.length) {
      roomList.replaceChildren(h("div", { class: "muted empty" }, t("no_rooms")));
      return;
    }
    const rows = rooms.map((r) => {
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
            variant ? h("span", { class: "chip" }, label(variant)) : null,
            h("span", { class: `chip status-${r.status}`, title: r.damaged || "" }, t("status_" + r.status)),
            beansChip(r),
            r.spectators ? h("span", { class: "muted" }, t("spectators_n", { n: r.spectators })) : null,
          ),
          h("div", { class: "room-seats muted" }, `${t("seats")} ${taken}/${total}` + (names.length ? " · " + names.join(", ") : "")),
        ),
        h("div", { class: "room-actions" }, join, watch),
      );
    });
    roomList.replaceChildren(...rows);
  }

  async function loadGames() {
    try {
      games = normalizeGames(await api.games());
    } catch (err) {
      formBox.replaceChildren(h("div", { class: "muted" }, err.message));
      return;
    }
    if (destroyed) return;
    renderForm();
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
            const d = await api.quickStart(g.name);
            ctx.openRoom(d.room, false); // the hall has seated the player already
          } catch (err) {
            toast(err.message, "error");
            b.disabled = false;
          }
        });
        return b;
      }),
    );
  }

  function renderForm() {
    const form = h("form", { class: "create-form", "data-testid": "create-form" });
    const nameInput = h("input", {
      type: "text",
      maxLength: 40,
      value: t("default_room_name", { name: ctx.player.name }),
      "data-testid": "opt-name",
      name: "name",
    });
    const gameSelect = h("select", { "data-testid": "opt-game", name: "game" });
    for (const g of games) gameSelect.appendChild(h("option", { value: g.name }, label(g.name, g.title || g.name)));
    const presetSelect = h("select", { "data-testid": "opt-variant", name: "variant" });
    const presetRow = h("label", { class: "opt", "data-testid": "variant-row" }, h("span", { class: "opt-label" }, t("variant")), presetSelect);
    const timeoutInput = h("input", { type: "number", min: 5, max: 600, step: 1, value: 30, "data-testid": "opt-turn_timeout", name: "turn_timeout" });
    const optionsBox = h("div", { class: "options-grid" });
    // folded: a newcomer creates a room with the preset; the rule options are one tap away
    const details = h("details", { class: "more-options" }, h("summary", {}, t("more_options")), optionsBox);
    const createBtn = h("button", { class: "primary big", type: "submit", "data-testid": "create" }, t("create"));
    let fields = {};

    const game = () => games.find((g) => g.name === gameSelect.value) || games[0];
    const baseline = () => {
      const g = game();
      const p = g.presets.find((x) => x.name === presetSelect.value);
      const base = {};
      for (const o of g.options) base[o.name] = o.default;
      if (p && p.values) for (const [k, v] of Object.entries(p.values)) if (k in base) base[k] = v;
      return base;
    };
    const fillPresets = () => {
      const g = game();
      presetSelect.replaceChildren(...g.presets.map((p) => h("option", { value: p.name }, label(p.name))));
      if (g.defaultPreset) presetSelect.value = g.defaultPreset;
      presetSelect.disabled = !g.presets.length;
      presetRow.classList.toggle("hidden", !g.presets.length); // a game without presets (preset_option null)
      if (g.turnTimeout) timeoutInput.value = g.turnTimeout;
    };
    const fillOptions = () => {
      const g = game();
      const base = baseline();
      fields = {};
      optionsBox.replaceChildren(
        ...g.options.map((o) => {
          let input;
          const v = base[o.name];
          if (isBool(o)) {
            input = h("input", { type: "checkbox", name: o.name });
            input.checked = !!v;
          } else if (o.type === "rank" && !o.choices) {
            input = h("select", { name: o.name }, ...RANK_CHOICES.map((c) => h("option", { value: c }, c === "T" ? "10" : c)));
            input.value = String(v);
          } else if (o.choices) {
            const valueLabel = (c) => label(`val.${o.name}.${c}`, label("val." + c, String(c)));
            input = h("select", { name: o.name }, ...o.choices.map((c) => h("option", { value: String(c) }, valueLabel(c))));
            input.value = String(v);
          } else if (isNumber(o)) {
            input = h("input", { type: "number", name: o.name, value: v ?? "", step: o.type === "float" || o.type === "number" ? "any" : 1 });
            if (o.min !== undefined) input.min = o.min;
            if (o.max !== undefined) input.max = o.max;
          } else {
            input = h("input", { type: "text", name: o.name, value: v ?? "" });
          }
          input.dataset.testid = `opt-${o.name}`;
          fields[o.name] = { o, input };
          return h(
            "label",
            { class: "opt" + (isBool(o) ? " opt-bool" : ""), title: label("help." + o.name, o.description || o.name) },
            h("span", { class: "opt-label" }, label("opt." + o.name, o.name)),
            input,
          );
        }),
      );
    };
    const read = (f) => {
      const { o, input } = f;
      if (isBool(o)) return input.checked;
      if (o.choices) {
        const hit = o.choices.find((c) => String(c) === input.value);
        return hit !== undefined ? hit : input.value;
      }
      if (isNumber(o)) return input.value === "" ? null : Number(input.value);
      return input.value;
    };
    gameSelect.addEventListener("change", () => {
      fillPresets();
      fillOptions();
    });
    presetSelect.addEventListener("change", fillOptions);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const g = game();
      const base = baseline();
      const options = {};
      if (presetSelect.value && g.presets.length) options[g.presetOption || "variant"] = presetSelect.value;
      for (const [name, f] of Object.entries(fields)) {
        const v = read(f);
        if (v === null) continue;
        if (JSON.stringify(v) !== JSON.stringify(base[name])) options[name] = v;
      }
      const spec = { name: nameInput.value.trim() || t("default_room_name", { name: ctx.player.name }), game: g.name, options };
      const tt = Number(timeoutInput.value);
      if (Number.isFinite(tt) && tt > 0) spec.turn_timeout = tt;
      createBtn.disabled = true;
      try {
        const id = await api.createRoom(spec);
        ctx.openRoom(id, true);
      } catch (err) {
        toast(err.message, "error");
        createBtn.disabled = false;
      }
    });
    form.append(
      h("label", { class: "opt wide" }, h("span", { class: "opt-label" }, t("room_name")), nameInput),
      h("label", { class: "opt" }, h("span", { class: "opt-label" }, t("game")), gameSelect),
      presetRow,
      h("label", { class: "opt" }, h("span", { class: "opt-label" }, t("turn_timeout")), timeoutInput),
      details,
      h("div", { class: "form-actions" }, createBtn),
    );
    fillPresets();
    fillOptions();
    formBox.replaceChildren(form);
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
