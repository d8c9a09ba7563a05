"""The director's pure helpers 比赛: a planned hand's seats, its rows, and the results read back."""

from __future__ import annotations

from paiju.server.tournaments.boards import Hand, round_plan
from paiju.server.tournaments.director import COMPUTER, plan_rows, played, replay_rounds, seating
from paiju.server.tournaments.rounds import finish_round, start_round

ENTRANTS = {
    "A": {"entrant": "A", "players": [1, 2], "bot": None},
    "B": {"entrant": "B", "players": [], "bot": "strong"},
}


def test_a_pair_sits_first_member_first_and_computer_players_fill_the_rest() -> None:
    got = seating(Hand(0, 1, 7, 1, ("B", "A", "B", "A")), ENTRANTS)
    assert [(s["entrant"], s["player"], s["bot"]) for s in got] == [
        ("B", None, "strong"),
        ("A", 1, None),
        ("B", None, "strong"),
        ("A", 2, None),
    ]
    lone = seating(Hand(0, 0, 7, 0, ("A", None)), {"A": {"entrant": "A", "players": [5], "bot": None}})
    assert [(s["player"], s["bot"]) for s in lone] == [(5, None), (None, COMPUTER)]


def test_rows_number_each_tables_hands_and_scores_come_back_to_their_hands() -> None:
    plan = round_plan("shuangkou", [["A", "B"], ["C", "D"]], boards=2, seed=3, round_no=1)
    entrants = {k: {"entrant": k, "players": [], "bot": "normal"} for k in "ABCD"}
    rows = plan_rows(plan, entrants)
    assert [(r["table_no"], r["seq"], r["board"], r["seed"]) for r in rows] == [
        (h.table, i % 2, h.board, h.seed) for i, h in enumerate(plan)
    ]
    rows[1]["scores"], rows[3]["scores"] = [1, -1, 1, -1], [2, -2, 2, -2]
    rows[0]["scores"] = rows[2]["scores"] = None
    assert [(h.table, h.rotation, h.scores) for h in played(plan, rows)] == [
        (0, 1, (1, -1, 1, -1)),
        (1, 1, (2, -2, 2, -2)),
    ]


def test_the_rounds_are_worked_out_again_from_the_stored_hands() -> None:
    seeded = ["A", "B", "C", "D", "E"]
    entrants = {k: {"entrant": k, "players": [], "bot": "normal"} for k in seeded}
    t = {"game": "shengji", "seed": 11, "boards": 2, "current_round": 2}
    pairing1, plan1 = start_round("shengji", seeded, [], 11, 1, 2)
    rows = [{**r, "round": 1, "scores": [i, -i, i, -i]} for i, r in enumerate(plan_rows(plan1, entrants))]
    r1 = finish_round(pairing1, plan1, played(plan1, rows))
    pairing2, plan2 = start_round("shengji", seeded, [r1], 11, 2, 2)
    rows += [{**r, "round": 2, "scores": None} for r in plan_rows(plan2, entrants)]
    done, current = replay_rounds(t, seeded, rows)
    assert done == [r1] and current == (pairing2, plan2)
    assert r1.byes and r1.scores[r1.byes[0]] == 50.0
