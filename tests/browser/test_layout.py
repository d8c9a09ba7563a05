"""Every screen (issue 13, item 5): at a desktop 1366×768, a phone upright 390×844 and on its
side 844×390, in each game, while the person is to play with cards on the table, the page
needs no scrolling, every card of the hand shows a part of itself that a tap reaches, the
action buttons and every seat box are inside the viewport, and nothing overlaps: seat boxes,
the cards each seat played, the centre's items, the buttons and the hand are measured as
bounding boxes. On a phone the lobby puts the room form first and folds the rule options.

One table per game (a person and bots, made by clicks) serves the three sizes: the page is
resized, not rebuilt.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("playwright.sync_api")
if not os.path.exists("/usr/bin/chromium"):
    pytest.skip("the browser tests need Debian's chromium at /usr/bin/chromium", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

from .driving import GAMES, Driver  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from .conftest import HallServer

SIZES = {"desktop": (1366, 768), "phone": (390, 844), "landscape": (844, 390)}
SLACK = 0.5  # px of rounding

# The boxes of everything that must be seen: viewport, scroll size, the hand's cards (and
# whether a point of each card's visible strip reaches that card), the buttons, the seat
# boxes, the cards each seat played, the centre's items.
MEASURE_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}; };
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0
    && getComputedStyle(el).visibility !== "hidden"; };
  const union = (els) => {
    const bs = els.filter(shown).map(box);
    if (!bs.length) return null;
    const x = Math.min(...bs.map((b) => b.x)), y = Math.min(...bs.map((b) => b.y));
    return {x, y, w: Math.max(...bs.map((b) => b.x + b.w)) - x, h: Math.max(...bs.map((b) => b.y + b.h)) - y};
  };
  const cards = [...document.querySelectorAll('[data-testid="hand"] [data-testid="card"]')].map((el) => {
    const b = box(el);
    // the visible strip of a card in the fan is its slot; its top part is never covered
    const x = b.x + Math.min(b.w, 12) / 2, y = b.y + Math.min(b.h, 24) / 2;
    const hit = document.elementFromPoint(x, y);
    return {box: b, reached: !!hit && hit.closest('[data-testid="card"]') === el};
  });
  const seats = [...document.querySelectorAll('[data-testid^="seat-"][data-seat]')].map((s) => ({
    seat: s.dataset.seat,
    box: box(s.querySelector(".seat-box")),
    play: union([...s.querySelectorAll(".seat-play .card, .seat-play .pass-mark, .seat-play .play-type")]),
  }));
  const centre = document.querySelector('[data-testid="centre"]');
  const items = centre
    ? [...centre.children].filter(shown).map((el) => ({name: el.className || el.tagName, box: box(el)})) : [];
  const buttons = [...document.querySelectorAll(".controls button")].filter(shown)
    .map((el) => ({name: el.dataset.testid || el.textContent, box: box(el)}));
  const hand = union([...document.querySelectorAll('[data-testid="hand"] .card')]);
  const se = document.scrollingElement;
  return {vw: innerWidth, vh: innerHeight, sw: se.scrollWidth, sh: se.scrollHeight, cards, seats, items, buttons, hand};
}"""


def inside(b: dict[str, float], vw: int, vh: int) -> bool:
    return b["x"] >= -SLACK and b["y"] >= -SLACK and b["x"] + b["w"] <= vw + SLACK and b["y"] + b["h"] <= vh + SLACK


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] + a["w"] > b["x"] + SLACK
        and b["x"] + b["w"] > a["x"] + SLACK
        and a["y"] + a["h"] > b["y"] + SLACK
        and b["y"] + b["h"] > a["y"] + SLACK
    )


def problems(m: dict[str, Any]) -> list[str]:
    """Everything wrong with one measured page (empty: the layout holds)."""
    vw, vh = m["vw"], m["vh"]
    out = []
    if m["sw"] > vw + 1 or m["sh"] > vh + 1:
        out.append(f"the page scrolls: {m['sw']}×{m['sh']} in {vw}×{vh}")
    for i, c in enumerate(m["cards"]):
        if not inside(c["box"], vw, vh):
            out.append(f"card {i} is outside the viewport: {c['box']}")
        elif not c["reached"]:
            out.append(f"card {i} is covered (a tap on its visible strip does not reach it): {c['box']}")
    if not m["buttons"]:
        out.append("no action buttons")
    # named boxes that must be inside and must not overlap one another
    boxes: list[tuple[str, dict[str, float]]] = []
    for s in m["seats"]:
        boxes.append((f"seat {s['seat']}", s["box"]))
        if s["play"]:
            boxes.append((f"seat {s['seat']}'s played cards", s["play"]))
    boxes += [(f"centre {it['name']}", it["box"]) for it in m["items"]]
    boxes += [(f"button {b['name']}", b["box"]) for b in m["buttons"]]
    for name, b in boxes:
        if not inside(b, vw, vh):
            out.append(f"{name} is outside the viewport: {b}")
    if m["hand"]:
        boxes.append(("the hand", m["hand"]))
    for i, (na, a) in enumerate(boxes):
        for nb, b in boxes[i + 1 :]:
            if na.startswith("button") and nb.startswith("button"):
                continue  # a row of buttons: their own flex gap
            if na.startswith("centre") and nb.startswith("centre"):
                continue  # the centre's own column
            if overlap(a, b):
                out.append(f"{na} {a} overlaps {nb} {b}")
    return out


@pytest.fixture(scope="module")
def tables(browser: Browser, hall_server: HallServer) -> Iterator[Callable[[str], Driver]]:
    """A table of each game, made when first needed, at this seat's turn to play."""
    made: dict[str, Driver] = {}
    contexts: list[Any] = []

    def get(game: str) -> Driver:
        if game not in made:
            ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="zh-CN")
            ctx.set_default_timeout(15_000)
            contexts.append(ctx)
            person = Driver(ctx.new_page(), f"Lay{game[:3]}", game)
            person.setup_table(hall_server.url)
            person.until_play_with_cards_out()
            made[game] = person
        return made[game]

    yield get
    for ctx in contexts:
        ctx.close()


# every animation that ends (a play sliding in, the dealt hand rising) has ended; the pulse of
# the seat to act runs forever and moves nothing
SETTLED_JS = """() => document.getAnimations().every(
  (a) => a.playState !== "running" || a.effect.getComputedTiming().iterations === Infinity)"""


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(GAMES))
def test_table_fits_the_screen(tables: Callable[[str], Driver], game: str, size: str) -> None:
    person = tables(game)
    page = person.page
    w, h = SIZES[size]
    page.set_viewport_size({"width": w, "height": h})
    page.wait_for_timeout(300)  # the hand is laid out again on resize
    expect(page.get_by_test_id("play")).to_be_visible()
    page.wait_for_function(SETTLED_JS)  # cards sliding in are measured where they come to rest
    found = problems(page.evaluate(MEASURE_JS))
    if found and os.environ.get("PAIJU_SHOTS"):
        page.screenshot(path=os.path.join(os.environ["PAIJU_SHOTS"], f"layout-{game}-{size}.png"))
    assert not found, f"{game} at {w}×{h}:\n" + "\n".join(found)


def test_phone_lobby_puts_the_form_first(browser: Browser, hall_server: HallServer) -> None:
    """On a phone the room form (创建房间) comes before the room list; the rule options are
    folded; their tooltips are in the page's language."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    try:
        page = ctx.new_page()
        person = Driver(page, "Phoebe", "baohuang")
        person.login(hall_server.url)
        form = page.get_by_test_id("create-form")
        expect(form).to_be_visible()
        create = page.get_by_test_id("create")
        expect(create).to_be_in_viewport()
        rooms = page.get_by_test_id("room-list").bounding_box()
        fbox = form.bounding_box()
        assert rooms and fbox and fbox["y"] < rooms["y"], f"the form {fbox} comes after the room list {rooms}"
        details = page.locator("details.more-options")
        expect(details).to_have_count(1)
        assert details.get_attribute("open") is None, "the rule options open folded"
        expect(page.get_by_test_id("opt-kick")).to_be_hidden()
        details.locator("summary").click()
        expect(page.get_by_test_id("opt-kick")).to_be_visible()
        # the Chinese page's option tooltips are Chinese (the hall's descriptions are English)
        tip = page.locator("label.opt", has=page.get_by_test_id("opt-rebellion")).get_attribute("title") or ""
        assert tip.startswith("造反：") and "double" not in tip, tip
    finally:
        ctx.close()
