"""Titles 游戏等级 (paiju.titles): the ladder, its boundaries per game, docs/titles.md."""

import re
from pathlib import Path

import pytest

import paiju
from paiju.titles import LADDER, SCALE, Title, ladder, title

DOC = Path(__file__).resolve().parents[1] / "docs" / "titles.md"


def test_ladder_has_23_titles_strictly_increasing() -> None:
    thresholds = [t for t, _, _ in LADDER]
    assert len(LADDER) == 23
    assert thresholds[0] == 0
    assert all(a < b for a, b in zip(thresholds, thresholds[1:]))
    assert [zh for _, zh, _ in LADDER][:3] == ["包身工", "短工", "长工"]
    assert LADDER[-1][1:] == ("帝王", "Emperor")
    assert len({zh for _, zh, _ in LADDER}) == len({en for _, _, en in LADDER}) == 23


def test_every_game_has_a_scale() -> None:
    assert set(SCALE) == set(paiju.GAMES)
    assert all(isinstance(s, int) and s >= 1 for s in SCALE.values())
    assert SCALE == {"baohuang": 1, "shuangkou": 1, "shengji": 4}


@pytest.mark.parametrize("game", paiju.GAMES)
def test_each_games_ladder_is_strictly_increasing(game: str) -> None:
    titles = ladder(game)
    assert [t.level for t in titles] == list(range(1, 24))
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
    assert title("shengji", 4).name_zh == "包身工"
    assert title("shengji", 5).name_zh == "短工"  # 5 levels × 4 = 20 ladder points
    assert title("shengji", 1374).level == 12
    assert title("shengji", 1375) == Title(13, "小财主", "Small squire", 1375, 1875)
    assert title("shengji", 20000) == Title(23, "帝王", "Emperor", 20000, None)


@pytest.mark.parametrize("game", paiju.GAMES)
def test_negative_points_stay_at_the_lowest_title(game: str) -> None:
    for points in (-1, -20, -(10**9)):
        assert title(game, points) == ladder(game)[0]
        assert title(game, points).level == 1


@pytest.mark.parametrize("game", paiju.GAMES)
def test_top_title(game: str) -> None:
    top = title(game, 10**12)
    assert top.level == 23 and top.name_zh == "帝王" and top.next_at is None


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
    assert "[decision]" in text
    for game in paiju.GAMES:
        section = re.search(rf"^## [^\n]*{game} \(×(\d+)\)\n(.*?)(?=^## |\Z)", text, re.M | re.S | re.I)
        assert section, game
        assert int(section.group(1)) == SCALE[game]
        rows = re.findall(r"^\| (\d+) \| (\S+) \| ([^|]+) \| (\d+) \|$", section.group(2), re.M)
        assert [(int(lv), zh, en.strip(), int(floor)) for lv, zh, en, floor in rows] == [
            (t.level, t.name_zh, t.name_en, t.floor) for t in ladder(game)
        ]
