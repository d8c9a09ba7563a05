"""Duplicate tournaments (paiju.tournament) and ``paiju tournament``."""

from __future__ import annotations

import csv
import importlib.util
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import paiju
from paiju.cli import app
from paiju.tournament import (
    RayUnavailable,
    TournamentResult,
    deal_seed,
    lineups,
    mean_ci,
    play_deals,
    run_tournament,
    summarize,
    t975,
)

runner = CliRunner()


def _numbers(r: TournamentResult) -> list[object]:
    """Everything measured except times."""
    hands = [(h.deal, h.deal_seed, h.rotation, h.lineup, h.scores, h.roles, h.won, h.decisions) for h in r.hands]
    return [r.per_deal, r.deal_seeds, hands, [(st.mean, st.half_width, st.roles) for st in r.stats]]


# ---------------------------------------------------------------------------- the scheme
def test_lineups_rotate_every_bot_through_every_seat() -> None:
    assert lineups(2, 5) == [
        (0, 1, 0, 1, 0),
        (1, 0, 1, 0, 0),
        (0, 1, 0, 0, 1),
        (1, 0, 0, 1, 0),
        (0, 0, 1, 0, 1),
    ]
    # partnership games: each bot is a team (0+2 against 1+3), then the teams swap cards
    assert lineups(2, 4, partnership=True) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert lineups(3, 4, partnership=True) == [
        (0, 1, 0, 1), (1, 0, 1, 0), (0, 2, 0, 2), (2, 0, 2, 0), (1, 2, 1, 2), (2, 1, 2, 1),
    ]  # fmt: skip
    for k, n, partnership in [(2, 5, False), (3, 5, False), (5, 5, False), (2, 4, True), (3, 4, True), (4, 4, True)]:
        ls = lineups(k, n, partnership)
        for seat in range(n):
            seen = Counter(lineup[seat] for lineup in ls)
            assert set(seen) == set(range(k))  # every bot sits in every seat
            # … as often as it appears in a line-up
            share = Counter(b for lineup in ls for b in lineup)
            assert all(seen[b] * n == share[b] for b in range(k))
        if partnership:  # partners are always the same bot
            assert all(lu[0] == lu[2] and lu[1] == lu[3] and lu[0] != lu[1] for lu in ls)
    with pytest.raises(ValueError):
        lineups(1, 4)
    with pytest.raises(ValueError):
        lineups(5, 4)
    with pytest.raises(ValueError):
        lineups(1, 4, partnership=True)


@pytest.mark.parametrize("game", paiju.GAMES)
def test_every_bot_plays_every_seat_of_the_same_deals(game: str) -> None:
    r = run_tournament(game, ["greedy", "random"], deals=3, seed=11)
    seats = paiju.new_game(game, seed=1).num_players
    per_deal = len(lineups(2, seats, partnership=game != "baohuang"))
    assert len(r.hands) == 3 * per_deal
    assert r.deal_seeds == [deal_seed(11, d) for d in range(3)]
    assert len(set(r.deal_seeds)) == 3
    for d in range(3):
        hands = [h for h in r.hands if h.deal == d]
        assert [h.rotation for h in hands] == list(range(per_deal))
        assert {h.deal_seed for h in hands} == {r.deal_seeds[d]}  # the same cards every rotation
        for seat in range(seats):
            assert {h.lineup[seat] for h in hands} == {0, 1}
    # the deal is exactly paiju.new_game(game, seed=deal_seed)
    first = paiju.new_game(game, seed=r.deal_seeds[0])
    again = paiju.new_game(game, seed=r.deal_seeds[0])
    assert [first.hand(s) for s in range(seats)] == [again.hand(s) for s in range(seats)]
    for st in r.stats:
        assert st.hands == sum(h.lineup.count(r.bots.index(st.bot)) for h in r.hands)


def test_per_deal_mean_is_the_unit() -> None:
    r = run_tournament("baohuang", ["greedy", "random"], deals=2, seed=5)
    for d in range(2):
        hands = [h for h in r.hands if h.deal == d]
        for b in range(2):
            pts = [h.scores[s] for h in hands for s, x in enumerate(h.lineup) if x == b]
            assert len(pts) == (15 if b == 0 else 10)  # A B A B A: three seats for A, two for B, five rotations
            assert r.per_deal[d][b] == pytest.approx(sum(pts) / len(pts))
    assert r.stats[0].mean == pytest.approx((r.per_deal[0][0] + r.per_deal[1][0]) / 2)


# ---------------------------------------------------------------------------- statistics
def test_confidence_interval_on_a_hand_made_sample() -> None:
    mean, half = mean_ci([1, 2, 3, 4, 5])
    assert mean == 3
    assert half == pytest.approx(2.7764 * math.sqrt(2.5) / math.sqrt(5))
    mean, half = mean_ci([2.0, -1.0, 0.5, 0.5])  # sd √1.5
    assert mean == 0.5
    assert half == pytest.approx(3.1824 * math.sqrt(1.5) / 2)
    assert mean_ci([4.0]) == (4.0, None)
    assert t975(1) == pytest.approx(12.706, abs=1e-3)
    assert t975(30) == pytest.approx(2.042, abs=1e-3)
    assert t975(31) == pytest.approx(2.0395, abs=1e-3)  # the expansion joins the table
    assert t975(120) == pytest.approx(1.9799, abs=1e-3)
    assert t975(10**6) == pytest.approx(1.95996, abs=1e-4)


def test_summary_of_hand_made_hands() -> None:
    from paiju.tournament import HandResult

    def hand(deal: int, rot: int, lineup: tuple[int, ...], scores: tuple[int, ...]) -> HandResult:
        n = len(scores)
        return HandResult(deal, 100 + deal, rot, lineup, scores, ("team A", "team B") * 2, tuple(p > 0 for p in scores),
                          (1,) * n, (0.001,) * n)  # fmt: skip

    hands = [
        hand(0, 0, (0, 1, 0, 1), (3, -3, 3, -3)),
        hand(0, 1, (1, 0, 1, 0), (1, -1, 1, -1)),  # per-deal mean of bot 0: (3 + -1) / 2 = 1
        hand(1, 0, (0, 1, 0, 1), (-2, 2, -2, 2)),
        hand(1, 1, (1, 0, 1, 0), (-2, 2, -2, 2)),  # bot 0: (-2 + 2) / 2 = 0
        hand(2, 0, (0, 1, 0, 1), (1, -1, 1, -1)),
        hand(2, 1, (1, 0, 1, 0), (-3, 3, -3, 3)),  # bot 0: (1 + 3) / 2 = 2
    ]
    r = summarize("shuangkou", ["x", "y"], 3, 0, {}, hands)
    assert r.per_deal == [[1, -1], [0, 0], [2, -2]]
    x, y = r.stats
    assert x.mean == 1 and y.mean == -1
    assert x.half_width == pytest.approx(4.3027 * 1 / math.sqrt(3))
    assert x.ci == pytest.approx((1 - 4.3027 / math.sqrt(3), 1 + 4.3027 / math.sqrt(3)))
    assert x.hands == 12 and x.wins == 8
    assert x.roles["team A"].hands == 6 and x.roles["team A"].wins == 4
    assert x.decisions == 12 and x.mean_decision_ms == pytest.approx(1.0)


@pytest.mark.parametrize("game,deals", [("baohuang", 30), ("shengji", 30), ("shuangkou", 30)])
def test_random_against_random_is_even(game: str, deals: int) -> None:
    r = run_tournament(game, ["random", "random"], deals=deals, seed=2024)
    assert r.labels == ["random#1", "random#2"]
    for st in r.stats:
        assert st.ci is not None
        low, high = st.ci
        assert low < 0 < high, (st.label, st.mean, st.ci)
        assert st.half_width is not None and high - low == pytest.approx(2 * st.half_width)


def test_hosted_against_random_gives_finite_numbers() -> None:
    r = run_tournament("baohuang", ["hosted", "random"], deals=4, seed=3)
    for st in r.stats:
        assert math.isfinite(st.mean)
        assert st.half_width is not None and math.isfinite(st.half_width)
        assert 0 <= st.win_rate <= 1
        assert math.isfinite(st.mean_decision_ms) and st.decisions > 0
        assert set(st.roles) <= {"emperor", "guard", "rebel", "solo"}
        assert sum(rs.hands for rs in st.roles.values()) == st.hands
    assert "emperor" in r.roles and "rebel" in r.roles


# ---------------------------------------------------------------------------- determinism
def test_same_seed_same_results_and_workers_do_not_change_them() -> None:
    one = run_tournament("shuangkou", ["greedy", "random"], deals=6, seed=77)
    again = run_tournament("shuangkou", ["greedy", "random"], deals=6, seed=77)
    two = run_tournament("shuangkou", ["greedy", "random"], deals=6, seed=77, workers=2)
    other = run_tournament("shuangkou", ["greedy", "random"], deals=6, seed=78)
    assert _numbers(one) == _numbers(again) == _numbers(two)
    assert _numbers(one) != _numbers(other)
    # a deal does not depend on which other deals a worker plays
    part = play_deals("shuangkou", ["greedy", "random"], 77, {}, [4])
    assert [h.scores for h in part] == [h.scores for h in one.hands if h.deal == 4]


def test_progress_and_options() -> None:
    calls: list[tuple[int, int]] = []
    opts = {"variant": "classic"}
    r = run_tournament("baohuang", ["greedy", "random"], 3, 1, options=opts, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 3), (2, 3), (3, 3)]
    assert r.options == {"variant": "classic"}
    assert paiju.new_game("baohuang", seed=r.deal_seeds[0], variant="classic").options["guard"] == "call"


def test_bad_input_is_refused_early() -> None:
    with pytest.raises(paiju.IllegalAction, match="unknown bot"):
        run_tournament("baohuang", ["greedy", "nobot"], deals=2, seed=1)
    with pytest.raises(ValueError, match="2 or more bots, not 1"):
        run_tournament("shengji", ["random"], deals=2, seed=1)
    with pytest.raises(ValueError, match="2 to 5 bots, not 6"):
        run_tournament("baohuang", ["random"] * 6, deals=2, seed=1)
    with pytest.raises(paiju.IllegalAction):
        run_tournament("baohuang", ["greedy", "random"], deals=2, seed=1, options={"colour": "red"})
    with pytest.raises(ValueError):
        run_tournament("baohuang", ["greedy", "random"], deals=0, seed=1)


# ---------------------------------------------------------------------------- output
def test_json_csv_and_png_are_written(tmp_path: Path) -> None:
    r = run_tournament("baohuang", ["greedy", "random"], deals=3, seed=9)
    data = json.loads(r.to_json(tmp_path / "t.json"))
    assert json.loads((tmp_path / "t.json").read_text(encoding="utf-8")) == data
    assert data["format"] == "duplicate" and data["deals"] == 3 and data["hands_per_deal"] == 5
    assert data["lineups"][0] == ["greedy", "random", "greedy", "random", "greedy"]
    assert [x["label"] for x in data["results"]] == ["greedy", "random"]
    assert set(data["results"][0]) >= {"mean", "ci95", "win_rate", "roles", "mean_decision_ms"}
    assert "hands" not in data and len(json.loads(r.to_json(hands=True))["hands"]) == 15
    r.to_csv(tmp_path / "t.csv")
    with (tmp_path / "t.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [row["label"] for row in rows] == ["greedy", "random"]
    assert float(rows[0]["mean"]) == pytest.approx(r.stats[0].mean)
    assert "win_rate_emperor" in rows[0]
    pytest.importorskip("matplotlib")
    r.plot(tmp_path / "t.png")
    assert (tmp_path / "t.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ---------------------------------------------------------------------------- the CLI
def test_cli_prints_the_table(tmp_path: Path) -> None:
    r = runner.invoke(app, ["tournament", "baohuang", "--bots", "greedy,random", "--deals", "4"])
    assert r.exit_code == 0, r.output
    assert "duplicate" in r.output and "4 deals × 5 seatings" in r.output
    assert "greedy" in r.output and "random" in r.output
    assert "95 % CI" in r.output and "emperor" in r.output
    out = tmp_path / "t.json"
    r = runner.invoke(
        app,
        ["tournament", "shuangkou", "-b", "greedy,random", "-n", "3", "--seed", "4", "--json", str(out),
         "--csv", str(tmp_path / "t.csv")],
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert json.loads(out.read_text(encoding="utf-8"))["seed"] == 4
    assert (tmp_path / "t.csv").exists()


def test_cli_errors() -> None:
    r = runner.invoke(app, ["tournament", "baohuang", "--bots", "greedy,nobot", "--deals", "2"])
    assert r.exit_code == 2 and "unknown bot" in r.output
    r = runner.invoke(app, ["tournament", "shengji", "--bots", "random", "--deals", "2"])
    assert r.exit_code == 2 and "2 or more bots" in r.output


def test_cli_without_ray_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_ray(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    r = runner.invoke(app, ["tournament", "baohuang", "--bots", "greedy,random", "--deals", "2", "--ray"])
    assert r.exit_code == 2
    assert "pip install 'paiju[ray]'" in r.output
    with pytest.raises(RayUnavailable, match=r"paiju\[ray\]"):
        from paiju.tournament import run_tournament_ray

        run_tournament_ray("baohuang", ["greedy", "random"], deals=2, seed=1)


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed (pip install 'paiju[ray]')")
def test_ray_gives_the_same_results() -> None:
    import ray

    from paiju.tournament import run_tournament_ray

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = run_tournament_ray("shuangkou", ["greedy", "random"], deals=4, seed=5)
    finally:
        ray.shutdown()
    assert on_ray.backend == "ray"
    assert _numbers(on_ray) == _numbers(run_tournament("shuangkou", ["greedy", "random"], deals=4, seed=5))


def test_three_bots_in_a_partnership_game_meet_as_teams() -> None:
    r = run_tournament("shuangkou", ["greedy", "random", "hosted"], deals=2, seed=6)
    assert len(r.hands) == 2 * 6
    for h in r.hands:  # never a bot against itself
        assert h.lineup[0] == h.lineup[2] != h.lineup[1] == h.lineup[3]
    assert sum(st.mean * st.hands for st in r.stats) == pytest.approx(0)  # zero-sum, equal seats per bot
    assert all(st.hands == 16 for st in r.stats)
