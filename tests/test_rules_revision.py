"""The rules revision of December 2026 (``docs/rules/*.md``, "revised"), point by point
from the seed sentences the specs quote, and old records replaying as they were played.

The 自反 default and ``no_bid="kitty_card:4"`` are tested with the other declaration
rules in ``test_shengji_rules_engine.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import paiju
from baohuang_helpers import apply_all, assert_illegal, legal, new
from paiju.cards import Card
from paiju.shengji.scoring import last_trick_multiplier
from paiju.shengji.trump import ids_of, rank_of_text, trump_order

RECORDS_V1 = Path(__file__).parent / "data" / "records_v1"


# ---------------------------------------------------------------------------- Shengji kitty multiplier
def is_trump(card: Card, g: Any) -> bool:
    """Jokers, the level rank and the trump suit (the default options: no 2 常主)."""
    return card.is_joker or card.rank == rank_of_text(g.view(None)["level"]) or card.suit == g.trump_suit


def test_the_kitty_multiplier_follows_the_winning_play() -> None:
    """Seed 003 answer 9: 如果是副牌胜出…乘以一；主牌单张胜出…乘以2；主牌含有对子则乘以4 … —
    over random hands with the default ``pairs_power``: a plain-suit win of the last trick
    by the defenders doubles nothing, a trump single ×2, a trump play with pairs ×4 or more."""
    seen = {"plain": 0, "trump single": 0, "trump pairs": 0}
    for seed in range(300):
        rng = random.Random(seed)
        g = paiju.new_game("shengji", seed=seed)
        while not g.is_over:
            g.apply(rng.choice(list(g.legal_actions())))
        r = g.result
        last = g.tricks[-1]
        if r["kitty_bonus"] == 0 and last["winner"] % 2 == g.declarer % 2:
            continue  # the declarers won the last trick: no bonus at all
        cards = paiju.cards.parse_cards(next(p["cards"] for p in last["plays"] if p["seat"] == last["winner"]))
        if not all(is_trump(c, g) for c in cards):
            assert r["kitty_multiplier"] == 1, (seed, cards)
            seen["plain"] += 1
        elif len(cards) == 1 or len(set(cards)) == len(cards):
            assert r["kitty_multiplier"] == 2, (seed, cards)
            seen["trump single"] += 1
        else:
            assert r["kitty_multiplier"] >= 4, (seed, cards)
            seen["trump pairs"] += 1
        assert r["kitty_bonus"] == r["kitty_points"] * r["kitty_multiplier"]
    assert seen["plain"] and seen["trump single"], seen  # both cases were met


def test_the_winning_plays_own_largest_unit_counts() -> None:
    """Revised: the unit counted is the winning play's, not the lead's — a trump tractor that
    ruffs a throw of two separate pairs is ×8; version 1 counted the lead's pair (×4)."""
    t = trump_order("h", 2)
    ruff = ids_of("5h 5h 6h 6h")  # hearts trump: a 2-pair tractor
    assert last_trick_multiplier("pairs_power", (1, 2), True, ruff, t) == 8
    assert last_trick_multiplier("pairs_power_lead", (1, 2), True, ruff, t) == 4
    assert last_trick_multiplier("pairs_power", (1, 2), True, ids_of("5h 5h 9h 9h"), t) == 4  # two pairs
    assert last_trick_multiplier("pairs_power", (1, 2), False, ids_of("As As"), t) == 1  # plain suit
    assert last_trick_multiplier("unit_size", (1, 2), True, ruff, t) == 4  # unit_size stays on the lead


def test_a_version_1_record_keeps_its_doubled_kitty_and_today_gives_one() -> None:
    """The plain-suit single ``Qh`` won the last trick: version 1's ``pairs_power`` doubled
    the kitty; the same cards and actions under today's rules give ×1."""
    saved = json.loads((RECORDS_V1 / "shengji_plain_last_trick.json").read_text())
    old = paiju.replay(saved["record"])
    assert old.result["kitty_multiplier"] == 2 and old.options["kitty_multiplier"] == "pairs_power_lead"
    today = paiju.replay({**saved["record"], "version": paiju.game.RECORD_VERSION})
    assert today.result["kitty_multiplier"] == 1
    assert today.result["kitty_bonus"] == today.result["kitty_points"]


def test_a_match_begun_under_version_1_goes_on_under_its_rules() -> None:
    """[decision] (paiju.versions): the next hand of a match inherits the hand's options, so a
    match replayed from a version-1 record keeps version 1's meaning; a new match does not."""
    saved = json.loads((RECORDS_V1 / "shengji_plain_last_trick.json").read_text())
    old = paiju.replay(saved["record"])
    assert old.next_hand_options()["kitty_multiplier"] == "pairs_power_lead"
    assert paiju.new_game("shengji", seed=1).options["kitty_multiplier"] == "pairs_power"


# ---------------------------------------------------------------------------- Baohuang Qingdao forced cycle
@pytest.mark.parametrize("variant,exempt", [("qingdao", False), ("classic", True)])
def test_a_suited_four_must_accept_in_the_qingdao_forced_cycle(variant: str, exempt: bool) -> None:
    """Qingdao: 这时候只要手中有三张相同花色相同点数的牌，就必须当皇帝 — a suited four must
    accept too; only the 经典 text says 除非有四张相同花色相同点数的可以选择不打."""
    g = new(["BJ 9", "T", "7c", "Ts Ts Ts Ts", "J"], variant=variant)
    apply_all(g, *["abdicate"] * 5)  # the first cycle: everybody may decline
    apply_all(g, "abdicate", "abdicate")  # the forced cycle: seats 0 and 4 hold no triple
    assert g.to_act == 3
    if exempt:
        assert set(legal(g)) == {"accept", "open_solo", "abdicate"}
    else:
        assert set(legal(g)) == {"accept", "open_solo"}
        assert_illegal(g, "abdicate", "abdicate")
    # the room may choose the other reading
    g = new(["BJ 9", "T", "7c", "Ts Ts Ts Ts", "J"], variant=variant, forced_four_exempts=not exempt)
    apply_all(g, *["abdicate"] * 7)
    assert ("abdicate" in legal(g)) is (not exempt)


# ---------------------------------------------------------------------------- Baohuang places of the unfinished
def finish_order_game(deal: list[str], plays: list[str], **options: Any) -> paiju.Game:
    """Seat 0 accepts (standard: the guard card SJ* in ``deal`` decides the guard), nobody
    declares anything, then ``plays`` are made in turn; a seat that can only pass passes."""
    g = new(deal, **options)
    g.apply("accept")
    while g.phase == "setup":
        g.apply("no")
    for play in plays:
        while legal(g) == ["pass"]:
            g.apply("pass")
        g.apply(play)
    return g


def test_players_left_holding_cards_are_placed_by_their_cards() -> None:
    """§4 (revised): fewer cards, better place; equal counts, the one who would play sooner
    after the last finisher. Emperor 0 and guard 1 go out first and second; seats 2, 3, 4
    keep 3, 1 and 1 cards: 3 and 4 hold one card each, 3 plays sooner after seat 1."""
    deal = ["BJ* 9", "SJ* 8", "3 4 5", "3", "4"]
    g = finish_order_game(deal, ["BJ", "9", "SJ*", "8"])
    assert g.is_over and g.view(None)["finished"] == [0, 1]
    assert g.view(None)["hand_counts"] == [0, 0, 3, 1, 1]
    assert g.view(None)["places"] == [0, 1, 3, 4, 2]
    old = finish_order_game(deal, ["BJ", "9", "SJ*", "8"], unfinished_places="seat")
    assert old.view(None)["places"] == [0, 1, 2, 3, 4]
    assert g.scores == old.scores  # points never need this order


def test_the_qingdao_tribute_is_given_by_the_last_placed() -> None:
    """Emperor side at places (2, 3): "最后被抓一人上贡" — the 大落, the rebel left with the
    most cards (here the one of two with equal counts who plays later), gives the tribute."""
    from paiju.baohuang.scoring import tribute_plan

    # rebels 3 (4 cards) and 2 (1 card) are left: 3 is 大落
    assert tribute_plan(0, 1, [4, 0, 1, 2, 3]) == {"givers": [[3, 1]], "receivers": [[0, 1]]}
    saved = json.loads((RECORDS_V1 / "baohuang_unfinished_tribute.json").read_text())
    today = paiju.replay({**saved["record"], "version": paiju.game.RECORD_VERSION})
    counts, places = today.view(None)["hand_counts"], today.view(None)["places"]
    assert counts[places[3]] <= counts[places[4]] and counts[places[4]] > 0
    assert today.next_tribute["givers"] == [[places[4], 1]]
    assert paiju.replay(saved["record"]).next_tribute["givers"] != today.next_tribute["givers"]


# ---------------------------------------------------------------------------- old records
def _without_new_options(view: dict[str, Any], record: dict[str, Any]) -> dict[str, Any]:
    """A view whose ``options`` are cut to the record's own option names (options added
    since are filled in by the upgrade), with the upgraded values put back as recorded;
    the view fields added since (the over view's ``hands_left`` and ``score_detail``, the
    emperor's ``solo_calls``, Shengji's ``burier``) are left out."""
    out = {k: v for k, v in view.items() if k not in ("hands_left", "score_detail", "solo_calls", "burier")}
    if isinstance(view.get("options"), dict):
        out["options"] = {k: record["options"][k] for k in view["options"] if k in record["options"]}
    return out


@pytest.mark.parametrize("name", sorted(p.name for p in RECORDS_V1.glob("*.json")))
def test_records_of_version_1_replay_as_they_were_played(name: str) -> None:
    """A hand recorded before the revision (its defaults and meanings changed) replays to
    the same scores and the same view for every seat and a spectator."""
    saved = json.loads((RECORDS_V1 / name).read_text())
    assert saved["record"]["version"] == 1
    g = paiju.replay(saved["record"])
    assert g.is_over and list(g.scores) == saved["scores"]
    for who, view in saved["views"].items():
        seat = None if who == "spectator" else int(who)
        now = json.loads(json.dumps(g.view(seat)))
        assert _without_new_options(now, saved["record"]) == view, (name, who)


def test_the_version_1_records_differ_under_todays_rules() -> None:
    """The fixtures matter: read as today's records, each of them changes (or stops replaying)."""
    for path in sorted(RECORDS_V1.glob("*.json")):
        saved = json.loads(path.read_text())
        try:
            today = paiju.replay({**saved["record"], "version": paiju.game.RECORD_VERSION})
        except paiju.IllegalAction:
            continue  # the Qingdao four may no longer decline
        views = {w: json.loads(json.dumps(today.view(None if w == "spectator" else int(w)))) for w in saved["views"]}
        assert {w: _without_new_options(v, saved["record"]) for w, v in views.items()} != saved["views"], path.name


def test_a_record_newer_than_this_paiju_is_refused() -> None:
    g = paiju.new_game("shengji", seed=1)
    with pytest.raises(paiju.IllegalAction, match="version"):
        paiju.replay({**g.record(), "version": paiju.game.RECORD_VERSION + 1})


def test_the_room_form_offers_the_revised_defaults() -> None:
    """The hall's room form (``/api/games``) shows the new defaults and choices, and does not
    offer the values kept for old records."""
    from paiju.server.tables.games_info import games_info

    games = games_info()["games"]
    shengji = {o["name"]: o for o in games["shengji"]["options"]}
    assert shengji["self_overturn"]["default"] is True
    assert "kitty_card:4" in shengji["no_bid"]["choices"]
    assert shengji["kitty_multiplier"]["default"] == "pairs_power"
    assert "pairs_power_lead" not in shengji["kitty_multiplier"]["choices"]
    baohuang = {o["name"]: o for o in games["baohuang"]["options"]}
    assert games["baohuang"]["presets"]["qingdao"]["forced_four_exempts"] is False
    assert games["baohuang"]["presets"]["classic"]["forced_four_exempts"] is True
    assert "forced_four_exempts" in baohuang and "unfinished_places" not in baohuang
