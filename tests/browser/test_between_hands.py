"""Between hands, as two play-throughs found it (issue 29, item 6; docs/decisions.md, "Between
hands 准备 and quick start 快速开始"):

- the 准备 countdown that runs out stands the reading person up (a notice, no 托管, no
  dissolved table) and says so beforehand; "‹ 返回大厅" says it stands you up, and does;
- a newcomer in another person's old seat is not shown that person's score screen as his
  own: it names who played, and his running total starts at 0;
- quick start never drops a person into a match between its hands, names its room in the
  page's language and starts the hand without 开始.

The first hand is played by a second connection of the same person (the server test
harness's client) so that the test reaches "between hands" in seconds.
"""

from __future__ import annotations

import os
import re
import time
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("playwright.sync_api")
if not os.path.exists("/usr/bin/chromium"):
    pytest.skip("the browser tests need Debian's chromium at /usr/bin/chromium", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

from server.harness import Client, act_policy, biggest  # noqa: E402

from .conftest import HallServer  # noqa: E402
from .pages import FourSeatPlayer  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

READY_TIMEOUT = 6
SIZES = [(1366, 768), (390, 844), (844, 390)]


@pytest.fixture
def countdown_server(tmp_path: Path) -> Iterator[HallServer]:
    server = HallServer(tmp_path, args=["--ready-timeout", str(READY_TIMEOUT)]).start()
    try:
        yield server
    finally:
        server.stop()


def same_person(page: Page, server: HallServer, room: str) -> Client:
    """A second connection of the page's person that plays every turn of theirs at once."""
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "paiju_token")
    url = f"ws://127.0.0.1:{server.port}/ws/{room}?token={token}"
    return Client(url, headers={"Origin": server.url.rstrip("/")}, policy=act_policy(biggest))


@pytest.mark.slow
def test_the_countdown_stands_the_reader_up_and_a_newcomer_starts_his_own_match(
    countdown_server: HallServer, new_page: Callable[..., Page]
) -> None:
    server = countdown_server
    page = new_page(viewport={"width": 1366, "height": 768}, locale="zh-CN")
    ann = FourSeatPlayer(page, "安")
    ann.login(server.url)
    room = ann.create_room("shuangkou")
    ann.fill_with_bots()
    with same_person(page, server, room) as helper:
        ann.start()
        expect(page.get_by_test_id("scores")).to_be_visible(timeout=60_000)  # hand 1 over: between hands
        # before: the countdown says what its end does, the way back says it stands you up
        expect(page.get_by_test_id("ready-countdown").first).to_contain_text("否则将离座")
        expect(page.get_by_test_id("back")).to_have_attribute("data-stands", "true")
        expect(page.get_by_test_id("back")).to_contain_text("离座")
        # nobody presses 准备: stood up, told why, no hand dealt on 托管, the table not dissolved
        expect(ann.table).not_to_have_attribute("data-my-seat", "0", timeout=(READY_TIMEOUT + 10) * 1000)
        expect(page.get_by_test_id("toast").filter(has_text="没有准备")).to_be_visible()
        helper.until(lambda m: m["type"] == "notice" and m["params"]["by"] == "not_ready")
    time.sleep(1.0)
    expect(ann.table).to_have_attribute("data-status", "between")
    assert "dissolved" not in (
        page.get_by_test_id("scores").inner_text() if page.get_by_test_id("scores").count() else ""
    )

    # a newcomer (a phone) sits in the old seat: not his score screen, his total 0, hand 1 is 安's
    bo_page = new_page(viewport={"width": 390, "height": 844}, locale="en-US")
    bo = FourSeatPlayer(bo_page, "Bo")
    bo.login(server.url)
    # quick start first: never this match between its hands; its own room, named in English, dealt at once
    bo_page.get_by_test_id("quick-start-shuangkou").click()
    expect(bo.table).to_have_attribute("data-status", "playing")
    assert bo.table.get_attribute("data-room") != room
    expect(bo_page.locator(".room-name")).to_have_text(re.compile(r"quick start", re.I))
    bo_page.goto(server.url + f"#/room/{room}")
    expect(bo.table).to_have_attribute("data-room", room)
    bo_page.get_by_test_id("close-scores").click()  # a spectator is shown the last hand's scores
    bo_page.get_by_test_id("sit-0").click()
    expect(bo.table).to_have_attribute("data-my-seat", "0")
    bo_page.reload()  # seated in another's old seat, the page does not open that hand's scores as his
    expect(bo.table).to_have_attribute("data-my-seat", "0")
    expect(bo_page.get_by_test_id("show-scores")).to_be_visible()
    expect(bo_page.get_by_test_id("scores")).to_be_hidden()
    bo_page.get_by_test_id("show-scores").click()
    scores = bo_page.get_by_test_id("scores")
    row = scores.locator('tbody tr[data-seat="0"]')
    expect(row.locator("td").first).to_have_text("安")  # who played it, not the chair's present person
    expect(row.locator("td").last).to_have_text("0")  # his running total starts at 0
    # the way back between hands stands him up, at every size
    for width, height in SIZES:
        bo_page.set_viewport_size({"width": width, "height": height})
        expect(bo_page.get_by_test_id("back")).to_be_in_viewport()
    bo_page.get_by_test_id("back").click()
    expect(bo_page.get_by_test_id("lobby")).to_be_visible()
    deadline = time.monotonic() + 10
    while True:
        seats = page.evaluate(f"fetch('/api/rooms/{room}').then((r) => r.json()).then((d) => d.seats)")
        if seats[0]["player"] is None:
            break
        assert time.monotonic() < deadline, f"'‹ back' left the seat taken: {seats[0]}"
        time.sleep(0.2)
    assert not page.errors and not bo_page.errors  # type: ignore[attr-defined]
