// @ts-check
// A player's page (#/player/{id}) and the leaderboards 排行榜 (#/leaderboard): the record by
// game and role, titles 游戏等级, ratings, beans 游戏豆 and rating over time as inline SVG
// charts, and the player's hands with links to their replays and records.

import * as api from "./api.js";
import { t, label, getLang } from "./i18n.js";
import { accountBar, errorText, logo } from "./lobby.js";
import { askReport } from "./table/seatmenu.js";
import { relationButtons } from "./social.js";
import { h, toast } from "./ui.js";
import { helpHash } from "./help/link.js";

const GAMES = ["baohuang", "shengji", "shuangkou"];
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  return el;
}

/**
 * A line chart of [[time, value], …] in the order given (inline SVG, no library).
 * @param {[number, number][]} points
 * @param {{testid?: string, width?: number, height?: number}} options
 * @returns {SVGElement}
 */
export function lineChart(points, { testid, width = 480, height = 160 } = {}) {
  const pad = { l: 44, r: 8, t: 10, b: 18 };
  const box = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "data-testid": testid });
  if (!points.length) {
    box.appendChild(svg("text", { x: width / 2, y: height / 2, "text-anchor": "middle", class: "muted" }, t("no_data")));
    return box;
  }
  const ys = points.map((p) => p[1]);
  let lo = Math.min(...ys);
  let hi = Math.max(...ys);
  if (lo === hi) {
    lo -= 1;
    hi += 1;
  }
  const x = (i) => pad.l + (points.length === 1 ? (width - pad.l - pad.r) / 2 : (i * (width - pad.l - pad.r)) / (points.length - 1));
  const y = (v) => pad.t + ((hi - v) * (height - pad.t - pad.b)) / (hi - lo);
  for (const v of [lo, hi]) {
    box.appendChild(svg("line", { x1: pad.l, x2: width - pad.r, y1: y(v), y2: y(v), class: "grid" }));
    box.appendChild(svg("text", { x: pad.l - 4, y: y(v) + 4, "text-anchor": "end", class: "axis" }, String(Math.round(v * 10) / 10)));
  }
  const path = points.map((p, i) => `${x(i).toFixed(1)},${y(p[1]).toFixed(1)}`).join(" ");
  box.appendChild(svg("polyline", { points: path, class: "line", fill: "none" }));
  const last = points[points.length - 1];
  box.appendChild(svg("circle", { cx: x(points.length - 1), cy: y(last[1]), r: 3, class: "dot" }));
  box.appendChild(svg("text", { x: width - pad.r, y: height - 4, "text-anchor": "end", class: "axis" }, new Date(last[0]).toLocaleDateString()));
  return box;
}

// A page's lifecycle for the router: load now, render and load again on a language switch.
function lifecycle(render, load, stop) {
  load();
  return {
    destroy: stop,
    rerender() {
      render();
      load();
    },
  };
}

// Previous / "1–20 of 57" / next for a paged answer {offset, limit, total} showing `shown` rows.
function pagerParts(page, shown, testid, go) {
  const prev = h("button", { class: "small", disabled: page.offset === 0, "data-testid": `${testid}-prev` }, t("page_prev"));
  const next = h("button", { class: "small", disabled: page.offset + page.limit >= page.total, "data-testid": `${testid}-next` }, t("page_next"));
  prev.addEventListener("click", () => go(Math.max(0, page.offset - page.limit)));
  next.addEventListener("click", () => go(page.offset + page.limit));
  const where = t("page_of", { from: page.total ? page.offset + 1 : 0, to: page.offset + shown, total: page.total });
  return [prev, h("span", { class: "muted" }, where), next];
}

function titleText(title) {
  return title ? (getLang() === "zh" ? title.zh : title.en) : "";
}

// The title, its level and where the next one begins (a link to the game's ladder 游戏等级).
function titleCell(game, title) {
  const next = title.next_at === null || title.next_at === undefined ? "" : " · " + t("title_next", { next: title.next_at });
  return h("a", { class: "link", href: helpHash(game), title: t("help_titles") }, `${titleText(title)} (${t("title_level", { n: title.level })}${next})`);
}

function pct(won, played) {
  return played ? `${Math.round((100 * won) / played)}%` : "–";
}

function roleName(role) {
  return t("role_" + role);
}

function topbar(ctx, what) {
  return h(
    "header",
    { class: "topbar" },
    h("a", { class: "brand", href: "#/" }, logo(), t("app_title"), h("span", { class: "muted" }, " · " + what)),
    h("div", { class: "spacer" }),
    accountBar(ctx, () => ctx.navigate(location.hash)),
    ctx.langButton(),
  );
}

/**
 * @param {HTMLElement} root
 * @param {number} id the player's
 * @param {any} ctx the app's context
 * @returns {{destroy: () => void}}
 */
export function mountProfile(root, id, ctx) {
  let destroyed = false;
  let offset = 0;
  const body = h("main", { class: "profile-main", "data-testid": "profile" }, h("div", { class: "muted" }, "…"));
  const render = () => root.replaceChildren(h("div", { class: "page profile-page" }, topbar(ctx, t("profile")), body));
  render();

  async function load() {
    try {
      const d = await api.player(id, offset);
      if (!destroyed) show(d);
    } catch (err) {
      if (!destroyed) body.replaceChildren(h("div", { class: "muted" }, errorText(err)));
    }
  }

  function show(d) {
    const p = d.player;
    const mine = ctx.player && ctx.player.id === p.id;
    const head = h(
      "section",
      { class: "panel" },
      h("h1", { "data-testid": "profile-name" }, p.name, p.guest ? h("span", { class: "muted" }, " · " + t("guest")) : null),
      p.guest ? h("div", { class: "muted" }, t("guest_no_beans")) : h("div", { class: "beans big", "data-testid": "profile-beans" }, t("beans_n", { n: p.beans })),
      mine ? null : reportButton(p),
      mine ? null : relationButtons(p.id), // 关注 / 拉黑 (social.js)
    );
    const rows = GAMES.map((g) => {
      const s = d.games[g];
      const roles = Object.entries(s.roles)
        .map(([r, v]) => `${roleName(r)} ${v.won}/${v.played} (${pct(v.won, v.played)})`)
        .join(" · ");
      return h(
        "tr",
        { "data-testid": `profile-game-${g}` },
        h("td", {}, label(g)),
        h("td", {}, String(s.hands)),
        h("td", {}, pct(s.won, s.scored)),
        h("td", {}, String(s.points)),
        h("td", { "data-testid": `profile-title-${g}` }, titleCell(g, s.title)),
        h("td", { "data-testid": `profile-rating-${g}` }, s.rating === null ? "–" : String(s.rating)),
        h("td", { class: "roles" }, roles || "–"),
      );
    });
    const table = h(
      "table",
      { class: "stats" },
      h("thead", {}, h("tr", {}, ...["game", "hands", "win_rate", "points", "title", "rating", "by_role"].map((k) => h("th", {}, t("col_" + k))))),
      h("tbody", {}, ...rows),
    );
    const charts = h("section", { class: "panel charts" });
    if (!p.guest) charts.appendChild(h("div", {}, h("h2", {}, t("beans_over_time")), lineChart(d.beans_history, { testid: "chart-beans" })));
    for (const g of GAMES) {
      if (d.rating_history[g]) {
        charts.appendChild(h("div", {}, h("h2", {}, t("rating_over_time", { game: label(g) })), lineChart(d.rating_history[g], { testid: `chart-rating-${g}` })));
      }
    }
    const hands = d.hands;
    const list = h(
      "table",
      { class: "hands", "data-testid": "profile-hands" },
      h("thead", {}, h("tr", {}, ...["when", "game", "role", "points", "beans", "record"].map((k) => h("th", {}, t("col_" + k))))),
      h(
        "tbody",
        {},
        ...hands.items.map((it) =>
          h(
            "tr",
            {},
            h("td", {}, it.finished_at ? new Date(it.finished_at).toLocaleString() : "–"),
            h("td", {}, label(it.game)),
            h("td", {}, roleName(it.role)),
            h("td", {}, it.scored ? String(it.score) : t("unscored")),
            h("td", {}, String(it.beans)),
            h("td", { class: "hand-links" }, ...handLinks(it)),
          ),
        ),
      ),
    );
    const pager = h("div", { class: "pager" }, ...pagerParts(hands, hands.items.length, "hands", (o) => {
      offset = o;
      load();
    }));
    body.replaceChildren(
      head,
      h("section", { class: "panel" }, h("h2", {}, t("record")), table),
      charts,
      h("section", { class: "panel" }, h("h2", {}, t("hands")), list, pager),
      mine && !p.guest ? passwordForm() : null,
    );
  }

  return lifecycle(render, load, () => (destroyed = true));
}

// 举报 from a profile: the reason and a line of text; a thank-you, nothing about the outcome.
function reportButton(p) {
  const go = async () => {
    const answer = await askReport(p.name);
    if (!answer) return;
    try {
      await api.report({ player: p.id, reason: answer.reason, text: answer.text });
      toast(t("report_thanks"));
    } catch (err) {
      toast(errorText(err), "error");
    }
  };
  return h("button", { class: "small report-button", "data-testid": "profile-report", onclick: go }, t("report"));
}

// A hand of the list: its replay 牌谱回放 from the player's own seat, and its record as a file.
function handLinks(it) {
  const seat = Number.isInteger(it.seat) ? `?seat=${it.seat}` : "";
  const replay = h(
    "a",
    { href: `#/replay/${encodeURIComponent(it.room_id)}/${it.number}${seat}`, "data-testid": "hand-replay", title: t("replay_open") },
    t("hand_n", { n: it.number }) + " · " + t("replay_short"),
  );
  const file = `paiju-${it.room_id}-${it.number}.json`;
  const record = h("a", { href: it.record, download: file, class: "muted", "data-testid": "hand-record", title: t("record_download") }, t("record_json"));
  return [replay, " ", record];
}

// 修改密码: the old password, the new one twice; every other session of the account ends.
function passwordForm() {
  const old = h("input", { type: "password", autocomplete: "current-password", placeholder: t("password_old"), "data-testid": "password-old" });
  const neu = h("input", { type: "password", autocomplete: "new-password", placeholder: t("password_new"), "data-testid": "password-new" });
  const again = h("input", { type: "password", autocomplete: "new-password", placeholder: t("password_again"), "data-testid": "password-again" });
  const go = h("button", { class: "primary", type: "submit", "data-testid": "password-change" }, t("password_change"));
  const form = h("form", { class: "password-form" }, old, neu, again, go);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (neu.value !== again.value) {
      toast(t("password_mismatch"), "error");
      return;
    }
    try {
      await api.changePassword(old.value, neu.value);
      toast(t("password_changed"));
      form.reset();
    } catch (err) {
      toast(errorText(err), "error");
    }
  });
  return h("section", { class: "panel" }, h("h2", {}, t("password_change")), form);
}

/**
 * @param {HTMLElement} root
 * @param {any} ctx the app's context
 * @returns {{destroy: () => void}}
 */
export function mountLeaderboard(root, ctx) {
  let destroyed = false;
  let offset = 0;
  const game = h("select", { "data-testid": "board-game" }, ...GAMES.map((g) => h("option", { value: g }, label(g))));
  const by = h("select", { "data-testid": "board-by" }, ...["rating", "beans", "points"].map((b) => h("option", { value: b }, t("board_" + b))));
  const body = h("div", { class: "board", "data-testid": "leaderboard" }, h("div", { class: "muted" }, "…"));
  const pager = h("div", { class: "pager" });
  for (const sel of [game, by]) {
    sel.addEventListener("change", () => {
      offset = 0;
      load();
    });
  }
  const render = () =>
    root.replaceChildren(
      h(
        "div",
        { class: "page board-page" },
        topbar(ctx, t("leaderboard")),
        h("main", { class: "profile-main" }, h("section", { class: "panel" }, h("div", { class: "panel-head" }, h("h1", {}, t("leaderboard")), game, by), body, pager)),
      ),
    );
  render();

  async function load() {
    try {
      const d = await api.leaderboard(game.value, by.value, offset);
      if (!destroyed) show(d);
    } catch (err) {
      if (!destroyed) body.replaceChildren(h("div", { class: "muted" }, errorText(err)));
    }
  }

  function show(d) {
    if (!d.rows.length) {
      body.replaceChildren(h("div", { class: "muted empty" }, t("no_data")));
    } else {
      body.replaceChildren(
        h(
          "table",
          { class: "stats" },
          h("thead", {}, h("tr", {}, ...["rank", "player", "title", "rating", "beans_won", "points", "hands"].map((k) => h("th", {}, t("col_" + k))))),
          h(
            "tbody",
            {},
            ...d.rows.map((r) =>
              h(
                "tr",
                { "data-testid": `board-row-${r.id}` },
                h("td", {}, String(r.rank)),
                h("td", {}, h("a", { href: `#/player/${r.id}` }, r.name), r.guest ? h("span", { class: "muted" }, " · " + t("guest")) : null),
                h("td", {}, titleText(r.title)),
                h("td", {}, r.rating === null ? "–" : String(r.rating)),
                h("td", {}, r.guest ? "–" : String(r.beans)),
                h("td", {}, String(r.points)),
                h("td", {}, String(r.hands)),
              ),
            ),
          ),
        ),
      );
    }
    pager.replaceChildren(...pagerParts(d, d.rows.length, "board", (o) => {
      offset = o;
      load();
    }));
  }

  return lifecycle(render, load, () => (destroyed = true));
}
