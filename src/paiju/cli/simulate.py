"""``paiju simulate``: many hands of bots, and their win rates, points, hand lengths and speed."""

from __future__ import annotations

import json
import random
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from paiju.bots import LazyView
from paiju.cli.common import _console, _fail, _progress, _table
from paiju.cli.options import GameArg, OptionOpt, SeedOpt, VariantOpt, _make_bots, _new_game, parse_options
from paiju.errors import IllegalAction
from paiju.game import Game
from paiju.terminal import Presenter, presenter
from paiju.terminal.base import rate


class _Tally:
    """Hands, wins and points of one role or team."""

    def __init__(self) -> None:
        self.n: dict[str, int] = defaultdict(int)
        self.wins: dict[str, int] = defaultdict(int)
        self.points: dict[str, int] = defaultdict(int)

    def add(self, key: str, won: bool, points: int) -> None:
        self.n[key] += 1
        self.wins[key] += won
        self.points[key] += points

    def summary(self, order: Sequence[str] = ()) -> dict[str, dict[str, Any]]:
        keys = [k for k in order if k in self.n] + sorted(k for k in self.n if k not in order)
        return {
            k: {
                "count": self.n[k],
                "wins": self.wins[k],
                "win_rate": rate(self.wins[k], self.n[k]),
                "avg_points": rate(self.points[k], self.n[k]),
            }
            for k in keys
        }


class _Counts:
    """Legal-action counts: mean and max, overall and per kind of decision."""

    def __init__(self) -> None:
        self.total = 0
        self.n = 0
        self.max = 0
        self.kinds: dict[str, list[int]] = {}  # kind → [decisions, total, max]

    def add(self, kind: str, k: int) -> None:
        self.total += k
        self.n += 1
        self.max = max(self.max, k)
        entry = self.kinds.setdefault(kind, [0, 0, 0])
        entry[0] += 1
        entry[1] += k
        entry[2] = max(entry[2], k)

    def summary(self) -> dict[str, Any]:
        return {
            "avg": rate(self.total, self.n),
            "max": self.max,
            "by_kind": {kind: {"decisions": d, "avg": rate(t, d), "max": m} for kind, (d, t, m) in self.kinds.items()},
        }


def _decision_kind(g: Game) -> str:
    """``lead`` or ``follow`` during play, else the phase (``deal``, ``bury``, ``setup`` …)."""
    phase = g.phase
    if phase != "play":
        return phase
    is_leading = getattr(g, "is_leading", None)
    if is_leading is None:
        return phase
    return "lead" if is_leading() else "follow"


def simulate(
    game: GameArg,
    n: Annotated[int, typer.Option("-n", "--hands", help="Number of hands to play.", min=1)] = 1000,
    variant: VariantOpt = None,
    bots: Annotated[
        str, typer.Option("--bots", "-b", help="Bot for every seat, or one per seat (comma list).")
    ] = "random",
    seed: SeedOpt = None,
    option: OptionOpt = None,
    json_file: Annotated[Path | None, typer.Option("--json", help="Also write the numbers to this JSON file.")] = None,
) -> None:
    """Play many hands with bots and report win rates, points, hand lengths and speed."""
    console = _console()
    opts = parse_options(option, variant)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    rng = random.Random(seed)
    g = _new_game(game, rng.randrange(2**62), opts)
    pres = presenter(g.name)
    seat_bots = _make_bots(bots, g, None, rng.randrange(2**62))
    players = g.num_players
    roles, teams = _Tally(), _Tally()
    stats = pres.hand_stats()
    seat_points = [0] * players
    seat_wins = [0] * players
    decisions = plays = 0
    by_phase: dict[str, int] = defaultdict(int)
    legal_counts = _Counts()
    start = time.perf_counter()
    progress = _progress(console, "simulating")
    with progress:
        task = progress.add_task("hands", total=n)
        for hand in range(n):
            if hand:
                g = _new_game(game, rng.randrange(2**62), opts)
            while not g.is_over:
                s = g.to_act
                assert s is not None
                legal = g.legal_actions()
                phase = g.phase
                legal_counts.add(_decision_kind(g), len(legal))
                action = seat_bots[s].act(LazyView(g, s), legal)
                try:
                    g.apply(action)
                except IllegalAction as e:
                    _fail(f"bot {seat_bots[s].name} at seat {s} chose an illegal action {action}: {e}", code=1)
                decisions += 1
                by_phase[phase] += 1
                if phase == "play" and str(action) not in pres.non_plays:
                    plays += 1
            seat_roles, won = pres.outcome(g)
            seat_teams = pres.teams(g)
            for s, pts in enumerate(g.scores):
                roles.add(seat_roles[s], won[s], pts)
                if seat_teams is not None:
                    teams.add(seat_teams[s], won[s], pts)
                seat_points[s] += pts
                seat_wins[s] += won[s]
            stats.add(g)
            progress.advance(task)
    seconds = time.perf_counter() - start
    result: dict[str, Any] = {
        "game": g.name,
        "hands": n,
        "seed": seed,
        "options": opts,
        "bots": [seat_bots[s].name for s in range(players)],
        "roles": roles.summary(pres.role_order),
    }
    team_names = pres.team_names()
    if teams.n:
        result["teams"] = teams.summary(tuple(team_names))
    result["seats"] = [
        {"seat": s, "bot": seat_bots[s].name, "win_rate": rate(seat_wins[s], n), "avg_points": rate(seat_points[s], n)}
        for s in range(players)
    ]
    extra = stats.summary(n)
    if extra:
        result[g.name] = extra
    result.update(
        {
            "decisions_per_hand": rate(decisions, n),
            "decisions_by_phase": {p: rate(k, n) for p, k in by_phase.items()},
            "plays_per_hand": rate(plays, n),
            "legal_actions": legal_counts.summary(),
            "seconds": seconds,
            "hands_per_second": rate(n, seconds),
        }
    )
    _print_simulation(console, pres, stats, result)
    if json_file is not None:
        json_file.write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        console.print(f"Wrote {escape(str(json_file))}.")


def _print_simulation(console: Console, pres: Presenter, stats: Any, result: Mapping[str, Any]) -> None:
    console.print(
        f"[bold]{escape(pres.title)}[/bold] · {result['hands']} hands · seed {result['seed']} · "
        f"bots {escape(', '.join(result['bots']))}"
    )
    cols = ("Win rate", "Avg points")

    def rows(d: Mapping[str, Mapping[str, Any]], names: Mapping[str, str]) -> list[list[str]]:
        return [
            [escape(names.get(r, r)), str(v["count"]), f"{v['win_rate']:.1%}", f"{v['avg_points']:+.2f}"]
            for r, v in d.items()
        ]

    console.print(_table("By role", ("Role", "Seats", *cols), rows(result["roles"], pres.roles)))
    if "teams" in result:
        console.print(_table("By team", ("Team", "Seats", *cols), rows(result["teams"], pres.team_names())))
    seat_rows = [
        [str(d["seat"]), escape(d["bot"]), f"{d['win_rate']:.1%}", f"{d['avg_points']:+.2f}"] for d in result["seats"]
    ]
    console.print(_table("By seat", ("Seat", "Bot", *cols), seat_rows, left=2))
    extra = result.get(result["game"])
    if extra:
        t = Table(title=stats.title, box=None, pad_edge=False, show_header=False)
        t.add_column("what")
        t.add_column("value", justify="right")
        for label, value in stats.rows(extra):
            t.add_row(escape(label), escape(value))
        console.print(t)
    t = Table(title="Hands", box=None, pad_edge=False, show_header=False)
    t.add_column("what")
    t.add_column("value", justify="right")
    t.add_row("decisions per hand", f"{result['decisions_per_hand']:.1f}")
    if len(result["decisions_by_phase"]) > 1:
        for phase, k in result["decisions_by_phase"].items():
            t.add_row(f"  of which {escape(phase)}", f"{k:.1f}")
    t.add_row("plays per hand (cards put down)", f"{result['plays_per_hand']:.1f}")
    legal = result["legal_actions"]
    t.add_row("legal actions per decision (avg)", f"{legal['avg']:.1f}")
    t.add_row("legal actions per decision (max)", f"{legal['max']:,}")
    kinds = legal["by_kind"]
    if len(kinds) > 1:
        for kind, d in kinds.items():
            t.add_row(f"  at {escape(kind)} (avg / max)", f"{d['avg']:,.1f} / {d['max']:,}")
    t.add_row("hands per second", f"{result['hands_per_second']:.1f}")
    t.add_row("time", f"{result['seconds']:.2f} s")
    console.print(t)
