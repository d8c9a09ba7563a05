"""Accounts, sessions, beans 游戏豆, results and ratings.

A player may now be an account (a user name and an argon2 password hash) or a guest (no
user name). The login token that was a column of ``players`` becomes a server-side
session (stored by its SHA-256, so the table holds no usable token): every existing
cookie keeps working, and its player is a guest with all its history. Beans live in an
append-only ``ledger`` (a balance is the sum of its rows); ``results`` keep each seated
person's outcome of each finished hand (for profiles, titles and win rates), ``ratings``
each player's skill rating per game.

Revision ID: 0003
Revises: 0002
"""

import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),  # SHA-256 of the cookie's token, hex
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("revoked_at", TS, nullable=True),
    )
    conn = op.get_bind()
    old = sa.table("players", sa.column("id", sa.Integer), sa.column("token", sa.String), sa.column("created_at", TS))
    sessions = sa.table(
        "sessions",
        sa.column("id", sa.String),
        sa.column("player_id", sa.Integer),
        sa.column("created_at", TS),
        sa.column("revoked_at", TS),
    )
    rows = [
        {"id": hashlib.sha256(p.token.encode()).hexdigest(), "player_id": p.id, "created_at": p.created_at}
        for p in conn.execute(sa.select(old.c.id, old.c.token, old.c.created_at))
    ]
    if rows:
        conn.execute(sa.insert(sessions), rows)
    with op.batch_alter_table("players") as batch:
        batch.drop_column("token")
        batch.add_column(sa.Column("username", sa.String(32), nullable=True))
        batch.add_column(sa.Column("password_hash", sa.String(256), nullable=True))
        batch.add_column(sa.Column("disabled", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.create_unique_constraint("uq_players_username", ["username"])
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True, index=True),  # None: house
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),  # start | hand | penalty | relief | grant | house
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id"), nullable=True, index=True),
        sa.Column("created_at", TS, nullable=False),
    )
    op.create_table(
        "results",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id"), nullable=False, index=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("scored", sa.Boolean, nullable=False),
        sa.Column("beans", sa.BigInteger, nullable=False),
        sa.Column("rating", sa.Float, nullable=True),  # the player's rating (ordinal) after the hand
        sa.Column("created_at", TS, nullable=False),
        sa.UniqueConstraint("hand_id", "seat"),
    )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ratings")
    op.drop_table("results")
    op.drop_table("ledger")
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("uq_players_username", type_="unique")
        batch.drop_column("disabled")
        batch.drop_column("password_hash")
        batch.drop_column("username")
        batch.add_column(sa.Column("token", sa.String(64), nullable=True))
    op.drop_table("sessions")  # the tokens cannot be restored from their hashes: old cookies log in no more
