"""An unscored hand (every person on 托管) counts 0 — Shengji's levels too: the next hand
starts a new match from the room's options, as after a won match (issue 29 item 6)."""

from __future__ import annotations

from typing import Any

from paiju.server.tables.table import next_options


class Over:
    """A finished hand that passes its levels on."""

    is_over = True
    match_over = False

    def next_hand_options(self) -> dict[str, Any]:
        return {"team_levels": ["4", "6"]}


ROOM = {"decks": 2}


def test_a_scored_hand_passes_its_levels_on() -> None:
    assert next_options(Over(), ROOM, [{"number": 1, "scored": True}], []) == {"team_levels": ["4", "6"]}


def test_an_unscored_hand_passes_nothing_on() -> None:
    assert next_options(Over(), ROOM, [{"number": 1, "scored": False}], []) == ROOM


def test_a_won_match_and_the_first_hand_start_from_the_room() -> None:
    won = Over()
    won.match_over = True
    assert next_options(won, ROOM, [{"number": 1, "scored": True}], []) == ROOM
    assert next_options(None, ROOM, [], []) == ROOM
