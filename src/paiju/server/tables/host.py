"""What a table needs of the hall that holds it.

The hall (hall.py) is above its tables: it makes them, and a table reaches it only
through the members of :class:`TableHost`, so nothing below the hall imports it."""

from __future__ import annotations

from typing import Any, Protocol

from paiju.server.store.db import Store
from paiju.server.store.writer import Write
from paiju.server.tables.bot_pool import BotPool
from paiju.server.tables.throttle import Limits


class TableHost(Protocol):
    """What a table needs of the hall that holds it (hall.py's ``Hall``): the hall is above
    its tables, so a table reaches it only through these members."""

    store: Store
    limits: Limits
    bot_pool: BotPool
    bot_delay: float
    deal_step: float
    deal_final_window: float

    @property
    def leave_grace(self) -> float: ...

    async def write(self, write: Write) -> Any: ...

    def store_unavailable(self) -> None: ...

    def fence(self, room: str) -> tuple[str, int] | None: ...

    def lost(self, table: Any) -> None: ...  # the table (table.py)

    def touched(self, table: Any) -> None: ...  # the table

    def listing_changed(self, table: Any) -> None: ...  # the table: made private, or listed again

    def player_names(self, ids: list[int]) -> dict[int, str]: ...

    def remember(self, pid: int, name: str) -> None: ...

    def tournament_progress(self, tid: int) -> None: ...  # a tournament's hand was stored
