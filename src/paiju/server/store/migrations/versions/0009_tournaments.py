"""Tournaments 比赛 in the hall: a tournament, its entrants and every planned hand with its
result (paiju.server.tournaments.director resumes from them after a restart).

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("boards", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("current_round", sa.Integer, nullable=False, server_default="0"),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("standings", sa.JSON, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tournament_entrants",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), nullable=False, index=True),
        sa.Column("entrant", sa.String(64), nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("bot", sa.String(16), nullable=True),
        sa.UniqueConstraint("tournament_id", "entrant"),
    )
    op.create_table(
        "tournament_hands",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), nullable=False, index=True),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("board", sa.Integer, nullable=False),
        sa.Column("rotation", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("seating", sa.JSON, nullable=False),
        sa.Column("room_id", sa.String(16), nullable=True),
        sa.Column("hand_id", sa.Integer, nullable=True),
        sa.Column("scores", sa.JSON, nullable=True),
        sa.UniqueConstraint("tournament_id", "round", "table_no", "seq"),
    )


def downgrade() -> None:
    op.drop_table("tournament_hands")
    op.drop_table("tournament_entrants")
    op.drop_table("tournaments")
