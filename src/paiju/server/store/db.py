"""The hall's store: players, rooms, hands and every accepted action (SQLAlchemy 2).

A hand is stored as its record (docs/api.md): the engine's resolved options (every option
value, not only the room's overrides), the record version, seed and the list of actions,
one row per action, written before the action is shown to anyone. After a crash the hall
replays each unfinished hand from these rows. SQLite by default (a file, no set-up),
PostgreSQL by URL; the schema is made by Alembic migrations, never by ``create_all``.

The functions named ``*_tx`` write inside a transaction they are given: the hall runs
them on its writer thread (``paiju.server.store.writer``), never on the event loop. The
``Store`` methods are synchronous reads (start-up, admin commands, a thread of the
loop's pool) and one-transaction wrappers of the same writes for scripts and tests.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections.abc import Callable
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
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    delete,
    event,
    false,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine

from paiju.registry import GAMES, game_class
from paiju.versions import RECORD_VERSION

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # an account has a user name (normalized, paiju.server.accounts.users) and an argon2 hash; a guest neither
    Column("username", String(32), nullable=True, unique=True),
    Column("password_hash", String(256), nullable=True),
    Column("disabled", Boolean, nullable=False, server_default=false()),
    Column("role", String(16), nullable=False, server_default="player"),  # player | moderator | admin
    Column("muted_until", DateTime(timezone=True), nullable=True),  # no chat 禁言 until then
    Column("banned_until", DateTime(timezone=True), nullable=True),  # disabled until then (None: for good)
    Column("registered_from", String(64), nullable=True),  # the address an account was registered from
    Column("registered_at", DateTime(timezone=True), nullable=True),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String(64), primary_key=True),  # SHA-256 of the cookie's token, hex: no usable token stored
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False, index=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("revoked_at", DateTime(timezone=True), nullable=True),
    Column("address", String(64), nullable=True),  # where it was opened from (the admin console shows it)
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
    Column("status", String(16), nullable=False),  # waiting | playing | between | closed | archived
    Column("damaged", Text, nullable=True),  # why the room was set aside (None: it plays)
    Column("created_by", Integer, ForeignKey("players.id"), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("barred", JSON, nullable=True),  # players an administrator kicked from the room: they may not sit again
    Column("code", String(8), nullable=True, index=True),  # the short room code 房间号 it is found by
    # private, the password's hash, the invitation token, reserved seats (tables/access.py): never sent as stored
    Column("access", JSON, nullable=True),
)

hands = Table(
    "hands",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("room_id", String(16), ForeignKey("rooms.id"), nullable=False, index=True),
    Column("number", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("options", JSON, nullable=False),  # resolved: every option value of the engine
    Column("record_version", Integer, nullable=False),  # paiju.game.RECORD_VERSION when played
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    Column("scores", JSON, nullable=True),  # per seat, the game's own count (None: not over)
    Column("scored", Boolean, nullable=True),  # False when every human was on 托管: the scores count 0
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


ledger = Table(
    "ledger",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=True, index=True),  # None: the house
    Column("amount", BigInteger, nullable=False),
    Column("kind", String(16), nullable=False),  # start | hand | penalty | relief | grant | house
    Column("hand_id", Integer, ForeignKey("hands.id"), nullable=True, index=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
"""Beans 游戏豆: append-only; an account's balance is the sum of its rows, and the rows of a
hand (or a leave penalty) sum to 0 with the house's (``player_id`` None: the share of the
guests and computer players, who hold no beans)."""

results = Table(
    "results",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("hand_id", Integer, ForeignKey("hands.id"), nullable=False, index=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False, index=True),
    Column("game", String(16), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("role", String(16), nullable=False),
    Column("score", Integer, nullable=False),
    Column("scored", Boolean, nullable=False),
    Column("beans", BigInteger, nullable=False),
    Column("rating", Float, nullable=True),  # the player's rating (ordinal) after the hand
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("hand_id", "seat"),
)
"""Each seated person's outcome of each finished hand (profiles, titles, win rates)."""

audit = Table(
    "audit",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False, index=True),
    Column("actor_id", Integer, ForeignKey("players.id"), nullable=True),  # None: the command line
    Column("actor", String(64), nullable=False),  # the actor's name then (or "paiju admin")
    Column("action", String(32), nullable=False),
    Column("target_id", Integer, ForeignKey("players.id"), nullable=True, index=True),
    Column("room_id", String(16), nullable=True),
    Column("detail", JSON, nullable=False),
    Column("reason", Text, nullable=False),
)
"""Every administrator's action (paiju.server.accounts.moderation): append-only, never
changed or deleted by the hall."""

reports = Table(
    "reports",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("reporter_id", Integer, ForeignKey("players.id"), nullable=False, index=True),
    Column("reported_id", Integer, ForeignKey("players.id"), nullable=False, index=True),
    Column("room_id", String(16), nullable=True),
    Column("hand_number", Integer, nullable=True),
    Column("reason", String(16), nullable=False),  # cheating | abuse | stalling | other
    Column("text", String(200), nullable=False),
    Column("chat", JSON, nullable=False),  # the room's chat lines around the report
    Column("status", String(16), nullable=False, index=True),  # open | closed
    Column("handled_by", Integer, ForeignKey("players.id"), nullable=True),
    Column("handled_at", DateTime(timezone=True), nullable=True),
    Column("outcome", Text, nullable=True),
)
"""举报: a player's report of another (paiju.server.accounts.reports)."""

ratings = Table(
    "ratings",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("hands", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

analyses = Table(
    "analyses",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("hand_id", Integer, ForeignKey("hands.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("version", Integer, nullable=False),  # paiju.analysis.VERSION of the result
    Column("result", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("hand_id", "seat"),
)
"""复盘: the search bot's judgment of one seat's decisions in a finished hand (paiju.analysis),
kept so that it is made once; a cache — dropping a row only means it is made again."""

follows = Table(
    "follows",
    metadata,
    Column("follower_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("followed_id", Integer, ForeignKey("players.id"), primary_key=True, index=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
"""关注: who follows whom (paiju.server.accounts.social)."""

blocks = Table(
    "blocks",
    metadata,
    Column("blocker_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("blocked_id", Integer, ForeignKey("players.id"), primary_key=True, index=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
"""拉黑: the two never share a table and the blocker never sees the other's chat."""

invitations = Table(
    "invitations",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("sender_id", Integer, ForeignKey("players.id"), nullable=False, index=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("room_id", String(16), nullable=False),
    Column("room_name", String(64), nullable=False),
    Column("game", String(16), nullable=False),
    Column("token", String(64), nullable=False),  # the room's invitation token when it was sent
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_invitations_player", "player_id", "created_at"),
)
"""邀请好友: an invitation waiting for the friend's page (paiju.server.accounts.invitations)."""

workers = Table(
    "workers",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("expires_at", Float, nullable=False),  # the worker's lease on all its rooms, by the database's clock
)

room_owners = Table(
    "room_owners",
    metadata,
    Column("room_id", String(16), ForeignKey("rooms.id"), primary_key=True),
    Column("worker", String(64), nullable=True, index=True),  # the worker playing the room (None: nobody)
    Column("token", BigInteger, nullable=False),  # fencing token: one more at every claim
    Column("released_at", Float, nullable=False),  # when nobody's: since when, by the database's clock
    Column("wanted_by", String(64), nullable=True),  # a worker asking for the room (the proxy sends its players there)
)
"""Who may append to a room's hands when several hall workers share the database (lease.py):
every room has one row; the writer checks the token in the same transaction as each append."""


tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False),
    Column("game", String(16), nullable=False),
    Column("format", String(16), nullable=False),  # swiss | knockout
    Column("rounds", Integer, nullable=False),
    Column("boards", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),  # every board's deal seed derives from it (tournaments/boards.py)
    Column("status", String(16), nullable=False),  # registering | running | finished
    Column("current_round", Integer, nullable=False, server_default="0"),  # 0 before the start
    Column("created_by", Integer, ForeignKey("players.id"), nullable=True),
    Column("options", JSON, nullable=False),  # the engine options of every board
    Column("standings", JSON, nullable=True),  # the final standings, once finished
    Column("created_at", DateTime(timezone=True), nullable=False),
)
"""比赛: a tournament of the hall, directed by paiju.server.tournaments.director."""

tournament_entrants = Table(
    "tournament_entrants",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False, index=True),
    Column("entrant", String(64), nullable=False),  # its key: the player's or the pair's name
    Column("players", JSON, nullable=False),  # player ids (a pair: two); [] for a computer player
    Column("seed", Integer, nullable=False),  # registration order, 1 first (the standings' last tie-break)
    Column("bot", String(16), nullable=True),  # a computer player's level (None: persons)
    UniqueConstraint("tournament_id", "entrant"),
)

tournament_hands = Table(
    "tournament_hands",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False, index=True),
    Column("round", Integer, nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("seq", Integer, nullable=False),  # the hand's place in its table's plan, 0 first
    Column("board", Integer, nullable=False),
    Column("rotation", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("seating", JSON, nullable=False),  # per seat: {"entrant", "player", "bot"}
    Column("room_id", String(16), nullable=True),  # None until the table's room is made
    Column("hand_id", Integer, nullable=True),
    Column("scores", JSON, nullable=True),  # per seat, once played
    UniqueConstraint("tournament_id", "round", "table_no", "seq"),
)
"""Every planned hand of a tournament's rounds and its result: what the director resumes from."""


def now() -> datetime:
    return datetime.now(UTC)


def default_url() -> str:
    """SQLite file ``paiju.db`` in the current directory."""
    return f"sqlite:///{Path('paiju.db').resolve()}"


SQLITE_BUSY_TIMEOUT = 2.0
"""Seconds a SQLite write waits for a lock held by another process before it fails (the
writer thread waits, not the event loop; the hall then retries with backoff)."""


IDLE_IN_TRANSACTION = 2.0
"""Seconds PostgreSQL lets a transaction wait for its client before ending it (less than a
cluster's lease: the rooms a paused worker was writing are claimable when its lease ends)."""


def make_engine(url: str) -> Engine:
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            # WAL + NORMAL: a committed action survives the process being killed
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            # checkpoints (the only fsyncs in WAL+NORMAL) run in the Store's own thread,
            # not inside the writer's group commits
            cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.close()

        return engine
    # a server that is down refuses at once; one that does not answer fails in 3 s
    engine = create_engine(url, pool_pre_ping=True, connect_args={"connect_timeout": 3})

    @event.listens_for(engine, "connect")
    def _session(dbapi_conn: Any, _record: Any) -> None:
        # a transaction of the hall sends its statements back to back: one whose client went
        # silent (a worker paused or cut off mid-write) is ended by the server, and the row
        # locks it held (a room's lease, writer.py) with it — never longer than a lease lasts
        cur = dbapi_conn.cursor()
        cur.execute(f"SET idle_in_transaction_session_timeout = {int(IDLE_IN_TRANSACTION * 1000)}")
        cur.close()
        dbapi_conn.commit()

    return engine


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration (Alembic)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    with engine.connect() as conn:
        # SQLite alters a table by making it anew (Alembic's batch mode): the tables that
        # refer to it must not be checked meanwhile, and foreign_keys can only be switched
        # outside a transaction. The whole result is checked before the commit.
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.commit()
        try:
            with conn.begin():
                if conn.dialect.name == "postgresql":  # workers of a cluster starting together: one migrates
                    conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7242525)")
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
                if sqlite:
                    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RuntimeError(f"the migration left rows without their references: {broken[:5]}")
        finally:
            if sqlite:
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                conn.commit()


# ---------------------------------------------------------------------- writes in a transaction
def new_room_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def empty_seats(num_seats: int) -> list[dict[str, Any]]:
    return [{"player": None, "bot": None, "hosted": False, "hosted_times": 0, "left": False} for _ in range(num_seats)]


def session_id(token: str) -> str:
    """How a session is stored: the SHA-256 of its token (a stolen table logs nobody in)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_session_tx(c: Connection, pid: int, address: str | None = None) -> str:
    """A new session for player ``pid`` (opened from ``address``): its token (for the
    cookie; only its hash is stored)."""
    token = secrets.token_urlsafe(32)
    where = address[:64] if address else None
    c.execute(insert(sessions).values(id=session_id(token), player_id=pid, created_at=now(), address=where))
    return token


def revoke_sessions_tx(c: Connection, pid: int, keep: str | None = None) -> None:
    """End every open session of ``pid`` but the one whose token is ``keep``."""
    q = update(sessions).where(sessions.c.player_id == pid, sessions.c.revoked_at.is_(None))
    if keep is not None:
        q = q.where(sessions.c.id != session_id(keep))
    c.execute(q.values(revoked_at=now()))


def create_player_tx(c: Connection, name: str, address: str | None = None) -> dict[str, Any]:
    """A guest player and its first session."""
    pid = c.execute(insert(players).values(name=name, created_at=now())).inserted_primary_key
    assert pid is not None
    return {"id": pid[0], "name": name, "token": new_session_tx(c, pid[0], address)}


def rename_player_tx(c: Connection, pid: int, name: str) -> None:
    c.execute(update(players).where(players.c.id == pid).values(name=name))


def create_room_tx(c: Connection, row: dict[str, Any], owner: str | None = None) -> dict[str, Any]:
    """A new room and its owner row (``owner``'s when a worker of a cluster makes it)."""
    c.execute(insert(rooms).values(**row))
    c.execute(insert(room_owners).values(room_id=row["id"], worker=owner, token=1, released_at=0.0))
    return row


def open_rooms_of_tx(c: Connection, pid: int) -> int:
    """How many rooms ``pid`` made that are still open."""
    q = (
        select(func.count())
        .select_from(rooms)
        .where(rooms.c.created_by == pid, rooms.c.status.not_in(("closed", "archived")))
    )
    return int(c.execute(q).scalar_one())


def room_by_code_tx(c: Connection, code: str) -> str | None:
    """The open room with the short code ``code`` (the newest, should two open rooms share it)."""
    q = (
        select(rooms.c.id)
        .where(rooms.c.code == code, rooms.c.status.not_in(("closed", "archived")), rooms.c.damaged.is_(None))
        .order_by(rooms.c.created_at.desc())
    )
    row = c.execute(q).first()
    return str(row.id) if row is not None else None


def save_room_tx(c: Connection, rid: str, **values: Any) -> None:
    c.execute(update(rooms).where(rooms.c.id == rid).values(**values))


def start_hand_tx(
    c: Connection,
    rid: str,
    number: int,
    seed: int,
    options: dict[str, Any],
    seats: list[dict[str, Any]],
    record_version: int = RECORD_VERSION,
) -> int:
    """A new hand (its resolved options and record version) and the room's seats at its start."""
    hid = c.execute(
        insert(hands).values(
            room_id=rid,
            number=number,
            seed=seed,
            options=options,
            record_version=record_version,
            started_at=now(),
        )
    ).inserted_primary_key
    c.execute(update(rooms).where(rooms.c.id == rid).values(status="playing", seats=seats))
    assert hid is not None
    return int(hid[0])


def save_analysis_tx(c: Connection, rid: str, number: int, seat: int, version: int, result: Any) -> None:
    """Keep one seat's analysis of a stored hand (replacing an older one)."""
    q = select(hands.c.id).where(hands.c.room_id == rid, hands.c.number == number)
    hid = c.execute(q).scalar_one_or_none()
    if hid is None:
        return  # not a stored hand (nothing to keep it with)
    c.execute(delete(analyses).where(analyses.c.hand_id == hid, analyses.c.seat == seat))
    c.execute(insert(analyses).values(hand_id=hid, seat=seat, version=version, result=result, created_at=now()))


def action_row(hand_id: int, seq: int, seat: int, text: str, hosted: bool) -> dict[str, Any]:
    """One action as the ``actions`` table stores it (``seq`` counts from 1 in each hand)."""
    return {"hand_id": hand_id, "seq": seq, "seat": seat, "text": text, "hosted": hosted, "created_at": now()}


def finish_hand_tx(
    c: Connection, hand_id: int, scores: list[int], scored: bool, rid: str, seats: list[dict[str, Any]], status: str
) -> None:
    c.execute(update(hands).where(hands.c.id == hand_id).values(finished_at=now(), scores=scores, scored=scored))
    c.execute(update(rooms).where(rooms.c.id == rid).values(seats=seats, status=status))


def add_penalty_tx(
    c: Connection, rid: str, hand_number: int, seat: int, player_id: int | None, points: int, reason: str
) -> dict[str, Any]:
    row = {
        "room_id": rid,
        "hand_number": hand_number,
        "seat": seat,
        "player_id": player_id,
        "points": points,
        "reason": reason,
        "created_at": now(),
    }
    c.execute(insert(penalties).values(**row))
    return row


def balance_tx(c: Connection, pid: int) -> int:
    """An account's beans: the sum of its ledger rows."""
    q = select(func.coalesce(func.sum(ledger.c.amount), 0)).where(ledger.c.player_id == pid)
    return int(c.execute(q).scalar_one())


def db_clock(c: Connection) -> float:
    """Seconds since the epoch by the database's own clock: leases of workers on several
    machines are measured against one clock, never against each machine's."""
    if c.dialect.name == "postgresql":
        q = "SELECT extract(epoch FROM clock_timestamp())"
    else:
        q = "SELECT (julianday('now') - 2440587.5) * 86400.0"
    return float(c.exec_driver_sql(q).scalar_one())


def last_seq(c: Connection, hand_id: int) -> int:
    """The highest stored ``seq`` of a hand (0: no action yet)."""
    q = select(func.coalesce(func.max(actions.c.seq), 0)).where(actions.c.hand_id == hand_id)
    return int(c.execute(q).scalar_one())


class Store:
    """The hall's database: the engine, its migrations, reads, and one-transaction writes.

    The hall writes through its :class:`~paiju.server.store.writer.Writer`; the methods that
    write here are for scripts, admin commands and tests."""

    def __init__(self, url: str | None = None, *, run_migrations: bool = True, checkpoints: bool = True) -> None:
        self.url = url or default_url()
        self.engine = make_engine(self.url)
        if run_migrations:
            migrate(self.engine)
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if checkpoints and self.engine.dialect.name == "sqlite":
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
        self.engine.dispose()

    # players ---------------------------------------------------------------------
    def create_player(self, name: str) -> dict[str, Any]:
        with self.engine.begin() as c:
            return create_player_tx(c, name)

    def player_by_token(self, token: str | None) -> dict[str, Any] | None:
        """The player of an open session (None: no such session, revoked, or the account
        disabled — for good, or banned until a time not yet come)."""
        if not token:
            return None
        q = (
            select(players)
            .join(sessions, sessions.c.player_id == players.c.id)
            .where(
                sessions.c.id == session_id(token),
                sessions.c.revoked_at.is_(None),
                or_(players.c.disabled.is_(False), players.c.banned_until <= now()),
            )
        )
        with self.engine.connect() as c:
            row = c.execute(q).mappings().first()
        return {**row, "token": token} if row else None

    def read(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(connection, *args)`` in a read of its own (profiles, leaderboards, logins)."""
        with self.engine.connect() as c:
            return fn(c, *args)

    def players_by_id(self, ids: list[int]) -> dict[int, str]:
        if not ids:
            return {}
        with self.engine.connect() as c:
            rows = c.execute(select(players.c.id, players.c.name).where(players.c.id.in_(ids))).all()
        return {r[0]: r[1] for r in rows}

    def rename_player(self, pid: int, name: str) -> None:
        with self.engine.begin() as c:
            rename_player_tx(c, pid, name)

    # rooms -----------------------------------------------------------------------
    def create_room(
        self, name: str, game: str, options: dict[str, Any], turn_timeout: float, num_seats: int, created_by: int | None
    ) -> dict[str, Any]:
        row = room_row(name, game, options, turn_timeout, num_seats, created_by)
        with self.engine.begin() as c:
            return create_room_tx(c, row)

    def room(self, rid: str) -> dict[str, Any] | None:
        with self.engine.connect() as c:
            row = c.execute(select(rooms).where(rooms.c.id == rid)).mappings().first()
        return dict(row) if row else None

    def all_rooms(self) -> list[dict[str, Any]]:
        with self.engine.connect() as c:
            return [dict(r) for r in c.execute(select(rooms).order_by(rooms.c.created_at)).mappings()]

    def save_room(self, rid: str, **values: Any) -> None:
        with self.engine.begin() as c:
            save_room_tx(c, rid, **values)

    # hands and actions ----------------------------------------------------------
    def start_hand(self, rid: str, number: int, seed: int, options: dict[str, Any], seats: list[dict[str, Any]]) -> int:
        """Record a new hand and the room's seats at its start, in one transaction."""
        with self.engine.begin() as c:
            return start_hand_tx(c, rid, number, seed, options, seats)

    def append_action(self, hand_id: int, seq: int, seat: int, text: str, hosted: bool) -> None:
        """Append one action and commit it; ``seq`` must follow the hand's last one."""
        with self.engine.begin() as c:
            if seq != last_seq(c, hand_id) + 1:
                raise SeqGap(f"hand {hand_id}: action {seq} does not follow action {last_seq(c, hand_id)}")
            c.execute(insert(actions), [action_row(hand_id, seq, seat, text, hosted)])

    def finish_hand(
        self, hand_id: int, scores: list[int], scored: bool, rid: str, seats: list[dict[str, Any]], status: str
    ) -> None:
        with self.engine.begin() as c:
            finish_hand_tx(c, hand_id, scores, scored, rid, seats, status)

    def room_hands(self, rid: str) -> list[dict[str, Any]]:
        with self.engine.connect() as c:
            q = select(hands).where(hands.c.room_id == rid).order_by(hands.c.number)
            return [dict(r) for r in c.execute(q).mappings()]

    def hand_actions(self, hand_id: int) -> list[dict[str, Any]]:
        with self.engine.connect() as c:
            q = select(actions).where(actions.c.hand_id == hand_id).order_by(actions.c.seq)
            return [dict(r) for r in c.execute(q).mappings()]

    def hand_seats(self, rid: str, number: int) -> list[dict[str, Any]]:
        """Who sat where in a finished hand, as the room's seats are told (``player`` with
        its id and name; a seat with no person's result was a computer player's)."""
        with self.engine.connect() as c:
            q = (
                select(results.c.seat, players.c.id, players.c.name)
                .join(hands, hands.c.id == results.c.hand_id)
                .join(players, players.c.id == results.c.player_id)
                .where(hands.c.room_id == rid, hands.c.number == number)
            )
            people = {r.seat: {"id": r.id, "name": r.name} for r in c.execute(q)}
            q2 = select(rooms.c.game).where(rooms.c.id == rid)
            game = c.execute(q2).scalar_one_or_none()
        n = game_class(game).num_players if game in GAMES else max(people, default=-1) + 1
        return [{"seat": s, "player": people.get(s), "bot": None if s in people else "bot"} for s in range(n)]

    def analysis(self, rid: str, number: int, seat: int) -> dict[str, Any] | None:
        """The stored analysis of seat ``seat`` in room ``rid``'s hand ``number`` (its JSON), if any."""
        with self.engine.connect() as c:
            q = (
                select(analyses.c.version, analyses.c.result)
                .join(hands, hands.c.id == analyses.c.hand_id)
                .where(hands.c.room_id == rid, hands.c.number == number, analyses.c.seat == seat)
            )
            row = c.execute(q).first()
        return {"version": row.version, "result": row.result} if row else None

    def count_actions(self) -> int:
        with self.engine.connect() as c:
            return int(c.execute(select(func.count()).select_from(actions)).scalar_one())

    # penalties -------------------------------------------------------------------
    def add_penalty(
        self, rid: str, hand_number: int, seat: int, player_id: int | None, points: int, reason: str
    ) -> None:
        with self.engine.begin() as c:
            add_penalty_tx(c, rid, hand_number, seat, player_id, points, reason)

    def room_penalties(self, rid: str) -> list[dict[str, Any]]:
        with self.engine.connect() as c:
            q = select(penalties).where(penalties.c.room_id == rid).order_by(penalties.c.id)
            return [dict(r) for r in c.execute(q).mappings()]


class SeqGap(Exception):
    """Actions that would leave a hole (or a repeat) in a hand's ``seq`` numbers."""


def room_row(
    name: str,
    game: str,
    options: dict[str, Any],
    turn_timeout: float,
    num_seats: int,
    created_by: int | None,
    code: str | None = None,
    access: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A new room's row (waiting, every seat empty); its ``code`` and ``access`` when given
    (tables/access.py: the hall gives every new room both)."""
    extra = {"code": code, "access": access} if code is not None or access is not None else {}
    return {
        **extra,
        "id": new_room_id(),
        "name": name,
        "game": game,
        "options": options,
        "turn_timeout": turn_timeout,
        "seats": empty_seats(num_seats),
        "status": "waiting",
        "damaged": None,
        "created_by": created_by,
        "created_at": now(),
    }
