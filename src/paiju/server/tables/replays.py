"""The replay viewer's frames 牌谱回放: a finished hand, step by step, every hand face up.

A frame is what the table page draws: the state after ``step`` actions as the seat at the
bottom saw it (``view``), and, because the hand is over and nothing in it is secret any
more, every seat's cards (``hands``). The page reuses the live table's drawing for it.

Frames are sent like the live table's updates: a view's public event log goes out
incrementally (``events_from`` says where the frame's events start; the page keeps the
earlier part), so a hand of a few hundred actions is a few hundred kilobytes, not tens of
megabytes. Only finished hands have frames: a hand still being played is refused.
"""

from __future__ import annotations

from typing import Any

from paiju.errors import IllegalAction
from paiju.game import Game, Pass
from paiju.registry import replay

MAX_ACTIONS = 2_000
"""A record with more actions than any real hand is refused before it is replayed (the
longest hands, three-pack Shengji with every declaration, are a few hundred)."""
MAX_ACTION_TEXT = 200
"""The longest action text a record may hold (the store's limit)."""


def _lead(view: dict[str, Any], action: Any) -> bool:
    """Whether ``action`` opened a trick (the page steps a trick at a time from these)."""
    trick = view.get("trick")
    return view.get("phase") == "play" and not isinstance(action, Pass) and isinstance(trick, list) and len(trick) == 1


def frames(record: dict[str, Any], seat: int, *, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Every frame of the finished hand ``record`` seen from ``seat`` (at the bottom).

    ``seats`` names the players (``{"seat", "player", "bot"}`` as in the room's info); without
    it the seats are unnamed. Raises :class:`IllegalAction` (``bad_record``) for a record that
    does not replay, is too long or is not over (``hand_not_over``), or for a seat the game
    does not have (``bad_seat``).
    """
    actions = record.get("actions") if isinstance(record, dict) else None
    if (
        not isinstance(actions, list)
        or len(actions) > MAX_ACTIONS
        or not all(isinstance(a, str) and len(a) <= MAX_ACTION_TEXT for a in actions)
    ):
        raise IllegalAction("not a paiju game record (or longer than any hand)", code="bad_record")
    final = replay(record)
    if not final.is_over:
        raise IllegalAction("this hand is still being played: only finished hands are replayed", code="hand_not_over")
    n = final.num_players
    if not isinstance(seat, int) or not 0 <= seat < n:
        raise IllegalAction(f"a {final.name} game has seats 0 to {n - 1}", code="bad_seat", seat=seat)
    game: Game = replay({**record, "actions": []})
    out: list[dict[str, Any]] = []
    sent: list[Any] = []  # the events the page holds after the previous frame
    for step in range(len(actions) + 1):
        actor = action = None
        if step:
            actor = game.to_act
            action = final.history[step - 1]
            game.apply(action)
        view = game.view(seat)
        frame: dict[str, Any] = {
            "step": step,
            "actor": actor,
            "action": None if action is None else str(action),
            "lead": step > 0 and _lead(view, action),
            "hands": [[str(c) for c in game.hand(s)] for s in range(n)],
        }
        events = view.get("events")
        if isinstance(events, list):
            start = 0
            while start < min(len(events), len(sent)) and events[start] == sent[start]:
                start += 1
            view = {**view, "events": events[start:]}
            frame["events_from"] = start
            sent = events
        frame["view"] = view
        out.append(frame)
    named = seats or [{"seat": s, "player": None, "bot": None} for s in range(n)]
    return {
        "game": final.name,
        "seat": seat,
        "seats": named,
        "options": final.options,
        "scores": list(final.scores),
        "record": record,
        "frames": out,
    }
