"""deploy/monitoring agrees with the hall: `promtool` accepts the scrape config and the alert
rules, and every metric the alerts and the Grafana dashboard name is one the hall exports
(paiju.server.metrics, or prometheus-client's process and GC collectors)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from prometheus_client import REGISTRY

import paiju.server.metrics as metrics

MONITORING = Path(__file__).parent.parent / "deploy" / "monitoring"
PROMTOOL = shutil.which("promtool")
NEEDS_PROMTOOL = pytest.mark.skipif(
    PROMTOOL is None, reason="needs Debian's prometheus (promtool; .ci/run installs it)"
)
# a metric's name in a PromQL expression: a word before `{`, `[`, `)` or a comparison (functions stand before `(`)
NAMES = re.compile(r"\b([a-z_][a-z0-9_]*)\s*(?=[{\[)><=!]|$)")
WORDS = {"and", "or", "unless"}


def exported() -> set[str]:
    """Every series name the hall's process may export, as Prometheus sees it."""
    names = {"up"}  # Prometheus's own, for every target
    for family in REGISTRY.collect():
        if family.type == "counter":
            names.add(family.name + "_total")
        elif family.type == "histogram":
            names.update(family.name + suffix for suffix in ("_bucket", "_count", "_sum"))
        else:
            names.add(family.name)
        names.update(s.name for s in family.samples)
    assert metrics.GAUGES.keys() <= names
    return names


def named(expr: str) -> set[str]:
    expr = re.sub(r"\{[^}]*\}", "{}", expr)  # label matchers hold no metric names
    expr = re.sub(r'"[^"]*"', '""', expr)
    expr = re.sub(r"\b(by|without|on|ignoring)\s*\([^)]*\)", "", expr)  # label lists
    return {n for n in NAMES.findall(expr) if n not in WORDS and not n.isdigit()}


def dashboard_exprs() -> list[str]:
    board = json.loads((MONITORING / "grafana-dashboard.json").read_text(encoding="utf-8"))
    return [t["expr"] for p in board["panels"] for t in p["targets"]]


def test_dashboard_names_only_metrics_the_hall_exports() -> None:
    exprs = dashboard_exprs()
    assert len(exprs) >= 12
    have = exported()
    for expr in exprs:
        assert named(expr), f"no metric found in {expr!r}"
        assert named(expr) <= have, f"{expr!r} names {sorted(named(expr) - have)}, which the hall does not export"
    words = " ".join(exprs)
    for wanted in (
        "paiju_tables",
        "paiju_players_connected",
        "paiju_actions_total",
        "paiju_action_latency_seconds_bucket",
    ):
        assert wanted in words


def test_alert_rules_name_only_metrics_the_hall_exports() -> None:
    text = (MONITORING / "paiju-alerts.yml").read_text(encoding="utf-8")
    exprs = re.findall(r"^\s+expr: (.+)$", text, flags=re.M)
    assert len(exprs) >= 5
    have = exported()
    for expr in exprs:
        assert named(expr) <= have, f"{expr!r} names {sorted(named(expr) - have)}, which the hall does not export"


@NEEDS_PROMTOOL
def test_promtool_accepts_the_rules_and_the_scrape_config() -> None:
    assert PROMTOOL is not None
    for args in (["check", "rules", "paiju-alerts.yml"], ["check", "config", "prometheus.yml"]):
        done = subprocess.run([PROMTOOL, *args], cwd=MONITORING, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stdout + done.stderr
