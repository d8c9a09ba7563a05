"""Smoke test of ``benchmarks/analysis_accuracy.py``: it runs with a tiny budget and
reports both sides of every game. No timing or rate assertions."""

from __future__ import annotations

from types import ModuleType

from project_scripts import ROOT, load_script


def _load() -> ModuleType:
    return load_script(ROOT / "benchmarks" / "analysis_accuracy.py", "bench_analysis")


def test_the_accuracy_benchmark_reports_both_sides() -> None:
    bench = _load()
    rows = bench.bench_game("shuangkou", 1, 0.001)
    assert [r["side"] for r in rows] == ["random", "heuristic"]
    for r in rows:
        assert r["decisions"] > 0 and 0 <= r["marked_low"] <= r["marked"] <= r["marked_high"] <= 1
    assert bench.wilson(0, 10)[0] == 0 and 0.2 < bench.wilson(5, 10)[0] < 0.5
