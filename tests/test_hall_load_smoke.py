"""Smoke test of ``benchmarks/hall_load.py``: five clients (one table) play for a few
seconds against a real server subprocess; the run reports accepted actions and no errors.
No timing assertions — speed is measured by the script, not by tests."""

from __future__ import annotations

import importlib.util
import json
import sys
import threading
from pathlib import Path
from types import ModuleType

import pytest

HALL_LOAD = Path(__file__).resolve().parents[1] / "benchmarks" / "hall_load.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("paiju_benchmarks_hall_load", HALL_LOAD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
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
