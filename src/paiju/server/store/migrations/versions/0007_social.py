"""Playing together: private rooms and invitations, follows and blocks.

``rooms`` gets a short ``code`` (6 letters and digits: the room is found by it, also a
private one) and ``access`` (private or not, the password's hash, the invitation token,
the seats reserved for named players; never sent to a client as stored). ``follows`` and
``blocks`` hold who follows and who blocked whom (paiju.server.accounts.social).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("code", sa.String(8), nullable=True))
    op.add_column("rooms", sa.Column("access", sa.JSON, nullable=True))
    op.create_index("ix_rooms_code", "rooms", ["code"])
    for name, who, whom in (("follows", "follower_id", "followed_id"), ("blocks", "blocker_id", "blocked_id")):
        op.create_table(
            name,
            sa.Column(who, sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
            sa.Column(whom, sa.Integer, sa.ForeignKey("players.id"), primary_key=True, index=True),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        )


def downgrade() -> None:
    op.drop_table("blocks")
    op.drop_table("follows")
    op.drop_index("ix_rooms_code", "rooms")
    with op.batch_alter_table("rooms") as b:
        b.drop_column("access")
        b.drop_column("code")
