"""Duplicate tournaments: bots compared on the same cards.

Luck of the deal dominates a single hand of any card game, so a plain series of hands
needs many thousands of deals before a small difference between two bots shows. A
*duplicate* tournament plays every deal several times with the bots moved through the
seats, so each bot holds every seat's cards of that deal; the luck of the cards then
cancels in the bot's per-deal mean.

The scheme
----------
Every deal (``paiju.new_game(game, seed=deal_seed, **options)`` — the same cards each
time) is played once per *seating* of the bots; over the seatings of a deal every bot
sits in every seat. The same bot name may appear twice (``random,random``): entries are
told apart as ``random#1``, ``random#2``.

* Games without fixed partners (Baohuang; 2 ≤ k ≤ seats bots): the base line-up puts bot
  ``s % k`` in seat ``s`` and each distinct rotation of it is a seating — rotation ``r``
  seats ``base[(s + r) % n]`` in seat ``s``. Two bots in Baohuang's five seats:
  ``ABABA BABAA ABAAB BAABA AABAB`` — 5 hands per deal; A plays three seats of each hand
  and B two, and each holds every seat's cards (the emperor's, the guard's …): A three
  times per deal, B twice.
* Partnership games (Shengji, Shuangkou: partners sit opposite, seats 0+2 against 1+3):
  a bot is a team — it takes both seats of one side. Two bots play ``ABAB`` and then
  ``BABA`` (the teams swap cards): 2 hands per deal. With more bots every pair meets
  that way (a round robin of teams): ``ABAB BABA ACAC CACA BCBC CBCB`` for three.

The unit of measurement is one deal: a bot's score for a deal is the mean of its seats'
scores over all the seatings (points per hand), and the 95 % confidence interval of its
mean is a Student t interval over these per-deal means (deals are independent; the hands
within a deal are not). Roles (Baohuang emperor / guard / rebel / solo, Shengji declarers /
defenders, Shuangkou team A / B) are read from the final public view of each hand.

Deal seeds and bot seeds derive from ``seed`` and the deal (and seating and seat) index
only, so a tournament is repeatable and splitting its deals across processes — or Ray
workers — gives exactly the same numbers (only the measured decision times differ).
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paiju
from paiju.bots import LazyView, make_bot
from paiju.errors import IllegalAction

Progress = Callable[[int, int], None]
"""``progress(deals_done, deals_total)``, called as deals finish."""

ROLE_ORDER: dict[str, tuple[str, ...]] = {
    "baohuang": ("emperor", "guard", "rebel", "solo"),
    "shengji": ("declarers", "defenders"),
    "shuangkou": ("team A", "team B"),
}

RAY_HINT = "Ray is not installed: pip install 'paiju[ray]'"

# two-sided 95 % quantiles of Student's t for 1…30 degrees of freedom
_T975 = (
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
    2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
    2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
)  # fmt: skip


class RayUnavailable(RuntimeError):
    """``import ray`` failed: the ``ray`` extra is not installed."""


# ---------------------------------------------------------------------------- statistics
def t975(df: int) -> float:
    """The 97.5 % quantile of Student's t with ``df`` degrees of freedom (the factor of a
    two-sided 95 % interval): a table up to 30, then the Cornish–Fisher expansion (error
    below 1e-4).

    >>> t975(4), round(t975(1000), 3)
    (2.7764, 1.962)
    """
    if df < 1:
        raise ValueError("a t interval needs at least one degree of freedom")
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959963984540054
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def mean_ci(values: Sequence[float]) -> tuple[float, float | None]:
    """Mean and half-width of its 95 % t confidence interval (None for fewer than 2 values).

    >>> mean, half = mean_ci([1, 2, 3, 4, 5])  # sd √2.5, se √0.5, t(4) 2.7764
    >>> mean, round(half, 4)
    (3.0, 1.9632)
    """
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    mean = math.fsum(values) / n
    if n < 2:
        return mean, None
    return mean, t975(n - 1) * statistics.stdev(values) / math.sqrt(n)


# ---------------------------------------------------------------------------- the scheme
PARTNERSHIP_GAMES = frozenset({"shengji", "shuangkou"})
"""Games of fixed partners sitting opposite (seats 0+2 against 1+3)."""


def lineups(num_bots: int, seats: int, partnership: bool = False) -> list[tuple[int, ...]]:
    """The seatings of one deal: bot index per seat, one tuple per hand (see the module doc).

    >>> lineups(2, 5)[:2]
    [(0, 1, 0, 1, 0), (1, 0, 1, 0, 0)]
    >>> lineups(3, 4, partnership=True)[:3]
    [(0, 1, 0, 1), (1, 0, 1, 0), (0, 2, 0, 2)]
    """
    if partnership:
        if num_bots < 2 or seats % 2:
            raise ValueError(f"a tournament of a partnership game needs 2 or more bots, not {num_bots}")
        out = []
        for a in range(num_bots):
            for b in range(a + 1, num_bots):
                out += [(a, b) * (seats // 2), (b, a) * (seats // 2)]
        return out
    if not 2 <= num_bots <= seats:
        raise ValueError(f"a tournament of a {seats}-seat game needs 2 to {seats} bots, not {num_bots}")
    base = [s % num_bots for s in range(seats)]
    out = []
    for r in range(seats):
        lineup = tuple(base[(s + r) % seats] for s in range(seats))
        if lineup not in out:
            out.append(lineup)
    return out


def game_lineups(game: str, num_bots: int, seats: int) -> list[tuple[int, ...]]:
    """:func:`lineups` for ``game`` (a partnership game or not)."""
    return lineups(num_bots, seats, partnership=game in PARTNERSHIP_GAMES)


def derive_seed(seed: int, *parts: object) -> int:
    """A seed in [0, 2**62) derived from ``seed`` and ``parts`` (stable across processes,
    machines and Python versions)."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 2


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal number ``deal`` of a tournament seeded ``seed``."""
    return derive_seed(seed, "deal", deal)


def hand_roles(game: str, view: dict[str, Any], scores: Sequence[int]) -> tuple[list[str], list[bool]]:
    """Role and whether it won, per seat, from a finished hand's public view."""
    n = len(scores)
    won = [p > 0 for p in scores]
    if game == "baohuang":
        roles = view.get("roles") or [None] * n
        solo = bool(view.get("solo"))
        out = []
        for s in range(n):
            role = roles[s] if s < len(roles) and roles[s] else "unknown"
            out.append("solo" if solo and role == "emperor" else str(role))
        return out, won
    if game == "shengji":
        result = view.get("result") or {}
        d = result.get("declarer", view.get("declarer"))
        if d is None:
            return ["unknown"] * n, won
        if result.get("team_up") is not None:
            won = [s % 2 == result["team_up"] for s in range(n)]
        return ["declarers" if s % 2 == d % 2 else "defenders" for s in range(n)], won
    if game == "shuangkou":
        if view.get("winners") is not None:
            winners = set(view["winners"])
            won = [s in winners for s in range(n)]
        return ["team A" if s % 2 == 0 else "team B" for s in range(n)], won
    return ["any"] * n, won


# ---------------------------------------------------------------------------- playing
@dataclass(frozen=True)
class HandResult:
    """One hand of the tournament: deal ``deal`` seated as ``lineup`` (bot index per seat)."""

    deal: int
    deal_seed: int
    rotation: int
    lineup: tuple[int, ...]
    scores: tuple[int, ...]
    roles: tuple[str, ...]
    won: tuple[bool, ...]
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]
    """Time spent in ``act`` per seat."""


def play_deals(
    game: str, bots: Sequence[str], seed: int, options: dict[str, Any], deals: Iterable[int]
) -> list[HandResult]:
    """Play the given deals of a tournament, every rotation of each (a picklable unit of work)."""
    out: list[HandResult] = []
    for deal in deals:
        dseed = deal_seed(seed, deal)
        seats = paiju.new_game(game, seed=dseed, **options).num_players
        for rotation, lineup in enumerate(game_lineups(game, len(bots), seats)):
            out.append(_play_hand(game, bots, seed, options, deal, dseed, rotation, lineup))
    return out


def _play_hand(
    game: str,
    bots: Sequence[str],
    seed: int,
    options: dict[str, Any],
    deal: int,
    dseed: int,
    rotation: int,
    lineup: tuple[int, ...],
) -> HandResult:
    g = paiju.new_game(game, seed=dseed, **options)
    n = g.num_players
    players = [make_bot(bots[lineup[s]], game=game, seed=derive_seed(seed, "bot", deal, rotation, s)) for s in range(n)]
    decisions = [0] * n
    seconds = [0.0] * n
    while not g.is_over:
        s = g.to_act
        assert s is not None
        legal = g.legal_actions()
        start = time.perf_counter()
        action = players[s].act(LazyView(g, s), legal)
        seconds[s] += time.perf_counter() - start
        decisions[s] += 1
        try:
            g.apply(action)
        except IllegalAction as e:
            raise IllegalAction(
                f"bot {bots[lineup[s]]} at seat {s} (deal {deal}, rotation {rotation}) chose {action}: {e}"
            ) from e
    scores = tuple(g.scores)
    roles, won = hand_roles(game, g.view(None), scores)
    return HandResult(deal, dseed, rotation, lineup, scores, tuple(roles), tuple(won), tuple(decisions), tuple(seconds))


# ---------------------------------------------------------------------------- results
@dataclass
class RoleStats:
    hands: int = 0
    wins: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.hands if self.hands else 0.0


@dataclass
class BotStats:
    """One entry of the line-up: its score per hand with a 95 % interval, wins by role, speed."""

    label: str
    bot: str
    hands: int
    """Seats played (a bot in three seats of a hand counts three)."""
    mean: float
    """Mean score per hand (per seat played), averaged over the deals."""
    half_width: float | None
    """Half-width of the 95 % t interval of ``mean`` (per-deal means as the unit)."""
    stdev: float | None
    """Standard deviation of the per-deal means."""
    wins: int
    roles: dict[str, RoleStats]
    decisions: int
    decision_seconds: float

    @property
    def ci(self) -> tuple[float, float] | None:
        if self.half_width is None:
            return None
        return self.mean - self.half_width, self.mean + self.half_width

    @property
    def win_rate(self) -> float:
        return self.wins / self.hands if self.hands else 0.0

    @property
    def mean_decision_ms(self) -> float:
        return 1000 * self.decision_seconds / self.decisions if self.decisions else 0.0

    def to_dict(self) -> dict[str, Any]:
        ci = self.ci
        return {
            "label": self.label,
            "bot": self.bot,
            "hands": self.hands,
            "mean": self.mean,
            "ci95": list(ci) if ci else None,
            "half_width": self.half_width,
            "stdev_per_deal": self.stdev,
            "win_rate": self.win_rate,
            "roles": {r: {"hands": s.hands, "wins": s.wins, "win_rate": s.win_rate} for r, s in self.roles.items()},
            "decisions": self.decisions,
            "mean_decision_ms": self.mean_decision_ms,
        }


@dataclass
class TournamentResult:
    """What :func:`run_tournament` measured. ``per_deal[d][b]`` is bot ``b``'s mean score
    per hand over the rotations of deal ``d``; ``hands`` has every hand played."""

    game: str
    bots: list[str]
    labels: list[str]
    deals: int
    seed: int
    options: dict[str, Any]
    seats: int
    lineups: list[tuple[int, ...]]
    deal_seeds: list[int]
    per_deal: list[list[float]]
    stats: list[BotStats]
    hands: list[HandResult] = field(repr=False)
    seconds: float = 0.0
    workers: int = 1
    backend: str = "process"

    @property
    def roles(self) -> list[str]:
        """Roles met in this tournament, in the game's order."""
        seen = {r for st in self.stats for r in st.roles}
        order = ROLE_ORDER.get(self.game, ())
        return [r for r in order if r in seen] + sorted(seen - set(order))

    def to_dict(self, hands: bool = False) -> dict[str, Any]:
        d: dict[str, Any] = {
            "game": self.game,
            "format": "duplicate",
            "bots": self.bots,
            "labels": self.labels,
            "deals": self.deals,
            "seed": self.seed,
            "options": self.options,
            "seats": self.seats,
            "lineups": [[self.labels[b] for b in lineup] for lineup in self.lineups],
            "hands_per_deal": len(self.lineups),
            "results": [st.to_dict() for st in self.stats],
            "deal_seeds": self.deal_seeds,
            "per_deal": self.per_deal,
            "seconds": self.seconds,
            "workers": self.workers,
            "backend": self.backend,
        }
        if hands:
            d["hands"] = [
                {
                    "deal": h.deal,
                    "rotation": h.rotation,
                    "lineup": [self.labels[b] for b in h.lineup],
                    "scores": list(h.scores),
                    "roles": list(h.roles),
                    "won": list(h.won),
                }
                for h in self.hands
            ]
        return d

    def to_json(self, path: str | Path | None = None, *, hands: bool = False) -> str:
        """The results as JSON text (also written to ``path`` when given)."""
        text = json.dumps(self.to_dict(hands=hands), ensure_ascii=False, indent=2) + "\n"
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def to_csv(self, path: str | Path) -> None:
        """One row per bot: mean, interval, win rates (overall and by role), decision time."""
        roles = self.roles
        head = ["label", "bot", "deals", "hands", "mean", "ci_low", "ci_high", "half_width", "win_rate"]
        head += [f"{kind}_{r.replace(' ', '_')}" for r in roles for kind in ("hands", "win_rate")]
        head += ["decisions", "mean_decision_ms"]
        with Path(path).open("w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(head)
            for st in self.stats:
                ci = st.ci
                row: list[Any] = [st.label, st.bot, self.deals, st.hands, st.mean]
                row += [ci[0], ci[1], st.half_width] if ci else ["", "", ""]
                row.append(st.win_rate)
                for r in roles:
                    rs = st.roles.get(r)
                    row += [rs.hands, rs.win_rate] if rs else [0, ""]
                row += [st.decisions, st.mean_decision_ms]
                w.writerow(row)

    def plot(self, path: str | Path) -> None:
        """A PNG bar chart of the mean score per hand with 95 % error bars (needs matplotlib:
        ``pip install 'paiju[tournament]'``)."""
        try:
            import matplotlib
        except ImportError as e:
            raise ImportError("plotting needs matplotlib: pip install 'paiju[tournament]'") from e
        matplotlib.use("Agg")
        from matplotlib.figure import Figure

        fig = Figure(figsize=(max(5.0, 1.4 * len(self.stats) + 2), 4.0), dpi=100)
        ax = fig.add_subplot()
        xs = range(len(self.stats))
        errs = [st.half_width or 0.0 for st in self.stats]
        ax.bar(xs, [st.mean for st in self.stats], yerr=errs, capsize=8, color="#4c72b0")
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xticks(list(xs), [st.label for st in self.stats])
        ax.set_ylabel("mean score per hand (95 % CI)")
        title = f"{self.game}: duplicate tournament\n{self.deals} deals × {len(self.lineups)} seatings"
        ax.set_title(title, fontsize=10)
        fig.tight_layout()
        fig.savefig(str(path), format="png")


def _labels(bots: Sequence[str]) -> list[str]:
    """Bot names, numbered where a name appears twice (``random#1``, ``random#2``)."""
    return [f"{b}#{bots[: i + 1].count(b)}" if bots.count(b) > 1 else b for i, b in enumerate(bots)]


def summarize(
    game: str,
    bots: Sequence[str],
    deals: int,
    seed: int,
    options: dict[str, Any],
    hands: Sequence[HandResult],
    *,
    seconds: float = 0.0,
    workers: int = 1,
    backend: str = "process",
) -> TournamentResult:
    """Turn the hands of a tournament into its results (see :class:`TournamentResult`)."""
    hands = sorted(hands, key=lambda h: (h.deal, h.rotation))
    k = len(bots)
    labels = _labels(bots)
    seats = len(hands[0].lineup)
    sums = [[0.0] * k for _ in range(deals)]
    counts = [[0] * k for _ in range(deals)]
    seeds = [0] * deals
    n_hands = [0] * k
    wins = [0] * k
    decisions = [0] * k
    secs = [0.0] * k
    roles: list[dict[str, RoleStats]] = [{} for _ in range(k)]
    for h in hands:
        seeds[h.deal] = h.deal_seed
        for s, b in enumerate(h.lineup):
            sums[h.deal][b] += h.scores[s]
            counts[h.deal][b] += 1
            n_hands[b] += 1
            wins[b] += h.won[s]
            decisions[b] += h.decisions[s]
            secs[b] += h.seconds[s]
            rs = roles[b].setdefault(h.roles[s], RoleStats())
            rs.hands += 1
            rs.wins += h.won[s]
    per_deal = [[sums[d][b] / counts[d][b] for b in range(k)] for d in range(deals)]
    order = ROLE_ORDER.get(game, ())
    stats = []
    for b in range(k):
        values = [per_deal[d][b] for d in range(deals)]
        mean, half = mean_ci(values)
        by_role = {r: roles[b][r] for r in [*order, *sorted(set(roles[b]) - set(order))] if r in roles[b]}
        stats.append(
            BotStats(
                label=labels[b],
                bot=bots[b],
                hands=n_hands[b],
                mean=mean,
                half_width=half,
                stdev=statistics.stdev(values) if deals > 1 else None,
                wins=wins[b],
                roles=by_role,
                decisions=decisions[b],
                decision_seconds=secs[b],
            )
        )
    return TournamentResult(
        game=game,
        bots=list(bots),
        labels=labels,
        deals=deals,
        seed=seed,
        options=dict(options),
        seats=seats,
        lineups=game_lineups(game, k, seats),
        deal_seeds=seeds,
        per_deal=per_deal,
        stats=stats,
        hands=list(hands),
        seconds=seconds,
        workers=workers,
        backend=backend,
    )


def _check(game: str, bots: Sequence[str], deals: int, seed: int, options: dict[str, Any]) -> None:
    """Fail early, with the reason, on anything that would fail in every deal."""
    if deals < 1:
        raise ValueError("a tournament needs at least one deal")
    try:
        g = paiju.new_game(game, seed=deal_seed(seed, 0), **options)
    except TypeError as e:
        raise IllegalAction(f"bad option for {game}: {e}") from e
    game_lineups(game, len(bots), g.num_players)
    for name in set(bots):
        make_bot(name, game=game, seed=0)


def _chunks(deals: int, parts: int) -> list[list[int]]:
    """Deal indices in runs small enough to keep ``parts`` workers busy and the progress moving."""
    size = max(1, math.ceil(deals / (parts * 8)))
    return [list(range(i, min(i + size, deals))) for i in range(0, deals, size)]


def run_tournament(
    game: str,
    bots: list[str],
    deals: int,
    seed: int,
    workers: int = 1,
    options: dict[str, Any] | None = None,
    progress: Progress | None = None,
) -> TournamentResult:
    """A duplicate tournament of ``bots`` (registry names) at ``game`` over ``deals`` deals.

    ``workers`` > 1 splits the deals across that many processes; the results are the same
    as with one (apart from measured times). ``progress(done, total)`` is called as deals
    finish. Raises :class:`paiju.IllegalAction` for an unknown game, bot or option.

    >>> r = run_tournament("shuangkou", ["greedy", "random"], deals=2, seed=1)
    >>> [st.label for st in r.stats], len(r.hands)
    (['greedy', 'random'], 4)
    """
    options = dict(options or {})
    bots = list(bots)
    _check(game, bots, deals, seed, options)
    start = time.perf_counter()
    hands: list[HandResult] = []
    done = 0
    if workers <= 1 or deals == 1:
        for d in range(deals):
            hands += play_deals(game, bots, seed, options, [d])
            done += 1
            if progress is not None:
                progress(done, deals)
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed

        # spawn: workers start clean (no threads of the caller, e.g. a progress display, forked)
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
            futures = {
                pool.submit(play_deals, game, bots, seed, options, chunk): len(chunk)
                for chunk in _chunks(deals, workers)
            }
            for fut in as_completed(futures):
                hands += fut.result()
                done += futures[fut]
                if progress is not None:
                    progress(done, deals)
    seconds = time.perf_counter() - start
    return summarize(game, bots, deals, seed, options, hands, seconds=seconds, workers=max(1, workers))


def run_tournament_ray(
    game: str,
    bots: list[str],
    deals: int,
    seed: int,
    options: dict[str, Any] | None = None,
    progress: Progress | None = None,
    address: str | None = None,
    num_cpus: int | None = None,
) -> TournamentResult:
    """:func:`run_tournament` with the deals spread over a Ray cluster: the one at
    ``address`` (``"auto"``, ``"ray://host:10001"`` …), an already initialised one, or else
    a local instance (``num_cpus`` CPUs). Same seed, same results. Needs ``paiju[ray]``;
    raises :class:`RayUnavailable` naming it when ``import ray`` fails."""
    try:
        import ray
    except ImportError as e:
        raise RayUnavailable(RAY_HINT) from e
    options = dict(options or {})
    bots = list(bots)
    _check(game, bots, deals, seed, options)
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address:
            kwargs["address"] = address
        elif num_cpus is not None:
            kwargs["num_cpus"] = num_cpus
        ray.init(**kwargs)
        started = True
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        task = ray.remote(play_deals)
        pending = {task.remote(game, bots, seed, options, chunk): len(chunk) for chunk in _chunks(deals, cpus)}
        start = time.perf_counter()
        hands: list[HandResult] = []
        done = 0
        waiting = list(pending)
        while waiting:
            ready, waiting = ray.wait(waiting, num_returns=1)
            for ref in ready:
                hands += ray.get(ref)
                done += pending[ref]
                if progress is not None:
                    progress(done, deals)
        seconds = time.perf_counter() - start
    finally:
        if started:
            ray.shutdown()
    return summarize(game, bots, deals, seed, options, hands, seconds=seconds, workers=cpus, backend="ray")
