// Fetch helpers for the hall's HTTP API (docs/protocol.md). Every call sends the
// identity cookie; an error answer {"error": "..."} becomes a thrown ApiError.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function request(method, path, body) {
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
  if (!res.ok) throw new ApiError((data && data.error) || `${res.status} ${res.statusText}`, res.status);
  return data;
}

export const getJSON = (path) => request("GET", path);
export const postJSON = (path, body) => request("POST", path, body ?? {});

// {"player": {id, name} | null}
export async function me() {
  const d = await getJSON("/api/me");
  return (d && d.player) || null;
}

export async function login(name) {
  const d = await postJSON("/api/login", { name });
  return d.player;
}

export const games = () => getJSON("/api/games");

// the lobby's rooms, of one game when `game` is given
export async function rooms(game = "") {
  const d = await getJSON("/api/rooms" + (game ? "?game=" + encodeURIComponent(game) : ""));
  return (d && d.rooms) || [];
}

// 快速开始: seated at the first table of `game` with a free seat (or a new one with bots) → {room, seat}
export const quickStart = (game) => postJSON("/api/quick_start", { game });

export const room = (id) => getJSON(`/api/rooms/${encodeURIComponent(id)}`);

// {"name", "game", "options", "turn_timeout"} → the new room's id
export async function createRoom(spec) {
  const d = await postJSON("/api/rooms", spec);
  return d.id;
}

// The WebSocket URL of a room's table.
export function tableSocketURL(roomId) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws/${encodeURIComponent(roomId)}`;
}
