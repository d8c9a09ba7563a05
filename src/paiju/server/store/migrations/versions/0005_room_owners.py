"""Room owners: which worker of a cluster plays each room, and the workers' leases.

Every room gets a row in ``room_owners`` (nobody's, token 0); a worker claims a room by
raising its token, and the writer checks the token in the same transaction as every
append. A worker's hold on all its rooms lasts while its row in ``workers`` is renewed
(lease.py).

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
        "workers",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_table(
        "room_owners",
        sa.Column("room_id", sa.String(16), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("worker", sa.String(64), nullable=True, index=True),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("released_at", sa.Float, nullable=False),
        sa.Column("wanted_by", sa.String(64), nullable=True),
    )
    op.execute("INSERT INTO room_owners (room_id, worker, token, released_at) SELECT id, NULL, 0, 0 FROM rooms")


def downgrade() -> None:
    op.drop_table("room_owners")
    op.drop_table("workers")
