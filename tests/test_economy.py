"""The integrity of the bean economy (issue 28, item 6), without a running hall: the most one
hand can cost (paiju.stakes) against the engines' own scoring and random play, the house's
payments capped (paiju.beans.cap_house_winnings, settlement.finish_tx), the start beans after
N scored hands, registrations per address, and ``paiju admin audit`` on a real store."""

from __future__ import annotations

import itertools
import random
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import func, insert, select, update
from typer.testing import CliRunner

import paiju
from baohuang_property_helpers import rooms
from paiju.baohuang.scoring import hand_scores, tribute_count, tribute_plan
from paiju.beans import cap_house_winnings, settle
from paiju.cli import app
from paiju.errors import IllegalAction
from paiju.server.accounts import settlement
from paiju.server.accounts import users as accounts
from paiju.server.accounts.audit import audit_tx, farming_signals
from paiju.server.accounts.settlement import BeanSettings
from paiju.server.store import db
from paiju.server.store.db import Store, ledger, players
from paiju.stakes import SHENGJI_MAX_LEVELS, bean_scores, max_hand_cost, max_hand_points

runner = CliRunner()


def side_total(scores: list[int] | tuple[int, ...]) -> int:
    """What the payers of a hand lose together: the sum of the positive scores."""
    return sum(s for s in scores if s > 0)


# ---------------------------------------------------------------------- the most one hand can cost
def test_the_bound_of_each_game_with_its_default_options_and_presets() -> None:
    assert [max_hand_points(g, {}) for g in ("baohuang", "shengji", "shuangkou")] == [24, 24, 6]
    got = {v: max_hand_points("baohuang", {"variant": v}) for v in ("standard", "classic", "weihai", "qingdao")}
    assert got == {"standard": 24, "classic": 24, "weihai": 48, "qingdao": 432}
    assert max_hand_points("shengji", {"decks": 1}) == 12  # one pack: no pairs, the kitty bonus ×2
    assert max_hand_points("shuangkou", {"points_double": 5, "points_level": 7}) == 14
    assert max_hand_cost("baohuang", {"variant": "qingdao"}, {"bean_multiplier": 100, "table_multiplier": 4}) == 172800
    assert max_hand_cost("shuangkou", {}, {}) == 6  # ×1 ×1 by default


def test_bad_input_gets_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no bean bound"):
        max_hand_points("mahjong", {})
    with pytest.raises(IllegalAction):
        max_hand_points("shengji", {"decks": 7})
    with pytest.raises(ValueError, match="positive"):
        max_hand_cost("baohuang", {}, {"bean_multiplier": 0})


@pytest.mark.parametrize("variant", ["standard", "classic", "weihai", "qingdao"])
@pytest.mark.parametrize("kick", [False, True])
@pytest.mark.parametrize("tribute", [False, True])
def test_the_baohuang_bound_is_the_largest_score_the_scoring_can_give(variant: str, kick: bool, tribute: bool) -> None:
    """Every result hand_scores can give under the options (places, solos, 明保 or a standing
    rebellion, a kick after either, this hand's tribute): the largest side total is the bound."""
    options = {"variant": variant, "kick": kick, "tribute": tribute}
    rebellion = paiju.new_game("baohuang", seed=0, **options).options["rebellion"]
    best = 0
    for order in itertools.permutations(range(5)):
        place = {s: i + 1 for i, s in enumerate(order)}
        for guard in (None, 1):
            cards = tribute_count(tribute_plan(0, guard, list(order))) if tribute else 0
            if guard is None:
                cases = [("open", False, False, 0)] + [
                    ("hidden", False, r, k) for r in {False, rebellion} for k in ({0, 1} if r and kick else {0})
                ]
            else:
                declared = [(True, False), *([(False, True)] if rebellion else []), (False, False)]
                cases = [(None, o, r, k) for o, r in declared for k in ({0, 1} if (o or r) and kick else {0})]
            for solo, open_guard, rebel, kicks in cases:
                res = hand_scores(
                    place[0], None if guard is None else place[guard], solo=solo, open_guard=open_guard,
                    rebellion=rebel, kicks=kicks, tribute_cards=cards,
                )  # fmt: skip
                scores = [
                    res["emperor"],
                    res["guard"] if guard else res["rebel"],
                    res["rebel"],
                    res["rebel"],
                    res["rebel"],
                ]
                best = max(best, side_total(scores))
    assert max_hand_points("baohuang", options) == best


def test_the_lowest_stakes_are_within_one_relief() -> None:
    """A broke account that claims relief (500) can always sit at a ×1 ×1 room again."""
    relief = BeanSettings().relief
    cases = [("baohuang", {"variant": v}) for v in ("standard", "classic", "weihai", "qingdao")]
    cases += [("baohuang", {"variant": "qingdao", "tribute": True, "kick": True})]
    cases += [("shengji", {"decks": d, "kitty_multiplier": k}) for d in (1, 2, 3) for k in ("pairs_power", "unit_size")]
    cases += [("shuangkou", {})]
    assert max(max_hand_cost(g, o, {}) for g, o in cases) < relief


def test_shengji_counts_at_most_the_whole_ladder_for_beans() -> None:
    assert bean_scores("shengji", [30, -30, 30, -30]) == [SHENGJI_MAX_LEVELS, -12, 12, -12]
    assert bean_scores("shuangkou", [30, -30, 30, -30]) == [30, -30, 30, -30]
    assert max_hand_points("shengji", {"decks": 2}) == 2 * SHENGJI_MAX_LEVELS


def _random_hand(game: str, options: dict[str, Any], seed: int) -> Any:
    """A hand played at random to the end; Baohuang's declarations lean to the costly ones."""
    rng = random.Random(seed)
    g = paiju.new_game(game, seed=seed, **options)
    while not g.is_over:
        legal = list(g.legal_actions())
        costly = [a for a in legal if str(a).split()[0] in ("reveal", "rebel", "kick", "open_solo")]
        g.apply(rng.choice(costly) if costly and rng.random() < 0.7 else rng.choice(legal))
    return g


@settings(max_examples=40, deadline=None)
@given(rooms(tribute_due=False), st.integers(0, 2**32))
def test_no_random_baohuang_hand_costs_more_than_the_bound(options: dict[str, Any], seed: int) -> None:
    g = _random_hand("baohuang", options, seed)
    assert side_total(bean_scores("baohuang", g.scores)) <= max_hand_points("baohuang", options)


@settings(max_examples=25, deadline=None)
@given(
    st.fixed_dictionaries(
        {
            "decks": st.sampled_from([1, 2]),
            "kitty_multiplier": st.sampled_from(["pairs_power", "unit_size", "competition"]),
            "level_table": st.sampled_from(["default", "competition"]),
            "throw_penalty": st.integers(0, 20),
        }
    ),
    st.integers(0, 2**32),
)
def test_no_random_shengji_hand_costs_more_than_the_bound(options: dict[str, Any], seed: int) -> None:
    g = _random_hand("shengji", options, seed)
    assert side_total(bean_scores("shengji", g.scores)) <= max_hand_points("shengji", options)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9), st.integers(0, 2**32))
def test_no_random_shuangkou_hand_costs_more_than_the_bound(d: int, s: int, lv: int, seed: int) -> None:
    options = {"points_double": d, "points_single": s, "points_level": lv}
    g = _random_hand("shuangkou", options, seed)
    assert side_total(g.scores) <= max_hand_points("shuangkou", options)


# ---------------------------------------------------------------------- the house pays no more than one could lose
@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_house_never_pays_a_person_more_than_he_could_lose(data: st.DataObject) -> None:
    n = data.draw(st.integers(2, 5))
    scores = data.draw(st.lists(st.integers(-20, 20), min_size=n, max_size=n))
    house = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    limits = [None if h else data.draw(st.integers(0, 300)) for h in house]
    beans = settle(scores, room_multiplier=data.draw(st.sampled_from([1, 10])), balances=limits)
    got = cap_house_winnings(beans, house, limits)
    assert sum(got) == 0
    paid, by_house = -sum(b for b in beans if b < 0), -sum(b for b, h in zip(beans, house) if b < 0 and h)
    for i in range(n):
        if house[i] and beans[i] < 0:
            assert beans[i] <= got[i] <= 0  # the house pays less, never more
            continue
        if house[i] or beans[i] <= 0:
            assert got[i] == beans[i]
            continue
        people = beans[i] * (paid - by_house) / paid if paid else 0
        assert got[i] <= max(limits[i] or 0, 0) + people + 1  # the house's part at most the limit (±1 rounding)
        assert 0 <= got[i] <= beans[i]
    if not any(house):
        assert got == beans


def test_bad_input_to_the_cap_changes_nothing() -> None:
    with pytest.raises(ValueError, match="sum"):
        cap_house_winnings([5, -4], [False, True], [1, None])
    with pytest.raises(ValueError, match="one entry per seat"):
        cap_house_winnings([5, -5], [False], [1, None])


def make_account(store: Store, name: str, beans: int) -> int:
    p = store.create_player(name)
    with store.engine.begin() as c:
        accounts.register_tx(c, name.lower(), "not-a-real-hash", name, p["id"], beans)
    return int(p["id"])


def hand_row(store: Store, game: Any, name: str = "baohuang") -> int:
    room = store.create_room("r", name, {}, 30.0, game.num_players, None)
    return store.start_hand(room["id"], 1, game.seed, {}, room["seats"])


def won_by_seat_0(game: str) -> Any:
    for seed in range(200):
        g = _random_hand(game, {}, seed)
        if g.scores[0] > 0:
            return g
    raise AssertionError("no hand won by seat 0")


def test_a_broke_account_against_bots_wins_no_more_than_it_could_lose(tmp_path: Path) -> None:
    """The issue's freeroll: 0 … 10 beans at ×100 ×4 with an own ×4 against computer players."""
    store = Store(f"sqlite:///{tmp_path / 'h.db'}", checkpoints=False)
    try:
        poor = make_account(store, "Poor", 10)
        g = won_by_seat_0("shuangkou")
        with store.engine.begin() as c:
            got = settlement.finish_tx(
                c, hand_id=hand_row(store, g, "shuangkou"), game_name="shuangkou", game=g,
                seat_players=[poor, None, None, None], scored=True, own=[4, 1, 1, 1],
                room_options={"bean_multiplier": 100, "table_multiplier": 4},
            )  # fmt: skip
        assert got["beans"][0] == 10 and got["balances"] == {poor: 20}
        with store.engine.connect() as c:
            assert c.execute(select(func.sum(ledger.c.amount)).where(ledger.c.kind != "start")).scalar_one() == 0
    finally:
        store.close()


# ---------------------------------------------------------------------- start beans after N scored hands
def test_start_beans_come_at_the_end_of_the_nth_scored_hand(tmp_path: Path) -> None:
    rules = BeanSettings(start=1000, start_after_hands=3)
    store = Store(f"sqlite:///{tmp_path / 'h.db'}", checkpoints=False)
    try:
        p = store.create_player("Fresh")
        with store.engine.begin() as c:
            accounts.register_tx(c, "fresh", "x", "Fresh", p["id"], 1000, start_after_hands=3)
        pid = int(p["id"])
        assert store.read(settlement.purse_tx, pid, rules) == {"beans": 0, "relief_due": False, "start_pending": 3}
        with store.engine.begin() as c:
            assert settlement.claim_relief_tx(c, pid, rules) is None  # no relief before the grant
        g = won_by_seat_0("shuangkou")
        for n, scored in enumerate([True, False, True, True], 1):
            with store.engine.begin() as c:
                got = settlement.finish_tx(
                    c, hand_id=hand_row(store, g, "shuangkou"), game_name="shuangkou", game=g,
                    seat_players=[pid, None, None, None], scored=scored, own=[1] * 4,
                    room_options={}, settings=rules,
                )  # fmt: skip
            assert got["beans"][0] == 0  # no beans at stake yet: the house stands in for it
            pending = store.read(settlement.purse_tx, pid, rules)["start_pending"]
            assert pending == {1: 2, 2: 2, 3: 1, 4: 0}[n]  # an unscored hand does not count
        assert got["balances"] == {pid: 1000}
        assert store.read(settlement.purse_tx, pid, rules)["beans"] == 1000
        with store.engine.begin() as c:  # the next hand is played for beans
            got = settlement.finish_tx(
                c, hand_id=hand_row(store, g, "shuangkou"), game_name="shuangkou", game=g,
                seat_players=[pid, None, None, None], scored=True, own=[1] * 4, room_options={}, settings=rules,
            )  # fmt: skip
        assert got["beans"][0] > 0
        with store.engine.connect() as c:
            assert c.execute(select(func.count()).where(ledger.c.kind == "start")).scalar_one() == 1
    finally:
        store.close()


def test_a_guests_hands_count_when_it_registers(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'h.db'}", checkpoints=False)
    try:
        guest = int(store.create_player("Old guest")["id"])
        g = won_by_seat_0("shuangkou")
        for _ in range(3):
            with store.engine.begin() as c:
                settlement.finish_tx(
                    c, hand_id=hand_row(store, g, "shuangkou"), game_name="shuangkou", game=g,
                    seat_players=[guest, None, None, None], scored=True, own=[1] * 4, room_options={},
                )  # fmt: skip
        with store.engine.begin() as c:
            accounts.register_tx(c, "oldguest", "x", "Old guest", guest, 1000, start_after_hands=3)
        assert store.read(settlement.purse_tx, guest, BeanSettings())["start_pending"] == 0
        assert store.read(db.balance_tx, guest) == 1000
    finally:
        store.close()


# ---------------------------------------------------------------------- registrations per address
def test_registrations_per_address_are_counted_in_the_store(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'h.db'}", checkpoints=False)
    try:

        def reg(name: str, address: str) -> dict[str, Any] | None:
            with store.engine.begin() as c:
                return accounts.register_tx(c, name, "x", name, None, 1000, address=address, per_hour=2)

        assert reg("a1", "10.0.0.1") and reg("a2", "10.0.0.1")
        assert reg("a3", "10.0.0.1") == {"too_many": 2}
        assert reg("b1", "10.0.0.2") is not None  # another address
        with store.engine.connect() as c:
            assert (
                c.execute(select(func.count()).where(players.c.username == "a3")).scalar_one() == 0
            )  # nothing written
        with store.engine.begin() as c:  # an hour later the first two no longer count
            old = db.now() - timedelta(hours=1, seconds=1)
            c.execute(update(players).where(players.c.registered_from == "10.0.0.1").values(registered_at=old))
        assert reg("a3", "10.0.0.1") is not None
        assert store.read(accounts.registrations_tx, "10.0.0.1") == 1
    finally:
        store.close()


# ---------------------------------------------------------------------- paiju admin audit
def test_the_farming_signal_is_the_share_of_losses_gone_to_one_account() -> None:
    feed = [[(1, -100), (2, 100)]] * 4 + [[(1, -100), (3, 100)]]
    assert farming_signals(feed, share=0.8, min_lost=100)[0].receiver == 2
    assert farming_signals(feed, share=0.81, min_lost=100) == []  # 80 % exactly
    assert farming_signals(feed, share=0.8, min_lost=501) == []  # too little lost to say
    with pytest.raises(ValueError):
        farming_signals(feed, share=0)


def test_admin_audit_on_a_real_store(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    store = Store(url, checkpoints=False)
    try:
        main, mule, other = (make_account(store, n, 1000) for n in ("Main", "Mule", "Other"))
        g = won_by_seat_0("shuangkou")
        for seats in [[main, mule, None, None]] * 8 + [[other, None, None, mule]]:
            with store.engine.begin() as c:
                settlement.finish_tx(
                    c, hand_id=hand_row(store, g, "shuangkou"), game_name="shuangkou", game=g, seat_players=seats,
                    scored=True, own=[1] * 4, room_options={"bean_multiplier": 20},
                )  # fmt: skip
        assert store.read(audit_tx).problems == []
        result = runner.invoke(app, ["admin", "audit", "--db", url])
        assert result.exit_code == 0, result.output
        assert "mule (#2)" in result.output and "main (#1)" in result.output and "1 farming signal" in result.output
        report = store.read(audit_tx)
        assert [(s.loser, s.receiver) for s in report.signals] == [(mule, main)]
        with store.engine.begin() as c:  # planted: an unbalanced hand, a second start grant, a debt
            hid = hand_row(store, g, "shuangkou")
            c.execute(insert(ledger).values(player_id=other, amount=5, kind="hand", hand_id=hid, created_at=db.now()))
            settlement.add_beans_tx(c, main, 1000, "start")
            settlement.add_beans_tx(c, other, -5000, "grant")
        result = runner.invoke(app, ["admin", "audit", "--db", url])
        assert result.exit_code == 1
        assert f"hand {hid}: its ledger rows sum to 5" in result.output
        assert "main (#1): start beans granted 2 times" in result.output
        assert "other (#3): balance" in result.output
        assert {p.what for p in store.read(audit_tx).problems} == {"unbalanced_hand", "start_twice", "negative_balance"}
    finally:
        store.close()
