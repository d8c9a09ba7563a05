"""Small helpers shared by the Baohuang rule tests (test_baohuang_play/setup/scoring).

Games are built from explicit, tiny deals (``deal=[5 hands of card text]``) so that every
scenario is short and deterministic; they are driven only through the public interface.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import paiju
from paiju import IllegalAction

SEATS = range(5)


def new(deal: list[str], seed: int = 7, **options: Any) -> paiju.Game:
    """A Baohuang hand from an explicit deal (five hands of card text)."""
    return paiju.new_game("baohuang", seed=seed, deal=deal, **options)


def legal(g: paiju.Game) -> list[str]:
    """The legal actions of the seat to act, as text."""
    return [str(a) for a in g.legal_actions()]


def hand(g: paiju.Game, seat: int) -> list[str]:
    return [str(c) for c in g.hand(seat)]


def ranks(g: paiju.Game, seat: int) -> list[str]:
    """A seat's cards as rank text (suits and marks dropped), sorted."""
    return sorted(c.rank_text for c in g.hand(seat))


def snapshot(g: paiju.Game) -> tuple[Any, ...]:
    """Everything observable about a game: record, every view, whose turn, what step."""
    views = [json.dumps(g.view(s), sort_keys=True) for s in [*SEATS, None]]
    return (
        json.dumps(g.record(), sort_keys=True),
        views,
        g.to_act,
        g.phase,
        getattr(g, "step", None),
        [hand(g, s) for s in SEATS],
        legal(g),
    )


def assert_illegal(g: paiju.Game, action: Any, *words: str) -> str:
    """``action`` raises IllegalAction whose message contains every word of ``words``
    (case-insensitive), and the game is unchanged afterwards. Returns the message."""
    before = snapshot(g)
    with pytest.raises(IllegalAction) as err:
        g.apply(action)
    msg = str(err.value)
    for w in words:
        assert w.lower() in msg.lower(), f"{w!r} not in {msg!r}"
    assert snapshot(g) == before, f"the game changed after the illegal action {action!r}"
    return msg


def apply_all(g: paiju.Game, *actions: str) -> None:
    for a in actions:
        g.apply(a)


def answer_no(g: paiju.Game) -> list[tuple[str, int]]:
    """Answer ``no`` to every pre-play question until play starts; returns the questions
    asked as (step, seat) in order."""
    asked: list[tuple[str, int]] = []
    while g.phase == "setup":
        assert g.to_act is not None
        asked.append((g.step, g.to_act))
        assert "no" in legal(g), (g.step, g.to_act, legal(g))
        g.apply("no")
    return asked


def start_play(g: paiju.Game, *first: str) -> paiju.Game:
    """Apply ``first`` (e.g. ``"accept"``, ``"call 7c"``), then answer no to everything."""
    apply_all(g, *first)
    answer_no(g)
    assert g.phase == "play"
    return g


def play(deal: list[str], *first: str, **options: Any) -> paiju.Game:
    """A hand in the play phase: the first holder accepts (unless ``first`` says
    otherwise), nobody reveals, rebels or kicks."""
    g = new(deal, **options)
    return start_play(g, *(first or ("accept",)))


def guard_in_views(g: paiju.Game) -> list[Any]:
    """What each seat (and a spectator) is told about the guard."""
    return [g.view(s)["guard"] for s in [*SEATS, None]]
