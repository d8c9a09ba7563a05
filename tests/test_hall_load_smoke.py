"""Smoke test of ``benchmarks/hall_load.py``: five clients (one table) play for a few
seconds against a real server subprocess; the run reports accepted actions and no errors.
No timing assertions — speed is measured by the script, not by tests."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from types import ModuleType

import pytest

from project_scripts import load_script

HALL_LOAD = Path(__file__).resolve().parents[1] / "benchmarks" / "hall_load.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    module = load_script(HALL_LOAD, "paiju_benchmarks_hall_load")
    return module


@pytest.mark.timeout(120)
def test_five_clients_play_without_errors(bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "hall.json"
    argv = ["--clients", "5", "--duration", "3", "--warmup", "1", "--no-pin", "--markdown", "--json", str(out)]
    # in a thread of its own: a session's sync Playwright keeps an event loop running in this one
    box: list = []
    worker = threading.Thread(target=lambda: box.append(bench.main(argv)))
    worker.start()
    worker.join()
    ((result,),) = box
    assert result.clients == 5 and result.tables == 1
    assert result.actions > 0
    assert result.errors == 0, result.error_kinds
    assert result.unconfirmed == 0 and result.closed == 0
    assert result.server_exit is not None  # the server was stopped
    printed = capsys.readouterr().out
    assert "| 5 | 1 |" in printed and "Machine:" in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["results"][0]["actions"] == result.actions
    assert data["machine"]["cpu"]
