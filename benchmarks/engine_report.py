"""What ``engine.py`` prints and writes: every game's tables (rich, plain text or
markdown), the targets and whether they were met, and the JSON of a run.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from engine_baohuang import Result
from engine_games import ShengjiResult, ShuangkouResult
from engine_timing import Budget, clock_name

TARGET_DECISIONS_PER_S = 30_000
"""The issue's target: Baohuang ``standard`` random play on one core."""
TARGET_SHENGJI_HANDS_PER_S = 250
"""Shengji, 2 packs, random play with throws among the leader's choices, one core."""
TARGET_SHUANGKOU_DECISIONS_PER_S = 30_000
"""Shuangkou random play, one core."""
GAMES = ("baohuang", "shengji", "shuangkou")


# ---------------------------------------------------------------------------- output
THROUGHPUT_COLUMNS = [
    ("config", "config", "{}"),
    ("hands/s", "hands_per_s", "{:,.0f}"),
    ("decisions/s", "decisions_per_s", "{:,.0f}"),
    ("decisions/hand", "decisions_per_hand", "{:,.0f}"),
    ("µs/decision", "us_per_decision", "{:.2f}"),
    ("CPU share", "cpu_share", "{:.0%}"),
    ("new_game µs", "new_game_us", "{:,.0f}"),
    ("apply µs", "apply_us", "{:.2f}"),
    ("view µs", "view_us", "{:,.0f}"),
    ("clone µs", "clone_us", "{:,.1f}"),
    ("replay ms/hand", "replay_ms", "{:.2f}"),
]
LEGAL_COLUMNS = [
    ("config", "config", "{}"),
    ("lead n", "lead_n", "{:.1f}"),
    ("lead µs", "lead_us", "{:.2f}"),
    ("lead+iter µs", "lead_iter_us", "{:.2f}"),
    ("largest lead n", "largest_lead_n", "{}"),
    ("largest lead+iter µs", "largest_lead_iter_us", "{:.1f}"),
    ("follow n", "follow_n", "{:.1f}"),
    ("follow µs", "follow_us", "{:.2f}"),
    ("largest follow n", "largest_n", "{}"),
    ("largest follow µs", "largest_us", "{:.2f}"),
    ("largest follow+iter µs", "largest_iter_us", "{:.2f}"),
]


SHENGJI_COLUMNS = [
    ("packs", "decks", "{}"),
    ("hands/s", "hands_per_s", "{:,.0f}"),
    ("decisions/s", "decisions_per_s", "{:,.0f}"),
    ("decisions/hand", "decisions_per_hand", "{:,.0f}"),
    ("µs/decision", "us_per_decision", "{:.1f}"),
    ("hosted hands/s", "hosted_hands_per_s", "{:,.0f}"),
    ("lead n", "lead_len", "{:,.0f}"),
    ("lead µs", "lead_us", "{:.1f}"),
    ("throws/lead", "throw_share", "{:.0%}"),
    ("failed/throw", "failed_share", "{:.0%}"),
    ("CPU share", "cpu_share", "{:.0%}"),
]
SHUANGKOU_COLUMNS = [
    ("options", "config", "{}"),
    ("hands/s", "hands_per_s", "{:,.0f}"),
    ("decisions/s", "decisions_per_s", "{:,.0f}"),
    ("decisions/hand", "decisions_per_hand", "{:,.0f}"),
    ("µs/decision", "us_per_decision", "{:.2f}"),
    ("lead n", "lead_n", "{:.1f}"),
    ("lead µs", "lead_us", "{:.2f}"),
    ("lead+iter µs", "lead_iter_us", "{:.2f}"),
    ("follow n", "follow_n", "{:.1f}"),
    ("follow µs", "follow_us", "{:.2f}"),
    ("apply µs", "apply_us", "{:.2f}"),
    ("clone µs", "clone_us", "{:.1f}"),
    ("view µs", "view_us", "{:.1f}"),
    ("CPU share", "cpu_share", "{:.0%}"),
]


def _rows(results: Sequence[Any], columns: list[tuple[str, str, str]]) -> list[list[str]]:
    return [[fmt.format(getattr(r, attr)) for _, attr, fmt in columns] for r in results]


def markdown_table(results: Sequence[Any], columns: list[tuple[str, str, str]]) -> str:
    head = [title for title, _, _ in columns]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in _rows(results, columns)]
    return "\n".join(lines)


def machine_line(info: dict[str, Any], pinning: str) -> str:
    return (
        f"{info['cpu']}, {info['cores']} cores ({info['usable_cores']} usable), {info['python']}, "
        f"{info['platform']}; {pinning}"
    )


def budget_line(budget: Budget, games: Sequence[str] = ("baohuang",)) -> str:
    where = []
    if "baohuang" in games:
        where.append(f"Baohuang positions from {budget.scan_hands} random hands per configuration")
    if "shengji" in games:
        where.append(f"Shengji throws counted over {budget.throw_hands} random hands per number of packs")
    if "shuangkou" in games:
        where.append(f"Shuangkou positions from {budget.cost_hands} random hands")
    return (
        f"{clock_name()}, medians of {budget.repeats} runs ({budget.playout_s:g} s per playout run, "
        f"{budget.micro_s:g} s per per-call run; {'; '.join(where)})"
    )


def shengji_target_line(results: Sequence[ShengjiResult]) -> str | None:
    two = next((r for r in results if r.decks == 2), None)
    if two is None:
        return None
    met = "met" if two.hands_per_s >= TARGET_SHENGJI_HANDS_PER_S else "NOT met"
    return (
        f"target: ≥ {TARGET_SHENGJI_HANDS_PER_S} hands/s for Shengji with 2 packs, random play with throws "
        f"among the leader's choices, one core — {two.hands_per_s:,.0f} "
        f"({two.hands_per_s / TARGET_SHENGJI_HANDS_PER_S:.1f}×): {met}"
    )


def shuangkou_target_line(result: ShuangkouResult | None) -> str | None:
    if result is None:
        return None
    d = result.decisions_per_s
    met = "met" if d >= TARGET_SHUANGKOU_DECISIONS_PER_S else "NOT met"
    return (
        f"target: ≥ {TARGET_SHUANGKOU_DECISIONS_PER_S:,} decisions/s for Shuangkou random play on one core — "
        f"{d:,.0f} ({d / TARGET_SHUANGKOU_DECISIONS_PER_S:.1f}×): {met}"
    )


Columns = list[tuple[str, str, str]]
TableSpec = tuple[str, Sequence[Any], Columns]
Section = tuple[str, list[TableSpec], str | None]


@dataclass
class Report:
    """Everything one run measured, per game (empty for the games not asked for)."""

    baohuang: list[Result] = field(default_factory=list)
    shengji: list[ShengjiResult] = field(default_factory=list)
    shuangkou: ShuangkouResult | None = None
    extras: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # --stats, --profile, --encode

    @property
    def games(self) -> list[str]:
        return [g for g, got in zip(GAMES, (self.baohuang, self.shengji, self.shuangkou)) if got]

    def sections(self) -> list[Section]:
        """Per game measured: (heading, [(table title, rows, columns)], target line)."""
        out: list[Section] = []
        tables: list[TableSpec]
        if self.baohuang:
            tables = [
                ("Random playout and per-call costs", self.baohuang, THROUGHPUT_COLUMNS),
                ("legal_actions() per call (n = number of legal actions)", self.baohuang, LEGAL_COLUMNS),
            ]
            out.append(("保皇 Baohuang", tables, target_line(self.baohuang)))
        if self.shengji:
            tables = [("Random playout per number of packs", self.shengji, SHENGJI_COLUMNS)]
            out.append(("升级 Shengji", tables, shengji_target_line(self.shengji)))
        if self.shuangkou is not None:
            tables = [("Random playout and per-call costs", [self.shuangkou], SHUANGKOU_COLUMNS)]
            out.append(("双扣 Shuangkou", tables, shuangkou_target_line(self.shuangkou)))
        return out


def target_line(results: Sequence[Result]) -> str | None:
    std = next((r for r in results if r.config == "standard"), None)
    if std is None:
        return None
    met = "met" if std.decisions_per_s >= TARGET_DECISIONS_PER_S else "NOT met"
    return (
        f"target: ≥ {TARGET_DECISIONS_PER_S:,} decisions/s for standard random play on one core — "
        f"{std.decisions_per_s:,.0f} ({std.decisions_per_s / TARGET_DECISIONS_PER_S:.1f}×): {met}"
    )


def _as_report(results: Sequence[Result] | Report) -> Report:
    return results if isinstance(results, Report) else Report(baohuang=list(results))


def print_markdown(results: Sequence[Result] | Report, info: dict[str, Any], pinning: str, budget: Budget) -> None:
    report = _as_report(results)
    print(f"Machine: {machine_line(info, pinning)}.")
    print(f"{budget_line(budget, report.games)}.")
    for heading, tables, line in report.sections():
        print(f"\n### {heading}")
        for _, rows, columns in tables:
            print()
            print(markdown_table(rows, columns))
        if line:
            print(f"\n{line}")


def print_tables(results: Sequence[Result] | Report, info: dict[str, Any], pinning: str, budget: Budget) -> None:
    report = _as_report(results)
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:  # plain text
        print(f"machine: {machine_line(info, pinning)}")
        for heading, tables, line in report.sections():
            for title, results_, columns in tables:
                print(f"\n{heading} · {title}")
                rows = [[t for t, _, _ in columns], *_rows(results_, columns)]
                widths = [max(len(row[i]) for row in rows) for i in range(len(columns))]
                for row in rows:
                    cells = (cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
                    print("  ".join(cells))
            if line:
                print(f"\n{line}")
        return
    console = Console() if sys.stdout.isatty() else Console(width=200)  # no wrapping when piped
    console.print(f"[bold]machine[/]: {machine_line(info, pinning)}")
    console.print(budget_line(budget, report.games))
    for heading, tables, line in report.sections():
        for title, results_, columns in tables:
            table = Table(title=f"{heading} · {title}")
            for i, (t, _, _) in enumerate(columns):
                table.add_column(t, justify="left" if i == 0 else "right")
            for row in _rows(results_, columns):
                table.add_row(*row)
            console.print(table)
        if line:
            console.print(line)


def to_json(results: Sequence[Result] | Report, info: dict[str, Any], pinning: str, budget: Budget) -> dict[str, Any]:
    """Every figure. ``target`` and ``results`` are Baohuang's (as before); ``games`` has
    Shengji and Shuangkou, ``targets`` every game's target."""
    report = _as_report(results)
    std = next((r for r in report.baohuang if r.config == "standard"), None)
    two = next((r for r in report.shengji if r.decks == 2), None)
    sk = report.shuangkou
    return {
        "machine": info,
        "pinning": pinning,
        "budget": asdict(budget),
        "clock": clock_name(),
        "target": {
            "decisions_per_s": TARGET_DECISIONS_PER_S,
            "config": "standard",
            "measured": std.decisions_per_s if std else None,
            "met": (std.decisions_per_s >= TARGET_DECISIONS_PER_S) if std else None,
        },
        "results": [asdict(r) for r in report.baohuang],
        "games": {
            "shengji": [asdict(r) for r in report.shengji],
            "shuangkou": asdict(sk) if sk is not None else None,
        },
        "targets": {
            "baohuang": {
                "decisions_per_s": TARGET_DECISIONS_PER_S,
                "measured": std.decisions_per_s if std else None,
                "met": (std.decisions_per_s >= TARGET_DECISIONS_PER_S) if std else None,
            },
            "shengji": {
                "hands_per_s": TARGET_SHENGJI_HANDS_PER_S,
                "decks": 2,
                "measured": two.hands_per_s if two else None,
                "met": (two.hands_per_s >= TARGET_SHENGJI_HANDS_PER_S) if two else None,
            },
            "shuangkou": {
                "decisions_per_s": TARGET_SHUANGKOU_DECISIONS_PER_S,
                "measured": sk.decisions_per_s if sk else None,
                "met": (sk.decisions_per_s >= TARGET_SHUANGKOU_DECISIONS_PER_S) if sk else None,
            },
        },
    }
