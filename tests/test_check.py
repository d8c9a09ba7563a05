"""``Game.check``: the one answer to "may the seat to act take this action now?".

Over random hands of every game and preset, at sampled positions:

1. every action of ``legal_actions()`` (its object and its text) checks legal;
2. for candidates that are mostly illegal — random card texts, malformed text, objects
   that are not actions, the legal actions of earlier positions (other seats' among
   them) — ``check`` returns exactly the error ``apply`` raises (same code, params and
   message), and a candidate ``check`` passes is accepted by ``apply`` (on a clone);
3. neither ``check`` nor a refused ``apply`` changes the game: its ``record()`` and every
   seat's ``view`` (and the spectator's) are as before.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import paiju
from paiju.baohuang import PRESETS
from paiju.game import PASS

SEEDS = st.integers(0, 2**32)
MALFORMED = ["", "   ", "pass pass", "no more", "call", "take", "declare", "bury", "bury 7h 8h", "ZZ", "7x", "BJ**"]
CARD_WORDS = ["3", "4", "5", "6", "7h", "8s", "9d", "Tc", "J", "Q", "K", "A", "2", "SJ", "BJ", "SJ*", "BJ*"]
PREFIXES = ["", "", "", "call ", "take ", "declare ", "bury "]
NOT_ACTIONS: list[Any] = [None, 5, 2.5, ("7h",), PASS]


@st.composite
def baohuang_rooms(draw: st.DrawFn) -> dict[str, Any]:
    opts: dict[str, Any] = {"variant": draw(st.sampled_from(sorted(PRESETS)))}
    for name in ("kao", "hold_sixes", "pass_is_final"):
        if draw(st.booleans()):
            opts[name] = draw(st.booleans())
    return opts


@st.composite
def shengji_rooms(draw: st.DrawFn) -> dict[str, Any]:
    decks = draw(st.sampled_from([1, 2, 3]))
    return {
        "decks": decks,
        "declare_with_joker": draw(st.booleans()),
        "kitty_steal": draw(st.booleans()),
        "self_overturn": draw(st.booleans()),
        "two_colours": decks == 1 and draw(st.booleans()),
        "triples": decks == 3 and draw(st.booleans()),
    }


@st.composite
def shuangkou_rooms(draw: st.DrawFn) -> dict[str, Any]:
    return {"min_triple_run": draw(st.sampled_from([2, 3])), "four_joker_bomb": draw(st.booleans())}


def state(g: paiju.Game) -> str:
    """Everything observable of a game: its record and every seat's view."""
    views = [g.view(s) for s in [*range(g.num_players), None]]
    return json.dumps([g.record(), views], sort_keys=True, default=str)


def random_text(rng: random.Random) -> str:
    words = [rng.choice(CARD_WORDS) for _ in range(rng.randint(1, 6))]
    return rng.choice(PREFIXES) + " ".join(words)


def same_error(a: paiju.IllegalAction, b: paiju.IllegalAction) -> bool:
    return (type(a), a.code, a.params, str(a)) == (type(b), b.code, b.params, str(b))


def check_position(g: paiju.Game, earlier: list[Any], rng: random.Random) -> None:
    before = state(g)
    legal = g.legal_actions()
    sample = list(legal) if len(legal) <= 60 else [legal[rng.randrange(len(legal))] for _ in range(60)]
    for a in sample:
        assert g.check(a) is None, a
        assert g.check(str(a)) is None, str(a)
    candidates: list[Any] = [random_text(rng) for _ in range(6)]
    candidates += MALFORMED + NOT_ACTIONS
    candidates += rng.sample(earlier, min(len(earlier), 12))
    candidates += [str(a) for a in rng.sample(earlier, min(len(earlier), 6))]
    for c in candidates:
        problem = g.check(c)
        if problem is None:
            g.clone().apply(c)  # legal: apply takes it
            continue
        assert isinstance(problem, paiju.IllegalAction) and problem.code in paiju.errors.REASONS
        try:
            g.apply(c)
        except paiju.IllegalAction as e:
            assert same_error(e, problem), (c, e, problem)
        else:
            raise AssertionError(f"check refused {c!r} ({problem}) but apply took it")
    assert state(g) == before


def play_and_check(g: paiju.Game, seed: int, share: float) -> None:
    rng = random.Random(seed)
    earlier: list[Any] = []
    while not g.is_over:
        legal = g.legal_actions()
        if rng.random() < share:
            check_position(g, earlier, rng)
        a = legal[rng.randrange(len(legal))]
        earlier.append(a)
        g.apply(a)
    assert g.check(earlier[-1]).code == "hand_over"  # type: ignore[union-attr]
    assert g.check("pass").code == "hand_over"  # type: ignore[union-attr]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, opts=baohuang_rooms())
def test_baohuang_check(seed: int, opts: dict[str, Any]) -> None:
    play_and_check(paiju.new_game("baohuang", seed=seed, **opts), seed, share=0.15)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, opts=shengji_rooms())
def test_shengji_check(seed: int, opts: dict[str, Any]) -> None:
    play_and_check(paiju.new_game("shengji", seed=seed, **opts), seed, share=0.08)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, opts=shuangkou_rooms())
def test_shuangkou_check(seed: int, opts: dict[str, Any]) -> None:
    play_and_check(paiju.new_game("shuangkou", seed=seed, **opts), seed, share=0.15)


def test_check_names_the_reason_without_changing_the_game() -> None:
    g = paiju.new_game("baohuang", seed=3)
    before = state(g)
    problem = g.check("kick")
    assert problem is not None and problem.code == "not_open"
    assert problem.params["step"] == "emperor"
    assert g.check("accept") is None
    assert state(g) == before
