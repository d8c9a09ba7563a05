"""Replay frames built off the tables' process, a bounded number at a time (issue 34
item 1): the frames come from a worker process and are the same as built in place; past
the hall's bound a replay is refused (``replays_busy``) instead of queued."""

from __future__ import annotations

import asyncio
import os
import random

import pytest

import paiju
from paiju.errors import IllegalAction
from paiju.server.tables import frame_builder
from paiju.server.tables.frame_builder import FrameBuilder, encoded_frames


def _record(seed: int = 7) -> dict[str, object]:
    g = paiju.new_game("shuangkou", seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    return g.record()  # type: ignore[no-any-return]


def test_frames_are_built_in_a_worker_process_and_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    record = _record()
    builder = FrameBuilder()

    async def build() -> tuple[bytes, int]:
        data = await builder.build(record, 0, None, {"id": "r", "name": "n"})
        assert builder._executor is not None
        pid = await asyncio.get_running_loop().run_in_executor(builder._executor, os.getpid)
        with pytest.raises(IllegalAction) as e:  # a refusal comes back from the worker with its reason
            await builder.build({**record, "actions": []}, 0, None)
        assert e.value.code == "hand_not_over"
        return data, pid

    try:
        data, pid = asyncio.run(build())
    finally:
        builder.close()
    assert pid != os.getpid()  # not the tables' process
    assert data == encoded_frames(record, 0, None, {"id": "r", "name": "n"})


def test_past_the_bound_a_replay_is_refused_not_queued() -> None:
    builder = FrameBuilder(queued=2)
    builder.busy = 2  # two builds waiting or running
    with pytest.raises(IllegalAction) as e:
        asyncio.run(builder.build(_record(), 0, None))
    assert e.value.code == "replays_busy" and builder._executor is None  # nothing was started
    assert frame_builder.QUEUED >= 1
