"""复盘 in the hall: a finished hand's analysis (``paiju.analysis``) made in a worker process.

A player asks for the analysis of one seat of one finished hand; the hall judges the
seat's decisions one at a time in a worker process — CPU work of about ``budget`` seconds
each, which on the event loop would stall every table — counting them off as they come
back, so the page can show how far it is. The finished analysis is kept in the store
(``analyses``) and served to everyone who asks after; it is made once.

Workers are started like the 最强 bots' (``paiju.server.tables.bot_pool``): ``spawn``ed on first
use, under Linux's idle scheduling policy and off the CPUs a pinned hall uses, so an
analysis takes only CPU the tables leave. At most :attr:`AnalysisSettings.jobs` analyses
wait or run at once in the hall, and one per player: an analysis is minutes of CPU, and
asking for many must not crowd out the others. A worker that dies fails its job (the page
says so; asking again starts it anew).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from paiju import analysis
from paiju.errors import IllegalAction
from paiju.server import metrics
from paiju.server.store import db
from paiju.server.store.writer import Write
from paiju.server.tables.bot_pool import spawn_workers

log = logging.getLogger("paiju.analysis")

Key = tuple[str, int, int]
"""(room id, hand number, seat)."""


@dataclass(frozen=True)
class AnalysisSettings:
    budget: float = analysis.SECONDS  # seconds of search per decision
    jobs: int = 4  # analyses waiting or running at once in the hall
    per_address: int = 2  # of them asked from one address: guests cost nothing to make, addresses do
    workers: int = 1  # processes judging decisions


@dataclass(eq=False)
class Job:
    key: Key
    owner: int
    address: str | None = None
    state: str = "queued"  # queued | running | failed
    done: int = 0
    total: int = 0
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def answer(self) -> dict[str, Any]:
        if self.state == "failed":
            return {"state": "failed", "error": self.error}
        return {"state": self.state, "done": self.done, "total": self.total}


def refusal(jobs: Iterable[Job], owner: int, address: str | None, settings: AnalysisSettings) -> IllegalAction | None:
    """Why ``owner`` from ``address`` may not start one more analysis now (None: he may):
    one at a time per player, ``settings.jobs`` in the hall, ``settings.per_address`` per
    address — so a few guests made on one address cannot take every slot."""
    active = [j for j in jobs if j.state != "failed"]
    if any(j.owner == owner for j in active):
        return IllegalAction("your analysis of another hand is still running", code="analysis_yours")
    if len(active) >= settings.jobs:
        return IllegalAction(
            f"the hall is analysing {len(active)} hands already", code="analysis_busy", jobs=len(active)
        )
    mine = sum(j.address == address for j in active) if address is not None else 0
    if mine >= settings.per_address:
        return IllegalAction(
            f"{mine} analyses asked from your address are still running: wait for one to finish",
            code="analysis_address",
            count=mine,
        )
    return None


class Analyses:
    """The hall's analyses: running ones in memory, finished ones in the store."""

    def __init__(self, hall: Any, settings: AnalysisSettings | None = None) -> None:
        self.hall = hall
        self.settings = settings or AnalysisSettings()
        self.jobs: dict[Key, Job] = {}
        self._slots = asyncio.Semaphore(max(1, self.settings.workers))
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = spawn_workers(max(1, self.settings.workers))
        return self._executor

    async def state(self, key: Key) -> dict[str, Any]:
        """What the page is told: a job's progress, the stored analysis, or ``none``."""
        job = self.jobs.get(key)
        if job is not None:
            return job.answer()
        kept = await asyncio.to_thread(self.hall.store.analysis, key[0], key[1], key[2])
        if kept is not None and kept["version"] == analysis.VERSION:
            return {"state": "done", "analysis": kept["result"]}
        return {"state": "none"}

    async def start(
        self, key: Key, owner: int, record: Mapping[str, Any], address: str | None = None
    ) -> dict[str, Any]:
        """Start the analysis of ``key`` for player ``owner`` (unless it is made or being
        made); raises IllegalAction when the hall or the player has enough running."""
        now = await self.state(key)
        if now["state"] in ("done", "queued", "running"):
            return now
        self.jobs.pop(key, None)  # a failed one is tried again
        why = refusal(self.jobs.values(), owner, address, self.settings)
        if why is not None:
            raise why
        rid, n, seat = key
        steps = await asyncio.to_thread(analysis.seat_actions, record, seat)  # raises for a bad seat
        job = self.jobs[key] = Job(key, owner, address, total=sum(s["why"] is None for s in steps))
        job.task = asyncio.get_running_loop().create_task(self._run(job, dict(record), steps), name=f"analysis {key}")
        return job.answer()

    async def _run(self, job: Job, record: dict[str, Any], listed: list[dict[str, Any]]) -> None:
        rid, n, seat = job.key
        budget = self.settings.budget
        try:
            async with self._slots:
                job.state = "running"
                judged: list[dict[str, Any]] = []
                unsampled: list[int] = []
                for step in (s["step"] for s in listed if s["why"] is None):
                    kw = {"seconds": budget, "double_dummy": True}
                    fut = self._pool().submit(analysis.judge_or_none, record, seat, step, kw)
                    d = await asyncio.wrap_future(fut)
                    if d is None:
                        unsampled.append(step)
                    else:
                        judged.append(d)
                    job.done += 1
                result = analysis.assemble(
                    record, seat, judged, listed, seconds=budget, double_dummy=True, unsampled=unsampled
                )
                await self.hall.write(
                    Write(run=lambda c: db.save_analysis_tx(c, rid, n, seat, analysis.VERSION, result))
                )
            del self.jobs[job.key]  # from now on the store answers
            metrics.ANALYSES.labels("done").inc()
        except asyncio.CancelledError:
            raise
        except BrokenExecutor as e:
            self._drop_pool()
            self._fail(job, f"the analysis worker stopped: {e!r}")
        except Exception as e:  # the job fails alone; the hall goes on
            log.exception("analysis %s failed", job.key)
            self._fail(job, str(e) or repr(e))

    def _fail(self, job: Job, why: str) -> None:
        job.state, job.error = "failed", why
        metrics.ANALYSES.labels("failed").inc()

    def _drop_pool(self) -> None:
        pool, self._executor = self._executor, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        for job in list(self.jobs.values()):
            if job.task is not None:
                job.task.cancel()
        pool, self._executor = self._executor, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)
