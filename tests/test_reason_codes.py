"""Reason codes of the engines' IllegalAction: a sweep of random games in the three games
tries random illegal actions (card subsets of the hand, cards not held, bad text, the
wrong decisions) and checks that every refusal carries a registered code other than the
bare default, that its params are JSON values filling the code's template exactly, and
that the game is unchanged."""

from __future__ import annotations

import json
import random
import string
from typing import Any

import pytest

import paiju
from paiju import IllegalAction
from paiju.baohuang import Play as BaohuangPlay
from paiju.errors import REASONS
from paiju.shuangkou import Play as ShuangkouPlay

PRESETS: dict[str, list[dict[str, Any]]] = {
    "baohuang": [
        {},
        {"variant": "classic"},
        {"variant": "qingdao", "hold_sixes": True},
        {"variant": "weihai", "kao": True, "solo_grab": True},
    ],
    "shengji": [
        {},
        {"decks": 1, "two_colours": True},
        {"decks": 3, "triples": True},
        {"kitty_steal": True, "declare_with_joker": True, "self_overturn": False},
    ],
    "shuangkou": [{}, {"min_triple_run": 2, "four_joker_bomb": True}],
}
CASES = [(name, o, seed) for name, presets in PRESETS.items() for o in presets for seed in (11, 12)]
WORDS = ["pass", "yield", "no", "accept", "abdicate", "open_solo", "grab", "reveal", "rebel", "kick", "call", "take"]
BAD_TEXT = ["", "zz", "1x", "Q*", "7h*", "accept now", "call", "call Ah Kh", "bury", "bury 7h 8h", "declare", "no 3"]
ALL_CARDS = [str(c) for c in paiju.packs(1)]


def fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def check_refusal(e: IllegalAction) -> str:
    """The refusal is well formed; returns its code."""
    assert e.code in REASONS and e.code != "illegal", (e.code, str(e))
    template = REASONS[e.code]
    assert fields(template) == set(e.params), (e.code, template, e.params)
    template.format(**e.params)
    json.dumps(e.params)
    assert str(e)
    return e.code


def state(g: paiju.Game) -> Any:
    seat = g.to_act
    return json.dumps(g.record(), sort_keys=True), json.dumps(g.view(seat), sort_keys=True, default=str)


def tries(g: paiju.Game, rng: random.Random) -> list[Any]:
    """Actions to try now: mostly illegal, some may be legal."""
    seat = g.to_act
    assert seat is not None
    hand = [str(c) for c in g.hand(seat)]
    out: list[Any] = []
    for _ in range(4):
        k = rng.randint(1, min(6, len(hand))) if hand else 1
        out.append(" ".join(rng.sample(hand, k)) if hand else "3")
    if g.phase == "play" and hand:  # plays of the right size: follow-suit and structure refusals
        first = g.legal_actions()[0]
        k = min(len(hand), len(str(first).split()) if str(first) not in ("pass", "yield") else 1)
        out += [" ".join(rng.sample(hand, k)) for _ in range(4)]
    absent = [c for c in ALL_CARDS if c not in hand]
    if absent:
        out.append(rng.choice(absent))
        out.append(f"{rng.choice(hand)} {rng.choice(absent)}" if hand else rng.choice(absent))
    out.append(rng.choice(WORDS) + (f" {rng.choice(ALL_CARDS)}" if rng.random() < 0.5 else ""))
    out.append(f"declare {rng.choice(ALL_CARDS)}")
    out.append(f"declare {' '.join([rng.choice(['SJ', 'BJ', *ALL_CARDS])] * rng.randint(1, 3))}")
    out.append(f"bury {rng.choice(ALL_CARDS)}")
    out.append(rng.choice(BAD_TEXT))
    out.append(rng.choice([7, None, ["3"]]))
    if g.name == "baohuang":
        out.append(BaohuangPlay(rng.randint(-2, 14), rng.randint(0, 3), rng.randint(0, 2), rng.randint(0, 2)))
    if g.name == "shuangkou":
        out.append(ShuangkouPlay(rng.randint(0, 16), rng.randint(1, 9), rng.randint(1, 4)))
    return out


@pytest.mark.parametrize(("name", "options", "seed"), CASES)
def test_every_refusal_has_a_registered_code(name: str, options: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    g = paiju.new_game(name, seed=seed, **options)
    seen: set[str] = set()
    decisions = 0
    while not g.is_over:
        if decisions % 3 == 0 or g.phase not in ("play", "deal"):
            before = state(g)
            for action in tries(g, rng):
                c = g.clone()
                try:
                    c.apply(action)
                except IllegalAction as e:
                    seen.add(check_refusal(e))
                    assert state(c) == before, (action, e)
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
        decisions += 1
    for action in ("pass", "3"):
        with pytest.raises(IllegalAction) as e:
            g.apply(action)
        assert check_refusal(e.value) == "hand_over"
    assert {"not_in_hand", "bad_card_text"} <= seen, seen


def test_codes_of_the_other_engine_raises() -> None:
    """Options, deals, records, seats and scores outside a hand also say what they are."""
    calls = [
        lambda: paiju.new_game("baohuang", variant="nope"),
        lambda: paiju.new_game("shengji", decks=5),
        lambda: paiju.new_game("shuangkou", first_lead=9),
        lambda: paiju.new_game("chess"),
        lambda: paiju.new_game("baohuang", deal=["BJ"]),
        lambda: paiju.new_game("shuangkou", deal=["3", "", "4", "5"]),
        lambda: paiju.new_game("shengji", deal=["3h"] * 4),
        lambda: paiju.replay({"game": "baohuang"}),
        lambda: paiju.replay({"game": "shuangkou", "version": 99, "actions": []}),
        lambda: paiju.replay({"game": "shuangkou", "seed": 1, "actions": ["3 4"]}),
        lambda: paiju.new_game("shuangkou", seed=1).hand(7),
        lambda: paiju.new_game("shuangkou", seed=1).scores,
        lambda: paiju.new_game("shengji", seed=1).next_hand_options(),
        lambda: paiju.Card.parse("7h 8h"),
        lambda: paiju.baohuang.hand_scores(9),
        lambda: paiju.shuangkou.hand_scores([0]),
    ]
    for call in calls:
        with pytest.raises(IllegalAction) as e:
            call()
        check_refusal(e.value)


def test_problem_texts_are_unchanged() -> None:
    g = paiju.new_game("shuangkou", seed=7, first_lead=0, deal=["77 3", "9 Q", "4", "5"])
    g.apply("77")
    with pytest.raises(IllegalAction) as e:
        g.apply("9 Q")
    assert e.value.code == "uneven_run" or e.value.code == "not_consecutive", e.value.code
    g2 = paiju.new_game("baohuang", seed=7, deal=["BJ 5 5 3", "SJ 9 7 7 Q Q", "3 4", "6 6", "2 2"])
    while g2.phase != "play":
        g2.apply(g2.legal_actions()[0] if g2.step != "emperor" else "accept")  # type: ignore[attr-defined]
    g2.apply("55")
    with pytest.raises(IllegalAction) as e:
        g2.apply("Q")
    assert e.value.code == "wrong_count"
    assert str(e.value) == "Q does not beat 55: a play must have as many cards as the play it beats (2)"
    assert e.value.params == {"play": "Q", "got": 1, "count": 2}
