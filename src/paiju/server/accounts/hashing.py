"""Password hashing 密码哈希 on a pool of its own.

argon2 is slow on purpose (tens of milliseconds of CPU and 64 MiB each). Run on the event
loop's default thread pool, a flood of registrations or logins filled it, and every
request's session lookup (also a thread of that pool) waited behind the hashes. Account
and room passwords are hashed and checked here instead, on :data:`WORKERS` threads: a
flood of hashes queues behind itself, never in front of a lookup.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

WORKERS = 2  # argon2 computes its 4 lanes in threads of its own: 2 hashes keep 2 cores busy
_pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="paiju-hash")


async def hashing(fn: Callable[..., T], *args: object) -> T:
    """``fn(*args)`` (a hash or a check of a password) on the hashing pool."""
    return await asyncio.get_running_loop().run_in_executor(_pool, functools.partial(fn, *args))
