"""Shengji 升级 rules through the engine: declarations and overturns (§4), burying and
following with the engine's messages, failed throws, scoring, levels and matches, the
Jack reset, option validation and declare_with_joker (§4).
"""

from __future__ import annotations

import pytest

import paiju
from paiju import IllegalAction
from shengji_helpers import build_deal, to_play


# ---------------------------------------------------------------------------- declarations (§4)
def test_deal_asks_every_receiver_and_one_more_round() -> None:
    g = paiju.new_game("shengji", seed=3)
    seats = []
    while g.phase == "deal":
        seats.append(g.to_act)
        g.apply("no")
    assert seats[:100] == [i % 4 for i in range(100)]
    assert seats[100:] == [0, 1, 2, 3]
    assert g.phase == "bury" and g.declarer == 0  # nobody declared: seat 0 [decision]


def test_declaration_strength_order_and_overturn() -> None:
    deal = build_deal(["2h 2h", "2s 2s", "SJ SJ", "BJ BJ 2c"], kitty="3c 4c 5d")
    g = paiju.new_game("shengji", seed=1, deal=deal)
    assert g.to_act == 0 and [str(a) for a in g.legal_actions()] == ["no", "declare 2h"]
    g.apply("declare 2h")
    assert [str(a) for a in g.legal_actions()] == ["no"]  # seat 1: a single 2s is not stronger
    g.apply("no")
    g.apply("no")  # seat 2: one SJ declares nothing
    g.apply("no")
    # second round: seat 0 may reinforce with the pair; a pair of 2s from seat 1 overturns
    assert [str(a) for a in g.legal_actions()] == ["no", "declare 2h 2h"]
    g.apply("no")
    assert "declare 2s 2s" in [str(a) for a in g.legal_actions()]
    g.apply("declare 2s 2s")
    assert [str(a) for a in g.legal_actions()] == ["no", "declare SJ SJ"]
    with pytest.raises(IllegalAction, match="single joker"):
        g.apply("declare SJ")
    g.apply("declare SJ SJ")
    assert [str(a) for a in g.legal_actions()] == ["no", "declare BJ BJ"]
    g.apply("declare BJ BJ")
    while g.phase == "deal":
        g.apply("no")
    assert g.declarer == 3 and g.trump_suit is None
    assert [d["seat"] for d in g.view(0)["declarations"]] == [0, 1, 2, 3]


def test_self_overturn_by_default_and_not_in_competition_play() -> None:
    """自反 on by default (revised, seeds 000 and 003: 反无主 / 自保 / 反主 / 自反 …
    以上后三条以先出现者为准); ``self_overturn=False`` is the competition rulebook's
    自已叫主后本人不能再翻主. Reinforcing 自保 is allowed either way."""
    deal = build_deal(["2h 2s 2s 2h"], kitty="3c 4c 5d")
    g = paiju.new_game("shengji", seed=1, deal=deal)
    assert g.options["self_overturn"] is True
    g.apply("declare 2h")
    for _ in range(7):
        g.apply("no")
    # seat 0 declared with one 2h and holds 2s 2s: he may overturn himself
    assert [str(a) for a in g.legal_actions()] == ["no", "declare 2s 2s"]
    g.apply("declare 2s 2s")
    while g.phase == "deal":
        g.apply("no")
    assert g.trump_suit == "s" and g.declarer == 0
    strict = paiju.new_game("shengji", seed=1, deal=deal, self_overturn=False)
    strict.apply("declare 2h")
    for _ in range(7):
        strict.apply("no")
    assert [str(a) for a in strict.legal_actions()] == ["no"]
    with pytest.raises(IllegalAction, match="自反"):
        strict.apply("declare 2s 2s")
    for _ in range(4):
        strict.apply("no")
    assert [str(a) for a in strict.legal_actions()] == ["no", "declare 2h 2h"]  # reinforce 自保


def test_overturn_changes_declarer_option() -> None:
    deal = build_deal(["2h", "2s 2s"], kitty="3c 4c 5d")
    for changes, declarer in ((True, 1), (False, 0)):
        g = paiju.new_game("shengji", seed=1, deal=deal, overturn_changes_declarer=changes)
        g.apply("declare 2h")
        for _ in range(4):
            g.apply("no")
        g.apply("declare 2s 2s")
        while g.phase == "deal":
            g.apply("no")
        assert g.declarer == declarer and g.trump_suit == "s"


@pytest.mark.parametrize(
    "rule,trump,card",
    [("kitty_card:3", "d", "5d"), ("kitty_card:1", "c", "3c"), ("kitty_card:4", "s", "6s"), ("no_trump", None, None)],
)
def test_no_bid_rules(rule: str, trump: str | None, card: str | None) -> None:
    """Nobody declared: the 3rd kitty card's suit (seed 000), the 1st (seed 003 rule 七),
    the 4th (seed 003 3.1.3: 也有许多地方实行翻第4张) or no-trump."""
    deal = build_deal([], kitty="3c 4h 5d 6s")
    g = paiju.new_game("shengji", seed=1, deal=deal, no_bid=rule)
    while g.phase == "deal":
        g.apply("no")
    assert g.trump_suit == trump and g.declarer == 0
    assert g.view(2)["revealed_kitty_card"] == card


def test_joker_in_kitty_means_no_trump() -> None:
    g = paiju.new_game("shengji", seed=1, deal=build_deal(["", "", "", ""], kitty="3c 4h BJ"))
    while g.phase == "deal":
        g.apply("no")
    assert g.trump_suit is None


# ---------------------------------------------------------------------------- burying, following in the engine
def follow_game() -> paiju.Game:
    seat1 = "Ah 9h 9h " + " ".join(["3c", "4c", "6c", "7c", "8c", "9c", "Jc", "Qc", "Kc", "Ac", "3d"] * 2)
    deal = build_deal(["8h 8h 7s", seat1, "", ""], kitty="3s 4s 5s")
    g = paiju.new_game("shengji", seed=1, deal=deal, start_level="T")
    to_play(g)
    return g


def test_bury_is_one_card_per_decision_and_kitty_size() -> None:
    g = paiju.new_game("shengji", seed=5)
    while g.phase == "deal":
        g.apply("no")
    assert len(g.hand(g.to_act)) == 33
    legal = g.legal_actions()
    assert all(str(a).startswith("bury ") for a in legal)
    with pytest.raises(IllegalAction):
        g.apply("bury 2h 3h")
    for _ in range(8):
        g.apply(g.legal_actions()[0])
    assert g.phase == "play" and len(g.hand(g.declarer)) == 25


def test_follow_messages_name_the_rule() -> None:
    g = follow_game()
    assert g.trump_suit == "s" and g.to_act == 0
    g.apply("8h 8h")
    assert g.to_act == 1
    with pytest.raises(IllegalAction, match="you hold a pair of hearts: you must follow the pair"):
        g.apply("Ah 9h")
    with pytest.raises(IllegalAction, match="you still hold hearts"):
        g.apply("Ah 3c")
    with pytest.raises(IllegalAction, match="lead has 2"):
        g.apply("9h")
    with pytest.raises(IllegalAction, match="you do not hold 2 × Kh"):
        g.apply("Kh Kh")
    with pytest.raises(IllegalAction, match="you do not hold Qh$"):
        g.apply("Ah Qh")
    assert [str(a) for a in g.legal_actions()] == ["9h 9h"]
    g.apply("9h 9h")


def test_illegal_input_leaves_the_game_unchanged() -> None:
    g = follow_game()
    g.apply("8h 8h")
    before = (g.record(), g.view(1), g.view(None))
    for bad in ("Ah 9h", "Ah 3c", "9h", "no", "declare 2h", "bury 3c", "", "Xy", "Kh Kh", 5):
        with pytest.raises(IllegalAction):
            g.apply(bad)  # type: ignore[arg-type]
    assert (g.record(), g.view(1), g.view(None)) == before


def test_lead_mixing_suits_is_refused() -> None:
    g = follow_game()
    with pytest.raises(IllegalAction, match="mixes"):
        g.apply("8h 7s")


def test_failed_throw_in_the_engine_plays_the_smallest_unit() -> None:
    # seat 0 throws Kh 8h 8h: seat 1's Ah beats the K, nobody holds a heart pair above 8
    seat1 = "Ah 9h 3h " + " ".join(["3c", "4c", "6c", "7c", "8c", "9c", "Jc", "Qc", "Kc", "Ac", "3d"] * 2)
    deal = build_deal(["8h 8h Kh", seat1, "", ""], kitty="3s 4s 5s", prefer={0: "h"})
    g = paiju.new_game("shengji", seed=1, deal=deal, start_level="T", throw_penalty=10)
    to_play(g)
    for s in (2, 3):
        assert not [c for c in g.hand(s) if c.suit == "h" and c.rank > 8], g.hand(s)
    g.apply("Kh 8h 8h")
    v = g.view(2)
    assert v["trick"] == [{"seat": 0, "cards": "Kh"}] and v["failed_throw"] == "Kh 8h 8h"
    assert len(g.hand(0)) == 24 and g.hand(0).count(paiju.Card.parse("8h")) == 2
    assert g.penalty_points == 10  # the declarer's throw failed: 10 points to the defenders
    assert len(g.legal_actions()) == 3  # seat 1 follows with one heart: Ah, 9h or 3h


# ---------------------------------------------------------------------------- scoring in the engine
def test_hosted_playout_scores_and_views() -> None:
    g = paiju.new_game("shengji", seed=11)
    while not g.is_over:
        g.apply(paiju.shengji.hosted_action(g))
    r = g.result
    assert r is not None and sum(g.scores) == 0
    v = g.view(1)
    assert v["kitty"] and v["result"]["kitty_multiplier"] in (1, 2, 4, 8, 16, 32)
    pts = sum(t["points"] for t in g.tricks if t["winner"] % 2 != g.declarer % 2)
    assert r["trick_points"] == pts


def test_match_levels_declarer_and_win_at_a() -> None:
    m = paiju.new_match("shengji", seed=4)
    g = m.game
    while not g.is_over:
        g.apply(paiju.shengji.hosted_action(g))
    r = g.result
    nxt = m.next_hand()
    assert nxt.declarer == r["next_declarer"]
    assert [x for x in nxt.view(0)["team_levels"]] == r["team_levels"]
    # a hand where the declarers are at A and hold wins the match
    g2 = paiju.new_game("shengji", seed=2, team_levels=["A", "5"], declarer=0)
    while not g2.is_over:
        g2.apply(paiju.shengji.hosted_action(g2))
    if g2.result["declarers_hold"]:
        assert g2.match_over
        with pytest.raises(IllegalAction, match="match is over"):
            g2.next_hand_options()


def jack_hand(prefix: list[str], kitty: str, level: str, **options: object) -> paiju.Game:
    """A one-pack hand declarer 0 plays at ``level`` (team 1+3 at 4, or at 5 under a ladder),
    trump the suit of the first kitty card, the kitty buried back, played out 托管 to the end."""
    deal = build_deal(prefix, kitty=kitty, decks=1)
    other = "5" if "levels" in options else "4"
    opts = dict(decks=1, team_levels=[level, other], declarer=0, no_bid="kitty_card:1", **options)
    g = paiju.new_game("shengji", seed=1, deal=deal, **opts)
    to_play(g)
    while not g.is_over:
        g.apply(paiju.shengji.hosted_action(g))
    return g


def last_trick(g: paiju.Game) -> tuple[int, str]:
    """The winner of the hand's last trick and the cards he won it with."""
    t = g.tricks[-1]
    return t["winner"], next(p["cards"] for p in t["plays"] if p["seat"] == t["winner"])


@pytest.mark.parametrize("levels", [None, "2,5,T,J,Q,K,A"])
def test_jack_reset_sends_the_declarers_at_j_back_to_2(levels: str | None) -> None:
    """§2 ``jack_reset``: declarers playing level J whose defenders win the last trick with a
    J fall back to 2 (docs/decisions.md: the defenders' winning last play contains a level J)."""
    ladder = {} if levels is None else {"levels": levels}
    on = jack_hand(["", "Js"], "3s BJ SJ", "J", jack_reset=True, **ladder)
    off = jack_hand(["", "Js"], "3s BJ SJ", "J", jack_reset=False, **ladder)
    assert [t["plays"] for t in on.tricks] == [t["plays"] for t in off.tricks]  # one hand, two rooms
    assert on.level == 11 and last_trick(on) == (3, "Jh")  # a defender takes the last trick with a J
    assert on.result["jack_reset"] is True and off.result["jack_reset"] is False
    assert on.result["team_levels"][0] == "2" and off.result["team_levels"][0] == "J"
    assert on.result["team_levels"][1] == off.result["team_levels"][1]  # the defenders' climb is the same
    assert on.next_hand_options()["team_levels"][0] == "2"  # the match carries the reset on


@pytest.mark.parametrize(
    "prefix,kitty,level,winner,cards,levels",
    [
        (["Js Jh Jd Jc"], "3s BJ SJ", "J", 3, "Ts", ["J", "5"]),  # the defenders win the last trick without a J
        (["", "", "Js Jh Jd Jc"], "3s BJ SJ", "J", 2, "Js", ["J", "4"]),  # the declarers win it with a J
        (["", "Js Jh"], "3d BJ SJ", "Q", 1, "Jd", ["Q", "7"]),  # a defender's J, but the declarers play Q
    ],
)
def test_jack_reset_needs_level_j_and_the_defenders_last_trick_with_a_j(
    prefix: list[str], kitty: str, level: str, winner: int, cards: str, levels: list[str]
) -> None:
    g = jack_hand(prefix, kitty, level, jack_reset=True)
    assert last_trick(g) == (winner, cards)
    assert g.result["jack_reset"] is False and g.result["team_levels"] == levels


def test_option_validation() -> None:
    with pytest.raises(IllegalAction):
        paiju.new_game("shengji", decks=4)
    with pytest.raises(IllegalAction):
        paiju.new_game("shengji", no_bid="dealer")
    with pytest.raises(IllegalAction, match="three packs"):
        paiju.new_game("shengji", decks=2, triples=True)
    with pytest.raises(IllegalAction):
        paiju.new_game("shengji", bogus=1)
    g = paiju.new_game("shengji", levels="2,5,T,J,Q,K,A", start_level="2")
    assert g.options["levels"] == "2,5,T,J,Q,K,A"


# ---------------------------------------------------------------------------- declare_with_joker (§4)
def test_declare_with_joker_needs_a_joker_and_a_level_card() -> None:
    deal = build_deal(["7h SJ", "7s 7s", "7d BJ 7d", "BJ 7c"], kitty="3c 4c 5d")
    g = paiju.new_game("shengji", seed=1, deal=deal, declare_with_joker=True, start_level="7")
    # seat 0 holds 7h only: a level card alone declares nothing
    assert [str(a) for a in g.legal_actions()] == ["no"]
    with pytest.raises(IllegalAction, match="joker plus level cards"):
        g.apply("declare 7h")
    g.apply("no")
    assert [str(a) for a in g.legal_actions()] == ["no"]  # seat 1: 7s, no joker
    g.apply("no")
    assert [str(a) for a in g.legal_actions()] == ["no"]  # seat 2: 7d, no joker yet
    g.apply("no")
    assert [str(a) for a in g.legal_actions()] == ["no"]  # seat 3: BJ, no level card yet
    g.apply("no")
    # seat 0 now holds 7h SJ: a joker plus a level card declares
    assert [str(a) for a in g.legal_actions()] == ["no", "declare SJ 7h"]
    g.apply("declare 7h SJ")  # written in any order
    assert g.declaration is not None and g.declaration.suit == "h" and g.declaration.strength == 1
    assert g.view(1)["declaration"] == {"seat": 0, "cards": "SJ 7h"}
    g.apply("no")
    # seat 2 holds 7d BJ (and a second 7d comes later): a joker and ONE level card does not overturn
    assert [str(a) for a in g.legal_actions()] == ["no"]
    with pytest.raises(IllegalAction, match="nothing that beats"):
        g.apply("declare BJ 7d")
    g.apply("no")
    g.apply("no")
    g.apply("no")
    g.apply("no")
    # seat 2 now holds BJ 7d 7d: a joker plus two level cards of one suit overturns
    assert [str(a) for a in g.legal_actions()] == ["no", "declare BJ 7d 7d"]
    with pytest.raises(IllegalAction, match="joker plus level cards"):
        g.apply("declare 7d 7d")  # a pair of level cards without a joker is no declaration here
    g.apply("declare BJ 7d 7d")
    assert g.declaration is not None and g.declaration.suit == "d" and g.declaration.strength == 2
    while g.phase == "deal":
        g.apply("no")
    assert g.trump_suit == "d" and g.declarer == 2


def test_declare_with_joker_overturn_with_identical_jokers() -> None:
    deal = build_deal(["SJ 7h", "BJ BJ"], kitty="3c 4c 5d")
    g = paiju.new_game("shengji", seed=1, deal=deal, declare_with_joker=True, start_level="7")
    assert [str(a) for a in g.legal_actions()] == ["no"]
    with pytest.raises(IllegalAction, match="single joker"):
        g.apply("declare SJ")
    g.apply("no")
    assert [str(a) for a in g.legal_actions()] == ["no"]  # seat 1: one BJ so far
    for _ in range(3):
        g.apply("no")
    g.apply("declare SJ 7h")
    assert [str(a) for a in g.legal_actions()] == ["no", "declare BJ BJ"]  # two identical jokers overturn
    g.apply("declare BJ BJ")
    while g.phase == "deal":
        g.apply("no")
    assert g.trump_suit is None and g.declarer == 1


def test_declare_with_joker_reinforce_and_either_joker() -> None:
    deal = build_deal(["SJ 7h 7h BJ"], kitty="3c 4c 5d")
    g = paiju.new_game("shengji", seed=1, deal=deal, declare_with_joker=True, start_level="7")
    g.apply("no")
    for _ in range(3):
        g.apply("no")
    assert [str(a) for a in g.legal_actions()] == ["no", "declare SJ 7h"]
    g.apply("declare SJ 7h")
    for _ in range(3):
        g.apply("no")
    # seat 0: SJ 7h 7h — reinforce 自保 with the joker and the pair
    assert [str(a) for a in g.legal_actions()] == ["no", "declare SJ 7h 7h"]
    for _ in range(4):
        g.apply("no")
    # with BJ too, either joker may be shown ([decision]); the pair of BJ/SJ is not identical
    assert [str(a) for a in g.legal_actions()] == ["no", "declare BJ 7h 7h", "declare SJ 7h 7h"]
    with pytest.raises(IllegalAction, match="one joker plus level cards"):
        g.apply("declare BJ SJ 7h 7h")
    g.apply("declare BJ 7h 7h")
    assert g.declaration is not None and g.declaration.strength == 2 and g.declaration.seat == 0
