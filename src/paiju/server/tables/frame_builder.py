"""Replay frames 牌谱回放 built off the tables' process, a bounded number at a time.

Building a hand's frames replays it step by step (~80 ms of CPU for a Baohuang hand). On a
thread of the hall's process it shared the interpreter with every table: replays asked
from many addresses pushed another table's ping to p99 510 ms. The frames are built in a
worker process of their own (spawned, idle-scheduled, as the bots' and the analyses'),
and at most ``queued`` builds wait or run at once in the hall: past that a replay is
refused (``replays_busy``) rather than queued without end.
"""

from __future__ import annotations

import asyncio
import gzip
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from typing import Any

import orjson

from paiju.errors import IllegalAction
from paiju.server import reasons as _reasons  # noqa: F401 - registers the codes raised here
from paiju.server.tables import replays
from paiju.server.tables.bot_pool import spawn_workers

QUEUED = 8  # frame builds waiting or running at once in the hall


def encoded_frames(
    record: Any, seat: int, seats: list[dict[str, Any]] | None, room: dict[str, Any] | None = None
) -> bytes:
    """The replay frames of ``record`` from ``seat`` (and the ``room`` it was played in),
    as gzipped JSON (raises IllegalAction). Runs in the worker process."""
    try:
        return gzip.compress(orjson.dumps({**replays.frames(record, seat, seats=seats), "room": room}), 5)
    except IllegalAction:
        raise
    except (KeyError, TypeError, ValueError) as e:  # a record whose setup the engine cannot take
        raise IllegalAction(f"not a paiju game record: {e}", code="bad_record") from None


class FrameBuilder:
    """The hall's frame builds: one worker process (started at the first replay), at most
    ``queued`` builds at once."""

    def __init__(self, queued: int = QUEUED, workers: int = 1) -> None:
        self.queued, self.workers = queued, workers
        self.busy = 0  # builds waiting or running
        self._executor: ProcessPoolExecutor | None = None

    async def build(
        self, record: Any, seat: int, seats: list[dict[str, Any]] | None, room: dict[str, Any] | None = None
    ) -> bytes:
        """:func:`encoded_frames` in the worker; IllegalAction ``replays_busy`` when full."""
        self.check_room()
        self.busy += 1
        try:
            if self._executor is None:
                self._executor = spawn_workers(self.workers)
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self._executor, encoded_frames, record, seat, seats, room)
            except BrokenExecutor:  # the worker died (killed, out of memory): a new one for the next
                self._executor = None
                raise IllegalAction("the replay could not be built: try again", "replays_busy") from None
        finally:
            self.busy -= 1

    def check_room(self) -> None:
        """Raise ``replays_busy`` when ``queued`` builds wait or run already."""
        if self.busy >= self.queued:
            raise IllegalAction("the hall is building many replays already: try again soon", "replays_busy")

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
