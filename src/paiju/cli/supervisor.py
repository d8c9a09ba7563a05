"""When ``paiju cluster up`` starts a dead process again: after a delay that doubles with each
death in a row, up to a cap.

Pure: the caller says what happened and when (``time.monotonic()``); nothing here starts,
stops or waits for a process (cli/cluster.py does).

- The first restart comes after ``Backoff.first`` (0.5 s), then 1 s, 2 s, 4 s … up to
  ``Backoff.cap`` (30 s).
- A process that stayed up ``stable`` seconds (60) before dying starts the count afresh:
  one crash a day is restarted after 0.5 s every time.
- A process that keeps dying is never given up: it is started again every ``cap`` seconds
  for as long as the cluster runs, each death logged by the caller. A cluster on this
  machine is watched by whoever started it; a worker that cannot start (its database is
  away, say) may well succeed once what it needs is back, and giving up would leave the
  cluster a worker short without anyone asking for it.

>>> s = Supervisor(Backoff(first=0.5, cap=30.0), stable=60.0)
>>> s.started("w1", now=0.0)
>>> s.died("w1", now=5.0), s.due(5.4), s.due(5.5)
(0.5, [], ['w1'])
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Backoff:
    """The wait before a restart: ``first`` seconds after one death, doubling with each
    further death in a row, never more than ``cap``."""

    first: float = 0.5
    cap: float = 30.0

    def delay(self, deaths: int) -> float:
        """The wait after the ``deaths``-th death in a row (1, 2, 3 …).

        >>> [Backoff().delay(n) for n in range(1, 10)]
        [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0, 30.0]
        """
        if deaths < 1:
            raise ValueError(f"deaths: {deaths} (counted from 1)")
        return min(self.cap, self.first * 2.0 ** min(deaths - 1, 64))


class Supervisor:
    """The restarts of a set of named processes: when each dead one is due to start again."""

    def __init__(self, backoff: Backoff | None = None, stable: float = 60.0) -> None:
        self.backoff = backoff or Backoff()
        self.stable = stable  # seconds up after which a death counts as the first in a row
        self._since: dict[str, float] = {}  # a running process: when it started
        self._deaths: dict[str, int] = {}  # deaths in a row
        self._due: dict[str, float] = {}  # a dead process: when to start it again

    def started(self, name: str, now: float) -> None:
        self._since[name] = now
        self._due.pop(name, None)

    def died(self, name: str, now: float) -> float:
        """``name`` died at ``now``: the delay before it is due to start again."""
        up = now - self._since.pop(name, now)
        deaths = 1 if up >= self.stable else self._deaths.get(name, 0) + 1
        self._deaths[name] = deaths
        delay = self.backoff.delay(deaths)
        self._due[name] = now + delay
        return delay

    def deaths(self, name: str) -> int:
        """``name``'s deaths in a row, as counted at its last death (0: it never died)."""
        return self._deaths.get(name, 0)

    def due(self, now: float) -> list[str]:
        """The dead processes due to start again at ``now``, the longest waiting first; each is
        named once (until it dies again)."""
        ready = sorted((at, name) for name, at in self._due.items() if at <= now)
        for _, name in ready:
            del self._due[name]
        return [name for _, name in ready]
