"""``paiju admin audit``: the bean ledger checked whole, and the farming signal.

The checks (each failure is a :class:`Problem`): the rows of every hand — its settlement
and its leave penalties, which share its ``hand_id`` — sum to 0 with the house's; the
penalty rows stored without a hand sum to 0 together; no account's balance is below 0; no
account got its start beans twice.

The farming signal 刷豆 (:func:`farming_signals`) is a report, never a punishment: an
account whose beans lost in hands and penalties went mostly (``share``, default 80 %) to
one other account, over at least ``min_lost`` beans. Each payer's loss in a hand is shared
among that hand's receivers (accounts and the house) in proportion to what each received.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from paiju.server.store.db import ledger, players

MOVES = ("hand", "penalty", "house")
"""The ledger kinds that move beans between players (the others make beans)."""


@dataclass(frozen=True)
class Problem:
    what: str  # unbalanced_hand | unbalanced_penalties | negative_balance | start_twice
    detail: dict[str, Any]


@dataclass(frozen=True)
class Signal:
    loser: int
    receiver: int
    beans: int  # what went from the loser to the receiver
    lost: int  # what the loser lost in all
    hands: int  # hands in which the receiver got some of it


@dataclass
class Audit:
    problems: list[Problem] = field(default_factory=list)
    signals: list[Signal] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)
    hands: int = 0
    accounts: int = 0


def farming_signals(
    hands: Iterable[list[tuple[int | None, int]]], *, share: float = 0.8, min_lost: int = 500
) -> list[Signal]:
    """The farming signal over ``hands``, each a list of ``(player, amount)`` ledger rows
    (player None: the house), largest flows first.

    >>> feed = [[(1, -100), (2, 100)]] * 5 + [[(1, -50), (None, 50)], [(3, -60), (2, 30), (None, 30)]]
    >>> farming_signals(feed, min_lost=200)
    [Signal(loser=1, receiver=2, beans=500, lost=550, hands=5)]
    """
    if not 0 < share <= 1 or min_lost < 0:
        raise ValueError(f"share is in (0, 1] and min_lost ≥ 0, not {share!r} and {min_lost!r}")
    flows: dict[int, dict[int | None, float]] = defaultdict(lambda: defaultdict(float))
    count: dict[tuple[int, int | None], int] = defaultdict(int)
    lost: dict[int, int] = defaultdict(int)
    for rows in hands:
        got = [(p, a) for p, a in rows if a > 0]
        whole = sum(a for _, a in got)
        for payer, amount in rows:
            if payer is None or amount >= 0:
                continue
            lost[payer] += -amount
            for receiver, a in got:
                if receiver != payer and whole:
                    flows[payer][receiver] += -amount * a / whole
                    count[(payer, receiver)] += 1
    out = []
    for payer, to in flows.items():
        if lost[payer] < min_lost:
            continue
        receiver, beans = max(((r, b) for r, b in to.items() if r is not None), key=lambda x: x[1], default=(None, 0))
        if receiver is not None and beans >= share * lost[payer]:
            out.append(Signal(payer, receiver, round(beans), lost[payer], count[(payer, receiver)]))
    return sorted(out, key=lambda s: (-s.beans, s.loser))


def audit_tx(c: Connection, *, share: float = 0.8, min_lost: int = 500) -> Audit:
    """Every check of the module docstring on the store, and the farming signal."""
    report = Audit()
    by_hand: dict[int, list[tuple[int | None, int]]] = defaultdict(list)
    loose = 0
    q = select(ledger.c.hand_id, ledger.c.player_id, ledger.c.amount).where(ledger.c.kind.in_(MOVES))
    for hand_id, pid, amount in c.execute(q):
        if hand_id is None:
            loose += int(amount)
        else:
            by_hand[int(hand_id)].append((None if pid is None else int(pid), int(amount)))
    report.hands = len(by_hand)
    for hand_id, rows in sorted(by_hand.items()):
        total = sum(a for _, a in rows)
        if total:
            report.problems.append(Problem("unbalanced_hand", {"hand": hand_id, "sum": total}))
    if loose:
        report.problems.append(Problem("unbalanced_penalties", {"sum": loose}))
    q2 = select(ledger.c.player_id, func.sum(ledger.c.amount)).where(ledger.c.player_id.is_not(None))
    balances = {int(p): int(b) for p, b in c.execute(q2.group_by(ledger.c.player_id))}
    report.accounts = len(balances)
    for pid, beans in sorted(balances.items()):
        if beans < 0:
            report.problems.append(Problem("negative_balance", {"player": pid, "beans": beans}))
    q3 = (
        select(ledger.c.player_id, func.count())
        .where(ledger.c.kind == "start", ledger.c.player_id.is_not(None))
        .group_by(ledger.c.player_id)
        .having(func.count() > 1)
    )
    for pid, n in c.execute(q3):
        report.problems.append(Problem("start_twice", {"player": int(pid), "grants": int(n)}))
    report.signals = farming_signals(by_hand.values(), share=share, min_lost=min_lost)
    named = {p.detail["player"] for p in report.problems if "player" in p.detail}
    named |= {s.loser for s in report.signals} | {s.receiver for s in report.signals}
    if named:
        q4 = select(players.c.id, players.c.username, players.c.name).where(players.c.id.in_(sorted(named)))
        report.names = {int(i): str(u or n) for i, u, n in c.execute(q4)}
    return report
