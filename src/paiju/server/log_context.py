"""Which room and which player a log line is about when the code that logs does not say
(``extra={"room": …}``): set once when a table's task starts and once per table connection
(a context variable belongs to its asyncio task, and the tasks and timers started from it),
never per message; read by the JSON log format (``paiju.server.web.logs``)."""

from __future__ import annotations

from contextvars import ContextVar

room: ContextVar[str | None] = ContextVar("paiju_log_room", default=None)
player: ContextVar[int | None] = ContextVar("paiju_log_player", default=None)
