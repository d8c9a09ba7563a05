// @ts-check
// Fetch helpers for the hall's HTTP API (docs/protocol.md). Every call sends the
// identity cookie; an error answer {"error": "..."} becomes a thrown ApiError.

export class ApiError extends Error {
  // code and params: the hall's reason for a refusal (reasonText translates them)
  constructor(message, status, code = null, params = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.params = params;
  }
}

async function request(method, path, body) {
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(String(e.message || e), 0);
  }
  let data = null;
  const text = await res.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { error: text.slice(0, 200) };
    }
  }
  if (!res.ok) {
    const d = data || {};
    throw new ApiError(d.error || `${res.status} ${res.statusText}`, res.status, d.code || null, d.params || null);
  }
  return data;
}

/** @type {(path: string) => Promise<any>} */
export const getJSON = (path) => request("GET", path);
/** @type {(path: string, body?: unknown) => Promise<any>} */
export const postJSON = (path, body) => request("POST", path, body ?? {});

// {"player": {id, name} | null}
export async function me() {
  const d = await getJSON("/api/me");
  return (d && d.player) || null;
}

/** @param {string} name */
export async function login(name) {
  const d = await postJSON("/api/login", { name });
  return d.player;
}

// accounts: a user name and a password (a guest who registers keeps its player and hands)
/**
 * @param {string} username
 * @param {string} password
 * @param {string} name
 */
export async function register(username, password, name) {
  const d = await postJSON("/api/register", { username, password, ...(name ? { name } : {}) });
  return d.player;
}
/**
 * @param {string} username
 * @param {string} password
 */
export async function accountLogin(username, password) {
  const d = await postJSON("/api/login", { username, password });
  return d.player;
}
export const logout = () => postJSON("/api/logout");
/** @type {(old: string, neu: string) => Promise<any>} */
export const changePassword = (old, neu) => postJSON("/api/password", { old, new: neu });
// 救济: {"beans": the new balance}
export const relief = () => postJSON("/api/relief");
// a player's profile (hands paged) and a game's leaderboard 排行榜
/** @type {(id: number | string, offset?: number, limit?: number) => Promise<any>} */
export const player = (id, offset = 0, limit = 20) => getJSON(`/api/players/${encodeURIComponent(id)}?offset=${offset}&limit=${limit}`);
/** @type {(game: string, by?: string, offset?: number, limit?: number) => Promise<any>} */
export const leaderboard = (game, by = "rating", offset = 0, limit = 20) =>
  getJSON(`/api/leaderboard?game=${encodeURIComponent(game)}&by=${encodeURIComponent(by)}&offset=${offset}&limit=${limit}`);

export const games = () => getJSON("/api/games");
/**
 * One game under a room's options, for its rules page (GET /api/games/{game}?options=).
 * @param {string} game
 * @param {Record<string, unknown>} options
 */
export function gameRules(game, options) {
  const q = options && Object.keys(options).length ? `?options=${encodeURIComponent(JSON.stringify(options))}` : "";
  return getJSON(`/api/games/${encodeURIComponent(game)}${q}`);
}

// the lobby's rooms, of one game when `game` is given; `stale`: some may be out of date (a
// server of the hall could not reach the others and lists their rooms as it last saw them)
/**
 * @param {string} [game]
 * @returns {Promise<{rooms: any[], stale: boolean}>}
 */
export async function rooms(game = "") {
  const d = await getJSON("/api/rooms" + (game ? "?game=" + encodeURIComponent(game) : ""));
  return { rooms: (d && d.rooms) || [], stale: Boolean(d && d.stale) };
}

// 快速开始: seated at the first table of `game` not yet playing a match with a free seat (or a
// new one called `name`, in the page's language, with bots; its hand starts as the table connects) → {room, seat}
/** @type {(game: string, name: string) => Promise<any>} */
export const quickStart = (game, name) => postJSON("/api/quick_start", { game, name });

/** @type {(id: string) => Promise<any>} */
export const room = (id) => getJSON(`/api/rooms/${encodeURIComponent(id)}`);

// {"name", "game", "options", "turn_timeout"} → the new room's id
/**
 * @param {Record<string, unknown>} spec
 * @returns {Promise<string>} the new room's id
 */
export async function createRoom(spec) {
  const d = await postJSON("/api/rooms", spec);
  return d.id;
}

// The WebSocket URL of a room's table.
/**
 * @param {string} roomId
 * @returns {string}
 */
export function tableSocketURL(roomId) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws/${encodeURIComponent(roomId)}`;
}

// 举报 from a profile: {"report": id}; the reporter learns nothing about its outcome
/** @type {(spec: {player: number, reason: string, text: string, room?: string, hand?: number}) => Promise<any>} */
export const report = (spec) => postJSON("/api/reports", spec);

// The admin console's calls (moderators and admins; the hall refuses others with not_admin).
/** @param {Record<string, string | number | null | undefined>} params */
function query(params) {
  const q = Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null && v !== "")
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join("&");
  return q ? "?" + q : "";
}
export const admin = {
  /** @type {(status: string, offset?: number, limit?: number) => Promise<any>} */
  reports: (status, offset = 0, limit = 20) => getJSON("/api/admin/reports" + query({ status, offset, limit })),
  /** @type {(id: number, outcome: string) => Promise<any>} */
  closeReport: (id, outcome) => postJSON(`/api/admin/reports/${id}`, { outcome }),
  /** @type {(q: string, offset?: number, limit?: number) => Promise<any>} */
  users: (q, offset = 0, limit = 20) => getJSON("/api/admin/users" + query({ q, offset, limit })),
  /** @type {(id: number) => Promise<any>} */
  user: (id) => getJSON(`/api/admin/users/${id}`),
  // what: role | ban | unban | mute | grant; body: its fields and the reason
  /** @type {(id: number, what: string, body: Record<string, unknown>) => Promise<any>} */
  userAction: (id, what, body) => postJSON(`/api/admin/users/${id}/${what}`, body),
  rooms: () => getJSON("/api/admin/rooms"),
  /** @type {(room: string, seat: number, reason: string) => Promise<any>} */
  kick: (roomId, seat, reason) => postJSON("/api/admin/kick", { room: roomId, seat, reason }),
  /** @type {(room: string, reason: string) => Promise<any>} */
  closeRoom: (roomId, reason) => postJSON("/api/admin/close", { room: roomId, reason }),
  /** @type {(offset?: number, limit?: number, player?: number | null) => Promise<any>} */
  audit: (offset = 0, limit = 50, who = null) => getJSON("/api/admin/audit" + query({ offset, limit, player: who })),
};
