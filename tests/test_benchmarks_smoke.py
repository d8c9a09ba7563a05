"""Smoke test of ``benchmarks/engine.py``: its functions run with a tiny budget and report
positive numbers. No timing assertions — speed is measured by the script, not by tests."""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import ModuleType

import pytest

from project_scripts import load_script

ENGINE = Path(__file__).resolve().parents[1] / "benchmarks" / "engine.py"

FIGURES = (
    "hands_per_s",
    "decisions_per_s",
    "decisions_per_hand",
    "us_per_decision",
    "cpu_share",
    "lead_n",
    "lead_us",
    "lead_iter_us",
    "largest_lead_n",
    "largest_lead_iter_us",
    "follow_n",
    "follow_us",
    "largest_n",
    "largest_us",
    "largest_iter_us",
    "apply_us",
    "view_us",
    "clone_us",
    "new_game_us",
    "replay_ms",
    "replay_actions",
)


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    module = load_script(ENGINE, "paiju_benchmarks_engine")
    return module


def assert_positive(result: object) -> None:
    for name in FIGURES:
        value = getattr(result, name)
        assert math.isfinite(value) and value > 0, f"{name} = {value}"


@pytest.mark.parametrize("config", ["standard+kao", "qingdao+kao+hold_sixes"])
def test_bench_config_reports_positive_figures(bench: ModuleType, config: str) -> None:
    result = bench.bench_config(config, bench.CONFIGS[config], bench.TINY)
    assert result.config == config
    assert_positive(result)
    assert result.largest_n >= result.follow_n >= 1  # a follow always has at least pass
    assert result.runs["playout"]


def test_main_prints_markdown_and_writes_json(bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "bench.json"
    results = bench.main(["--smoke", "--no-pin", "--markdown", "--json", str(out), "--configs", "standard"])
    assert [r.config for r in results] == ["standard"]
    assert_positive(results[0])
    printed = capsys.readouterr().out
    assert "| standard |" in printed
    assert "Machine:" in printed and "target:" in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["machine"]["cpu"]
    assert data["target"]["measured"] > 0
    assert data["results"][0]["decisions_per_s"] > 0


def test_main_prints_a_table(bench: ModuleType, capsys: pytest.CaptureFixture) -> None:
    bench.main(["--smoke", "--no-pin", "--configs", "weihai"])
    printed = capsys.readouterr().out
    assert "weihai" in printed and "decisions/s" in printed


def test_all_games_markdown_and_json(bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "bench.json"
    args = ["--smoke", "--no-pin", "--markdown", "--json", str(out), "--games", "shengji,shuangkou", "--decks", "1,2"]
    report = bench.run(args)
    assert report.baohuang == [] and [r.decks for r in report.shengji] == [1, 2]
    for r in report.shengji:
        assert r.hands_per_s > 0 and r.decisions_per_s > 0 and r.lead_len >= 1 and 0 <= r.throw_share <= 1
    assert report.shuangkou.decisions_per_s > 0 and report.shuangkou.follow_n >= 1
    printed = capsys.readouterr().out
    assert "### 升级 Shengji" in printed and "### 双扣 Shuangkou" in printed and "### 保皇" not in printed
    assert "≥ 250 hands/s" in printed and "≥ 30,000 decisions/s for Shuangkou" in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["results"] == [] and data["target"]["measured"] is None
    assert [g["decks"] for g in data["games"]["shengji"]] == [1, 2]
    assert data["targets"]["shengji"]["measured"] > 0 and data["targets"]["shuangkou"]["measured"] > 0


def test_games_default_and_errors(bench: ModuleType, capsys: pytest.CaptureFixture) -> None:
    report = bench.run(["--smoke", "--no-pin", "--configs", "weihai", "--games", "baohuang,shuangkou"])
    assert [r.config for r in report.baohuang] == ["weihai"] and report.shengji == [] and report.shuangkou
    assert "双扣 Shuangkou" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        bench.run(["--smoke", "--games", "chess"])
    with pytest.raises(SystemExit):
        bench.run(["--smoke", "--games", "shengji", "--decks", "4"])


def test_stats_profile_and_encode(bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "extras.json"
    args = ["--smoke", "--no-pin", "--stats", "--profile", "5", "--encode", "--json", str(out)]
    report = bench.run([*args, "--configs", "standard", "--games", "baohuang,shengji,shuangkou", "--decks", "2"])
    assert report.baohuang == [] and report.shengji == [] and report.shuangkou is None  # no timings
    printed = capsys.readouterr().out
    assert "one legal action" in printed and "cProfile" in printed and "json/orjson" in printed
    stats = {r["game"]: r for r in report.extras["stats"]}
    assert set(stats) == {"baohuang", "shengji", "shuangkou"}
    for r in stats.values():
        assert 0 <= r["forced_share"] <= 1 and 0 <= r["pass_share"] <= 1 and r["decisions_per_hand"] > 0
        assert abs(sum(r["phase_shares"].values()) - 1) < 1e-9
    assert stats["shengji"]["pass_share"] == 0 and stats["shuangkou"]["passes_per_hand"] > 0
    for r in report.extras["profile"]:
        assert len(r["rows"]) == 5 and all(0 <= row["cumulative"] <= 1 for row in r["rows"])
    for r in report.extras["encode"]:
        assert r["positions"] > 0 and r["full"]["json_us"] > 0 and r["update"]["orjson_us"] > 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [r["game"] for r in data["stats"]] == ["baohuang", "shengji", "shuangkou"]
