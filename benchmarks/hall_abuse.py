"""Hall abuse benchmark: do flooding clients slow the honest tables down, and does the memory
of a hall whose clients stop reading stay bounded?

Run ``.venv/bin/python benchmarks/hall_abuse.py`` (defaults: 10 victim tables, flooders
0, 1 and 20, then 20 non-reading clients; about 80 s). ``--markdown`` prints rows for
docs/benchmarks.md, ``--json FILE`` keeps every figure; on a shared machine run it under
``nice``. A short run: ``--flooders 0,1 --nonreaders 2 --duration 3`` (about 35 s).
This is a measurement script, not a test: it asserts nothing. Its parts are modules beside
it: the clients (``hall_abuse_clients.py``) and the report (``hall_abuse_report.py``);
``hall_common.py`` holds what the hall benchmarks share.

For each row the script starts a fresh hall as ``benchmarks/hall_load.py`` does
(``python -m paiju.server.web.serve --host 127.0.0.1 --port <free> --db sqlite:///<tmp>
--bot-delay 0``, pinned to one CPU), with the options that lift the hall's per-address
limits when its ``--help`` lists them (every client here is on 127.0.0.1, which would make
victims and flooders one "address"; the options used are printed). Every HTTP request and
WebSocket handshake carries ``Origin: http://127.0.0.1:<port>``, the hall's own origin.

- **Victims**: ``--tables`` Baohuang ``standard`` tables (default 10) of five human
  players, ``turn_timeout`` 600 — hall_load's clients (``hall_common.Client``): each thinks
  0..2×``--think`` seconds (default 0.2) and acts with a random legal action, keeping to
  18 messages/s. Latency, as in hall_load: from sending ``act`` to the ``update`` whose turn
  passed it; p50/p90/p99/max and confirmed actions/s over the ``--duration`` window, after
  ``--warmup`` seconds of play.
- **Flooders** (``--flooders 0,1,20``, one row each): each its own player, on the WebSocket
  of a room of its own, sending without any pacing a cycle of ~60 KB unknown-type messages
  (``{"type": "xxx…"}``, ``{"type": "bogus", "pad": "…"}``), ``act`` messages the hall
  refuses (not seated) and pings, and reading everything the hall sends: this row measures
  CPU fairness, not memory. A flooder the hall disconnects reconnects after 0.5 s
  (``--no-reconnect``: it stays away); closes are counted by close code, refused
  connections (an HTTP status, or a close before ``hello``) apart. Flooders run in a
  process of their own at ``--flooder-nice`` 10, so that the victims' own process is not
  what slows the victims down.
- **Non-readers** (``--nonreaders 20``, one more row): clients that send like flooders but
  never read: a raw TCP socket with a small ``SO_RCVBUF`` (``--rcvbuf`` 4096), the upgrade
  handshake written by hand (its answer is the only thing ever read), then only masked
  frames written (each message masked once, then the same bytes sent again). By default
  each also watches a victim table as a spectator (``--nonreader-room victims``), so the
  table's updates pile up for it as well as the answers to its own messages (``own``: a
  room of its own). Only once the window is over does a non-reader read what is waiting,
  to find whether the hall had sent it a close frame (``close 1008, TCP still open``: the
  hall said goodbye but went on taking its writes). The server's RSS
  (``/proc/<pid>/status`` VmRSS, and VmHWM for peaks between samples) is read every second:
  before they connect, while they send for ``--duration`` seconds, and ``--after`` seconds
  (default 3) after they close their sockets; the row reports the peak growth and what stays.

Three tables, a row per load (0, 1, 20 flooders; the non-readers):

- victims: p50/p90/p99/max ms, confirmed actions/s, victim errors (``error`` messages,
  closed connections, actions never confirmed), and the worst event-loop lag of the
  victims' own process (a 10 ms ticker: if it is high, the clients were late, not the hall);
- the flood: messages and MB the flooders sent per second, replies they received per
  second (by kind below the tables), connections opened, closed by the server (by close
  code), refused (HTTP status, or 4429 and the like before ``hello``), and CPU over the
  window (100 % = one core): the flooders' process, the server, the server's own core
  (every program on it), and the rest of the machine (other programs; ~0 when idle);
- the server's RSS: before, peak, growth, after, what stays (MB).

The target (the issue's): a flood moves the victims' p99 by less than 50 ms (p99 with 1 and
with 20 flooders minus p99 with none), and the RSS grows by less than 60 MB under the
non-readers. The script prints whether it was met, and cautions when the victims' process
lagged or other programs took CPU meanwhile (on 2 cores the flood's loopback traffic and
the clients share the victims' core).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # its modules, also when this file is loaded by path
from hall_abuse_clients import Child, FloodStats, Plan, flood_hall, play_victims
from hall_abuse_report import TARGET_P99_DELTA_MS, TARGET_RSS_MB, Result, print_markdown, print_table, verdict
from hall_common import (  # noqa: E402
    GRACE_S,
    SEATS,
    Config,
    Server,
    Stats,
    busy_seconds,
    cpu_plan,
    cpu_seconds,
    machine,
    percentile,
    raise_fd_limit,
    server_help,
    set_nice,
    write_json,
)

# server options that lift per-address limits (all clients here are 127.0.0.1)
ADDRESS_LIMIT_WORDS = ("max", "rate", "burst", "limit", "conn")


# ---------------------------------------------------------------------------- the server
def address_limit_options(help_text: str) -> list[str]:
    """Options (with values) that raise the hall's per-address limits, as far as its help
    lists them: loopback clients must not all count as one abusive address."""
    args: list[str] = []
    for name, metavar in dict(re.findall(r"(--[a-z0-9][a-z0-9-]*)(?:[ =]([A-Z][A-Z0-9_]*))?", help_text)).items():
        if "address" not in name or not metavar or not any(w in name for w in ADDRESS_LIMIT_WORDS):
            continue
        args += [name, "10000" if "conn" in name else "1000000"]
    return args


def rss_mb(pid: int, key: str = "VmRSS") -> float:
    """A memory figure of /proc/<pid>/status (VmRSS, VmHWM), in MB; nan if unreadable."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return float("nan")


# ---------------------------------------------------------------------------- one row
def label_of(flooders: int, nonreaders: int) -> str:
    if nonreaders:
        return f"{nonreaders} non-reader{'s' * (nonreaders != 1)}"
    return f"{flooders} flooder{'s' * (flooders != 1)}"


@dataclass
class ServerWatch:
    """What was read of the server during one row."""

    cpu: float = float("nan")  # the server's share of one core over the window
    core_busy: float = float("nan")  # how busy the server's own CPU was (every program), when pinned
    machine_busy: float = float("nan")  # every CPU, every program (100% = one core)
    samples: list[tuple[float, float]] = field(default_factory=list)  # (s from the flood's start, RSS MB)
    before: float = float("nan")  # RSS just before the flood
    hwm_peak: float = float("nan")  # VmHWM at the end if it rose during the flood (a peak between samples)


def watch_server(pid: int, cpus: set[int] | None, plan: Plan, flood_from: float) -> ServerWatch:
    """Read the server's RSS every second from ``plan.go`` to ``plan.close_at`` (and just before
    ``flood_from``), and the CPU of the server, of its core and of the machine over the window."""
    w = ServerWatch()
    before_at = max(plan.go, flood_from - 0.2)
    marks = {plan.go + k for k in range(math.ceil(plan.close_at - plan.go) + 1)} | {plan.start, plan.end, before_at}
    hwm0 = cpu0 = core0 = machine0 = float("nan")
    for m in sorted(m for m in marks if m <= plan.close_at):
        time.sleep(max(0.0, m - time.time()))
        rss = rss_mb(pid)
        if m == before_at:
            w.before, hwm0 = rss, rss_mb(pid, "VmHWM")
        if m >= flood_from:
            w.samples.append((round(m - flood_from, 2), round(rss, 1)))
        if m == plan.start:
            cpu0, core0, machine0 = cpu_seconds(pid), busy_seconds(cpus), busy_seconds(None)
        if m == plan.end:
            span = max(1e-9, plan.end - plan.start)
            w.cpu = (cpu_seconds(pid) - cpu0) / span
            w.core_busy = (busy_seconds(cpus) - core0) / span if cpus else float("nan")
            w.machine_busy = (busy_seconds(None) - machine0) / span
    hwm = rss_mb(pid, "VmHWM")
    if hwm > hwm0:
        w.hwm_peak = hwm
    return w


def run_row(opts: argparse.Namespace, flooders: int, nonreaders: int, server_args: list[str], log: Any) -> Result:
    """One row against a fresh hall: victims, plus ``flooders`` flooders or ``nonreaders`` non-readers."""
    server_cpus, client_cpus, _ = cpu_plan(2, not opts.no_pin)
    server = Server(server_cpus, options=server_args, prefix="paiju-hall-abuse-")
    children: list[Child] = []
    try:
        server.wait_ready()
        pid = server.proc.pid
        label = label_of(flooders, nonreaders)
        log(f"{label}: server pid {pid} on port {server.port}, {opts.tables} victim tables")
        cfg = Config(
            url=server.url,
            clients=opts.tables * SEATS,
            warmup=opts.warmup,
            duration=opts.duration,
            seed=opts.seed,
            think=opts.think,
            compression=False,  # the hall does not take permessage-deflate
        )
        victims = Child("victims", play_victims, (cfg,), client_cpus, 0)
        children.append(victims)
        rooms = victims.receive("ready", 120)
        flood = None
        if flooders or nonreaders:
            args = (server.url, flooders, nonreaders, opts, rooms)
            flood = Child("flooders", flood_hall, args, client_cpus, opts.flooder_nice)
            children.append(flood)
            flood.receive("ready", 120)
        go = time.time() + 0.5
        start = go + opts.warmup
        end = start + opts.duration
        plan = Plan(go, start, end, end + (opts.after if nonreaders else 0.0))
        for child in children:
            child.send(plan)
        flood_from = start if nonreaders else go
        watch = watch_server(pid, server_cpus, plan, flood_from)
        vstats: Stats = victims.receive("result", GRACE_S + 60)
        fstats = FloodStats()
        if flood is not None:
            fstats = flood.receive("result", 60)[1 if nonreaders else 0]
    finally:
        for child in children:
            child.stop()
        exit_code = server.stop()
        log_errors = server.error_lines()
        server.cleanup()
    lat = sorted(vstats.latencies_ms)
    during = [mb for _, mb in watch.samples if not math.isnan(mb)]
    during += [] if math.isnan(watch.hwm_peak) else [watch.hwm_peak]
    peak = max(during) if during else float("nan")
    after = watch.samples[-1][1] if watch.samples else float("nan")
    before = watch.before
    d = opts.duration
    clients_cpu = (vstats.cpu_s + fstats.cpu_s) / d
    return Result(
        label=label,
        flooders=flooders,
        nonreaders=nonreaders,
        victims=cfg.clients,
        seconds=d,
        think_s=opts.think,
        actions=vstats.confirmed,
        actions_per_s=vstats.confirmed / d,
        p50_ms=percentile(lat, 50),
        p90_ms=percentile(lat, 90),
        p99_ms=percentile(lat, 99),
        max_ms=lat[-1] if lat else float("nan"),
        victim_errors=dict(vstats.errors.most_common()),
        victim_closed=vstats.closed,
        unconfirmed=vstats.unconfirmed,
        victim_lag_ms=vstats.lag_ms,
        connects=fstats.connects,
        sent_per_s=fstats.sent / d,
        sent_mb_per_s=fstats.sent_bytes / d / 1e6,
        replies_per_s=sum(fstats.replies.values()) / d,
        reply_kinds=dict(fstats.replies.most_common()),
        closed_by_server=sum(fstats.closes.values()),
        close_codes=dict(fstats.closes.most_common()),
        refused=dict(fstats.refused.most_common()),
        stalled=fstats.stalled,
        flooder_cpu=fstats.cpu_s / d,
        server_cpu=watch.cpu,
        server_core_busy=watch.core_busy,
        other_cpu=watch.machine_busy - watch.cpu - clients_cpu,
        rss_before_mb=before,
        rss_peak_mb=peak,
        rss_growth_mb=peak - before,
        rss_after_mb=after,
        rss_stays_mb=after - before,
        rss_samples=watch.samples,
        server_log_errors=log_errors[:20],
        server_exit=exit_code,
    )


def main(argv: Sequence[str] | None = None) -> list[Result]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--flooders", default="0,1,20", help="flooder counts, comma-separated, one row each")
    ap.add_argument("--nonreaders", type=int, default=20, help="non-reading clients of the last row (0: no such row)")
    ap.add_argument("--tables", type=int, default=10, help="victim tables of five players (default 10)")
    ap.add_argument("--think", type=float, default=0.2, help="victims' mean think time before acting, s (default 0.2)")
    ap.add_argument("--duration", type=float, default=10.0, help="measured seconds per row (default 10)")
    ap.add_argument("--warmup", type=float, default=2.0, help="seconds of play (and flood) before measuring")
    ap.add_argument("--after", type=float, default=3.0, help="seconds the RSS is read after the non-readers left")
    ap.add_argument("--no-reconnect", action="store_true", help="a flooder the hall disconnects stays away")
    ap.add_argument(
        "--nonreader-room",
        choices=("victims", "own"),
        default="victims",
        help="non-readers watch the victims' tables (default) or sit in rooms of their own",
    )
    ap.add_argument("--rcvbuf", type=int, default=4096, help="SO_RCVBUF of the non-readers' sockets, bytes")
    ap.add_argument("--flooder-nice", type=int, default=10, help="niceness added to the flooders' process (default 10)")
    ap.add_argument("--no-pin", action="store_true", help="do not pin the server and the clients to separate CPUs")
    ap.add_argument("--nice", type=int, default=0, help="niceness of the whole benchmark, e.g. -10 (root)")
    ap.add_argument("--keep-address-limits", action="store_true", help="do not raise the hall's per-address limits")
    ap.add_argument(
        "--server-arg", action="append", default=[], metavar="ARG", help="one more server option (repeatable)"
    )
    ap.add_argument("--seed", type=int, default=1, help="seed of the victims' random choices")
    ap.add_argument("--json", metavar="FILE", help="also write every figure to FILE")
    ap.add_argument("--markdown", action="store_true", help="print markdown rows ready for docs")
    opts = ap.parse_args(argv)
    counts = [int(x) for x in opts.flooders.split(",") if x.strip()]

    def log(msg: str) -> None:
        print(f"[hall-abuse] {msg}", file=sys.stderr, flush=True)

    fd_note = raise_fd_limit(4096)
    _, _, pin_note = cpu_plan(2, not opts.no_pin)
    nice_note, restore_nice = set_nice(opts.nice)
    help_text = server_help()
    server_args = [] if opts.keep_address_limits else address_limit_options(help_text)
    server_args += opts.server_arg
    found = sorted(set(re.findall(r"--[a-z0-9][a-z0-9-]*", help_text)) - {"--help"})
    notes = [
        f"server options used: {' '.join(server_args) or 'none'} (the hall's --help lists: {' '.join(found) or '?'})",
        f"{opts.tables} victim tables ({opts.tables * SEATS} clients), think time uniform 0-{2 * opts.think:g} s; "
        f"{opts.warmup:g} s warm-up, {opts.duration:g} s measured per row; flooders "
        f"{'reconnect' if not opts.no_reconnect else 'stay away'} when disconnected, nice +{opts.flooder_nice}; "
        f"non-readers in {'the victims' if opts.nonreader_room == 'victims' else 'their own'} rooms, "
        f"SO_RCVBUF {opts.rcvbuf}",
        f"{pin_note}; {nice_note}; {fd_note}",
    ]
    for n in notes:
        log(n)
    info = machine()
    rows = [(n, 0) for n in counts] + ([(0, opts.nonreaders)] if opts.nonreaders > 0 else [])
    results = []
    try:
        for flooders, nonreaders in rows:
            r = run_row(opts, flooders, nonreaders, server_args, log)
            log(
                f"{r.label}: victims p50 {r.p50_ms:.1f} ms, p99 {r.p99_ms:.1f} ms, {r.actions_per_s:,.0f} actions/s; "
                f"sent {r.sent_per_s:,.0f} msgs/s, {r.closed_by_server} closed by the server; "
                f"server CPU {r.server_cpu:.0%}, RSS {r.rss_before_mb:.0f} -> peak {r.rss_peak_mb:.0f} MB"
            )
            results.append(r)
    finally:
        restore_nice()
    if opts.markdown:
        print_markdown(results, info, notes)
    else:
        print_table(results, info, notes)
    if opts.json:
        data = {
            "command": "benchmarks/hall_abuse.py " + " ".join(sys.argv[1:] if argv is None else argv),
            "machine": info,
            "notes": notes,
            "server_options": server_args,
            "target": {
                "p99_delta_ms": TARGET_P99_DELTA_MS,
                "rss_growth_mb": TARGET_RSS_MB,
                "verdict": verdict(results),
            },
            "results": [asdict(r) for r in results],
        }
        write_json(opts.json, data)
        log(f"wrote {opts.json}")
    return results


if __name__ == "__main__":
    main()
