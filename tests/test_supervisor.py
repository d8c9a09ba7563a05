"""When ``paiju cluster up`` starts a dead process again (cli/supervisor.py): the delay
doubles from 0.5 s to a cap of 30 s with each death in a row, starts afresh after a process
stayed up a while, and a process that keeps dying is never given up."""

from __future__ import annotations

import pytest

from paiju.cli.supervisor import Backoff, Supervisor


def test_the_delay_doubles_from_half_a_second_to_the_cap() -> None:
    assert [Backoff().delay(n) for n in range(1, 10)] == [0.5, 1, 2, 4, 8, 16, 30, 30, 30]
    assert Backoff(first=1, cap=5).delay(3) == 4 and Backoff(first=1, cap=5).delay(4) == 5
    assert Backoff().delay(10_000) == 30  # no overflow however long it keeps dying
    with pytest.raises(ValueError):
        Backoff().delay(0)


def test_a_process_that_keeps_dying_is_started_again_at_the_capped_delay_for_ever() -> None:
    s = Supervisor(Backoff(first=0.5, cap=30), stable=60)
    now = 0.0
    s.started("w1", now)
    delays = []
    for _ in range(12):  # it dies a second after each start
        now += 1
        delay = s.died("w1", now)
        delays.append(delay)
        assert s.due(now + delay - 0.01) == []
        now += delay
        assert s.due(now) == ["w1"]
        assert s.due(now) == []  # named once
        s.started("w1", now)
    assert delays == [0.5, 1, 2, 4, 8, 16, 30, 30, 30, 30, 30, 30]
    assert s.deaths("w1") == 12


def test_a_process_up_a_while_starts_the_count_afresh() -> None:
    s = Supervisor(Backoff(first=0.5, cap=30), stable=60)
    s.started("w1", 0)
    assert s.died("w1", 1) == 0.5
    s.started("w1", 1.5)
    assert s.died("w1", 2) == 1  # the second death in a row
    s.started("w1", 3)
    assert s.died("w1", 3 + 60) == 0.5  # up 60 s: a first death again
    assert s.deaths("w1") == 1


def test_each_process_has_its_own_count_and_the_longest_waiting_comes_first() -> None:
    s = Supervisor(Backoff(first=0.5, cap=30), stable=60)
    for name in ("w1", "w2", "haproxy"):
        s.started(name, 0)
    s.died("w2", 10)
    s.started("w2", 10.5)
    assert s.died("w2", 11) == 1  # w2: two in a row, due at 12
    assert s.died("haproxy", 11.2) == 0.5  # due at 11.7
    assert s.died("w1", 11.6) == 0.5  # due at 12.1
    assert s.due(11.65) == []
    assert s.due(12.5) == ["haproxy", "w2", "w1"]
    assert s.deaths("w1") == 1 and s.deaths("w2") == 2 and s.deaths("haproxy") == 1
