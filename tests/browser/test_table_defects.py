"""Defects of the table a play-through found (issue 29, item 6), in Chromium:

- the score screen says each seat's beans won or lost in the hand; the hand's replay is a
  link in sight beside 准备, and the 牌谱 panel's hand numbers link to #/replay/{room}/{n};
- a score line that counts 0 says why: Baohuang's base of 0 (6 − places), Shengji's kitty
  kept by the declarers;
- while the declarer buries the kitty, one line says whom the table waits for;
- 明保 is asked with a prompt that makes sense to every seat, explained in a tooltip.

The finished hands are record files the engine plays in this process (the replay viewer
shows their last step's score screen), and one live hand the page's own socket plays.
"""

from __future__ import annotations

import json
import os
import re
import time
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("playwright.sync_api")
if not os.path.exists("/usr/bin/chromium"):
    pytest.skip("the browser tests need Debian's chromium at /usr/bin/chromium", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

import paiju  # noqa: E402

from .test_replay import FETCH_JS, PLAY_JS, login  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from playwright.sync_api import Page

    from .conftest import HallServer


def first_legal_game(game: str, seed: int) -> Any:
    g = paiju.new_game(game, seed=seed)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    return g


def replayed(record: dict[str, Any], steps: int) -> Any:
    return paiju.replay({**record, "actions": record["actions"][:steps]})


def open_record(page: Page, tmp_path: Path, record: dict[str, Any], name: str) -> None:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(record))
    page.goto(page.url.split("#")[0] + "#/")
    page.get_by_test_id("record-file").set_input_files(str(path))
    expect(page.get_by_test_id("replay")).to_have_attribute("data-total", str(len(record["actions"])))


@pytest.mark.slow
def test_score_screen_beans_replay_links_and_zero_lines(
    server: HallServer, new_page: Callable[..., Page], tmp_path: Path
) -> None:
    page = new_page(viewport={"width": 1366, "height": 768}, locale="zh-CN")
    login(page, server.url, "Reader")
    # a live Baohuang hand, played by the page's own socket: the score screen between hands
    room = page.evaluate(PLAY_JS, ["baohuang", True])
    page.goto(server.url + f"#/room/{room}")
    scores = page.get_by_test_id("scores")
    expect(scores).to_be_visible()
    hand = page.evaluate(FETCH_JS, f"/api/rooms/{room}")["hands"][0]
    for s in range(5):  # each seat's beans this hand, as the room's record has them
        b = hand["beans"][s]
        expect(scores.get_by_test_id(f"beans-{s}")).to_have_text(("+" if b > 0 else "") + str(b))
    expect(scores.locator(".scores-table thead").first).to_contain_text("游戏豆")
    link = scores.get_by_test_id("scores-replay")
    expect(link).to_be_in_viewport()
    expect(link).to_have_attribute("href", f"#/replay/{room}/1?seat=0")
    # the 牌谱 panel: hand numbers are replay links
    page.get_by_test_id("close-scores").click()
    page.get_by_test_id("log-toggle").click()
    log_link = page.get_by_test_id("log-replay").first
    expect(log_link).to_have_attribute("href", f"#/replay/{room}/1?seat=0")
    log_link.click()
    expect(page.get_by_test_id("replay")).to_be_visible()

    # Baohuang's base of 0: where it comes from, and that every seat scores 0
    bh = first_legal_game("baohuang", 1)
    d = bh.view(0)["score_detail"]
    assert d["base"] == 0 and d["kind"] == "pair"
    open_record(page, tmp_path, bh.record(), "bh")
    page.get_by_test_id("replay-end").click()
    detail = page.get_by_test_id("score-multipliers")
    places = d["places"]
    expect(detail).to_contain_text(f"6 − (皇帝第 {places['emperor']} 名 + 侍卫第 {places['guard']} 名)")
    expect(detail.get_by_test_id("base-zero")).to_contain_text("本局每家 0 分")

    # Shengji's kitty kept by the declarers counts 0, and says why
    sj = first_legal_game("shengji", 0)
    sd = sj.view(0)["score_detail"]
    assert sd["kitty_points"] > 0 and sd["kitty_counted"] == 0
    record = sj.record()
    open_record(page, tmp_path, record, "sj")
    page.get_by_test_id("replay-end").click()
    kitty = page.get_by_test_id("score-detail").locator('[data-name="kitty"]')
    expect(kitty).to_have_text(f"底牌 {sd['kitty_points']} 分不计（0）：最后一墩不是闲家赢的，没有抠底")
    # the declarer buries the kitty: seen from another seat, one line names whom the table waits for
    bury = next(i for i in range(len(record["actions"])) if replayed(record, i).phase == "bury")
    page.get_by_test_id("replay-seat").select_option("1")
    expect(page.get_by_test_id("replay")).to_have_attribute("data-seat", "1")
    page.get_by_test_id("replay-slider").fill(str(bury))
    expect(page.get_by_test_id("replay")).to_have_attribute("data-step", str(bury))
    expect(page.locator(".centre .waiting")).to_have_count(1)
    expect(page.locator(".centre").get_by_test_id("waiting")).to_contain_text("扣底")
    assert not page.errors  # type: ignore[attr-defined]


def test_the_open_guard_question_makes_sense_to_every_seat(server: HallServer, new_page: Callable[..., Page]) -> None:
    """明保 is asked of every seat but the emperor's (so nobody learns who the guard is):
    the prompt says only the guard can reveal, its tooltip explains, the button says 不明保."""
    page = new_page(viewport={"width": 1366, "height": 768}, locale="zh-CN")
    login(page, server.url, "Asked")
    decide = page.locator('[data-testid^="decide-"]')
    prompt = page.get_by_test_id("reveal-prompt")
    for _ in range(8):  # a room where the page's seat is asked 明保 (not the emperor's, asked before the guard reveals)
        room = page.evaluate(PLAY_JS, ["baohuang", False])
        page.goto(server.url + f"#/room/{room}")
        expect(page.get_by_test_id("table")).to_have_attribute("data-status", "playing")
        deadline = time.monotonic() + 20
        while not prompt.count() and time.monotonic() < deadline:
            ids = [b.get_attribute("data-testid") or "" for b in decide.all()]
            if page.get_by_test_id("play").count() or any(i.startswith("decide-call") for i in ids):
                break  # the cards are being played, or the emperor calls his guard: not asked 明保
            if ids:
                page.get_by_test_id("decide-no" if "decide-no" in ids else ids[0]).click()
            page.wait_for_timeout(100)
        if prompt.count():
            break
    else:
        pytest.fail("the page's seat was the emperor in every room")
    expect(prompt).to_have_text("明保吗？（只有侍卫能明保）")
    expect(prompt).to_have_attribute("title", re.compile("看不出谁是侍卫"))
    no = page.get_by_test_id("decide-no")
    expect(no).to_have_text("不明保")
    expect(no).to_have_attribute("title", re.compile("侍卫可以明保"))
    assert not page.errors  # type: ignore[attr-defined]
