"""Smoke test of ``benchmarks/engine_shuangkou.py``: its functions run with a tiny budget
and report positive numbers. No timing assertions — speed is measured by the script."""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import ModuleType

import pytest

from project_scripts import load_script

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "engine_shuangkou.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    module = load_script(SCRIPT, "paiju_benchmarks_engine_shuangkou")
    return module


def assert_positive(figures: dict[str, float]) -> None:
    for name, value in figures.items():
        assert math.isfinite(value) and value > 0, f"{name} = {value}"


def test_random_playout(bench: ModuleType) -> None:
    result = bench.random_playout(0.01, min_triple_run=2, four_joker_bomb=True)
    assert_positive(result)
    assert result["hands"] >= 1 and result["decisions"] >= result["hands"]


def test_legal_actions_cost(bench: ModuleType) -> None:
    result = bench.legal_actions_cost(0.001, hands=2)
    # apply_us is a difference of two timings ((apply + clone) − clone): on a busy machine
    # and this tiny budget it may come out below 0; a smoke test asserts no timing
    assert math.isfinite(result.pop("apply_us"))
    assert_positive(result)
    assert result["follow_n"] >= 1 and result["lead_max"] >= result["lead_n"]


def test_main_prints_and_writes_json(bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "bench.json"
    bench.main(["--quick", "--runs", "1", "--no-pin", "--json", str(out), "-o", "min_triple_run=2"])
    printed = capsys.readouterr().out
    assert "decisions/s" in printed and "target:" in printed and "legal_actions:" in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["options"] == {"min_triple_run": 2} and data["playout"]["decisions_per_s"] > 0
