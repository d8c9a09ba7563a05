"""复盘 (paiju.analysis): which decisions are judged, how, and that a thrown-away win is marked."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import paiju
from paiju.analysis import (
    DUBIOUS,
    MISTAKE,
    analyze,
    analyze_decision,
    decision_steps,
    mark_of,
    position,
    seat_actions,
)
from paiju.bots import make_bot
from paiju.errors import IllegalAction

DATA = Path(__file__).parent / "data"
# A Shuangkou hand (seed 2) played by the heuristic bot, built to end like this: at action
# 69 seat 1 leads with its last two cards, a pair of 8s. The pair takes it out (its side
# then wins, +2); it broke the pair and led one 8, and its side lost (-3).
BROKEN_PAIR = 69


def played(game: str, seed: int, bots: tuple[str, ...]) -> dict[str, Any]:
    g = paiju.new_game(game, seed=seed)
    players = [make_bot(bots[s % len(bots)], game=game, seed=seed * 10 + s) for s in range(g.num_players)]
    while not g.is_over:
        s = g.to_act
        assert s is not None
        g.apply(players[s].act(g.view(s), g.legal_actions()))
    return g.record()


def test_the_constructed_ending_is_what_it_says() -> None:
    record = json.loads((DATA / "ending_broken_pair.json").read_text())
    before = position(record, BROKEN_PAIR)
    assert before.to_act == 1 and before.phase == "play"
    assert before.view(1)["hand"] == ["8h", "8c"] and before.view(1)["trick"] == []
    assert sorted(map(str, before.legal_actions())) == ["8", "88"]
    assert record["actions"][BROKEN_PAIR] == "8"
    assert paiju.replay(record).scores[1] == -3


def test_a_thrown_away_win_is_marked_a_mistake_with_the_better_play() -> None:
    record = json.loads((DATA / "ending_broken_pair.json").read_text())
    # a fixed number of worlds (not a time budget): the verdict does not depend on the machine
    d = analyze_decision(record, 1, BROKEN_PAIR, seconds=60, worlds=40, double_dummy=True)
    assert d["worlds"] == 40
    assert d["mark"] == "mistake" and d["best"]["action"] == "88" and d["action"] == "8"
    assert d["loss"] >= MISTAKE["shuangkou"] and d["loss"] >= 2 * d["loss_se"]
    assert d["best"]["mean"] > 1.5  # going out wins in (almost) every world the seat could imagine
    assert d["dd"] == {"taken": -3, "best": {"action": "88", "value": 2}, "loss": 5, "mark": "mistake"}
    # the same decision played right is not marked
    right = dict(record, actions=[*record["actions"][:BROKEN_PAIR], "88"])
    g = paiju.replay(right)
    heuristic = make_bot("heuristic", game="shuangkou")
    while not g.is_over:
        g.apply(heuristic.act(g.view(g.to_act), g.legal_actions()))
    good = analyze_decision(g.record(), 1, BROKEN_PAIR, seconds=60, worlds=40, double_dummy=True)
    assert good["mark"] is None and good["best"]["action"] == "88" and good["loss"] == 0
    assert good["dd"]["mark"] is None


def test_only_the_seats_own_decisions_of_the_play_are_judged() -> None:
    record = played("baohuang", 4, ("heuristic",))
    listed = seat_actions(record, 2)
    game = paiju.replay({**record, "actions": []})
    expected = []
    for step, text in enumerate(record["actions"]):
        if game.to_act == 2:
            why = "before_play" if game.phase != "play" else ("forced" if len(game.legal_actions()) < 2 else None)
            expected.append({"step": step, "action": text, "why": why})
        game.apply(text)
    assert listed == expected
    assert {d["why"] for d in listed} >= {None, "before_play"}
    assert decision_steps(record, 2) == [d["step"] for d in listed if d["why"] is None]
    with pytest.raises(IllegalAction) as e:
        analyze_decision(record, 2, next(d["step"] for d in listed if d["why"] == "before_play"))
    assert e.value.code == "bad_argument"


@pytest.mark.parametrize("game", ["baohuang", "shengji", "shuangkou"])
def test_a_whole_analysis_is_consistent(game: str) -> None:
    record = played(game, 3, ("random", "heuristic"))
    seen: list[tuple[int, int]] = []
    a = analyze(record, 0, seconds=0.01, worlds=2, double_dummy=True, progress=lambda d, t: seen.append((d, t)))
    steps = decision_steps(record, 0)
    judged = [d["step"] for d in a["decisions"]]
    unsampled = [d["step"] for d in a["not_analysed"] if d["why"] == "cannot_sample"]
    assert sorted(judged + unsampled) == steps and unsampled == []
    assert seen == [(i, len(steps)) for i in range(len(steps) + 1)]
    for d in a["decisions"]:
        assert record["actions"][d["step"]] == d["action"] == d["taken"]["action"] == d["candidates"][0]["action"]
        # the better play is the taken one or the candidate that was best on the first worlds
        means = {c["action"]: c["mean"] for c in d["candidates"]}
        top = max(means.values())
        assert d["best"]["action"] == d["action"] or means[d["best"]["action"]] == top
        # its loss is measured on the same (fresh) worlds: the mean of the paired differences
        assert d["loss"] == pytest.approx(d["best"]["mean"] - d["taken"]["mean"]) and d["loss"] >= 0
        assert d["mark"] in (None, "dubious", "mistake") and 1 <= d["worlds"] <= 2
        assert d["mark"] is None  # two worlds never suffice to mark
        assert d["dd"]["loss"] >= 0
    s = a["summary"]
    assert s["decisions"] == len(judged) and s["loss"] == pytest.approx(sum(d["loss"] for d in a["decisions"]))
    assert a["thresholds"]["dubious"] == DUBIOUS[game] and json.loads(json.dumps(a)) == a


def test_a_pool_gives_the_same_analysis() -> None:
    record = played("shuangkou", 8, ("random", "heuristic"))
    kw: dict[str, Any] = {"seconds": 60, "worlds": 3, "seed": 5}
    alone = analyze(record, 1, **kw)
    with ThreadPoolExecutor(2) as pool:
        pooled = analyze(record, 1, executor=pool, **kw)
    assert pooled == alone


def test_marks() -> None:
    assert mark_of("shengji", MISTAKE["shengji"], 0.0, 20) == "mistake"
    assert mark_of("shengji", DUBIOUS["shengji"], 0.0, 20) == "dubious"
    assert mark_of("shengji", DUBIOUS["shengji"] - 0.01, 0.0, 20) is None
    assert mark_of("shengji", 5.0, 3.0, 20) is None  # not sure enough
    assert mark_of("shengji", 5.0, 0.1, 7) is None  # too few worlds


def test_bad_requests() -> None:
    record = played("shuangkou", 1, ("heuristic",))
    with pytest.raises(IllegalAction) as e:
        seat_actions(record, 4)
    assert e.value.code == "bad_seat"
    unfinished = {**record, "actions": record["actions"][:10]}
    with pytest.raises(IllegalAction) as e:
        analyze(unfinished, 0)
    assert e.value.code == "hand_not_over"
    other = next(i for i, _ in enumerate(record["actions"]) if i not in decision_steps(record, 0))
    with pytest.raises(IllegalAction):
        analyze_decision(record, 0, other)


def test_a_measurement_goes_on_only_while_a_verdict_is_open() -> None:
    from paiju.analysis import _open

    assert _open("baohuang", 3.0, 2.0, 20)  # big enough to mark, not yet sure
    assert not _open("baohuang", 3.0, 0.5, 20)  # sure: marked
    assert not _open("baohuang", 0.2, 2.0, 20)  # too small to mark however sure
    assert _open("baohuang", 3.0, 0.5, 4)  # too few worlds yet
