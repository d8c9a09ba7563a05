"""The command line (paiju.cli): play against bots from scripted input, simulate,
replay, errors."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import paiju
from paiju.cli import app, hand_text, parse_options

runner = CliRunner()
MANY_ENTERS = "\n" * 2000  # more than any hand needs: every empty line takes the hint / default


def test_version() -> None:
    r = runner.invoke(app, ["--version"])
    assert r.exit_code == 0
    assert r.output.strip() == f"paiju {paiju.__version__}"


def test_play_whole_game_with_hints(tmp_path: Path) -> None:
    save = tmp_path / "hand.json"
    r = runner.invoke(app, ["play", "baohuang", "--seat", "0", "--seed", "7", "--save", str(save)], input=MANY_ENTERS)
    assert r.exit_code == 0, r.output
    assert "Scores" in r.output
    assert re.search(r"You (won|lost|broke even): [+-]\d+ points", r.output)
    assert "Your hand (44)" in r.output  # seat 0 is dealt first: 44 cards
    assert "皇帝 emperor" in r.output
    record = json.loads(save.read_text(encoding="utf-8"))
    g = paiju.replay(record)
    assert g.is_over
    assert f"{g.scores[0]:+d} points" in r.output


@pytest.mark.parametrize("variant", ["classic", "qingdao"])
def test_play_other_seat_and_variant(variant: str) -> None:
    r = runner.invoke(app, ["play", "baohuang", "--seat", "3", "--seed", "11", "-v", variant], input=MANY_ENTERS)
    assert r.exit_code == 0, r.output
    assert "Scores" in r.output
    assert "You (seat 3)" in r.output


def test_play_setup_buttons_by_number() -> None:
    # seed 3: seat 0 holds the emperor card first and is asked accept / abdicate
    r = runner.invoke(app, ["play", "baohuang", "--seed", "3"], input="1\n" + MANY_ENTERS)
    assert r.exit_code == 0, r.output
    assert "[1] accept" in r.output
    assert "You (seat 0) [emperor]: accept" in r.output
    assert "You (seat 0) is the emperor" in r.output


def test_illegal_input_is_reported_and_the_prompt_repeats() -> None:
    r = runner.invoke(app, ["play", "baohuang", "--seed", "3"], input="xyz\n9\n89\n" + MANY_ENTERS)
    assert r.exit_code == 0, r.output
    assert "cannot read a card" in r.output
    assert "choose a number from 1 to" in r.output
    assert "Scores" in r.output  # the game went on after the errors


def test_illegal_play_during_play() -> None:
    # accept the throne, then try a play that is not a Baohuang play and one not held
    g = paiju.new_game("baohuang", seed=3)
    assert g.to_act == 0
    r = runner.invoke(
        app, ["play", "baohuang", "--seed", "3"], input="accept\n89\nBJ BJ BJ BJ BJ\npass\n" + MANY_ENTERS
    )
    assert r.exit_code == 0, r.output
    assert "is not a play" in r.output
    assert "you do not hold" in r.output
    assert "you lead this trick" in r.output
    assert "Scores" in r.output


def test_hint_shows_the_suggestion_and_asks_again() -> None:
    r = runner.invoke(app, ["play", "baohuang", "--seed", "3"], input="hint\nquit\n")
    assert r.exit_code == 0
    assert "Hint: accept" in r.output
    assert "You left the game" in r.output
    assert "Scores" not in r.output


def test_end_of_input_leaves_cleanly(tmp_path: Path) -> None:
    save = tmp_path / "partial.json"
    r = runner.invoke(app, ["play", "baohuang", "--seed", "3", "--save", str(save)], input="accept\n")
    assert r.exit_code == 0, r.output
    assert "End of input" in r.output
    record = json.loads(save.read_text(encoding="utf-8"))
    assert record["actions"][0] == "accept"
    assert not paiju.replay(record).is_over


def test_watch_all_bots() -> None:
    r = runner.invoke(
        app, ["play", "baohuang", "--watch", "--seed", "5", "--bots", "random,hosted,greedy,random,hosted"]
    )
    assert r.exit_code == 0, r.output
    assert "Scores" in r.output


def test_play_errors() -> None:
    r = runner.invoke(app, ["play", "nosuchgame"])
    assert r.exit_code != 0
    assert "unknown game 'nosuchgame'" in r.output
    r = runner.invoke(app, ["play", "baohuang", "--variant", "nope"])
    assert r.exit_code != 0
    assert "unknown Baohuang variant" in r.output
    r = runner.invoke(app, ["play", "baohuang", "-o", "colour=red"])
    assert r.exit_code != 0
    assert "unknown Baohuang option" in r.output
    r = runner.invoke(app, ["play", "baohuang", "-o", "kao"])
    assert r.exit_code != 0
    assert "key=value" in r.output
    r = runner.invoke(app, ["play", "baohuang", "--bots", "nobot"])
    assert r.exit_code != 0
    assert "unknown bot 'nobot'" in r.output
    r = runner.invoke(app, ["play", "baohuang", "--seat", "5"])
    assert r.exit_code != 0
    r = runner.invoke(app, ["simulate", "nosuchgame", "-n", "2"])
    assert r.exit_code != 0
    assert "unknown game" in r.output


def test_simulate_table_and_json(tmp_path: Path) -> None:
    out = tmp_path / "sim.json"
    r = runner.invoke(app, ["simulate", "baohuang", "-n", "20", "--seed", "1", "--json", str(out)])
    assert r.exit_code == 0, r.output
    for word in ("By role", "Win rate", "Avg points", "hands per second", "legal actions per decision"):
        assert word in r.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert set(data) >= {
        "game",
        "hands",
        "seed",
        "options",
        "bots",
        "roles",
        "seats",
        "decisions_per_hand",
        "plays_per_hand",
        "legal_actions",
        "seconds",
        "hands_per_second",
    }
    assert data["hands"] == 20 and data["bots"] == ["random"] * 5
    roles = data["roles"]
    assert set(roles) <= {"emperor", "guard", "rebel", "solo"} and "rebel" in roles
    for d in roles.values():
        assert set(d) == {"count", "wins", "win_rate", "avg_points"}
        assert 0.0 <= d["win_rate"] <= 1.0
        assert d["wins"] <= d["count"]
    # every hand has exactly one emperor (alone or not) and five seats
    assert roles.get("emperor", {}).get("count", 0) + roles.get("solo", {}).get("count", 0) == 20
    assert sum(d["count"] for d in roles.values()) == 100
    assert roles.get("guard", {}).get("count", 0) == roles.get("emperor", {}).get("count", 0)
    # hands are zero-sum, so the rebels' points balance the emperor side's
    total = sum(d["count"] * d["avg_points"] for d in roles.values())
    assert abs(total) < 1e-6
    assert abs(sum(s["avg_points"] for s in data["seats"])) < 1e-6
    assert data["plays_per_hand"] > 10 and data["decisions_per_hand"] >= data["plays_per_hand"]
    assert 1 <= data["legal_actions"]["avg"] <= data["legal_actions"]["max"]
    assert data["hands_per_second"] > 0


def test_simulate_is_repeatable_and_mixes_bots(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    mix = "random,hosted,greedy,random,hosted"
    args = ["simulate", "baohuang", "-n", "5", "--seed", "9", "-b", mix, "-v", "classic"]
    assert runner.invoke(app, [*args, "--json", str(a)]).exit_code == 0
    assert runner.invoke(app, [*args, "--json", str(b)]).exit_code == 0
    da, db = json.loads(a.read_text()), json.loads(b.read_text())
    assert da["bots"] == ["random", "hosted", "greedy", "random", "hosted"]
    assert da["roles"] == db["roles"] and da["seats"] == db["seats"]
    r = runner.invoke(app, ["simulate", "baohuang", "-n", "2", "-b", "random,hosted"])
    assert r.exit_code != 0
    assert "one per bot seat" in r.output


def test_replay_prints_every_action(tmp_path: Path) -> None:
    g = paiju.new_game("baohuang", seed=21, variant="classic")
    rng = random.Random(0)
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    record = g.record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    r = runner.invoke(app, ["replay", str(path), "--hands"])
    assert r.exit_code == 0, r.output
    lines = [ln for ln in r.output.splitlines() if re.match(r"#\d+ ", ln)]
    assert len(lines) == len(record["actions"])
    for i, (line, action) in enumerate(zip(lines, record["actions"]), 1):
        assert line.startswith(f"#{i} ") and action in line
    assert "Scores" in r.output
    for s, pts in enumerate(g.scores):
        assert re.search(rf"Seat {s} .*{re.escape(f'{pts:+d}')}\n", r.output)


def test_replay_errors(tmp_path: Path) -> None:
    r = runner.invoke(app, ["replay", str(tmp_path / "missing.json")])
    assert r.exit_code != 0 and "cannot read" in r.output
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    r = runner.invoke(app, ["replay", str(bad)])
    assert r.exit_code != 0 and "not JSON" in r.output
    rec = paiju.new_game("baohuang", seed=1).record()
    rec["actions"] = ["BJ BJ BJ BJ BJ"]
    bad.write_text(json.dumps(rec), encoding="utf-8")
    r = runner.invoke(app, ["replay", str(bad)])
    assert r.exit_code != 0 and "record action 1" in r.output


def test_replay_unfinished(tmp_path: Path) -> None:
    g = paiju.new_game("baohuang", seed=1)
    g.apply(g.legal_actions()[0])
    path = tmp_path / "part.json"
    path.write_text(json.dumps(g.record()), encoding="utf-8")
    r = runner.invoke(app, ["replay", str(path)])
    assert r.exit_code == 0
    assert "ends before the hand is over" in r.output


def test_parse_options_and_hand_text() -> None:
    assert parse_options(["kao=true", "hold-sixes=yes", "first_seat=2", "hold_rank=T"], "classic") == {
        "kao": True,
        "hold_sixes": True,
        "first_seat": 2,
        "hold_rank": "T",
        "variant": "classic",
    }
    assert hand_text("baohuang", ["3s", "3h", "3d", "4c", "SJ", "SJ*", "SJ", "BJ"]) == "3×3 4 SJ SJ* SJ BJ"
    assert hand_text("baohuang", ["3s", "3h", "SJ", "SJ", "BJ*"]) == "3×2 SJ×2 BJ*"
