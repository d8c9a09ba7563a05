"""Titles 游戏等级 (paiju.titles): each game's ladder, its boundaries per game, docs/titles.md."""

import doctest
import re
from pathlib import Path

import pytest

import paiju
import paiju.titles
from paiju.titles import LADDERS, PEASANTS, SCALE, THRESHOLDS, VEHICLES, Title, ladder, title

DOC = Path(__file__).resolve().parents[1] / "docs" / "titles.md"
SEED_LINE = "大号是飞机了，小号都也是轿车了"  # seed 003: a Shengji player of the QQ hall
CJK = re.compile(r"[\u3400-\u9fff]")


def test_the_doctests() -> None:
    result = doctest.testmod(paiju.titles)
    assert result.attempted >= 4 and result.failed == 0


@pytest.mark.parametrize("steps", [PEASANTS, VEHICLES], ids=["peasants", "vehicles"])
def test_every_ladder_is_strictly_rising_and_named_in_both_languages(steps: tuple[tuple[int, str, str], ...]) -> None:
    thresholds = [t for t, _, _ in steps]
    assert thresholds[0] == 0
    assert all(a < b for a, b in zip(thresholds, thresholds[1:]))
    assert len({zh for _, zh, _ in steps}) == len({en for _, _, en in steps}) == len(steps)
    for _, zh, en in steps:
        assert all(CJK.match(c) for c in zh), zh  # Chinese names
        assert en and not CJK.search(en) and en[0].isupper(), en  # English names


def test_each_game_has_its_ladder() -> None:
    assert set(LADDERS) == set(SCALE) == set(paiju.GAMES)
    assert LADDERS["baohuang"] is PEASANTS and LADDERS["shuangkou"] is PEASANTS
    assert LADDERS["shengji"] is VEHICLES
    assert [t for t, _, _ in PEASANTS] == [t for t, _, _ in VEHICLES] == list(THRESHOLDS)
    assert [zh for _, zh, _ in PEASANTS][:3] == ["包身工", "短工", "长工"]
    assert PEASANTS[-1][1:] == ("帝王", "Emperor")


def test_the_vehicle_ladder_follows_the_seed() -> None:
    """「大号是飞机了，小号都也是轿车了」: 飞机 and 轿车 are titles, the aeroplane the higher."""
    names = [zh for _, zh, _ in VEHICLES]
    assert "飞机" in SEED_LINE and "轿车" in SEED_LINE
    assert names.index("轿车") < names.index("飞机")
    assert title("shengji", 0).name_zh == "滑板" and title("shengji", 10**9).name_zh == "火箭"
    assert not {zh for _, zh, _ in VEHICLES} & {zh for _, zh, _ in PEASANTS}


def test_every_game_has_a_scale() -> None:
    assert all(isinstance(s, int) and s >= 1 for s in SCALE.values())
    assert SCALE == {"baohuang": 1, "shuangkou": 1, "shengji": 4}


@pytest.mark.parametrize("game", paiju.GAMES)
def test_each_games_ladder_is_strictly_increasing(game: str) -> None:
    titles = ladder(game)
    assert [t.level for t in titles] == list(range(1, len(LADDERS[game]) + 1))
    assert [(t.name_zh, t.name_en) for t in titles] == [(zh, en) for _, zh, en in LADDERS[game]]
    floors = [t.floor for t in titles]
    assert all(a < b for a, b in zip(floors, floors[1:]))
    assert [t.next_at for t in titles] == [*floors[1:], None]


@pytest.mark.parametrize("game", paiju.GAMES)
def test_each_boundary(game: str) -> None:
    for t in ladder(game):
        assert title(game, t.floor) == t  # at the floor
        if t.level > 1:
            assert title(game, t.floor - 1).level == t.level - 1  # just below
        if t.next_at is not None:
            assert title(game, t.next_at - 1) == t  # the last point of the title


def test_scaled_thresholds() -> None:
    assert title("baohuang", 19).name_zh == "包身工"
    assert title("baohuang", 20).name_zh == "短工"
    assert title("shuangkou", 5500) == Title(13, "小财主", "Small squire", 5500, 7500)
    assert title("shengji", 4).name_zh == "滑板"
    assert title("shengji", 5).name_zh == "滑板车"  # 5 levels × 4 = 20 ladder points
    assert title("shengji", 549).level == 9
    assert title("shengji", 550) == Title(10, "轿车", "Saloon car", 550, 750)
    assert title("shengji", 10000) == Title(20, "飞机", "Aeroplane", 10000, 12500)
    assert title("shengji", 20000) == Title(23, "火箭", "Rocket", 20000, None)


@pytest.mark.parametrize("game", paiju.GAMES)
def test_negative_points_stay_at_the_lowest_title(game: str) -> None:
    for points in (-1, -20, -(10**9)):
        assert title(game, points) == ladder(game)[0]
        assert title(game, points).level == 1


@pytest.mark.parametrize("game", paiju.GAMES)
def test_top_title(game: str) -> None:
    top = title(game, 10**12)
    assert top == ladder(game)[-1] and top.next_at is None
    assert (top.name_zh, top.name_en) == LADDERS[game][-1][1:]


def test_title_is_frozen() -> None:
    t = title("baohuang", 0)
    with pytest.raises(AttributeError):
        t.level = 2  # type: ignore[misc]


def test_unknown_game_and_bad_points() -> None:
    with pytest.raises(ValueError, match="unknown game 'doudizhu'"):
        title("doudizhu", 10)
    with pytest.raises(ValueError, match="unknown game"):
        ladder("Baohuang")
    with pytest.raises(ValueError, match="points must be an int"):
        title("baohuang", 1.5)  # type: ignore[arg-type]


def test_doc_tables_match_the_code() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "[decision]" in text and SEED_LINE in text
    assert "no migration" in text  # nothing stores a title: see the doc
    for game in paiju.GAMES:
        section = re.search(rf"^## [^\n]*{game} \(×(\d+)\)\n(.*?)(?=^## |\Z)", text, re.M | re.S | re.I)
        assert section, game
        assert int(section.group(1)) == SCALE[game]
        rows = re.findall(r"^\| (\d+) \| (\S+) \| ([^|]+) \| (\d+) \|$", section.group(2), re.M)
        assert [(int(lv), zh, en.strip(), int(floor)) for lv, zh, en, floor in rows] == [
            (t.level, t.name_zh, t.name_en, t.floor) for t in ladder(game)
        ]
