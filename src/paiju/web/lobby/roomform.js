// @ts-check
// The lobby's create-room form, built from GET /api/games: the room's name, the game, its
// preset, every rule option (folded under "more options"), the turn timeout. Also the
// normalisation of the /api/games answer the form and the quick-start bar are made from.
// Exports: normalizeGames, roomForm; the type GameInfo.

import * as api from "../api.js";
import { t, label, presetLabel } from "../i18n.js";
import { h, toast } from "../ui.js";
import { helpHash } from "../help/link.js";

/**
 * A game as the lobby knows it (normalizeGames).
 * @typedef {object} GameInfo
 * @property {string} name
 * @property {string | null} title
 * @property {{name: string, values: Record<string, unknown> | null}[]} presets
 * @property {string | undefined} defaultPreset
 * @property {OptionInfo[]} options
 * @property {number | null} turnTimeout
 * @property {string | null} presetOption
 * @property {any} seats
 */

/**
 * A rule option of a game.
 * @typedef {{name: string, type: string, choices: any[] | null, default: any, description: string, min?: number, max?: number}} OptionInfo
 */

// ---------------------------------------------------------------- /api/games

// Normalise the /api/games answer into [{name, presets: [{name, values}], options:
// [{name, type, choices, default, description}]}], whatever reasonable shape it has
// (a list or a mapping of games; options as a list or a mapping; presets as names,
// a mapping name → toggles, or a list of {name, options}).
/**
 * @param {any} data the /api/games answer
 * @returns {GameInfo[]}
 */
export function normalizeGames(data) {
  let games = data && data.games !== undefined ? data.games : data;
  if (!games) return [];
  if (!Array.isArray(games)) games = Object.entries(games).map(([name, g]) => ({ name, ...g }));
  // the options every room has, kept by the hall (记牌器, chat, beans): after each game's own
  const hallOptions = data && Array.isArray(data.hall_options) ? data.hall_options : [];
  return games.map((g) => {
    let options = g.options || [];
    if (!Array.isArray(options)) options = Object.entries(options).map(([name, o]) => ({ name, ...o }));
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

/** @param {OptionInfo} o */
function isBool(o) {
  return o.type === "bool" || o.type === "boolean";
}
/** @param {OptionInfo} o */
function isNumber(o) {
  return ["int", "integer", "number", "float"].includes(o.type);
}


/**
 * The create-room form for these games; a room made opens at once (ctx.openRoom).
 * @param {any} ctx the app's context
 * @param {GameInfo[]} games
 * @returns {HTMLFormElement}
 */
export function roomForm(ctx, games) {
  const form = /** @type {HTMLFormElement} */ (h("form", { class: "create-form", "data-testid": "create-form" }));
  const nameInput = /** @type {HTMLInputElement} */ (
    h("input", {
      type: "text",
      maxLength: 40,
      value: t("default_room_name", { name: ctx.player.name }),
      "data-testid": "opt-name",
      name: "name",
    })
  );
  const gameSelect = /** @type {HTMLSelectElement} */ (h("select", { "data-testid": "opt-game", name: "game" }));
  for (const g of games) gameSelect.appendChild(h("option", { value: g.name }, label(g.name, g.title || g.name)));
  const presetSelect = /** @type {HTMLSelectElement} */ (h("select", { "data-testid": "opt-variant", name: "variant" }));
  const presetRow = h("label", { class: "opt", "data-testid": "variant-row" }, h("span", { class: "opt-label" }, t("variant")), presetSelect);
  const timeoutInput = /** @type {HTMLInputElement} */ (h("input", { type: "number", min: 5, max: 600, step: 1, value: 30, "data-testid": "opt-turn_timeout", name: "turn_timeout" }));
  const optionsBox = h("div", { class: "options-grid" });
  // folded: a newcomer creates a room with the preset; the rule options are one tap away
  const details = h("details", { class: "more-options" }, h("summary", {}, t("more_options")), optionsBox);
  const createBtn = /** @type {HTMLButtonElement} */ (h("button", { class: "primary big", type: "submit", "data-testid": "create" }, t("create")));
  /** @type {Record<string, {o: OptionInfo, input: HTMLInputElement | HTMLSelectElement}>} */
  let fields = {};

  const game = () => games.find((g) => g.name === gameSelect.value) || games[0];
  // every option's value under the chosen preset
  const baseline = () => {
    const g = game();
    const p = g.presets.find((x) => x.name === presetSelect.value);
    /** @type {Record<string, any>} */
    const base = {};
    for (const o of g.options) base[o.name] = o.default;
    if (p && p.values) for (const [k, v] of Object.entries(p.values)) if (k in base) base[k] = v;
    return base;
  };
  const fillPresets = () => {
    const g = game();
    presetSelect.replaceChildren(...g.presets.map((p) => h("option", { value: p.name }, presetLabel(g.name, p.name))));
    if (g.defaultPreset) presetSelect.value = g.defaultPreset;
    presetSelect.disabled = !g.presets.length;
    presetRow.classList.toggle("hidden", !g.presets.length); // a game without presets (preset_option null)
    if (g.turnTimeout) timeoutInput.value = String(g.turnTimeout);
  };
  const fillOptions = () => {
    const base = baseline();
    fields = {};
    optionsBox.replaceChildren(
      ...game().options.map((o) => {
        const input = optionInput(o, base[o.name]);
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
  gameSelect.addEventListener("change", () => {
    fillPresets();
    fillOptions();
  });
  presetSelect.addEventListener("change", fillOptions);
  const passwordInput = /** @type {HTMLInputElement} */ (h("input", { type: "password", maxLength: 32, autocomplete: "off", "data-testid": "room-password-new" }));
  const reserveInput = /** @type {HTMLInputElement} */ (h("input", { type: "text", maxLength: 120, placeholder: t("reserve_hint"), "data-testid": "room-reserve" }));
  // the preset and every option changed from it: what the room is made with
  const chosen = () => {
    const g = game();
    const base = baseline();
    /** @type {Record<string, unknown>} */
    const options = {};
    if (presetSelect.value && g.presets.length) options[g.presetOption || "variant"] = presetSelect.value;
    for (const [name, f] of Object.entries(fields)) {
      const v = readOption(f.o, f.input);
      if (v === null) continue;
      if (JSON.stringify(v) !== JSON.stringify(base[name])) options[name] = v;
    }
    return options;
  };
  // 游戏规则 of the game as the form sets it (the preset and the options changed)
  const rulesLink = h("a", { class: "small link help-link", href: "#/help/baohuang", "data-testid": "form-help", title: t("help_title") }, t("help_form_link"));
  rulesLink.addEventListener("click", (e) => {
    e.preventDefault();
    ctx.navigate(helpHash(game().name, chosen()));
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const g = game();
    const options = chosen();
    /** @type {Record<string, unknown>} */
    const spec = { name: nameInput.value.trim() || t("default_room_name", { name: ctx.player.name }), game: g.name, options };
    const tt = Number(timeoutInput.value);
    if (Number.isFinite(tt) && tt > 0) spec.turn_timeout = tt;
    if (passwordInput.value) spec.password = passwordInput.value; // hashed by the hall, never shown
    const friends = reserveInput.value.split(/[,，\s]+/).filter(Boolean);
    if (friends.length) spec.reserved = Object.fromEntries(friends.map((who, i) => [String(i + 1), who])); // seats after the creator's
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
    h("div", { class: "opt form-help" }, rulesLink),
    h("label", { class: "opt" }, h("span", { class: "opt-label" }, t("turn_timeout")), timeoutInput),
    h("label", { class: "opt", title: t("help.room_password") }, h("span", { class: "opt-label" }, t("room_password")), passwordInput),
    h("label", { class: "opt wide", title: t("help.reserve") }, h("span", { class: "opt-label" }, t("reserve")), reserveInput),
    details,
    h("div", { class: "form-actions" }, createBtn),
  );
  fillPresets();
  fillOptions();
  return form;
}

/**
 * The input of a rule option, showing `v`: a checkbox, a choice, a rank, a number or text.
 * @param {OptionInfo} o
 * @param {any} v
 * @returns {HTMLInputElement | HTMLSelectElement}
 */
function optionInput(o, v) {
  let input;
  if (isBool(o)) {
    input = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", name: o.name }));
    input.checked = !!v;
  } else if (o.type === "rank" && !o.choices) {
    input = /** @type {HTMLSelectElement} */ (h("select", { name: o.name }, ...RANK_CHOICES.map((c) => h("option", { value: c }, c === "T" ? "10" : c))));
    input.value = String(v);
  } else if (o.choices) {
    const valueLabel = (/** @type {unknown} */ c) => label(`val.${o.name}.${c}`, label("val." + c, String(c)));
    input = /** @type {HTMLSelectElement} */ (h("select", { name: o.name }, ...o.choices.map((c) => h("option", { value: String(c) }, valueLabel(c)))));
    input.value = String(v);
  } else if (isNumber(o)) {
    input = /** @type {HTMLInputElement} */ (h("input", { type: "number", name: o.name, value: v ?? "", step: o.type === "float" || o.type === "number" ? "any" : 1 }));
    if (o.min !== undefined) input.min = /** @type {any} */ (o.min);
    if (o.max !== undefined) input.max = /** @type {any} */ (o.max);
  } else {
    input = /** @type {HTMLInputElement} */ (h("input", { type: "text", name: o.name, value: v ?? "" }));
  }
  input.dataset.testid = `opt-${o.name}`;
  return input;
}

/**
 * The value an option's input holds (null: a number left empty).
 * @param {OptionInfo} o
 * @param {HTMLInputElement | HTMLSelectElement} input
 */
function readOption(o, input) {
  if (isBool(o)) return /** @type {HTMLInputElement} */ (input).checked;
  if (o.choices) {
    const hit = o.choices.find((c) => String(c) === input.value);
    return hit !== undefined ? hit : input.value;
  }
  if (isNumber(o)) return input.value === "" ? null : Number(input.value);
  return input.value;
}
