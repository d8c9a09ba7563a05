"""Hands keep the engine's resolved options and their record version; rooms can be set aside.

Each stored hand gets every option value the engine played it with, not only the room's
overrides, so that a later change of a default never changes how an old hand replays.
The defaults below are those of record version 1 (the engines of this migration's
release), written out here on purpose: the migration must resolve old hands the same way
whatever the engines say in a later release.

Revision ID: 0002
Revises: 0001
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_BAOHUANG_PRESETS: dict[str, dict[str, Any]] = {
    "standard": dict(deck="full", guard="card", abdication="standard", solo_grab=False, grab_needs_four=False,
                     guard_choice="auto", rebellion=True, kick=False, yield_turn=False, tribute=False),
    "classic": dict(deck="full", guard="call", abdication="classic", solo_grab=True, grab_needs_four=False,
                    guard_choice="auto", rebellion=True, kick=False, yield_turn=False, tribute=False),
    "weihai": dict(deck="weihai", guard="card", abdication="weihai", solo_grab=True, grab_needs_four=False,
                   guard_choice="auto", rebellion=True, kick=True, yield_turn=False, tribute=False),
    "qingdao": dict(deck="full", guard="call", abdication="qingdao", solo_grab=True, grab_needs_four=True,
                    guard_choice="choose", rebellion=True, kick=True, yield_turn=True, tribute=True),
}  # fmt: skip
_BAOHUANG_COMMON: dict[str, Any] = dict(
    deal_start="first_finisher", pass_is_final=False, hold_sixes=False, hold_rank="6", kao=False,
    leave_penalty=40, first_seat=0, tribute_due=None,
)  # fmt: skip
_SHENGJI: dict[str, Any] = dict(
    decks=2, start_level="2", twos_trump=False, no_bid="kitty_card:3", self_overturn=False,
    overturn_changes_declarer=True, throw_penalty=0, throw_evaluation="largest_unit",
    kitty_multiplier="pairs_power", level_table="default", levels="all", win_at="A", jack_reset=False,
    declare_with_joker=False, two_colours=False, kitty_steal=False, triples=False, team_levels=None, declarer=None,
)  # fmt: skip
_SHUANGKOU: dict[str, Any] = dict(
    min_triple_run=3, four_joker_bomb=False, points_double=3, points_single=2, points_level=1, first_lead=None,
)  # fmt: skip


def resolved_v1(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """Every option value of a record-version-1 hand, from what was stored."""
    if game == "baohuang":
        variant = options.get("variant", "standard")
        out = {"variant": variant, **_BAOHUANG_PRESETS.get(variant, {}), **_BAOHUANG_COMMON, **options}
        if out["yield_turn"]:
            out["pass_is_final"] = True  # 让牌 makes a pass final
        return out
    if game == "shengji":
        out = {**_SHENGJI, **options}
        if out["team_levels"] is None:
            out["team_levels"] = [out["start_level"], out["start_level"]]
        return out
    if game == "shuangkou":
        return {**_SHUANGKOU, **options}
    return dict(options)


def upgrade() -> None:
    op.add_column("rooms", sa.Column("damaged", sa.Text, nullable=True))
    op.add_column("hands", sa.Column("record_version", sa.Integer, nullable=False, server_default="1"))
    conn = op.get_bind()
    rooms = sa.table("rooms", sa.column("id", sa.String), sa.column("game", sa.String))
    hands = sa.table(
        "hands", sa.column("id", sa.Integer), sa.column("room_id", sa.String), sa.column("options", sa.JSON)
    )
    game_of = {r.id: r.game for r in conn.execute(sa.select(rooms.c.id, rooms.c.game))}
    for h in conn.execute(sa.select(hands.c.id, hands.c.room_id, hands.c.options)).all():
        options = dict(h.options or {})
        resolved = resolved_v1(game_of.get(h.room_id, ""), options)
        if resolved != options:
            conn.execute(sa.update(hands).where(hands.c.id == h.id).values(options=resolved))


def downgrade() -> None:
    with op.batch_alter_table("hands") as batch:
        batch.drop_column("record_version")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("damaged")
