"""Smoke test of ``benchmarks/search.py``: it runs with a tiny budget and reports worlds
and searched decisions for every game. No timing assertions."""

from __future__ import annotations

from types import ModuleType

import pytest

from project_scripts import ROOT, load_script


def _load() -> ModuleType:
    return load_script(ROOT / "benchmarks" / "search.py", "bench_search")


@pytest.mark.parametrize("game", ["baohuang", "shengji", "shuangkou"])
def test_search_benchmark_reports(game: str) -> None:
    row = _load().bench_game(game, 1, "search:worlds=2")
    assert row["game"] == game and row["positions"] > 0
    assert row["first_world_ms"] > 0 and row["next_world_ms"] > 0
    assert row["searched_decisions"] > 0 and row["worlds_per_decision_median"] == 2
    assert row["heuristic_decisions"] > 0 and row["heuristic_decision_ms_mean"] > 0
