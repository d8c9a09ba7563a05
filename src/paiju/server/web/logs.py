"""The hall's log lines: text for a person at a terminal (the default), or one JSON object
per line for a log shipper (``paiju serve --log-format json``).

A JSON line has ``time`` (UTC, ISO 8601), ``level``, ``worker`` (a hall of one process:
``hall``), ``logger``, ``event`` (the message), and ``room`` and ``player`` where the line is
about one (``extra={"room": …, "player": …}`` at the call, or the table's or connection's
task, ``paiju.server.log_context``); an exception adds ``error``
(its traceback). No line carries a session token or a password: the hall never logs a
request's body, cookies or query string (tests/server/test_logs.py looks for them).
"""

from __future__ import annotations

import logging
import sys
from datetime import UTC, datetime

import orjson

from paiju.server import log_context

FORMATS = ("text", "json")
TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    def __init__(self, worker: str) -> None:
        super().__init__()
        self.worker = worker

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "worker": self.worker,
            "logger": record.name,
            "event": record.getMessage(),
        }
        for key, known in (("room", log_context.room), ("player", log_context.player)):
            value = getattr(record, key, None)
            if value is None:
                value = known.get()  # the task's room or player (log_context.py)
            if value is not None:
                line[key] = value
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return orjson.dumps(line, default=str).decode()


def setup(log_format: str, worker: str) -> None:
    """Send the hall's log lines (``paiju.*``) to stderr in ``log_format``, from INFO up; in
    JSON uvicorn's own lines too (its errors; its access log stays off: request lines carry
    the table socket's ``?token=``). Call it after uvicorn's ``Config``, which sets up its
    loggers."""
    if log_format not in FORMATS:
        raise SystemExit(f"--log-format is one of {', '.join(FORMATS)}")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(worker) if log_format == "json" else logging.Formatter(TEXT))
    names = ("paiju", "uvicorn", "uvicorn.error") if log_format == "json" else ("paiju",)
    for name in names:
        logger = logging.getLogger(name)
        logger.handlers = [handler] if name != "uvicorn.error" else []  # uvicorn.error: through "uvicorn"
        logger.propagate = name == "uvicorn.error"
    logging.getLogger("paiju").setLevel(logging.INFO)
