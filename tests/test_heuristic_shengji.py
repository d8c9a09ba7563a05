"""The Shengji ``heuristic`` bot: legal play over the option sets, and concrete club-player
behaviour in explicit deals (one pack, level 2, the declarer seat 0 fixed, trump from the
3rd kitty card since nobody declares)."""

from __future__ import annotations

import copy
import gc
import json
import types
from typing import Any

import pytest

import paiju
from paiju.bots import LazyView, make_bot
from paiju.bots.heuristic_shengji import ShengjiHeuristic, bury_plan, ids_of
from paiju.shengji.follow import suit_counts
from paiju.shengji.throw import failed_unit
from paiju.shengji.trump import POINTS, TRUMP, trump_order
from paiju.shengji.units import counts_of, decompose

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"decks": 1},
    {"decks": 3},
    {"decks": 3, "triples": True},
    {"twos_trump": True},
    {"no_bid": "no_trump"},
    {"no_bid": "kitty_card:1"},
    {"kitty_steal": True},
    {"throw_penalty": 10},
    {"decks": 1, "two_colours": True},
    {"declare_with_joker": True, "throw_evaluation": "all"},
    {"self_overturn": True, "throw_evaluation": "highest", "kitty_multiplier": "unit_size"},
]
LINEUPS = [
    ["heuristic"] * 4,
    ["heuristic", "random", "heuristic", "random"],
    ["greedy", "heuristic", "hosted", "heuristic"],
]


def _play_out(g: Any, names: list[str], seed: int) -> None:
    """Play a hand to its end with the named bots (views only); every action is checked
    against the legal ones."""
    bots = [make_bot(n, game="shengji", seed=seed * 10 + s) for s, n in enumerate(names)]
    while not g.is_over:
        s = g.to_act
        legal = g.legal_actions()
        action = bots[s].act(LazyView(g, s), legal)
        assert action in legal, f"seat {s} ({names[s]}) chose {action}, not legal"
        g.apply(action)


def test_registered_as_the_shengji_heuristic() -> None:
    bot = make_bot("heuristic", game="shengji", seed=1)
    assert isinstance(bot, ShengjiHeuristic) and bot.name == "heuristic"


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_only_legal_actions_and_the_hand_ends(options: dict[str, Any]) -> None:
    for seed in range(3):
        names = LINEUPS[seed % len(LINEUPS)]
        g = paiju.new_game("shengji", seed=seed, **options)
        _play_out(g, names, seed)
        assert g.phase == "over"
        assert len(g.scores) == 4 and sum(g.scores) == 0
        assert g.result is not None and g.view(None)["scores"] == list(g.scores)
        failed = [tr for tr in g.tricks if "failed_throw" in tr and names[tr["leader"]] == "heuristic"]
        assert not failed, f"the heuristic tried a throw that failed: {failed[0]}"


def test_a_match_of_hands_carries_on() -> None:
    """Later hands of a match (fixed declarer, other levels) are played as well."""
    g = paiju.new_game("shengji", seed=3, decks=1)
    played = []
    for hand in range(4):
        _play_out(g, ["heuristic"] * 4, hand)
        assert g.is_over and g.result is not None
        played.append(g)
        if g.match_over:
            break
        r = g.result
        g = paiju.new_game("shengji", seed=10 + hand, **g.next_hand_options())
        # the next hand is the match's: the declarer and the levels the last one left
        assert g.declarer == r["next_declarer"] and g.view(0)["team_levels"] == r["team_levels"]
        assert g.level == paiju.shengji.trump.rank_of_text(r["team_levels"][r["next_declarer"] % 2])
    assert len(played) == 4, "the match ended before its later hands"  # 2 → A needs more than 4 hands
    assert all(not h.hand(s) for h in played for s in range(4))  # every hand played to its last trick
    assert {h.level for h in played[1:]} != {2}  # later hands at other levels than the first


def test_never_tries_a_throw_that_fails() -> None:
    """Over many all-heuristic hands, no throw of the bot is ever reduced (it throws only
    units no unseen card can beat), and it does throw when throws stand."""
    throws = 0
    for seed in range(30):
        g = paiju.new_game("shengji", seed=100 + seed, decks=1 + seed % 2)
        _play_out(g, ["heuristic"] * 4, seed)
        for tr in g.tricks:
            assert "failed_throw" not in tr
            lead = ids_of(tr["plays"][0]["cards"])
            t = g.order
            assert t is not None
            throws += len(decompose(counts_of(lead), t)) > 1
    assert throws > 0


# ---------------------------------------------------------------------- explicit deals
# one pack: 12 cards each and a 6-card kitty; its 3rd card (a diamond) makes diamonds trump
D1 = [
    "7s 6s 4s Ah Kh Qh Jd Td 9d Ac Kc Qc",
    "As Qs Js Jh Th 9h 8d 7d 6d Jc Tc 9c",
    "9s 8s 2s 8h 7h 6h 5d 4d 3d 8c 7c 6c",
    "Ks Ts 5s 3s 5h 4h 3h 2h 2c 5c 4c 3c",
]
K1 = "BJ SJ Ad Kd Qd 2d"
D3 = [
    "As Ks Qs Ah Kh Qh Jh Ac Kc Qc Ad Kd",
    "Ts 6s 5s 4s 3s Th 9h 8h Jc Tc 9c Qd",
    "Js 9s 8s 7s 7h 6h 5h 8c 7c 2c Jd Td",
    "4h 3h 2h 5c 4c 3c 9d 8d 7d 6d 4d 3d",
]
K3 = "2s SJ 5d 2d BJ 6c"


def _setup(hands: list[str], kitty: str, **options: Any) -> Any:
    """Deal, nobody declares, the declarer (seat 0) buries the kitty as it came."""
    g = paiju.new_game("shengji", deal=hands, kitty=kitty, declarer=0, decks=1, **options)
    while g.phase == "deal":
        g.apply(g.parse_action("no"))
    for c in kitty.split():
        g.apply(g.parse_action(f"bury {c}"))
    assert g.phase == "play" and g.trump_suit == "d"
    return g


def _play(g: Any, *plays: str) -> None:
    for p in plays:
        g.apply(g.parse_action(p))


def _bot(g: Any) -> Any:
    return ShengjiHeuristic(seed=0).act(g.view(g.to_act), g.legal_actions())


def test_feeds_points_to_a_winning_partner() -> None:
    g = _setup(D1, K1)
    _play(g, "7s", "As", "8s")  # seat 1's As wins; seat 3 (his partner) plays last
    action = _bot(g)
    assert len(action.cards) == 1 and POINTS[action.cards[0]] == 10  # Ks or Ts, not 5s or 3s


def test_plays_low_without_points_when_the_trick_is_lost() -> None:
    d2 = ["As 6s 4s Ah Kh Qh Jd Td 9d Ac Kc Qc", "7s Qs Js Jh Th 9h 8d 7d 6d Jc Tc 9c", *D1[2:]]
    g = _setup(d2, K1)
    _play(g, "As", "7s", "8s")  # the opponent's As wins: seat 3 keeps Ks, Ts and 5s
    assert str(_bot(g)) == "3s"


def test_ruffs_a_points_trick_when_void_with_the_lowest_trump() -> None:
    g = _setup(D3, K3)
    _play(g, "As", "Ts", "7s")  # 10 points to the opponents; seat 3 has no spades
    assert str(_bot(g)) == "3d"


def test_wins_a_points_trick_cheaply() -> None:
    hands = [
        "Ts Ks 9s Ah Kh Qh Ac Kc Qc Jd Td 9d",
        "3s 7s 8s Jh Th 9h Jc Tc 9c 8d 7d 6d",
        "4s Qs 2s 8h 7h 6h 8c 7c 6c 5d 4d 3d",
        "As Js 6s 5s 5h 4h 3h 2h 5c 4c 3c 2c",
    ]
    g = _setup(hands, K1)
    _play(g, "Ts", "3s", "4s")  # the opponents' Ts (10 points) wins; seat 3 plays last
    assert str(_bot(g)) == "Js"  # the cheapest card that takes it, not the As


def test_does_not_throw_what_an_unseen_card_can_beat() -> None:
    hands = [
        "As Ks 9s 3h 4h 5c 6c 7c 3d 4d 6d 7d",
        "Qs Js 8s Ah Kh Qh Jh Ac Kc Qc Jc Ad",
        "Ts 7s 6s Th 9h 8h 7h Tc 9c 8c Kd Qd",
        "5s 4s 3s 6h 5h 4c 3c Jd Td 9d 8d 5d",
    ]
    g = _setup(hands, "2s 2h 2d 2c SJ BJ")
    action = _bot(g)
    t = g.order
    units = decompose(counts_of(action.cards), t)
    if len(units) > 1:  # a throw: it must stand against the real hands
        suit = t.psuit[action.cards[0]]
        others = [suit_counts(_count_vector(g, s), suit, t) for s in (1, 2, 3)]
        assert failed_unit(units, others, t) is None
    assert action.cards != tuple(sorted(ids_of("As Ks 9s")))


def _count_vector(g: Any, seat: int) -> list[int]:
    cnt = [0] * 54
    for c in ids_of(" ".join(str(x) for x in g.hand(seat))):
        cnt[c] += 1
    return cnt


def test_throws_boss_cards_of_a_side_suit() -> None:
    g = _setup(D3, K3)
    # seat 0 holds the three top spades and the four top hearts: a throw of hearts stands
    action = _bot(g)
    t = g.order
    assert len(action.cards) >= 2 and all(t.psuit[c] != TRUMP for c in action.cards)
    assert len({t.psuit[c] for c in action.cards}) == 1


def test_leads_the_suit_its_partner_is_void_in() -> None:
    hands = [
        "Ac 4c 3c 8s 7s 6s 4s 7h 6h 4h 3d 4d",
        "Kc Qc Jc As Ks Qs Ah Kh Qh Ad Kd Qd",
        "Js Ts 9s Jh Th 9h 8h Jd Td 9d 8d 7d",
        "Tc 9c 8c 7c 6c 5c 5s 3s 5h 3h 6d 5d",
    ]
    g = _setup(hands, "2s 2h 2d 2c SJ BJ")
    _play(g, "Ac", "Jc", "8h", "5c")  # seat 2 showed a void in clubs; seat 0 leads again
    assert g.to_act == 0
    assert str(_bot(g)) in ("3c", "4c")


def test_burial_voids_a_short_suit_and_keeps_trumps_and_aces() -> None:
    hands = [
        "4c As Ks 9s 8s Ah Kh 9h 8h 7h Kd Qd",
        "Qs Js Ts 7s 5s 4s Qh Jh Th 5h 4h 3h",
        "Ad Jd Td 9d 8d 7d 6d 4d 3d 2s 2h BJ",
        "Ac Kc Qc Jc Tc 9c 8c 7c 6c 5c 3c 2c",
    ]
    g = paiju.new_game("shengji", deal=hands, kitty="3s 6h 5d 2d SJ 6s", declarer=0, decks=1)
    while g.phase == "deal":
        g.apply(g.parse_action("no"))
    bot = ShengjiHeuristic(seed=0)
    while g.phase == "bury":
        legal = g.legal_actions()
        action = bot.act(g.view(0), legal)
        assert action in legal
        g.apply(action)
    t = g.order
    buried = ids_of(" ".join(g.view(0)["buried"]))
    assert len(buried) == 6
    assert "4c" in g.view(0)["buried"]  # clubs voided
    assert not any(t.psuit[c] == TRUMP for c in buried)
    assert not set(buried) & set(ids_of("As Ah Ks Kh"))


def test_bury_plan_keeps_pairs() -> None:
    t = trump_order("h", 2)
    cnt = [0] * 54
    for c in ids_of("9s 9s 3s 4s 5c 6c 7d 8d Ah Kh Kh 2s"):
        cnt[c] += 1
    plan = bury_plan(cnt, 4, t)
    assert ids_of("9s")[0] not in plan and len(plan) == 4  # the pair stays
    assert not any(t.psuit[c] == TRUMP for c in plan)


def test_declares_a_long_suit_and_not_a_lone_level_card() -> None:
    hands = [
        "2c 3s 4s 5s 6s 7s 8d 9d Td Jd Qd Kd",
        "2h Ah Kh Qh Jh Th 9h 8h 7d 4c 5c 6c",
        "As Ks Qs Js Ts 9s 8s 7h 6h 5h 4h 3h",
        "Ac Kc Qc Jc Tc 9c 8c 7c 3c 2s 3d 4d",
    ]
    kitty = "2d SJ BJ Ad 5d 6d"
    g = paiju.new_game("shengji", deal=hands, kitty=kitty, decks=1)
    bot = ShengjiHeuristic(seed=0)
    while g.phase == "deal":
        s = g.to_act
        legal = g.legal_actions()
        action = bot.act(g.view(s), legal) if s in (0, 1) else g.parse_action("no")
        assert action in legal
        g.apply(action)
    decl = [(d["seat"], d["cards"]) for d in g.view(None)["declarations"]]
    assert decl and decl[0][0] == 1 and decl[0][1].startswith("2h")
    assert all(seat != 0 for seat, _ in decl)  # a lone 2c with one club is no trump suit
    assert g.trump_suit == "h"


def test_self_play_hands_end() -> None:
    """Four default two-pack hands of four heuristic bots play out with legal actions. (The
    cost of a decision is a benchmark figure: ``benchmarks/search.py`` prints it.)"""
    for seed in range(4):
        g = paiju.new_game("shengji", seed=200 + seed)
        bots = [ShengjiHeuristic(seed=s) for s in range(4)]
        while not g.is_over:
            s = g.to_act
            legal = g.legal_actions()
            action = bots[s].act(g.view(s), legal)
            assert action in legal
            g.apply(action)
        assert sum(g.scores) == 0 and not any(g.hand(s) for s in range(4))


def reachable_games(*roots: object) -> list[str]:
    """Every paiju game object reachable from ``roots`` (through containers, attributes,
    slots, bound methods — not through classes, modules or plain functions)."""
    seen: set[int] = set()
    stack = list(roots)
    found = []
    while stack:
        o = stack.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        if isinstance(o, paiju.Game):
            found.append(type(o).__name__)
        if isinstance(o, (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, str, bytes)):
            continue
        stack.extend(gc.get_referents(o))
    return found


def test_view_only() -> None:
    """It decides from what the seat may know: nothing reachable from its arguments (nor
    kept in the bot) is a game object, and a JSON copy of the view with a deep copy of the
    legal actions makes it choose the same actions."""
    g = paiju.new_game("shengji", seed=9, decks=1)
    assert reachable_games(LazyView(g, 0)) == ["Shengji"]  # the walk does find a game
    bot, twin = ShengjiHeuristic(seed=0), ShengjiHeuristic(seed=0)
    decisions = 0
    while not g.is_over:
        view = g.view(g.to_act)
        legal = g.legal_actions()
        assert reachable_games(view, legal) == []
        action = bot.act(view, legal)
        copied = json.loads(json.dumps(view))
        assert twin.act(copied, copy.deepcopy(legal)) == action
        assert reachable_games(bot) == []
        g.apply(action)
        decisions += 1
    assert decisions > 12 and len(g.scores) == 4  # a whole hand: the deal, the burial, every trick
