"""A person plays a whole hand of 双扣 Shuangkou in Chromium against three computer
players: the room is made in the lobby (a game without presets), partners are marked, a
click raises one card, every play is named by its combination type, and the hand is
played with Hint + right-click / Play (and passes) to the score screen, which names the
result (双扣 / 单扣 / 平扣), the finishing order and the match score.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("playwright.sync_api")
if not os.path.exists("/usr/bin/chromium"):
    pytest.skip("the browser tests need Debian's chromium at /usr/bin/chromium", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

from .pages import Clock, FourSeatPlayer  # noqa: E402

if TYPE_CHECKING:
    from .conftest import HallServer

TYPES = re.compile(r"single|pair|triple|straight|pair run|triple run|bomb|four jokers")


def pass_by_right_click(person: FourSeatPlayer) -> bool:
    """With nothing raised a right-click passes (when passing is legal)."""
    if not person.pass_enabled():
        return False
    t0 = person.begin()
    person.right_click_hand()
    person.expect_moved(t0, "right-click pass")
    return True


@pytest.mark.slow  # a whole hand by clicks: ~13 s (make test-slow)
def test_whole_shuangkou_hand(server: HallServer, page: Page) -> None:
    clock = Clock()
    bea = FourSeatPlayer(page, "Bea")
    bea.login(server.url)
    bea.create_room("shuangkou")
    bea.fill_with_bots()
    bea.start()
    expect(page.get_by_test_id("card")).to_have_count(27)
    cards = bea.state()["cards"]
    strengths = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "SJ", "BJ"]
    order = [strengths.index(c[:2] if c[:2] in ("SJ", "BJ") else c[0]) for c in cards]
    assert order == sorted(order), f"the hand is sorted 3 … A 2 SJ BJ: {cards}"
    expect(page.get_by_test_id("team-0")).to_contain_text("Bea")
    exercised = False
    turns = 0
    while True:
        what = bea.wait_next()
        if what == "over":
            break
        assert what == "play", what
        turns += 1
        if not exercised:
            exercised = True
            bea.exercise_selection()
        if turns % 5 == 4 and pass_by_right_click(bea):
            continue
        bea.hint_and_play()
        if bea.tally.get("hint → play") == 3:
            bea.shot("shuangkou-play")
            # the plays on the table are named by their combination type
            expect(page.locator('[data-testid^="play-type-"]').first).to_have_text(TYPES)
            expect(page.get_by_test_id("combo-type")).to_have_text(TYPES)
    bea.shot("shuangkou-over")
    points = bea.check_scores()
    result = page.get_by_test_id("sk-result")
    expect(result).to_have_attribute("data-result", re.compile(r"^(double|single|level)$"))
    expect(result).to_contain_text(re.compile(r"\b(double|single|level) win\b"))  # the English page: all English
    expect(page.get_by_test_id("finish-order-result")).to_contain_text("→")
    match = page.get_by_test_id("match-score")
    expect(page.get_by_test_id("match-score-0")).to_have_text(f"Us {points[0]}")
    expect(page.get_by_test_id("match-score-1")).to_have_text(f"Them {points[1]}")
    expect(match).to_be_visible()
    tally = bea.tally
    assert tally.get("hint → play", 0) >= 5, tally
    assert tally.get("right-click", 0) >= 1 and tally.get("Play button", 0) >= 1, tally
    assert tally.get("selection exercised") == 1, tally
    assert not getattr(page, "errors", []), page.errors  # type: ignore[attr-defined]
    print(f"shuangkou hand: {clock.seconds():.1f} s, {tally}")
    assert clock.seconds() < 90
