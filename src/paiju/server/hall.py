"""The hall: the store, every table (one actor per room) and the players' names."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from paiju.errors import IllegalAction
from paiju.registry import GAMES, game_class
from paiju.server.games_info import room_option_names
from paiju.server.store import Store
from paiju.server.table import Table

DEFAULT_TURN_TIMEOUT = 30.0
log = logging.getLogger("paiju.hall")


class Hall:
    """Rooms and tables of one server process."""

    def __init__(self, store: Store, *, bot_delay: float = 0.6) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self._names: dict[int, str] = {}
        self._dirty: dict[str, Table] = {}  # tables with actions staged for the next commit

    async def open(self) -> None:
        """Load every room from the store and start its table (resuming unfinished hands)."""
        for row in await asyncio.to_thread(self.store.all_rooms):
            table = Table(self, row)
            self.tables[table.id] = table
            table.start()

    async def close(self) -> None:
        for table in self.tables.values():
            await table.stop()

    def after_commit(self, table: Table) -> None:
        """Show ``table``'s change once its staged actions are committed: one commit per
        loop turn for every table (group commit), then the updates."""
        if not self._dirty:
            asyncio.get_running_loop().call_soon(self._commit)
        self._dirty[table.id] = table

    def _commit(self) -> None:
        tables, self._dirty = list(self._dirty.values()), {}
        try:
            self.store.flush()
        except Exception:
            log.exception("group commit failed")
            for table in tables:
                table.store_failed()
            return
        for table in tables:
            table.changed()

    def player_names(self, ids: list[int]) -> dict[int, str]:
        missing = [i for i in ids if i not in self._names]
        if missing:
            self._names.update(self.store.players_by_id(missing))
        return {i: self._names[i] for i in ids if i in self._names}

    def rename(self, pid: int, name: str) -> None:
        self.store.rename_player(pid, name)
        self._names[pid] = name

    def create_room(
        self, name: str, game: str, options: dict[str, Any], turn_timeout: float, created_by: int | None
    ) -> Table:
        if game not in GAMES:
            raise IllegalAction(f"unknown game {game!r}; games are {', '.join(GAMES)}")
        cls: Any = game_class(game)
        if not isinstance(options, dict):
            raise IllegalAction("options must be an object of option names and values")
        allowed = room_option_names(game)
        unknown = sorted(set(options) - allowed)
        if unknown:  # also keeps deal=, seed= and the match's own options out of a room's hands
            raise IllegalAction(
                f"unknown {game} room option(s) {', '.join(unknown)}; options are {', '.join(sorted(allowed))}"
            )
        probe: Any = cls(seed=0, **options)  # validates every option with the engine's own messages
        if not 1 <= turn_timeout <= 600:
            raise IllegalAction("turn_timeout must be between 1 and 600 seconds")
        name = (name or "").strip()[:64] or f"{game} room"
        row = self.store.create_room(name, game, options, turn_timeout, probe.num_players, created_by)
        table = Table(self, row)
        self.tables[table.id] = table
        table.start()
        return table
