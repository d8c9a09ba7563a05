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
from paiju.shengji.trump import card_id

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


# ---------------------------------------------------------------------------- Shengji and Shuangkou
def _shengji_deal_prompts(seed: int) -> tuple[int, str, list[str], list[str]]:
    """Play the deal of ``paiju play shengji --seed SEED`` the way the scripted test does:
    the bots (hosted: 托管 answers no) never declare; seat 0 is asked only while it can declare, takes the
    first declaration at its first prompt and answers no after. Returns the number of
    prompts, the declaration, seat 0's hand after picking up the kitty, and the highest
    card of each plain suit in it."""
    g = paiju.new_game("shengji", seed=seed)
    prompts, declared = 0, ""
    while g.phase == "deal":
        legal = g.legal_actions()
        if g.to_act == 0 and len(legal) > 1:
            prompts += 1
            if not declared:
                declared = str(legal[1])
                g.apply(legal[1])
                continue
        g.apply("no")
    assert declared and g.view(None)["declarer"] == 0
    order = g.order
    assert order is not None
    tops: dict[int, str] = {}
    for c in g.hand(0):
        tops.setdefault(order.psuit[card_id(c)], str(c))
    return prompts, declared, [str(c) for c in g.hand(0)], [c for suit, c in tops.items() if suit < 4]


def test_play_shengji_whole_hand(tmp_path: Path) -> None:
    seed = 12
    prompts, declared, hand, tops = _shengji_deal_prompts(seed)
    bury = hand[-3:]  # three of the lowest plain cards, on one line
    lines = ["2"]  # the first prompt: button 2, the first declaration
    lines += [""] * (prompts - 1)  # later prompts: Enter = no
    lines += ["bury Ah Ah Ah", "bury " + " ".join(hand[:9]), "bury " + " ".join(bury), "legal"]
    lines += [""] * 5  # the rest of the kitty: Enter buries the suggested card
    lines += ["legal", "pass", f"{tops[0]} {tops[1]}", "hint"]  # the first lead
    save = tmp_path / "shengji.json"
    r = runner.invoke(
        app,
        ["play", "shengji", "--seed", str(seed), "--bots", "hosted", "--save", str(save)],
        input="\n".join(lines) + MANY_ENTERS,
    )
    assert r.exit_code == 0, r.output
    out = r.output
    # the deal: a new card per prompt, the declarations as buttons, the declaration shown to all
    assert "Deal · card" in out and "you receive" in out and "[2] " + declared in out
    assert f"You (seat 0) declares {declared.split()[1]}" in out
    assert "The deal is over. Trump:" in out and "declarer 庄家: You (seat 0)" in out
    # the kitty: errors, then several cards on one line, buried in turn
    assert re.search(r"you (do not )?hold", out) and "9 cards is too many: bury 8 more" in out
    assert "Bury any card of your hand" in out
    assert f"Buried so far: {' '.join(bury)} — 5 more to bury." in out
    assert "You (seat 0) has buried 8 cards 扣底" in out
    # play: grouped hand, lead help, errors, tricks with winners and the defenders' points
    assert re.search(r"trump [♠♥♦♣], level 2 \(\s*\d+\): ", out)
    assert "possible leads" in out and "there is no pass in Shengji" in out
    assert "a lead is cards of one suit" in out
    assert "Hint: " in out and "leads trick 1" in out
    assert re.search(r"— trick \d+ to .*(points to the defenders|declarers)", out)
    assert "— trick 1 to" in out
    # the end: kitty, points, level change
    assert "Scores (levels gained)" in out and "Kitty 底牌 buried by You (seat 0)" in out
    assert "Defenders' points in tricks:" in out and "Next declarer:" in out
    assert re.search(r"Your team (goes up|takes over|loses)|The other team goes up", out)
    record = json.loads(save.read_text(encoding="utf-8"))
    g = paiju.replay(record)
    assert g.is_over and sum(g.scores) == 0
    assert g.view(None)["result"]["declarer"] == 0
    actions = record["actions"]
    first = actions.index(f"bury {bury[0]}")
    assert actions[first : first + 3] == [f"bury {c}" for c in bury]
    assert f"{g.scores[0]:+d}." in out


def test_play_shengji_watch_one_pack() -> None:
    r = runner.invoke(app, ["play", "shengji", "--watch", "--seed", "5", "-b", "random", "-o", "decks=1"])
    assert r.exit_code == 0, r.output
    assert "1 pack · level 2" in r.output and "Scores (levels gained)" in r.output
    assert "the throw" in r.output  # random leaders throw, and most throws fail
    r = runner.invoke(app, ["play", "shengji", "--watch", "-o", "team_levels=5,3", "-o", "declarer=1"])
    assert r.exit_code == 0, r.output
    assert "team 0+2 at 5, team 1+3 at 3" in r.output and "declarer seat 1" in r.output
    assert "Trump:" in r.output and "level 3;" in r.output


def test_play_shuangkou_whole_hand(tmp_path: Path) -> None:
    seed = 2  # seat 0 leads first
    assert paiju.new_game("shuangkou", seed=seed).to_act == 0
    save = tmp_path / "shuangkou.json"
    lines = ["pass", "3344", "legal", "hint"]
    r = runner.invoke(
        app, ["play", "shuangkou", "--seed", str(seed), "--save", str(save)], input="\n".join(lines) + MANY_ENTERS
    )
    assert r.exit_code == 0, r.output
    out = r.output
    assert "team A with your partner seat 2" in out and "You (seat 0) leads first" in out
    assert "team A · your partner" in out and "team B · opponent" in out
    assert "you lead this trick" in out and "is not a play" in out  # errors, then the prompt again
    assert "Legal (" in out and "单张 single" in out and "Hint: " in out
    assert "Your hand (27): " in out and "×" in out  # grouped by rank
    assert re.search(r"Last play: .* — \S+ (单张 single|对子 pair|三张 triple|顺子 straight|炸弹 bomb)", out)
    assert "is out: 1st." in out
    assert re.search(r"The hand is over: (双扣 double|单扣 single|平扣 level) — team [AB] wins", out)
    assert re.search(r"Your team (won|lost) \((双扣|单扣|平扣) \w+\): [+-]\d points", out)
    record = json.loads(save.read_text(encoding="utf-8"))
    g = paiju.replay(record)
    assert g.is_over and sum(g.scores) == 0
    assert record["actions"][0] != "pass"


def _random_record(game: str, seed: int, **options: object) -> tuple[paiju.Game, dict]:
    g = paiju.new_game(game, seed=seed, **options)
    rng = random.Random(seed)
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    return g, g.record()


def test_simulate_shengji_json(tmp_path: Path) -> None:
    out = tmp_path / "sim.json"
    r = runner.invoke(app, ["simulate", "shengji", "-n", "10", "--seed", "3", "--json", str(out)])
    assert r.exit_code == 0, r.output
    for word in ("By role", "By team", "declarers hold", "kitty bonus", "hands per second", "at lead (avg / max)"):
        assert word in r.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["game"] == "shengji" and data["hands"] == 10 and data["bots"] == ["random"] * 4
    roles, teams = data["roles"], data["teams"]
    assert list(roles) == ["declarer", "partner", "defender"]
    assert roles["declarer"]["count"] == roles["partner"]["count"] == 10 and roles["defender"]["count"] == 20
    assert teams["declarers"]["count"] == teams["defenders"]["count"] == 20
    assert teams["declarers"]["win_rate"] + teams["defenders"]["win_rate"] == pytest.approx(1.0)
    assert teams["declarers"]["avg_points"] == pytest.approx(-teams["defenders"]["avg_points"])
    assert abs(sum(s["avg_points"] for s in data["seats"])) < 1e-9
    s = data["shengji"]
    assert s["declarers_hold_rate"] == pytest.approx(teams["declarers"]["win_rate"])
    assert s["declarers_hold_rate"] + s["defenders_take_over_rate"] == pytest.approx(1.0)
    assert sum(s["level_change"].values()) == pytest.approx(1.0)
    assert s["avg_level_change_declarers"] == pytest.approx(roles["declarer"]["avg_points"])
    assert 0 <= s["avg_trick_points"] <= 200 and s["avg_defender_points"] >= 0
    assert 0 <= s["kitty_bonus_rate"] <= s["last_trick_to_defenders_rate"] <= 1
    assert s["tricks_per_hand"] >= 1 and s["failed_throws_per_hand"] >= 0
    # 2 packs: 100 cards dealt, each followed by a decision, plus one more round of 4; 8 cards buried
    assert data["decisions_by_phase"]["deal"] == 104 and data["decisions_by_phase"]["bury"] == 8
    assert data["decisions_by_phase"]["play"] == pytest.approx(data["plays_per_hand"])
    assert data["plays_per_hand"] >= 4 * s["tricks_per_hand"]
    legal = data["legal_actions"]
    assert set(legal["by_kind"]) == {"deal", "bury", "lead", "follow"}
    assert legal["by_kind"]["lead"]["max"] == legal["max"] >= legal["by_kind"]["lead"]["avg"] >= 1
    assert data["hands_per_second"] > 0


def test_simulate_shuangkou_json(tmp_path: Path) -> None:
    out = tmp_path / "sim.json"
    args = ["simulate", "shuangkou", "-n", "10", "--seed", "4", "-b", "random,hosted,greedy,random", "--json", str(out)]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    for word in ("By team", "双扣 double", "单扣 single", "平扣 level", "bombs per hand", "hands per second"):
        assert word in r.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["game"] == "shuangkou" and data["bots"] == ["random", "hosted", "greedy", "random"]
    teams = data["teams"]
    assert teams["A"]["count"] == teams["B"]["count"] == 20
    assert teams["A"]["win_rate"] + teams["B"]["win_rate"] == pytest.approx(1.0)
    assert set(data["roles"]) == {"first_lead_team", "other_team"}
    s = data["shuangkou"]
    assert sum(s["results"].values()) == pytest.approx(1.0)
    assert s["team_win_rate"]["A"] == pytest.approx(teams["A"]["win_rate"])
    assert 1 <= s["avg_points_per_winner"] <= 3
    assert s["tricks_per_hand"] >= 1 and s["bombs_per_hand"] >= 0
    assert abs(sum(x["avg_points"] for x in data["seats"])) < 1e-9
    assert data["decisions_per_hand"] >= data["plays_per_hand"] >= 4  # passes are decisions, not plays
    assert set(data["legal_actions"]["by_kind"]) == {"lead", "follow"}
    assert 1 <= data["legal_actions"]["avg"] <= data["legal_actions"]["max"]


def test_replay_shengji(tmp_path: Path) -> None:
    g, record = _random_record("shengji", 8, decks=1)
    path = tmp_path / "shengji.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    r = runner.invoke(app, ["replay", str(path), "--hands"])
    assert r.exit_code == 0, r.output
    assert "Kitty 底牌:" in r.output and "The deal is over" in r.output
    # the deal's "no" decisions fold into ranges; every other action has its own line
    covered: set[int] = set()
    for line in r.output.splitlines():
        m = re.match(r"#(\d+)(?:–(\d+))? ", line)
        if m:
            a, b = int(m.group(1)), int(m.group(2) or m.group(1))
            covered |= set(range(a, b + 1))
            if b > a:
                assert f"{b - a + 1} × no" in line
            else:
                assert record["actions"][a - 1] in line
    assert covered == set(range(1, len(record["actions"]) + 1))
    assert "Scores (levels gained)" in r.output and "Next declarer:" in r.output
    for s, pts in enumerate(g.scores):
        assert re.search(rf"Seat {s} .*{re.escape(f'{pts:+d}')}\n", r.output)


def test_replay_shuangkou(tmp_path: Path) -> None:
    g, record = _random_record("shuangkou", 9)
    path = tmp_path / "shuangkou.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    r = runner.invoke(app, ["replay", str(path), "--hands"])
    assert r.exit_code == 0, r.output
    lines = [ln for ln in r.output.splitlines() if re.match(r"#\d+ ", ln)]
    assert len(lines) == len(record["actions"])
    for i, (line, action) in enumerate(zip(lines, record["actions"]), 1):
        assert line.startswith(f"#{i} ") and action in line
    assert "单张 single" in r.output and "is out: 1st" in r.output
    assert g.view(None)["result_name"] in r.output
    for s, pts in enumerate(g.scores):
        assert re.search(rf"Seat {s} .*{re.escape(f'{pts:+d}')}\n", r.output)
    # an unfinished Shengji record ends during the deal
    part = paiju.new_game("shengji", seed=1)
    part.apply("no")
    path.write_text(json.dumps(part.record()), encoding="utf-8")
    r = runner.invoke(app, ["replay", str(path), "--hands"])
    assert r.exit_code == 0, r.output
    assert "the record ends during the deal" in r.output and "ends before the hand is over" in r.output


def test_option_lists() -> None:
    assert parse_options(["team_levels=5,3", "levels=2,5,T,J,Q,K,A"]) == {
        "team_levels": [5, 3],
        "levels": [2, 5, "T", "J", "Q", "K", "A"],
    }


def test_analyze_marks_the_thrown_away_win(tmp_path: Path) -> None:
    """`paiju analyze` on the constructed ending of tests/test_analysis.py: seat 1 broke its
    last pair instead of going out."""
    ending = Path(__file__).parent / "data" / "ending_broken_pair.json"
    out = tmp_path / "analysis.json"
    args = ["analyze", str(ending), "--seat", "1", "--budget", "60", "--worlds", "10", "--double-dummy"]
    r = runner.invoke(app, [*args, "--json", str(out)])
    assert r.exit_code == 0, r.output
    row = next(ln for ln in r.output.splitlines() if ln.startswith("70 "))  # action 70 (step 69)
    assert "88" in row and "失误" in row
    assert re.search(r"\d+ decisions analysed .*: 1 失误 mistakes", r.output.replace("\n", " "))
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert [d["step"] for d in saved["decisions"] if d["mark"] == "mistake"] == [69]
    assert saved["double_dummy"] and saved["seat"] == 1


def test_analyze_errors(tmp_path: Path) -> None:
    ending = Path(__file__).parent / "data" / "ending_broken_pair.json"
    r = runner.invoke(app, ["analyze", str(ending), "--seat", "7"])
    assert r.exit_code != 0 and "seats 0 to 3" in r.output
    rec = json.loads(ending.read_text(encoding="utf-8"))
    rec["actions"] = rec["actions"][:20]
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(rec), encoding="utf-8")
    r = runner.invoke(app, ["analyze", str(cut), "--seat", "0"])
    assert r.exit_code != 0 and "still being played" in r.output
    r = runner.invoke(app, ["analyze", str(ending), "--seat", "0", "--budget", "0"])
    assert r.exit_code != 0 and "--budget" in r.output
