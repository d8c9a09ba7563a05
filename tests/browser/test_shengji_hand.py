"""A person plays a whole hand of 升级 Shengji in Chromium against three computer players:
the room is made in the lobby (a game without presets), the deal shows each card as it
arrives and asks for a declaration (the person declares when the cards allow, else
passes, by clicking), the declarer buries the kitty by selecting cards and pressing Bury,
and the tricks are played with Hint + right-click / Play to the score screen, which shows
the kitty, its multiplier, the level change and the new levels.
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


def deal_decision(person: FourSeatPlayer, declared: bool) -> bool:
    """Click a declare button (the first time one is offered) or Pass; True once declared."""
    page = person.page
    buttons = page.locator('[data-testid^="decide-"]')
    expect(buttons.first).to_be_visible()
    ids = [b.get_attribute("data-testid") or "" for b in buttons.all()]
    declares = [i for i in ids if i.startswith("decide-declare_")]
    choice = declares[0] if declares and not declared else "decide-no"
    before = len(person.state()["cards"])
    t0 = person.begin()
    page.get_by_test_id(choice).click()
    person.expect_moved(t0, "declare" if choice != "decide-no" else "deal pass")
    if choice != "decide-no":
        expect(page.get_by_test_id("declaration")).to_contain_text(re.compile(r"Ann"))
    assert len(person.state()["cards"]) >= before
    return declared or choice != "decide-no"


def bury(person: FourSeatPlayer) -> None:
    """Select as many cards as the kitty holds (one click each: a click raises one card) and
    press Bury; the client sends one `bury` per card and the hand goes on to play."""
    page = person.page
    count = page.get_by_test_id("bury-count")
    expect(count).to_contain_text("Buried 0/")
    need = int(re.search(r"/(\d+)", count.inner_text()).group(1))  # type: ignore[union-attr]
    cards = person.state()["cards"]
    assert len(cards) == 25 + need, f"the declarer holds his cards and the kitty: {len(cards)}"
    expect(page.locator('[data-testid="hand"] [data-kitty="true"]')).to_have_count(need)
    chosen = list(range(len(cards) - need, len(cards)))  # the lowest plain cards: the right end
    for i in chosen:
        person.card(i).click()
    person.assert_raised(chosen, "each click raises one more card")
    person.shot("shengji-bury")
    button = page.get_by_test_id("bury")
    expect(button).to_be_enabled()
    button.click()
    expect(person.table).not_to_have_attribute("data-phase", "bury", timeout=15_000)
    person.count("bury")


def test_whole_shengji_hand(server: HallServer, page: Page) -> None:
    clock = Clock()
    ann = FourSeatPlayer(page, "Ann")
    ann.login(server.url)
    ann.create_room("shengji", options={"decks": "2"})
    ann.fill_with_bots()
    ann.start()
    expect(page.get_by_test_id("level")).to_have_text("Level 2")
    expect(page.get_by_test_id("team-levels")).to_contain_text("Us 2")
    # every decision of the deal is the person's click (no automatic pass)
    auto = page.get_by_test_id("auto-no")
    expect(auto).to_be_visible()
    if auto.get_attribute("aria-pressed") == "true":
        auto.click()
        expect(auto).to_have_attribute("aria-pressed", "false")
    declared = False
    seen_cards = 0
    exercised = False
    while True:
        what = ann.wait_next()
        if what == "over":
            break
        if what == "deal":
            n = len(ann.state()["cards"])
            assert n >= seen_cards, "cards arrive one by one during the deal"
            seen_cards = n
            if ann.tally.get("deal pass", 0) == 12:
                ann.shot("shengji-deal")
            declared = deal_decision(ann, declared)
        elif what == "bury":
            bury(ann)
        elif what == "play":
            if not exercised:
                exercised = True
                ann.shot("shengji-play")
                ann.exercise_selection()
            ann.hint_and_play()
        else:
            raise AssertionError(f"unexpected phase {what}")
    ann.shot("shengji-over")
    points = ann.check_scores()
    # the end: the kitty with its multiplier, the level change and the new levels
    expect(page.get_by_test_id("kitty-result")).to_contain_text(re.compile(r"× ?\d+"))
    expect(page.locator('[data-testid="kitty-result"] .card')).to_have_count(8)
    expect(page.get_by_test_id("sj-outcome")).to_contain_text(re.compile(r"Declarers hold|Defenders take over"))
    expect(page.get_by_test_id("new-levels")).to_contain_text("→")
    assert abs(points[0]) <= 6
    tally = ann.tally
    assert tally.get("deal pass", 0) + tally.get("declare", 0) >= 20, tally  # a decision per card dealt
    assert tally.get("hint → play", 0) >= 10, tally
    assert tally.get("right-click", 0) >= 1 and tally.get("Play button", 0) >= 1, tally
    assert tally.get("selection exercised") == 1, tally
    # the deal shows declarations; the play shows tricks with the winner marked
    assert not getattr(page, "errors", []), page.errors  # type: ignore[attr-defined]
    print(f"shengji hand: {clock.seconds():.1f} s, {tally}")
    assert clock.seconds() < 90
