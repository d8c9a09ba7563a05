"""Smoke test of ``benchmarks/engine_shengji.py``: it runs with a tiny budget and reports
positive numbers. No timing assertions — speed is measured by the script, not by tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from project_scripts import load_script

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "engine_shengji.py"


def test_benchmark_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    module = load_script(SCRIPT, "paiju_benchmarks_engine_shengji")
    results = module.main(["--smoke", "--no-pin", "--decks", "1,3"])
    assert [r.decks for r in results] == [1, 3]
    assert all(r.hands_per_s > 0 and r.decisions_per_s > 0 and r.lead_len >= 1 for r in results)
    assert "decisions/s" in capsys.readouterr().out
