"""Shengji and Shuangkou as ``engine.py`` measures them: the figures of ``engine_shengji.py``
and ``engine_shuangkou.py`` (loaded beside this one), plus the CPU share and, for
Shengji, how many random leads were throws and how many of those failed.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import paiju
from engine_timing import Budget, CpuShare, sibling


def throw_stats(decks: int, hands: int, seed: int = 11) -> dict[str, float]:
    """Random play as in the playout: of the leads, how many were throws 甩牌 (several
    units of one suit), and how many of those failed (were cut to one unit)."""
    from paiju.shengji.trump import card_id
    from paiju.shengji.units import counts_of, decompose

    rng = random.Random(seed)
    leads = throws = failed = 0
    for _ in range(hands):
        g: Any = paiju.new_game("shengji", seed=rng.randrange(2**62), decks=decks)
        while g.to_act is not None:
            la = g.legal_actions()
            g.apply(la[rng.randrange(len(la))])
        t = g.order
        for trick in g.tricks:
            leads += 1
            if trick.get("failed_throw"):
                throws += 1
                failed += 1
            elif len(decompose(counts_of(card_id(c) for c in paiju.parse_cards(trick["plays"][0]["cards"])), t)) > 1:
                throws += 1
    return {
        "leads_per_hand": leads / hands,
        "throw_share": throws / leads if leads else 0.0,
        "failed_share": failed / throws if throws else 0.0,
    }


@dataclass
class ShengjiResult:
    """Medians for one number of packs (``engine_shengji.Result``, plus throws and CPU share)."""

    decks: int
    hands_per_s: float
    decisions_per_s: float
    decisions_per_hand: float
    us_per_decision: float
    hosted_hands_per_s: float
    lead_len: float  # mean length of the leader's lazy sequence of plays
    lead_us: float  # legal_actions() at a lead, wall-clock µs per call
    leads_per_hand: float
    throw_share: float  # random leads that were throws
    failed_share: float  # throws that failed
    cpu_share: float
    runs: dict[str, list[float]] = field(default_factory=dict)


def bench_shengji(
    decks_list: Sequence[int], budget: Budget, log: Callable[[str], None] = lambda s: None
) -> list[ShengjiResult]:
    module = sibling("engine_shengji")
    out = []
    for decks in decks_list:
        log(f"shengji {decks} pack(s): {budget.repeats} × {budget.playout_s:g} s random + hosted playouts")
        with CpuShare() as share:
            r = module.bench(decks, budget.repeats, budget.playout_s)
        throws = throw_stats(decks, budget.throw_hands)
        out.append(
            ShengjiResult(
                decks=decks,
                hands_per_s=r.hands_per_s,
                decisions_per_s=r.decisions_per_s,
                decisions_per_hand=r.decisions_per_hand,
                us_per_decision=1e6 / r.decisions_per_s,
                hosted_hands_per_s=r.hosted_hands_per_s,
                lead_len=r.lead_len,
                lead_us=r.lead_us,
                cpu_share=share.share,
                runs=r.runs,
                **throws,
            )
        )
    return out


@dataclass
class ShuangkouResult:
    """Medians of ``engine_shuangkou.random_playout`` and ``legal_actions_cost`` runs."""

    config: str  # the room options measured ("defaults")
    options: dict[str, Any]
    hands_per_s: float
    decisions_per_s: float
    decisions_per_hand: float
    us_per_decision: float
    lead_n: float
    lead_max: float
    lead_us: float
    lead_iter_us: float
    follow_n: float
    follow_max: float
    follow_us: float
    apply_us: float
    clone_us: float
    view_us: float
    cpu_share: float
    runs: dict[str, list[dict[str, float]]] = field(default_factory=dict)


def bench_shuangkou(
    budget: Budget, options: dict[str, Any] | None = None, log: Callable[[str], None] = lambda s: None
) -> ShuangkouResult:
    module = sibling("engine_shuangkou")
    opts = dict(options or {})
    med = statistics.median
    log(f"shuangkou: {budget.repeats} × {budget.playout_s:g} s random playout, then per-call costs")
    with CpuShare() as share:
        plays = [module.random_playout(budget.playout_s, **opts) for _ in range(budget.repeats)]
    costs = [module.legal_actions_cost(budget.micro_s, budget.cost_hands, **opts) for _ in range(budget.repeats)]
    play = {k: med(r[k] for r in plays) for k in plays[0]}
    cost = {k: med(r[k] for r in costs) for k in costs[0]}
    return ShuangkouResult(
        config=",".join(f"{k}={v}" for k, v in opts.items()) or "defaults",
        options=opts,
        hands_per_s=play["hands_per_s"],
        decisions_per_s=play["decisions_per_s"],
        decisions_per_hand=play["decisions_per_hand"],
        us_per_decision=play["us_per_decision"],
        cpu_share=share.share,
        runs={"playout": plays, "cost": costs},
        **{k: cost[k] for k in cost},
    )
