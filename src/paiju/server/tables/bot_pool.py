"""The worker processes the 最强 (strongest) bot thinks in, so that the hall's event loop never waits.

The strongest bot is the ``search`` bot (``paiju.bots.search``) with a budget a table can
wait for: at most :data:`SECONDS` per searched decision. A search is CPU work of a few
hundred milliseconds; on the event loop it would stall every table of the hall, so the
table sends the seat's view and the legal actions — what the bot may know, never the
game — to a :class:`concurrent.futures.ProcessPoolExecutor` and applies the answer when
it comes back (``paiju.server.tables.table``). The decisions the search bot does not search
(before the play, a forced move, a hand of more than ``cards`` cards) are the heuristic's
choice: the table makes them in-process, as for the ``strong`` level, and asks the pool
only when :func:`searches` says the search bot would search.

The workers are started with ``spawn`` (never ``fork``: the hall has threads — the
writer, the executor's own) on first use, so a hall without strongest bots starts no
process; starting one costs the loop about 13 ms once (the worker then imports paiju by
itself, under a second). As always with ``spawn``, a script that runs the hall must guard
its start with ``if __name__ == "__main__":`` (``paiju serve`` and ``python -m
paiju.server.web.serve`` do): a worker imports the main module again.

A worker that dies (killed, out of memory) breaks the executor: the pool makes a new one
for the next question. A question not answered within :data:`TIMEOUT` (or
refused by a broken pool) raises :class:`PoolFailed`; the table then plays the
heuristic's choice, so a table never hangs on the pool. The search bot is stateless
given the view (its heuristic rebuilds its memory from the view's tricks), so one bot per
game and worker answers every seat of every table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
from collections.abc import Mapping, Sequence
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from paiju.server import metrics

log = logging.getLogger("paiju.bot_pool")

SECONDS = 0.4
"""The search budget per searched decision: with the last world's rollouts it stays
under half a second (measured: 0.41 s at most over a hand of each game)."""
STRONGEST = f"search:seconds={SECONDS}"
"""The bot the 最强 level plays, by its registry name with parameters."""
POOLED = {"strongest": STRONGEST}
"""Bot levels whose searched decisions are made in the pool."""
TIMEOUT = 2.0
"""Seconds a table waits for an answer: a search, and one more queued before it."""
NICE = 10
"""How much lower the workers' CPU priority is than the hall's where the idle policy below
is not to be had (not Linux)."""
IDLE = True
"""Workers run under Linux's ``SCHED_IDLE`` policy: the scheduler gives them a CPU only
when nothing else wants it. The search is bounded by wall time, so a starved worker plays
out fewer worlds, and one that cannot answer in :data:`TIMEOUT` is replaced by the
heuristic's choice. Even so, a search on the hall's own core costs a saturated hall
(measured: other tables' p99 up by about half, docs/benchmarks.md) — context switches and
caches, not CPU share — so a hall pinned to some CPUs (``taskset``) keeps its workers on
the others (:func:`hall_cpus`)."""
STARTUP = 30.0
"""Seconds more for the first answer of a new executor (a spawned worker imports paiju)."""


@dataclass(eq=False)
class Question:
    """A 最强 seat's decision at ``key`` (hands done, turn): what it may know, and the pool's answer."""

    key: tuple[int, int]
    view: dict[str, Any]
    legal: list[Any]
    searched: bool  # sent to the bot pool (else the heuristic's choice, in-process)
    due: float  # loop time the bot's delay ends: the move is not made before
    done: bool = False
    answer: int | None = None  # index in legal; None: the pool failed
    task: asyncio.Task[None] | None = None
    hand: int | None = None  # the stored hand it belongs to (its id)


class PoolFailed(Exception):
    """The pool gave no answer (timed out, a worker died, the pool is closed)."""


def init_worker(hall_cpus: frozenset[int] = frozenset()) -> None:
    """Worker initializer: a lower CPU priority, the CPUs the hall is not pinned to (if it
    is pinned to some), and the engines and bots imported once."""
    import os

    others = set(range(os.cpu_count() or 1)) - hall_cpus
    if hall_cpus and others and hasattr(os, "sched_setaffinity"):
        with contextlib.suppress(OSError):  # a CPU outside the process's cpuset: stay where it is
            os.sched_setaffinity(0, others)

    with contextlib.suppress(OSError):
        os.nice(NICE)
    if IDLE and hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    import paiju.bots  # noqa: F401 - registers every bot and imports the games


_bots: dict[tuple[str, str], Any] = {}  # in a worker: (bot name, game) -> the bot


def _decide(name: str, game: str, view: Mapping[str, Any], legal: Sequence[Any]) -> int:
    """In a worker: the index in ``legal`` of the action bot ``name`` chooses."""
    from paiju.bots import make_bot

    bot = _bots.get((name, game))
    if bot is None:
        bot = _bots[(name, game)] = make_bot(name, game=game)
    return list(legal).index(bot.act(view, legal))


def _warm() -> int:
    import os

    return os.getpid()


_cards: dict[str, int] = {}


def searches(name: str, view: Mapping[str, Any], legal: Sequence[Any]) -> bool:
    """Whether the search bot ``name`` would search this decision (``SearchBot.act``'s
    own test); the others are the heuristic's choice, cheap enough for the loop."""
    if name not in _cards:
        from paiju.bots import make_bot

        _cards[name] = make_bot(name, game="baohuang").cards  # type: ignore[attr-defined]
    return view.get("phase") == "play" and len(legal) >= 2 and len(view.get("hand") or ()) <= _cards[name]


def hall_cpus() -> frozenset[int]:
    """The CPUs the hall is pinned to, when that is fewer than the machine has (else none):
    its workers then search on the others, so a search never shares the hall's core."""
    import os

    if not hasattr(os, "sched_getaffinity"):
        return frozenset()
    mine = frozenset(os.sched_getaffinity(0))
    return mine if len(mine) < (os.cpu_count() or 1) else frozenset()


def spawn_workers(workers: int) -> ProcessPoolExecutor:
    """``workers`` processes started with ``spawn``, idle-scheduled and off a pinned hall's
    CPUs (:func:`init_worker`): for the 最强 bots here and the 复盘 analyses."""
    return ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("spawn"), initializer=init_worker, initargs=(hall_cpus(),)
    )


class BotPool:
    """``workers`` processes answering bots' questions (none: every question fails at once)."""

    def __init__(self, workers: int = 1, timeout: float = TIMEOUT) -> None:
        self.workers = workers
        self.timeout = timeout
        self._executor: ProcessPoolExecutor | None = None
        self._answered = False  # the current executor answered once: its workers are up
        self._closed = False
        self._failures = 0
        self.rebuilt = 0  # executors replaced after a worker died or hung
        self.asked = 0  # questions waiting for or being searched (paiju_bot_pool_questions)

    def start(self) -> None:
        """Ready to answer (the workers themselves start with the first question)."""
        self._closed = False

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = spawn_workers(self.workers)
            self._answered = False
        return self._executor

    def worker_pids(self) -> list[int]:
        """The pids of the current workers (tests kill one)."""
        ex = self._executor
        return [p.pid for p in (getattr(ex, "_processes", None) or {}).values() if p.pid] if ex else []

    async def warm(self) -> list[int]:
        """Start the workers now and wait until one answers; their pids."""
        if self.workers < 1 or self._closed:
            return []
        await asyncio.wrap_future(self._pool().submit(_warm))
        self._answered = True
        return self.worker_pids()

    async def decide(self, name: str, game: str, view: Mapping[str, Any], legal: Sequence[Any]) -> int:
        """The index in ``legal`` of the action bot ``name`` takes; raises :class:`PoolFailed`."""
        if self.workers < 1 or self._closed:
            raise PoolFailed("no bot workers")
        self.asked += 1
        try:
            return await self._ask(name, game, view, legal)
        finally:
            self.asked -= 1

    async def _ask(self, name: str, game: str, view: Mapping[str, Any], legal: Sequence[Any]) -> int:
        pool = self._pool()
        try:
            fut = pool.submit(_decide, name, game, dict(view), list(legal))
        except (BrokenExecutor, RuntimeError) as e:  # broken, or shut down by a failure just now
            self._rebuild(pool)
            raise self._failed(f"the pool refused the question: {e!r}") from None
        wait = self.timeout + (0 if self._answered else STARTUP)
        try:
            index = await asyncio.wait_for(asyncio.wrap_future(fut), wait)
        except TimeoutError:
            if not fut.cancel():  # it was running (or handed to a worker): that worker is stuck
                self._rebuild(pool)
            raise self._failed(f"no answer within {wait:g} s") from None
        except BrokenExecutor as e:
            self._rebuild(pool)
            raise self._failed(f"a bot worker died: {e!r}") from None
        except Exception as e:  # the bot itself failed in the worker
            raise self._failed(f"the bot failed in its worker: {e!r}") from None
        self._answered = True
        if not isinstance(index, int) or not 0 <= index < len(legal):
            raise self._failed(f"the worker answered {index!r}")
        return index

    def _failed(self, why: str) -> PoolFailed:
        """The error to raise; logged once at warning, then at debug with a count."""
        self._failures += 1
        metrics.BOT_FALLBACKS.inc()
        if self._failures == 1:
            log.warning("the strongest bot plays the heuristic's choice: %s (logged once)", why)
        else:
            log.debug("bot pool failure %d: %s", self._failures, why)
        return PoolFailed(why)

    def _rebuild(self, pool: ProcessPoolExecutor | None) -> None:
        """Drop ``pool`` (if it is still the current one): the next question makes a new one."""
        if pool is None or pool is not self._executor:
            return
        self._executor = None
        self.rebuilt += 1
        for p in list((getattr(pool, "_processes", None) or {}).values()):  # a hung worker must not linger
            if p.is_alive():
                p.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Stop the workers (questions still waiting are cancelled)."""
        self._closed = True
        pool, self._executor = self._executor, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)
