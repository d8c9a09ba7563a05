"""A whole hand of each game played by taps on a phone held upright (390×844, a touch
screen), against computer players on every other seat (issue 13, item 8).

The person chooses each play the way a newcomer does: 提示 shows a suggestion, the cards
are lowered and tapped up again one by one (in Baohuang a tap raises the card's whole
rank, a tap on a raised card lowers it alone), then 出牌; when nothing beats, 不出.
Decisions are tapped (the first offered, 不亮 during the Shengji deal), the Shengji
declarer taps up the kitty's worth of cards and buries them. At the end the score screen
is on the phone's screen. Nothing is sent over the WebSocket except by the page itself.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("playwright.sync_api")
if not os.path.exists("/usr/bin/chromium"):
    pytest.skip("the browser tests need Debian's chromium at /usr/bin/chromium", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

from .driving import GAMES, HINTED_JS, Driver  # noqa: E402
from .pages import Clock  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ViewportSize

    from .conftest import HallServer

PHONE: ViewportSize = {"width": 390, "height": 844}


class Thumb(Driver):
    """A person with a phone: taps, and rebuilds the hint's suggestion by tapping cards."""

    def tap_card(self, i: int) -> None:
        # the top of a card's strip: in a two-row fan the lower row covers the upper's bottom
        self.card(i).tap(position={"x": 4, "y": 8})

    def lower_all(self) -> None:
        self.page.get_by_test_id("centre").tap()
        self.assert_raised([], "a tap on empty table space lowers everything")

    def tap_up(self, want: list[int]) -> bool:
        """Tap cards until exactly ``want`` is raised (a few rounds at most)."""
        for _ in range(4):
            got = set(self.raised())
            if got == set(want):
                return True
            extra = sorted(got - set(want))
            short = sorted(set(want) - got)
            if extra:
                self.tap_card(extra[0])  # a tap on a raised card lowers it alone
            elif short:
                self.tap_card(short[0])
            self.page.wait_for_timeout(60)
        return set(self.raised()) == set(want)

    def play(self) -> str:
        if self.raised():
            self.lower_all()
        t0 = self.begin()
        self.press(self.page.get_by_test_id("hint"))
        res = str(self.page.wait_for_function(HINTED_JS, arg=t0, timeout=10_000).json_value())
        if res == "moved":
            self.count("hint → pass")
            return "pass"
        if res != "raised":  # nothing beats: the hint says so and suggests 不出
            t0 = self.begin()
            self.press(self.page.get_by_test_id("pass"))
            self.expect_moved(t0, "pass")
            return "pass"
        hinted = self.raised()
        self.lower_all()
        if self.tap_up(hinted):
            self.count("tapped up")
        else:  # the rank taps could not make this exact play: take the hint's cards
            self.lower_all()
            for i in hinted:
                self.card(i).evaluate("el => el.scrollIntoView()")
            t0 = self.begin()
            self.press(self.page.get_by_test_id("hint"))
            self.page.wait_for_function(HINTED_JS, arg=t0, timeout=10_000)
            self.count("hint kept")
        expect(self.page.get_by_test_id("play")).to_have_class(re.compile(r"\bready\b"), timeout=5000)
        t0 = self.begin()
        self.press(self.page.get_by_test_id("play"))
        self.expect_moved(t0, "play")
        return "play"


@pytest.mark.slow
@pytest.mark.parametrize("game", list(GAMES))
def test_whole_hand_by_taps_on_a_phone(browser: Browser, server: HallServer, game: str) -> None:
    clock = Clock()
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="zh-CN")
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    errors: list[Any] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        person = Thumb(page, f"Tap{game[:2]}", game, tap=True)
        person.login(server.url)
        spec = GAMES[game]
        options = {"decks": "1"} if game == "shengji" else spec["options"]  # one pack: a short hand
        person.create_room(game, preset=spec["preset"], options=options)
        person.fill_with_bots()
        person.start()
        person.play_to_end()
        person.shot(f"phone-{game}-over")
        scores = page.get_by_test_id("scores")
        expect(scores).to_be_visible()
        rows = scores.locator("tbody tr[data-seat]")
        expect(rows).to_have_count(person.seats)
        expect(page.get_by_test_id("next-hand")).to_be_in_viewport()
        sw = page.evaluate("() => document.documentElement.scrollWidth")
        assert sw <= PHONE["width"], f"the score screen scrolls sideways: {sw}"
        tally = person.tally
        assert tally["play"] >= 2, tally
        assert tally["tapped up"] >= 1, tally
        assert not errors, errors
        print(f"{game} on a phone: {clock.seconds():.1f} s, {dict(tally)}")
    except Exception:
        shots = os.environ.get("PAIJU_SHOTS")
        if shots:
            page.screenshot(path=os.path.join(shots, f"phone-{game}-failed.png"))
        raise
    finally:
        ctx.close()
