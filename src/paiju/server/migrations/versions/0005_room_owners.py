"""Room owners: the lease of each room when several hall workers share the database.

Every room gets a row (nobody's, token 0); a worker claims a room by raising its token,
and the writer checks the token in the same transaction as every append (lease.py).

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "room_owners",
        sa.Column("room_id", sa.String(16), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("worker", sa.String(64), nullable=True),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("wanted_by", sa.String(64), nullable=True),
    )
    op.execute("INSERT INTO room_owners (room_id, worker, token, expires_at) SELECT id, NULL, 0, 0 FROM rooms")


def downgrade() -> None:
    op.drop_table("room_owners")
