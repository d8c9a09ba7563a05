"""What a hall reports to Prometheus at scrape time (the gauges of ``paiju.server.metrics``).

Read from the metrics server's thread while the event loop runs: only copies of the hall's
collections are iterated (``list(…)``, made whole under the GIL) and nothing is changed, so
a scrape costs the tables nothing but the moment of the copies."""

from __future__ import annotations

from collections import Counter
from typing import Any

from paiju.server.metrics import Sample


def hall_samples(hall: Any) -> list[Sample]:
    """``hall``: a tables.hall.Hall (not imported: hall.py imports this module)."""
    tables = list(hall.tables.values())
    conns = [c for t in tables for c in list(t.conns)]
    by_state = Counter((t.game_name, "damaged" if t.damaged else t.status) for t in tables)
    jobs = Counter(j.state for j in list(hall.analyses.jobs.values()))
    cluster = hall.cluster
    out: list[Sample] = [
        ("paiju_worker_info", (cluster.worker if cluster is not None else "hall",), 1.0),
        ("paiju_connections", (), float(len(conns))),
        ("paiju_players_connected", (), float(len({c.player["id"] for c in conns}))),
        ("paiju_store_queue_writes", (), float(hall.writer.pending)),
        ("paiju_store_down", (), 0.0 if hall.database_ok() and not hall.writer.down else 1.0),
        ("paiju_bot_pool_questions", (), float(hall.bot_pool.asked)),
    ]
    out += [("paiju_tables", key, float(n)) for key, n in by_state.items()]
    out += [("paiju_analysis_jobs", (state,), float(jobs.get(state, 0))) for state in ("queued", "running", "failed")]
    if cluster is not None:
        out.append(("paiju_leases_held", (), float(len(cluster.leases))))
        out.append(("paiju_lease_valid", (), 1.0 if cluster.holding() else 0.0))
    return out
