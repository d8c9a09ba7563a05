"""What ``hall_abuse.py`` reports: a row's figures (``Result``), the three tables (the
victims, the flood and the server's CPU, the server's memory) as text or markdown, and
the verdict against the target.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

TARGET_P99_DELTA_MS = 50.0  # a flood moves the victims' p99 by less than this
TARGET_RSS_MB = 60.0  # the server's RSS grows by less than this under non-readers


# ---------------------------------------------------------------------------- one row
@dataclass
class Result:
    label: str
    flooders: int
    nonreaders: int
    victims: int
    seconds: float
    think_s: float
    # victims
    actions: int
    actions_per_s: float
    p50_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float
    victim_errors: dict[str, int]
    victim_closed: int
    unconfirmed: int
    victim_lag_ms: float  # the worst event-loop lag of the victims' process
    # flooders or non-readers
    connects: int
    sent_per_s: float
    sent_mb_per_s: float
    replies_per_s: float
    reply_kinds: dict[str, int]
    closed_by_server: int
    close_codes: dict[str, int]
    refused: dict[str, int]
    stalled: int
    flooder_cpu: float  # share of one core used by the flooders' process
    # server
    server_cpu: float  # share of one core over the window
    server_core_busy: float  # how busy the server's CPU was, every program counted (when pinned)
    other_cpu: float  # what the rest of the machine used meanwhile: ~0 on an idle machine
    rss_before_mb: float  # before the flood (non-readers: just before they connect)
    rss_peak_mb: float  # the most seen, samples and VmHWM, from the flood's start on
    rss_growth_mb: float
    rss_after_mb: float  # the last sample (non-readers: --after s after they left)
    rss_stays_mb: float
    rss_samples: list[tuple[float, float]]  # (seconds from the flood's start, MB)
    server_log_errors: list[str]
    server_exit: int | None


# ---------------------------------------------------------------------------- output
def verdict(results: Sequence[Result]) -> list[str]:
    """One line per part of the target: p99 with 1 and with 20 flooders, and the RSS growth."""
    base = next((r for r in results if r.flooders == 0 and r.nonreaders == 0), None)
    lines = []
    for n in (1, 20):
        r = next((r for r in results if r.flooders == n and r.nonreaders == 0), None)
        what = f"victims' p99 with {n} flooder{'s' * (n != 1)} − without < {TARGET_P99_DELTA_MS:g} ms"
        if base is None or r is None:
            lines.append(f"target: {what}: not measured")
            continue
        delta = r.p99_ms - base.p99_ms
        ok = delta < TARGET_P99_DELTA_MS
        lines.append(
            f"target: {what}: {'MET' if ok else 'NOT MET'} ({r.p99_ms:.1f} − {base.p99_ms:.1f} = {delta:+.1f} ms)"
        )
    mute = next((r for r in results if r.nonreaders), None)
    what = f"RSS growth under non-readers < {TARGET_RSS_MB:g} MB"
    if mute is None:
        lines.append(f"target: {what}: not measured")
    else:
        ok = mute.rss_growth_mb < TARGET_RSS_MB
        lines.append(
            f"target: {what}: {'MET' if ok else 'NOT MET'} ({mute.nonreaders} non-readers: "
            f"+{mute.rss_growth_mb:.1f} MB at the peak, {mute.rss_stays_mb:+.1f} MB stays)"
        )
    for r in results:
        if r.victim_errors or r.victim_closed or r.unconfirmed:
            lines.append(
                f"warning: victims were hit at {r.label}: {sum(r.victim_errors.values())} errors, "
                f"{r.victim_closed} connections closed, {r.unconfirmed} actions never confirmed"
            )
        if r.victim_lag_ms > TARGET_P99_DELTA_MS / 2:  # the client side, not the hall, was late
            lines.append(
                f"caution at {r.label}: the victims' own process lagged up to {r.victim_lag_ms:.0f} ms "
                "(the clients' CPU was short): part of their latency is the clients'"
            )
        if r.other_cpu > 0.3:
            lines.append(f"caution at {r.label}: other programs used {r.other_cpu:.0%} of a core meanwhile")
    return lines


def _codes(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} ×{v}" for k, v in counts.items()) or "0"


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.0%}"


# three tables, a row per load: the victims, the flood and the server's CPU, the server's memory
VICTIM_HEAD = ("load", "p50 ms", "p90 ms", "p99 ms", "max ms", "actions/s", "victim errors", "victim lag ms")
FLOOD_HEAD = (
    "load",
    "msgs/s sent",
    "MB/s sent",
    "replies/s",
    "conns",
    "closed by server",
    "refused",
    "flooder CPU",
    "server CPU",
    "server core busy",
    "other CPU",
)
RSS_HEAD = ("load", "RSS before MB", "peak MB", "growth MB", "after MB", "stays MB")


def _victim_row(r: Result) -> list[str]:
    return [
        r.label,
        f"{r.p50_ms:.1f}",
        f"{r.p90_ms:.1f}",
        f"{r.p99_ms:.1f}",
        f"{r.max_ms:.0f}",
        f"{r.actions_per_s:,.0f}",
        f"{sum(r.victim_errors.values()) + r.victim_closed + r.unconfirmed}",
        f"{r.victim_lag_ms:.0f}",
    ]


def _flood_row(r: Result) -> list[str]:
    return [
        r.label,
        f"{r.sent_per_s:,.0f}",
        f"{r.sent_mb_per_s:,.1f}",
        f"{r.replies_per_s:,.0f}",
        f"{r.connects}",
        f"{r.closed_by_server} ({_codes(r.close_codes)})" if r.closed_by_server else "0",
        _codes(r.refused) + (f", {r.stalled} stalled" if r.stalled else ""),
        _pct(r.flooder_cpu) if r.flooders or r.nonreaders else "-",
        _pct(r.server_cpu),
        _pct(r.server_core_busy),
        _pct(r.other_cpu),
    ]


def _rss_row(r: Result) -> list[str]:
    return [
        r.label,
        f"{r.rss_before_mb:.1f}",
        f"{r.rss_peak_mb:.1f}",
        f"{r.rss_growth_mb:+.1f}",
        f"{r.rss_after_mb:.1f}",
        f"{r.rss_stays_mb:+.1f}",
    ]


def _tables(results: Sequence[Result]) -> list[tuple[tuple[str, ...], list[list[str]]]]:
    return [
        (VICTIM_HEAD, [_victim_row(r) for r in results]),
        (FLOOD_HEAD, [_flood_row(r) for r in results]),
        (RSS_HEAD, [_rss_row(r) for r in results]),
    ]


def _details(r: Result) -> list[str]:
    out = []
    if r.reply_kinds:
        out.append(f"replies to the {r.label}: {_codes(r.reply_kinds)}")
    if r.victim_errors or r.victim_closed or r.unconfirmed:
        out.append(
            f"victims at {r.label}: errors {_codes(r.victim_errors)}; {r.victim_closed} connections closed, "
            f"{r.unconfirmed} actions never confirmed"
        )
    if r.nonreaders:
        out.append(
            f"RSS at {r.label}, MB by second from their start: " + " ".join(f"{mb:g}" for _, mb in r.rss_samples)
        )
    if r.server_log_errors:
        out.append(f"server log at {r.label}: {len(r.server_log_errors)} error lines, first: {r.server_log_errors[0]}")
    return out


def print_table(results: Sequence[Result], info: dict[str, Any], notes: list[str]) -> None:
    print(f"Machine: {info['cpu']}, {info['cores']} cores, {info['python']}")
    for n in notes:
        print(n)
    for head, rows in _tables(results):
        widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(head)]
        print()
        print("  ".join(h.rjust(w) for h, w in zip(head, widths)))
        for row in rows:
            print("  ".join(c.rjust(w) for c, w in zip(row, widths)))
    print()
    for r in results:
        for line in _details(r):
            print(line)
    for line in verdict(results):
        print(line)


def print_markdown(results: Sequence[Result], info: dict[str, Any], notes: list[str]) -> None:
    print(f"Machine: {info['cpu']}, {info['cores']} cores, {info['python']}, {info['platform']}.")
    for n in notes:
        print(f"{n}.")
    for head, rows in _tables(results):
        print()
        print("| " + " | ".join(head) + " |")
        print("|---|" + "|".join("---:" for _ in head[1:]) + "|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    print()
    for r in results:
        for line in _details(r):
            print(f"{line}.")
    for line in verdict(results):
        print(f"{line}.")
