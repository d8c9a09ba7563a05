"""The hall's collector settings (``paiju.server.web.collector``), checked in a process of their
own so that the test run keeps CPython's defaults."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import gc
from paiju.server.web import collector
collector.freeze_loaded()
assert gc.get_freeze_count() == 0, "froze without tune(): a test process would keep everything"
collector.tune()
assert gc.get_threshold() == collector.THRESHOLDS
kept = [[] for _ in range(1000)]  # tracked objects (lists), loaded before the freeze
collector.freeze_loaded()
assert gc.get_freeze_count() >= 1000, gc.get_freeze_count()
print("ok")
"""


def test_the_hall_tunes_its_collector_and_freezes_what_start_up_loaded() -> None:
    out = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
