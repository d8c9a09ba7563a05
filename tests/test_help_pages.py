"""The rules pages #/help/{game} (issue 29, item 3): the hall's answer GET /api/games/{game}
(paiju.server.tables.game_rules) and each game's page content (src/paiju/web/help/{game}.js),
which node loads without a browser: every game × language has its introduction, rules,
scoring and worked example under every preset and every single option changed, and every
option the page names — beside a rule or read by its text — is one of that game's options.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import paiju
from paiju.errors import IllegalAction
from paiju.server.tables.game_rules import game_rules, parse_options
from paiju.server.tables.games_info import HALL_OPTIONS, games_info
from paiju.specs import spec
from paiju.stakes import max_hand_cost
from paiju.titles import ladder

HELP = Path(__file__).resolve().parents[1] / "src" / "paiju" / "web" / "help"
CJK = re.compile(r"[\u3400-\u9fff]")
HALL = {o["name"] for o in HALL_OPTIONS}

RENDER = """
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
(async () => {
  const out = {};
  for (const [game, sets] of Object.entries(input.sets)) {
    const c = (await import("file://" + input.dir + "/" + game + ".js")).default;
    out[game] = sets.map((o) => {
      const page = {};
      for (const lang of ["zh", "en"]) {
        const say = (it) => ({ text: typeof it[lang] === "function" ? it[lang](o) : it[lang], opts: it.opts });
        page[lang] = {
          intro: c.intro[lang],
          rules: c.rules.map(say).filter((x) => x.text),
          scoring: c.scoring.map(say).filter((x) => x.text),
          example: c.example[lang](o),
        };
      }
      return page;
    });
  }
  process.stdout.write(JSON.stringify(out));
})();
"""


def room_options(game: str) -> set[str]:
    return {o["name"] for o in spec(game).describe_options()["options"]} | HALL


def option_sets(game: str) -> list[dict[str, Any]]:
    """The options as the page gets them: the defaults, each preset, and each option changed alone."""
    info = games_info()["games"][game]
    sets = [{}, *({info["preset_option"]: p} for p in info["presets"])]
    for o in info["options"] + HALL_OPTIONS:
        if o["type"] == "bool":
            sets.append({o["name"]: not o["default"]})
        for choice in o.get("choices") or []:
            if choice != o["default"]:
                sets.append({o["name"]: choice})
    sets += [{"decks": 1, "two_colours": True}, {"decks": 3, "triples": True}] if game == "shengji" else []
    out = []
    for s in sets:
        try:
            out.append(game_rules(game, s)["options"])
        except IllegalAction:
            continue  # a value the engine takes only with another option (triples without 3 packs)
    return out


@cache
def rendered() -> dict[str, list[dict[str, Any]]]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (it comes with TypeScript's checker, make lint)")
    sets = {game: option_sets(game) for game in paiju.GAMES}
    run = subprocess.run(
        [node, "-e", RENDER],
        input=json.dumps({"dir": str(HELP), "sets": sets}),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


# ------------------------------------------------------------- the hall's answer
def test_the_answer_resolves_a_preset_and_the_rooms_multipliers() -> None:
    r = game_rules("baohuang", {"variant": "qingdao", "bean_multiplier": 10, "table_multiplier": 2})
    assert r["preset"] == "qingdao"
    assert r["options"]["tribute"] is True and r["options"]["pass_is_final"] is True  # forced by 让牌
    assert "variant" not in r["options"] and "tribute_due" not in r["options"]  # only what a room sets
    assert r["options"]["bean_multiplier"] == 10 and r["options"]["own_multiplier"] is False
    assert r["hand_cost"] == max_hand_cost(
        "baohuang", {"variant": "qingdao"}, {"bean_multiplier": 10, "table_multiplier": 2}
    )
    assert r["hand_cost"] == 432 * 10 * 2 == r["max_hand_points"] * 20


@pytest.mark.parametrize("game", paiju.GAMES)
def test_the_answer_has_the_games_ladder_and_every_room_option(game: str) -> None:
    r = game_rules(game, {})
    assert set(r["options"]) == room_options(game)
    assert r["titles"] == [{"level": t.level, "zh": t.name_zh, "en": t.name_en, "floor": t.floor} for t in ladder(game)]
    assert json.loads(json.dumps(r)) == r  # plain JSON


def test_bad_options_are_refused_with_a_reason() -> None:
    cases = [
        ("shengji", {"decks": 7}, "bad_option"),
        ("shengji", {"seed": 3}, "bad_room_options"),
        ("shuangkou", {"bean_multiplier": 3}, "bad_room_options"),
        ("doudizhu", {}, "unknown_game"),
    ]
    for game, options, code in cases:
        with pytest.raises(IllegalAction) as e:
            game_rules(game, options)
        assert e.value.code == code, (game, options)
    for text in ("[1]", "nope", '"x"'):
        with pytest.raises(IllegalAction, match="JSON object"):
            parse_options(text)
    assert parse_options(None) == {} and parse_options('{"decks": 3}') == {"decks": 3}


# ------------------------------------------------------------- the page's content
@pytest.mark.parametrize("game", paiju.GAMES)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_game_and_language_has_its_page(game: str, lang: str) -> None:
    for page in rendered()[game]:
        p = page[lang]
        assert len(p["intro"]) >= 2 and all(isinstance(x, str) and x for x in p["intro"])
        assert len(p["rules"]) >= 4 and len(p["scoring"]) >= 1
        ex = p["example"]
        assert ex["lines"] and len(ex["scores"]) == len(ex["names"]) == spec(game).seats
        assert sum(ex["scores"]) == 0
        texts = [*p["intro"], *(r["text"] for r in p["rules"] + p["scoring"]), *ex["lines"], *ex["names"]]
        for text in texts:
            assert isinstance(text, str) and text.strip(), text
            assert "undefined" not in text and "NaN" not in text and "null" not in text, text
            if lang == "zh":
                assert CJK.search(text), text
            else:
                assert not CJK.search(text), f"Chinese on the English page: {text!r}"


def test_the_rules_follow_the_options() -> None:
    """A page shows the rules of its options, not every option: the Qingdao preset's tribute
    is on its page and not on the standard one's; Shengji's three packs show up."""
    bh = {json.dumps(p["en"]["rules"]) for p in rendered()["baohuang"]}
    assert len(bh) > 5  # the options change what is said
    std = game_rules("baohuang", {})["options"]
    pages = dict(zip([json.dumps(o, sort_keys=True) for o in option_sets("baohuang")], rendered()["baohuang"]))
    standard = pages[json.dumps(std, sort_keys=True)]["en"]
    qingdao = pages[json.dumps(game_rules("baohuang", {"variant": "qingdao"})["options"], sort_keys=True)]["en"]
    assert not any("Tribute" in r["text"] for r in standard["rules"])
    assert any("Tribute" in r["text"] for r in qingdao["rules"])
    three = [p for o, p in zip(option_sets("shengji"), rendered()["shengji"]) if o["decks"] == 3]
    assert three and all("3 packs, 162 cards" in p["en"]["rules"][0]["text"] for p in three)


@pytest.mark.parametrize("game", paiju.GAMES)
def test_each_option_named_on_a_page_exists(game: str) -> None:
    names = room_options(game)
    for page in rendered()[game]:
        for lang in ("zh", "en"):
            for item in page[lang]["rules"] + page[lang]["scoring"]:
                assert set(item["opts"]) <= names, f"{game}: {set(item['opts']) - names} are not options"
    read = set(re.findall(r"\bo\.(\w+)", (HELP / f"{game}.js").read_text()))
    assert read and read <= names, f"{game}.js reads {read - names}, which are not options of {game}"
