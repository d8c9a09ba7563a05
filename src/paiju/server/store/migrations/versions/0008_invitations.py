"""Invitations sent to a friend 邀请好友: a player seated at a room (or its creator) invites
a player he follows; the invitation waits for the friend's open page for a few minutes
(paiju.server.accounts.invitations).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("sender_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("room_id", sa.String(16), nullable=False),
        sa.Column("room_name", sa.String(64), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_invitations_player", "invitations", ["player_id", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_invitations_player", "invitations")
    op.drop_table("invitations")
