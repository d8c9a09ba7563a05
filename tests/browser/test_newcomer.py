"""A newcomer at a Baohuang table (issue 13): a refused selection says why in the page's
language beside the hand (never over the seats) and keeps 出牌 disabled; 提示 cycles, says
when nothing beats and never acts; 托管 is announced with its reason and count, explained
before the button takes effect, and named at the end; the score screen explains itself.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("playwright.sync_api")
if not os.path.exists("/usr/bin/chromium"):
    pytest.skip("the browser tests need Debian's chromium at /usr/bin/chromium", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

from .test_browser import Person, no_page_errors, rank_groups, rank_of  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Callable

    from .conftest import HallServer

RAW_CARD = re.compile(r"(?<![A-Za-z])(?:[2-9TJQKA][shdc]|BJ\*?|SJ\*?)(?![A-Za-z])")  # card codes, not labels
CHECK_DONE_JS = """() => {
  const b = document.querySelector('[data-testid="play"]');
  return !!b && b.dataset.check !== "pending";
}"""


# the element's box and every seat's box, measured at one moment (the table re-renders often)
BOXES_JS = """(testid) => {
  const r = (el) => {
    const b = el.getBoundingClientRect();
    return {x: b.x, y: b.y, width: b.width, height: b.height};
  };
  const el = document.querySelector(`[data-testid="${testid}"]`);
  if (!el) return null;
  const seats = [...document.querySelectorAll('[data-testid^="seat-"][data-seat]')];
  return {box: r(el), seats: seats.map((s) => [s.dataset.seat, r(s)])};
}"""


def boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and (b["y"] < a["y"] + a["height"])
    )


def not_over_seats(page: Page, testid: str) -> None:
    got = page.evaluate(BOXES_JS, testid)
    assert got is not None, f"no {testid} on the page"
    box = got["box"]
    assert box["width"] > 0, f"{testid} is not shown"
    assert got["seats"], "no seats on the page"
    for seat, sb in got["seats"]:
        assert not boxes_overlap(box, sb), f"{testid} {box} lies over seat {seat} {sb}"


def message(page: Page) -> Any:
    return page.get_by_test_id("message")


def seated(page: Page, server: HallServer, name: str, timeout: int | None = None) -> Person:
    """A person at a fresh Baohuang table with four computer players, the hand started."""
    p = Person(page, name)
    p.login(server.url)
    if timeout is None:
        p.create_room("baohuang", preset="standard")
    else:  # a short turn timeout: 托管 takes over soon
        page.get_by_test_id("opt-game").select_option("baohuang")
        page.get_by_test_id("opt-variant").select_option("standard")
        page.get_by_test_id("opt-turn_timeout").fill(str(timeout))
        page.get_by_test_id("create").click()
        expect(p.table).to_have_attribute("data-my-seat", "0")
        expect(p.table).to_have_attribute("data-connection", "open")
        p.seat = "0"
    p.fill_with_bots("normal")
    p.start()
    return p


def wait_check(page: Page) -> str:
    page.wait_for_function(CHECK_DONE_JS, timeout=5000)
    return str(page.get_by_test_id("play").get_attribute("data-check"))


def test_illegal_selection_disables_play_and_says_why(server: HallServer, new_page: Callable[..., Page]) -> None:
    page = new_page(locale="zh-CN")
    ann = seated(page, server, "安")
    play = page.get_by_test_id("play")
    seen_illegal = seen_legal = False
    for _ in range(15):  # a few own turns: one with two ordinary ranks to raise, one with a legal group
        assert ann.play_hand(stop_after=0) is False, "the hand ended first"
        st = ann.state()
        if st["raised"]:
            ann.lower_all()
        # nothing raised: the button reads just 出牌 and is disabled
        expect(play).to_have_text("出牌")
        expect(play).to_be_disabled()
        groups = [g for g in rank_groups(st["cards"]) if rank_of(st["cards"][g[0]]) not in ("SJ", "BJ")]
        if len(groups) >= 2 and not seen_illegal:
            ann.card(groups[0][0]).click()
            ann.card(groups[1][0]).click(modifiers=["Control"])  # two ranks: never a play
            assert wait_check(page) == "illegal"
            expect(play).to_be_disabled()
            expect(message(page)).to_have_attribute("data-kind", "error")
            text = message(page).inner_text()
            assert re.search(r"[\u4e00-\u9fff]", text), f"the reason is not in Chinese: {text!r}"
            assert not RAW_CARD.search(text), f"card codes in the reason: {text!r}"
            assert "is not a play" not in text
            not_over_seats(page, "message")
            ann.shot("newcomer-illegal")
            turn = st["turn"]
            ann.right_click_hand()  # refused in the page: nothing is sent, the turn stays
            expect(message(page)).to_have_attribute("data-kind", "error")
            assert ann.state()["turn"] == turn
            ann.lower_all()
            expect(message(page)).to_be_hidden()
            seen_illegal = True
        for g in groups:  # a legal group: enabled on the server's word
            ann.card(g[0]).click()
            verdict = wait_check(page)
            if verdict == "ok":
                expect(play).to_be_enabled()
                expect(play).to_have_class(re.compile(r"\bready\b"))
                assert message(page).get_attribute("data-kind") != "error"
                seen_legal = True
                t0 = ann.begin()
                play.click()
                ann.expect_moved(t0, "Play button")
                break
            expect(play).to_be_disabled()
            expect(message(page)).to_have_attribute("data-kind", "error")
            ann.lower_all()
        else:  # no whole rank beats: the hint's play (or pass), so that the person may win a lead
            t0 = ann.begin()
            page.get_by_test_id("hint").click()
            res = ann.wait_after(t0, want_raised=True)
            assert res != "moved", "the hint never acts by itself"
            t0 = ann.begin()
            if res == "raised":
                expect(play).to_be_enabled()
                play.click()
            else:
                page.get_by_test_id("pass").click()
            ann.expect_moved(t0, "hint's play or pass")
        if seen_illegal and seen_legal:
            break
    assert seen_illegal and seen_legal
    no_page_errors(page)


def test_hint_cycles_says_nothing_beats_and_never_acts(server: HallServer, page: Page) -> None:
    bo = seated(page, server, "Bo")
    cycled = nothing_beats = False
    hands = 0
    while not (cycled and nothing_beats) and hands < 3:
        what = bo.wait_next()
        if what == "over":
            hands += 1
            page.get_by_test_id("next-hand").click()
            expect(bo.table).to_have_attribute("data-status", "playing")
            continue
        if what == "setup":
            bo.decide()
            continue
        if bo.raised():
            bo.lower_all()
        turn = bo.state()["turn"]
        seen = []
        t0 = bo.begin()
        page.get_by_test_id("hint").click()
        res = bo.wait_after(t0, want_raised=True)
        assert res != "moved", "the hint acted by itself"
        if res == "nothing beats":
            text = message(page).inner_text()
            assert "Nothing beats" in text and "pass" in text, text
            assert bo.raised() == []
            expect(page.get_by_test_id("pass")).to_be_enabled()
            not_over_seats(page, "message")
            nothing_beats = True
        else:
            assert res == "raised"
            seen.append(bo.raised())
            expect(page.get_by_test_id("play")).to_be_enabled()
            first = message(page).inner_text() if message(page).is_visible() else ""
            if first.startswith("Hint 1/"):  # more than one suggestion: the next press gives the next
                page.get_by_test_id("hint").click()
                expect(message(page)).not_to_have_text(first)
                expect(message(page)).to_contain_text("Hint 2/")
                seen.append(bo.raised())
                expect(page.get_by_test_id("play")).to_be_enabled()
        page.wait_for_timeout(300)
        assert bo.state()["turn"] == turn, "pressing 提示 must never act"
        if len(seen) == 2 and seen[0] != seen[1]:
            cycled = True
        t0 = bo.begin()
        if seen:
            expect(page.get_by_test_id("play")).to_be_enabled()
            page.get_by_test_id("play").click()
            bo.expect_moved(t0, "hint → play")
        else:
            page.get_by_test_id("pass").click()
            bo.expect_moved(t0, "hint → pass")
    assert cycled, "a second press of 提示 at a turn gave the same suggestion every time"
    assert nothing_beats, "no turn where nothing beats came up"
    no_page_errors(page)


@pytest.mark.slow  # a whole scenario of 20-45 s: make test-slow (CI runs it)
def test_hosted_banner_after_a_timeout_and_named_at_the_end(server: HallServer, page: Page) -> None:
    cy = seated(page, server, "Cy", timeout=5)
    banner = page.get_by_test_id("hosted-banner")
    # nobody answers: the timer runs out and 托管 takes over, told with its reason and count
    expect(banner).to_be_visible(timeout=30_000)
    expect(banner).to_contain_text("Auto-play 1/3")
    assert not re.search(r"null|undefined", banner.inner_text()), banner.inner_text()
    expect(banner).to_contain_text("time ran out")
    expect(banner).to_have_attribute("data-reason", "timeout")
    expect(page.get_by_test_id("hosted-warning")).to_contain_text("dissolved")
    expect(page.get_by_test_id("hosted-0")).to_contain_text("1/3")
    not_over_seats(page, "hosted-banner")
    cy.shot("newcomer-hosted")
    # it stays on to the end: the table is dissolved, the message names Cy, the hand counts 0
    scores = page.get_by_test_id("scores")
    expect(scores).to_be_visible(timeout=60_000)
    expect(page.get_by_test_id("room-message")).to_contain_text("Cy")
    assert "Every player" not in page.get_by_test_id("room-message").inner_text()
    line = page.get_by_test_id("result-line")
    expect(line).to_have_attribute("data-result", "unscored")
    expect(line).to_contain_text("auto-play")
    points = [r.locator("td").nth(3).inner_text() for r in scores.locator("tbody tr[data-seat]").all()]
    assert points and all(p in ("0", "+0") for p in points), f"a hand not scored shows 0 for everyone: {points}"
    cy.count("hosted")
    no_page_errors(page)


def test_hosted_button_explains_the_rule_first(server: HallServer, page: Page) -> None:
    dee = seated(page, server, "Dee")
    button = page.get_by_test_id("hosted")
    button.click()
    confirm = page.get_by_test_id("hosted-confirm")
    expect(confirm).to_be_visible()
    expect(confirm).to_contain_text("3")
    expect(confirm).to_contain_text("dissolved")
    page.get_by_test_id("hosted-confirm-no").click()
    expect(confirm).to_be_hidden()
    expect(button).to_have_attribute("aria-pressed", "false")
    button.click()
    page.get_by_test_id("hosted-confirm-yes").click()
    expect(button).to_have_attribute("aria-pressed", "true")
    banner = page.get_by_test_id("hosted-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Auto-play 1/3")
    expect(banner).to_have_attribute("data-reason", "button")
    button.click()  # off at once, no question
    expect(button).to_have_attribute("aria-pressed", "false")
    expect(banner).to_be_hidden()
    dee.count("hosted")
    no_page_errors(page)


@pytest.mark.slow  # a whole scenario of 20-45 s: make test-slow (CI runs it)
def test_score_screen_explains_the_result(server: HallServer, new_page: Callable[..., Page]) -> None:
    page = new_page(locale="zh-CN")
    eve = seated(page, server, "伊芙")
    assert eve.play_hand() is True
    eve.check_scores()
    line = page.get_by_test_id("result-line")
    expect(line).to_be_visible()
    result = line.get_attribute("data-result")
    assert result in ("won", "lost", "drew"), result
    assert {"won": "你赢了", "lost": "你输了", "drew": "你打平了"}[result] in line.inner_text()
    mults = page.get_by_test_id("score-multipliers")
    factors = mults.get_by_test_id("factor")
    expect(factors.first).to_be_visible()
    assert re.search(r"\d", factors.first.inner_text()), f"the base has its number: {factors.first.inner_text()!r}"
    for f in factors.all()[1:]:
        assert re.search(r"×\d+", f.inner_text()), f"a multiplier without its factor: {f.inner_text()!r}"
    expect(mults.get_by_test_id("multiplier-total")).to_contain_text("×")
    left = page.get_by_test_id("hands-left")
    expect(left).to_be_visible()
    rows = left.locator('[data-testid^="hands-left-"]')
    expect(rows).to_have_count(5)
    held = [r for r in rows.all() if r.get_attribute("data-cards")]
    assert held, "somebody holds cards when a Baohuang hand ends"
    for r in held:
        labels = r.locator(".card-label")
        assert labels.count() == len((r.get_attribute("data-cards") or "").split())
        assert not RAW_CARD.search(r.inner_text()), f"card codes instead of labels: {r.inner_text()!r}"
    eve.shot("newcomer-scores")
    no_page_errors(page)
