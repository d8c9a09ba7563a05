"""Moderation and integrity: roles, mutes and bans, the audit log, reports 举报, and where
accounts and sessions come from.

``players`` gets a ``role`` (player, moderator or admin), the end of a mute (no chat) and
of a ban (no play), and the address and time an account was registered from (registrations
per address are limited); ``sessions`` the address that opened them; ``rooms`` the players
an administrator kicked from it, who may not sit there again. ``audit`` is append-only: one
row per administrator's action. ``reports`` are the players' reports of one another.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("role", sa.String(16), nullable=False, server_default="player"))
    op.add_column("players", sa.Column("muted_until", sa.DateTime(timezone=True), nullable=True))
    op.add_column("players", sa.Column("banned_until", sa.DateTime(timezone=True), nullable=True))
    op.add_column("players", sa.Column("registered_from", sa.String(64), nullable=True))
    op.add_column("players", sa.Column("registered_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_players_registered_from", "players", ["registered_from", "registered_at"])
    op.add_column("sessions", sa.Column("address", sa.String(64), nullable=True))
    op.add_column("rooms", sa.Column("barred", sa.JSON, nullable=True))
    op.create_table(
        "audit",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("actor_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True, index=True),
        sa.Column("room_id", sa.String(16), nullable=True),
        sa.Column("detail", sa.JSON, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
        sa.Column("reported_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
        sa.Column("room_id", sa.String(16), nullable=True),
        sa.Column("hand_number", sa.Integer, nullable=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.String(200), nullable=False),
        sa.Column("chat", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("handled_by", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("handled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("outcome", sa.Text, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("reports")
    op.drop_table("audit")
    with op.batch_alter_table("rooms") as b:
        b.drop_column("barred")
    with op.batch_alter_table("sessions") as b:
        b.drop_column("address")
    op.drop_index("ix_players_registered_from", "players")
    with op.batch_alter_table("players") as b:
        for name in ("registered_at", "registered_from", "banned_until", "muted_until", "role"):
            b.drop_column(name)
