"""Fair shares of the hall: rate limits and connection caps per player and per address.

Limits are kept per player and per address across all their connections, so that opening
more tabs or sockets buys no more of the hall. A message past a limit is dropped without
an answer (an answer would cost the hall as much as the message); a client that keeps
flooding is disconnected. The figures are settings of ``paiju serve`` (:class:`Limits`).
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class Limits:
    """What one visitor may use of the hall (``paiju serve --help`` lists each)."""

    rate: float = 20.0  # table messages per second per player (bursts of twice that)
    address_rate: float = 200.0  # per address: a household or a school behind one address
    flood_drops: int = 200  # messages dropped within flood_window seconds: disconnect
    flood_window: float = 10.0
    conns_per_player: int = 8  # simultaneous table connections
    conns_per_address: int = 64
    http_conns_per_address: int = 256  # open HTTP connections (not past a trusted proxy: it caps them)
    outbox_bytes: int = 1 << 20  # unread answers a connection may owe before it is closed
    rooms_per_player: int = 5  # open rooms a player created
    rooms_per_minute: float = 6.0  # rooms a player may create per minute
    body_bytes: int = 64 * 1024  # an HTTP request body
    lobby_page: int = 50  # rooms per page of GET /api/rooms (at most 200)
    lobby_refresh: float = 0.5  # seconds the lobby snapshot is served before it is rebuilt
    room_idle: float = 600.0  # seconds an empty room stays open
    leave_grace: float = 120.0  # seconds a player may be away from a started hand
    ready_timeout: float = 20.0  # seconds between hands before the unready are put on 托管 and the hand starts
    archive_after: float = 1800.0  # seconds a room may have no person before it is closed and archived
    say_gap: float = 2.0  # seconds between two quick phrases or chat lines of one connection
    say_per_minute: int = 10  # quick phrases or chat lines of one connection per minute
    replays_per_minute: float = 30.0  # replays made anew (not from the cache) per address
    guests_per_minute: float = 30.0  # new guest players per address (bursts of as many)

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


class Bucket:
    """A token bucket: ``rate`` per second, bursts of ``burst``."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def idle(self, now: float) -> bool:
        """Full again: forgetting it changes nothing."""
        return self.tokens + (now - self.stamp) * self.rate >= self.burst


class Throttle:
    """Buckets and connection counts of every player and address."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._players: dict[int, Bucket] = {}
        self._addresses: dict[str, Bucket] = {}
        self._rooms: dict[int, Bucket] = {}
        self._replays: dict[str, Bucket] = {}
        self._guests: dict[str, Bucket] = {}
        self.conns_of_player: defaultdict[int, int] = defaultdict(int)
        self.conns_of_address: defaultdict[str, int] = defaultdict(int)
        self._swept = time.monotonic()

    def _bucket(self, table: dict[Any, Bucket], key: Any, rate: float, burst: float) -> Bucket:
        b = table.get(key)
        if b is None:
            b = table[key] = Bucket(rate, burst)
        return b

    def message(self, player: int, address: str) -> bool:
        """May this player, from this address, send one more table message now?"""
        now = time.monotonic()
        if now - self._swept > 60:
            self._sweep(now)
        lim = self.limits
        ok = self._bucket(self._players, player, lim.rate, 2 * lim.rate).take(now)
        return self._bucket(self._addresses, address, lim.address_rate, 2 * lim.address_rate).take(now) and ok

    def new_room(self, player: int) -> bool:
        rate = self.limits.rooms_per_minute / 60
        return self._bucket(self._rooms, player, rate, max(1.0, self.limits.rooms_per_minute / 2)).take()

    def replay(self, address: str) -> bool:
        """May this address have one more replay made (a hand's frames: CPU of the hall's)?"""
        rate = self.limits.replays_per_minute / 60
        return self._bucket(self._replays, address, rate, max(1.0, self.limits.replays_per_minute / 2)).take()

    def guest(self, address: str) -> bool:
        """May this address have one more guest player made?"""
        rate = self.limits.guests_per_minute / 60
        return self._bucket(self._guests, address, rate, max(1.0, self.limits.guests_per_minute)).take()

    def connect(self, player: int, address: str) -> str | None:
        """Count a new connection, or say why it is refused."""
        lim = self.limits
        if self.conns_of_player[player] >= lim.conns_per_player:
            return f"too many connections: at most {lim.conns_per_player} tables or tabs open at once"
        if self.conns_of_address[address] >= lim.conns_per_address:
            return f"too many connections from your address (at most {lim.conns_per_address})"
        self.conns_of_player[player] += 1
        self.conns_of_address[address] += 1
        return None

    def disconnect(self, player: int, address: str) -> None:
        self.conns_of_player[player] -= 1
        if self.conns_of_player[player] <= 0:
            del self.conns_of_player[player]
        self.conns_of_address[address] -= 1
        if self.conns_of_address[address] <= 0:
            del self.conns_of_address[address]

    def _sweep(self, now: float) -> None:
        """Forget full buckets: memory stays bounded by the visitors of the last minute."""
        self._swept = now
        tables: list[dict[Any, Bucket]] = [self._players, self._addresses, self._rooms, self._replays, self._guests]
        for table in tables:
            for key in [k for k, b in table.items() if b.idle(now)]:
                del table[key]


class FloodWatch:
    """One connection's dropped messages: too many within the window means a flooder."""

    __slots__ = ("limit", "window", "drops", "since")

    def __init__(self, limit: int, window: float) -> None:
        self.limit, self.window = limit, window
        self.drops = 0
        self.since = time.monotonic()

    def dropped(self) -> bool:
        """Count a dropped message; True when the connection should be closed."""
        now = time.monotonic()
        if now - self.since > self.window:
            self.drops, self.since = 0, now
        self.drops += 1
        return self.drops > self.limit
