"""The end of a hand in the store (paiju.server.accounts.settlement), on SQLite and — when
PAIJU_TEST_POSTGRES names a server — PostgreSQL: beans, results, ratings, the leave penalty,
relief, and each seat's role and side in every game.

Property: for random finished hands with random seatings (accounts, guests, computer
players), balances and multipliers, the ledger rows of every hand sum to exactly 0 with the
house's, no balance ever goes below 0, an account's balance is the sum of its rows, and
guests and computer players hold nothing.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from sqlalchemy import func, select

import paiju
from paiju.server.accounts import settlement
from paiju.server.accounts import users as accounts
from paiju.server.store.db import Store, ledger, ratings, results
from test_store import db_url  # noqa: F401 - the fixture: SQLite and PostgreSQL


def finished(game: str, seed: int) -> Any:
    g = paiju.new_game(game, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        g.apply(rng.choice(list(g.legal_actions())))
    return g


def make_player(store: Store, name: str, beans: int | None) -> int:
    """A guest (beans None) or an account holding ``beans``."""
    p = store.create_player(name)
    if beans is not None:
        with store.engine.begin() as c:
            accounts.register_tx(c, name.lower(), "not-a-real-hash", name, p["id"], beans)
    return int(p["id"])


def a_hand_row(store: Store, game: Any) -> int:
    room = store.create_room("r", "baohuang", {}, 30.0, game.num_players, None)
    return store.start_hand(room["id"], 1, game.seed, {}, room["seats"])


def balance(store: Store, pid: int) -> int:
    return int(store.read(settlement.balance_tx, pid))


@pytest.mark.parametrize(
    ("game", "expected"),
    [("shengji", {"declarer", "defender"}), ("shuangkou", {"partner"})],
)
def test_roles_and_sides_of_the_partnership_games(game: str, expected: set[str]) -> None:
    g = finished(game, 3)
    role_of = settlement.roles(game, g)
    assert set(role_of) == expected
    assert settlement.sides(game, role_of) == [0, 1, 0, 1]  # partners sit opposite
    if game == "shengji":
        assert role_of[g.declarer] == "declarer" and role_of[(g.declarer + 2) % 4] == "declarer"


def test_baohuang_roles_follow_the_emperor_and_his_guard() -> None:
    for seed in range(30):
        g = finished("baohuang", seed)
        role_of = settlement.roles("baohuang", g)
        assert role_of[g.emperor] == "emperor"
        if g.solo:
            assert role_of.count("rebel") == 4 and "guard" not in role_of
        else:
            assert role_of[g.guard] == "guard" and role_of.count("rebel") == 3
        side = settlement.sides("baohuang", role_of)
        # the sides are the scores' signs: the emperor's side wins or loses together
        scores = g.scores
        for a in range(5):
            for b in range(5):
                if side[a] == side[b] and scores[a] and scores[b]:
                    assert (scores[a] > 0) == (scores[b] > 0)


def test_a_hand_between_two_accounts_a_guest_and_bots(db_url: str) -> None:  # noqa: F811
    store = Store(db_url, checkpoints=False)
    try:
        g = finished("baohuang", 11)
        a, b = make_player(store, "Ann", 1000), make_player(store, "Bob", 30)
        guest = make_player(store, "guest", None)
        hid = a_hand_row(store, g)
        with store.engine.begin() as c:
            got = settlement.finish_tx(
                c, hand_id=hid, game_name="baohuang", game=g, seat_players=[a, b, guest, None, None],
                scored=True, room_options={"bean_multiplier": 5, "table_multiplier": 2}, own=[1, 2, 1, 1, 1],
            )  # fmt: skip
        expected = paiju.beans.settle(
            list(g.scores), room_multiplier=5, table_multiplier=2, own=[1, 2, 1, 1, 1],
            balances=[1000, 30, None, None, None],
        )  # fmt: skip
        assert got["beans"] == [*expected[:2], 0, 0, 0]
        assert got["balances"] == {a: 1000 + expected[0], b: 30 + expected[1]}
        assert balance(store, b) >= 0  # Bob never pays past his 30 beans
        with store.engine.connect() as c:
            rows = c.execute(select(ledger.c.player_id, ledger.c.amount).where(ledger.c.hand_id == hid)).all()
            assert sum(amount for _, amount in rows) == 0  # with the house's row
            assert {p for p, _ in rows} <= {a, b, None}  # the guest and the bots hold nothing
            kept = c.execute(select(results.c.player_id, results.c.score, results.c.beans)).all()
            assert sorted(kept) == sorted(
                [(a, g.scores[0], got["beans"][0]), (b, g.scores[1], got["beans"][1]), (guest, g.scores[2], 0)]
            )
            rated = c.execute(select(ratings.c.player_id, ratings.c.hands)).all()
            assert sorted(rated) == sorted([(a, 1), (b, 1), (guest, 1)])  # bots have no rating row
        assert got["ratings"][3:] == [None, None] and all(r is not None for r in got["ratings"][:3])
        settled = store.read(settlement.settled_tx, [hid], 5)[hid]
        assert settled == {"beans": got["beans"], "ratings": got["ratings"]}  # read back after a restart
    finally:
        store.close()


def test_an_unscored_hand_moves_nothing_and_rates_nobody(db_url: str) -> None:  # noqa: F811
    store = Store(db_url, checkpoints=False)
    try:
        g = finished("shuangkou", 4)
        a = make_player(store, "Cat", 1000)
        hid = a_hand_row(store, g)
        with store.engine.begin() as c:
            got = settlement.finish_tx(
                c, hand_id=hid, game_name="shuangkou", game=g, seat_players=[a, None, None, None],
                scored=False, room_options={}, own=[1] * 4,
            )  # fmt: skip
        assert got["beans"] == [0] * 4 and got["ratings"] == [None] * 4 and balance(store, a) == 1000
        with store.engine.connect() as c:
            assert c.execute(select(func.count()).select_from(ratings)).scalar_one() == 0
            assert c.execute(select(results.c.scored, results.c.score)).all() == [(False, 0)]
    finally:
        store.close()


def test_the_leave_penalty_in_beans(db_url: str) -> None:  # noqa: F811
    store = Store(db_url, checkpoints=False)
    try:
        leaver, other = make_player(store, "Leaver", 500), make_player(store, "Other", 100)
        guest = make_player(store, "Guest2", None)
        with store.engine.begin() as c:
            paid = settlement.penalty_beans_tx(
                c, hand_id=None, leaver=leaver, points=40, others=[other, guest],
                room_options={"bean_multiplier": 2},
            )  # fmt: skip
        assert paid == 80 and balance(store, leaver) == 420 and balance(store, other) == 140  # the guest's half: house
        with store.engine.begin() as c:  # more than he has: he pays what he has
            paid = settlement.penalty_beans_tx(
                c, hand_id=None, leaver=leaver, points=40, others=[], room_options={"bean_multiplier": 100}
            )
        assert paid == 420 and balance(store, leaver) == 0
        with store.engine.begin() as c:  # a guest who leaves pays no beans
            assert settlement.penalty_beans_tx(c, hand_id=None, leaver=guest, points=40, others=[other],
                                               room_options={}) == 0  # fmt: skip
        with store.engine.connect() as c:
            moved = c.execute(select(func.sum(ledger.c.amount)).where(ledger.c.kind.in_(("penalty", "house"))))
            assert moved.scalar_one() == 0
    finally:
        store.close()


def test_relief_once_a_day_below_the_threshold(db_url: str) -> None:  # noqa: F811
    store = Store(db_url, checkpoints=False)
    rules = settlement.BeanSettings(start=50, relief_below=100, relief=300)
    try:
        rich, poor = make_player(store, "Rich", 100), make_player(store, "Poor", 99)
        with store.engine.begin() as c:
            assert settlement.claim_relief_tx(c, rich, rules) is None  # not under the threshold
            assert settlement.claim_relief_tx(c, poor, rules) == 399
            assert settlement.claim_relief_tx(c, poor, rules) is None  # once a day
        assert store.read(settlement.purse_tx, poor, rules) == {"beans": 399, "relief_due": False, "start_pending": 0}
        assert store.read(settlement.purse_tx, rich, rules) == {"beans": 100, "relief_due": False, "start_pending": 0}
    finally:
        store.close()


def test_random_hands_keep_the_ledger_whole(tmp_path: Any) -> None:
    """Random hands of every game, random seatings, balances and multipliers."""
    store = Store(f"sqlite:///{tmp_path / 'ledger.db'}", checkpoints=False)
    rng = random.Random(2026)
    try:
        people = [make_player(store, f"P{i}", rng.choice([0, 5, 50, 1000])) for i in range(6)]
        people += [make_player(store, f"G{i}", None) for i in range(2)]
        accounts_ = set(people[:6])
        for n in range(120):
            game = rng.choice(["baohuang", "shengji", "shuangkou"])
            g = finished(game, n)
            seats: list[int | None] = []
            for _ in range(g.num_players):
                p = rng.choice([*people, None, None])
                seats.append(None if p in seats else p)  # a person sits once; None: a computer player
            hid = a_hand_row(store, g)
            options = {"bean_multiplier": rng.choice([1, 2, 10]), "table_multiplier": rng.choice([1, 4])}
            with store.engine.begin() as c:
                got = settlement.finish_tx(
                    c, hand_id=hid, game_name=game, game=g, seat_players=seats, scored=True,
                    room_options=options, own=[rng.randint(1, 4) for _ in seats],
                )  # fmt: skip
            assert all(got["beans"][i] == 0 for i, p in enumerate(seats) if p not in accounts_)
            with store.engine.connect() as c:
                assert c.execute(select(func.sum(ledger.c.amount)).where(ledger.c.hand_id == hid)).scalar_one() in (
                    0,
                    None,
                )
        with store.engine.connect() as c:
            held = dict(
                c.execute(
                    select(ledger.c.player_id, func.sum(ledger.c.amount))
                    .where(ledger.c.player_id.is_not(None))
                    .group_by(ledger.c.player_id)
                ).all()
            )
        assert set(held) == accounts_ and min(held.values()) >= 0
    finally:
        store.close()
