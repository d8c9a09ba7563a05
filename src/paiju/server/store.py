"""The hall's store: players, rooms, hands and every accepted action (SQLAlchemy 2).

A hand is stored as its record (API.md): options, seed, deal and the list of actions, one
row per action, written before the action is shown to anyone. After a crash the hall
replays each unfinished hand from these rows. SQLite by default (a file, no set-up),
PostgreSQL by URL; the schema is made by Alembic migrations, never by ``create_all``.
"""

from __future__ import annotations

import secrets
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("token", String(64), nullable=False, unique=True),
    Column("name", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

rooms = Table(
    "rooms",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("game", String(16), nullable=False),
    Column("options", JSON, nullable=False),
    Column("turn_timeout", Float, nullable=False),
    Column("seats", JSON, nullable=False),  # per seat: player id / bot level / 托管 state
    Column("status", String(16), nullable=False),  # waiting | playing | between
    Column("created_by", Integer, ForeignKey("players.id"), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

hands = Table(
    "hands",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("room_id", String(16), ForeignKey("rooms.id"), nullable=False, index=True),
    Column("number", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("options", JSON, nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    Column("scores", JSON, nullable=True),  # per seat, as scored in the room (None: not over)
    Column("scored", Boolean, nullable=True),  # False when every human was on 托管
    UniqueConstraint("room_id", "number"),
)

actions = Table(
    "actions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("hand_id", Integer, ForeignKey("hands.id"), nullable=False, index=True),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("text", String(200), nullable=False),
    Column("hosted", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("hand_id", "seq"),
)

penalties = Table(
    "penalties",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("room_id", String(16), ForeignKey("rooms.id"), nullable=False, index=True),
    Column("hand_number", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=True),
    Column("points", Integer, nullable=False),
    Column("reason", String(32), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


def _now() -> datetime:
    return datetime.now(UTC)


def default_url() -> str:
    """SQLite file ``paiju.db`` in the current directory."""
    return f"sqlite:///{Path('paiju.db').resolve()}"


def make_engine(url: str) -> Engine:
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            # WAL + NORMAL: a committed action survives the process being killed
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            # checkpoints (the only fsyncs in WAL+NORMAL) run in the Store's own thread,
            # not inside whichever commit crosses the threshold on the hall's event loop
            cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration (Alembic)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


class Store:
    """Synchronous access to the hall's tables. Each method is one transaction."""

    def __init__(self, url: str | None = None, *, run_migrations: bool = True) -> None:
        self.url = url or default_url()
        self.engine = make_engine(self.url)
        if run_migrations:
            migrate(self.engine)
        self._writer: Connection | None = None
        self._insert_action = insert(actions)
        self._pending: list[dict[str, Any]] = []
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if self.engine.dialect.name == "sqlite":
            self._checkpointer = threading.Thread(target=self._checkpoint_loop, name="paiju-checkpoint", daemon=True)
            self._checkpointer.start()

    def _checkpoint_loop(self, every: float = 1.0) -> None:
        """Move the WAL into the database file once a second, off the event loop."""
        while not self._stop.wait(every):
            try:
                with self.engine.connect() as c:
                    c.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:  # a busy database: try again next time
                continue

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=5)
        if self._writer is not None:
            self._writer.close()
        self.engine.dispose()

    # players ---------------------------------------------------------------------
    def create_player(self, name: str) -> dict[str, Any]:
        token = secrets.token_hex(16)
        with self.engine.begin() as c:
            pid = c.execute(insert(players).values(token=token, name=name, created_at=_now())).inserted_primary_key
        assert pid is not None
        return {"id": pid[0], "name": name, "token": token}

    def player_by_token(self, token: str | None) -> dict[str, Any] | None:
        if not token:
            return None
        with self.engine.connect() as c:
            row = c.execute(select(players).where(players.c.token == token)).mappings().first()
        return dict(row) if row else None

    def players_by_id(self, ids: list[int]) -> dict[int, str]:
        if not ids:
            return {}
        with self.engine.connect() as c:
            rows = c.execute(select(players.c.id, players.c.name).where(players.c.id.in_(ids))).all()
        return {r[0]: r[1] for r in rows}

    def rename_player(self, pid: int, name: str) -> None:
        with self.engine.begin() as c:
            c.execute(update(players).where(players.c.id == pid).values(name=name))

    # rooms -----------------------------------------------------------------------
    def create_room(
        self, name: str, game: str, options: dict[str, Any], turn_timeout: float, num_seats: int, created_by: int | None
    ) -> dict[str, Any]:
        rid = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        seats = [
            {"player": None, "bot": None, "hosted": False, "hosted_times": 0, "left": False} for _ in range(num_seats)
        ]
        row = {
            "id": rid,
            "name": name,
            "game": game,
            "options": options,
            "turn_timeout": turn_timeout,
            "seats": seats,
            "status": "waiting",
            "created_by": created_by,
            "created_at": _now(),
        }
        with self.engine.begin() as c:
            c.execute(insert(rooms).values(**row))
        return row

    def room(self, rid: str) -> dict[str, Any] | None:
        with self.engine.connect() as c:
            row = c.execute(select(rooms).where(rooms.c.id == rid)).mappings().first()
        return dict(row) if row else None

    def all_rooms(self) -> list[dict[str, Any]]:
        with self.engine.connect() as c:
            return [dict(r) for r in c.execute(select(rooms).order_by(rooms.c.created_at)).mappings()]

    def save_room(self, rid: str, **values: Any) -> None:
        with self.engine.begin() as c:
            c.execute(update(rooms).where(rooms.c.id == rid).values(**values))

    # hands and actions ----------------------------------------------------------
    def start_hand(self, rid: str, number: int, seed: int, options: dict[str, Any], seats: list[dict[str, Any]]) -> int:
        """Record a new hand and the room's seats at its start, in one transaction."""
        with self.engine.begin() as c:
            hid = c.execute(
                insert(hands).values(room_id=rid, number=number, seed=seed, options=options, started_at=_now())
            ).inserted_primary_key
            c.execute(update(rooms).where(rooms.c.id == rid).values(status="playing", seats=seats))
        assert hid is not None
        return int(hid[0])

    def append_action(self, hand_id: int, seq: int, seat: int, text: str, hosted: bool) -> None:
        """Append one accepted action and commit it."""
        self.stage_action(hand_id, seq, seat, text, hosted)
        self.flush()

    def stage_action(self, hand_id: int, seq: int, seat: int, text: str, hosted: bool) -> None:
        """Queue an action for the next :meth:`flush` (the hall commits the actions of one
        loop turn together, and shows them only after that commit)."""
        self._pending.append(
            {"hand_id": hand_id, "seq": seq, "seat": seat, "text": text, "hosted": hosted, "created_at": _now()}
        )

    def flush(self) -> int:
        """Write the staged actions in one transaction; return how many. On failure nothing
        is written, the staged actions are dropped, and the error is raised."""
        if not self._pending:
            return 0
        rows, self._pending = self._pending, []
        c = self._writer
        if c is None or c.closed:
            c = self._writer = self.engine.connect()
        try:
            c.execute(self._insert_action, rows)
            c.commit()
        except Exception:
            c.rollback()
            raise
        return len(rows)

    def finish_hand(
        self, hand_id: int, scores: list[int], scored: bool, rid: str, seats: list[dict[str, Any]], status: str
    ) -> None:
        self.flush()
        with self.engine.begin() as c:
            c.execute(
                update(hands).where(hands.c.id == hand_id).values(finished_at=_now(), scores=scores, scored=scored)
            )
            c.execute(update(rooms).where(rooms.c.id == rid).values(seats=seats, status=status))

    def room_hands(self, rid: str) -> list[dict[str, Any]]:
        with self.engine.connect() as c:
            q = select(hands).where(hands.c.room_id == rid).order_by(hands.c.number)
            return [dict(r) for r in c.execute(q).mappings()]

    def hand_actions(self, hand_id: int) -> list[dict[str, Any]]:
        with self.engine.connect() as c:
            q = select(actions).where(actions.c.hand_id == hand_id).order_by(actions.c.seq)
            return [dict(r) for r in c.execute(q).mappings()]

    def count_actions(self) -> int:
        with self.engine.connect() as c:
            return int(c.execute(select(func.count()).select_from(actions)).scalar_one())

    # penalties -------------------------------------------------------------------
    def add_penalty(
        self, rid: str, hand_number: int, seat: int, player_id: int | None, points: int, reason: str
    ) -> None:
        with self.engine.begin() as c:
            c.execute(
                insert(penalties).values(
                    room_id=rid,
                    hand_number=hand_number,
                    seat=seat,
                    player_id=player_id,
                    points=points,
                    reason=reason,
                    created_at=_now(),
                )
            )

    def room_penalties(self, rid: str) -> list[dict[str, Any]]:
        with self.engine.connect() as c:
            q = select(penalties).where(penalties.c.room_id == rid).order_by(penalties.c.id)
            return [dict(r) for r in c.execute(q).mappings()]
