"""The replay viewer 牌谱回放 in Chromium: a finished Shuangkou hand opened from the room's
score history and from the player's page shows every seat's cards face up, steps by action
and by trick (buttons and keys), jumps with the slider, plays at the chosen speed and
pauses, and moves the chosen seat to the bottom; a record file opened or dropped on the
page replays, a bad one is refused in the page's language; a hand still being played has
no replay; 复盘 shows its progress, then the decisions judged, and a row jumps to its step.

The hands are played by the page's own socket (a few lines of script: sit, three bots,
start, the first legal action on each turn) — the table's clicks are other tests' work.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("playwright.sync_api")
if not os.path.exists("/usr/bin/chromium"):
    pytest.skip("the browser tests need Debian's chromium at /usr/bin/chromium", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

import paiju  # noqa: E402

from .conftest import HallServer, _check_log  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Page

# Create a room of `game`, sit at seat 0 with bots elsewhere, start, and play the first
# legal action at every turn of seat 0 until the hand is over (`finish` false: return as
# soon as the hand is being played). Resolves to the room's id.
PLAY_JS = """async ([game, finish]) => {
  const res = await fetch("/api/rooms", {
    method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "replay", game, options: {}, turn_timeout: 600 }),
  });
  if (!res.ok) throw new Error(await res.text());
  const { id } = await res.json();
  const ws = new WebSocket(`ws://${location.host}/ws/${id}`);
  return await new Promise((resolve, reject) => {
    let stage = 0;
    const acted = new Set();
    const send = (m) => ws.send(JSON.stringify(m));
    ws.onopen = () => send({ type: "sit", seat: 0 });
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type !== "update") return;
      const seats = m.room.seats;
      if (stage === 0 && m.seat === 0) {
        stage = 1;
        for (let s = 1; s < seats.length; s++) send({ type: "bot", seat: s, level: "normal" });
      }
      if (stage === 1 && seats.every((s) => s.player || s.bot)) { stage = 2; send({ type: "start" }); }
      if (stage === 2 && m.room.status === "playing") {
        stage = 3;
        if (!finish) { ws.close(); resolve(id); return; }
      }
      const v = m.view;
      if (stage === 3 && v && v.to_act === 0 && (v.legal_actions || []).length && !acted.has(m.turn)) {
        acted.add(m.turn);
        send({ type: "act", action: v.legal_actions[0], turn: m.turn });
      }
      if (stage === 3 && m.room.status === "between") { ws.close(); resolve(id); }
    };
    setTimeout(() => reject(new Error("the hand did not end in time")), 90000);
  });
}"""

FETCH_JS = "async (url) => { const r = await fetch(url); return await r.json(); }"
STEP_JS = "() => Number(document.querySelector('[data-testid=\"replay\"]').dataset.step)"

# a file given to the page as if dropped on it (a DataTransfer built in the page)
DROP_JS = """([name, text]) => {
  const dt = new DataTransfer();
  dt.items.add(new File([text], name, { type: "application/json" }));
  for (const type of ["dragover", "drop"]) {
    document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  }
}"""


def login(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.get_by_test_id("login-name").fill(name)
    page.get_by_test_id("login").click()
    expect(page.get_by_test_id("lobby")).to_be_visible()


def frames_of(page: Page, room: str, seat: int) -> list[dict[str, Any]]:
    body = page.evaluate(FETCH_JS, f"/api/rooms/{room}/hands/1/replay?seat={seat}")
    return list(body["frames"])


def check_frame(page: Page, frames: list[dict[str, Any]], step: int, seat: int = 0) -> None:
    """The viewer at `step`: every other seat's cards face up, the bottom seat's as the hand."""
    viewer = page.get_by_test_id("replay")
    expect(viewer).to_have_attribute("data-step", str(step))
    expect(page.get_by_test_id("table")).to_have_attribute("data-turn", str(step))
    hands = frames[step]["hands"]
    for s, cards in enumerate(hands):
        if s == seat:
            expect(page.locator('[data-testid="hand"] [data-testid="card"]')).to_have_count(len(cards))
            expect(page.get_by_test_id(f"seat-cards-{s}")).to_have_count(0)
        else:
            face_up = page.get_by_test_id(f"seat-cards-{s}")
            expect(face_up).to_have_attribute("data-count", str(len(cards)))
            expect(face_up.locator(".card")).to_have_count(len(cards))
            assert sorted(face_up.get_attribute("data-cards").split()) == sorted(cards)  # type: ignore[union-attr]


def lobby_frames(page: Page, server: HallServer, room: str) -> list[dict[str, Any]]:
    """The frames from seat 0, fetched from the lobby (the page's cookie)."""
    page.goto(server.url)
    expect(page.get_by_test_id("lobby")).to_be_visible()
    return frames_of(page, room, 0)


def leads(frames: list[dict[str, Any]]) -> list[int]:
    return [i for i, f in enumerate(frames) if f["lead"]]


def next_trick(frames: list[dict[str, Any]], step: int) -> int:
    return min([i for i in leads(frames) if i > step] or [len(frames) - 1])


def prev_trick(frames: list[dict[str, Any]], step: int) -> int:
    return max([i for i in leads(frames) if i < step] or [0])


def fits(page: Page) -> None:
    """No horizontal scrolling; every replay control on the screen."""
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"the page scrolls sideways: {width} > {inner}"
    size = page.viewport_size
    assert size
    for testid in ("replay-start", "replay-play", "replay-end", "replay-slider", "replay-speed", "replay-seat"):
        box = page.get_by_test_id(testid).bounding_box()
        assert box, testid
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (testid, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (testid, box)


@pytest.fixture(scope="module")
def played(hall_server: HallServer, browser: Any) -> Iterator[dict[str, Any]]:
    """A finished Shuangkou hand of a guest (seat 0) and three bots: its room and the guest's
    browser state (its cookie), shared by the tests that only look at it."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-US")
    page = ctx.new_page()
    login(page, hall_server.url, "Rita")
    room = page.evaluate(PLAY_JS, ["shuangkou", True])
    me = page.evaluate(FETCH_JS, "/api/me")["player"]
    state = ctx.storage_state()
    ctx.close()
    yield {"room": room, "player": me, "state": state}


def test_replay_from_the_score_history_steps_plays_and_turns(
    server: HallServer, played: dict[str, Any], new_page: Callable[..., Page]
) -> None:
    page = new_page()
    page.context.add_cookies(played["state"]["cookies"])
    room = played["room"]
    frames = lobby_frames(page, server, room)
    last = len(frames) - 1
    # the room's score history links the hand's replay
    page.goto(f"{server.url}#/room/{room}")
    expect(page.get_by_test_id("scores")).to_be_visible()
    page.locator('[data-testid="history"] summary').click()
    link = page.get_by_test_id("history-replay").first
    expect(link).to_have_attribute("href", f"#/replay/{room}/1?seat=0")
    link.click()
    viewer = page.get_by_test_id("replay")
    expect(viewer).to_have_attribute("data-seat", "0")
    expect(viewer).to_have_attribute("data-total", str(last))
    check_frame(page, frames, 0)
    # the copy-link button gives this very replay
    expect(page.get_by_test_id("share")).to_have_attribute("title", f"{server.url}#/replay/{room}/1?seat=0")
    # one action on: its cards on the table at the seat that played them
    page.get_by_test_id("replay-next").click()
    check_frame(page, frames, 1)
    actor, played_cards = frames[1]["actor"], frames[1]["view"]["trick"][-1]["cards"].split()
    shown = page.locator(f'[data-testid="seat-play-{actor}"] .card')
    expect(shown).to_have_count(len(played_cards))
    assert sorted(c.get_attribute("data-card") for c in shown.all()) == sorted(played_cards)
    expect(page.get_by_test_id("replay-action")).to_contain_text(":")
    page.get_by_test_id("replay-prev").click()
    check_frame(page, frames, 0)
    # by trick: the frames whose action opened one
    page.get_by_test_id("replay-next-trick").click()
    step = next_trick(frames, 0)
    check_frame(page, frames, step)
    page.get_by_test_id("replay-next-trick").click()
    step2 = next_trick(frames, step)
    expect(viewer).to_have_attribute("data-step", str(step2))
    page.get_by_test_id("replay-next").click()
    page.get_by_test_id("replay-prev-trick").click()  # back to the start of this trick
    expect(viewer).to_have_attribute("data-step", str(prev_trick(frames, step2 + 1)))
    # keys: → ← one action, ↓ ↑ and Shift+←/→ one trick, Home / End
    at = int(page.evaluate(STEP_JS))
    page.keyboard.press("ArrowRight")
    expect(viewer).to_have_attribute("data-step", str(at + 1))
    page.keyboard.press("ArrowLeft")
    expect(viewer).to_have_attribute("data-step", str(at))
    page.keyboard.press("ArrowDown")
    expect(viewer).to_have_attribute("data-step", str(next_trick(frames, at)))
    page.keyboard.press("Shift+ArrowRight")
    expect(viewer).to_have_attribute("data-step", str(next_trick(frames, next_trick(frames, at))))
    page.keyboard.press("ArrowUp")
    expect(viewer).to_have_attribute("data-step", str(next_trick(frames, at)))
    page.keyboard.press("End")
    check_frame(page, frames, last)
    expect(page.get_by_test_id("scores")).to_be_visible()  # the hand's end: the score screen
    page.keyboard.press("Home")
    check_frame(page, frames, 0)
    # the slider jumps anywhere
    page.get_by_test_id("replay-slider").fill(str(last // 2))
    check_frame(page, frames, last // 2)
    # play at 4×: about four actions a second, then pause
    page.get_by_test_id("replay-slider").fill("10")
    page.get_by_test_id("replay-speed").select_option("4")
    expect(viewer).to_have_attribute("data-speed", "4")
    t0 = time.monotonic()
    page.get_by_test_id("replay-play").click()
    expect(viewer).to_have_attribute("data-playing", "true")
    page.wait_for_function(f"() => ({STEP_JS})() >= 16", polling=20)
    took = time.monotonic() - t0
    assert 1.1 < took < 3.5, f"six actions at 4× took {took:.2f} s"
    page.get_by_test_id("replay-play").click()
    expect(viewer).to_have_attribute("data-playing", "false")
    paused = int(page.evaluate(STEP_JS))
    page.wait_for_timeout(700)
    assert int(page.evaluate(STEP_JS)) == paused, "the replay went on after the pause"
    # Space plays and pauses too (with no button focused)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press(" ")
    expect(viewer).to_have_attribute("data-playing", "true")
    page.keyboard.press(" ")
    expect(viewer).to_have_attribute("data-playing", "false")
    # another seat at the bottom: its frames fetched, the step kept, the link says so
    at = int(page.evaluate(STEP_JS))
    page.get_by_test_id("replay-seat").select_option("2")
    expect(viewer).to_have_attribute("data-seat", "2")
    expect(page.locator(".seat.pos-bottom")).to_have_attribute("data-seat", "2")
    check_frame(page, frames_of(page, room, 2), at, seat=2)
    assert page.url.endswith(f"#/replay/{room}/1?seat=2")
    # the other language: the viewer's words change, the place stays
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("replay-count")).to_have_text(f"第 {at} / {last} 步")
    expect(viewer).to_have_attribute("data-step", str(at))
    # the layout on a phone and on a laptop: no sideways scrolling, the controls in reach
    for size in ({"width": 390, "height": 844}, {"width": 1366, "height": 768}):
        page.set_viewport_size(size)
        fits(page)
    assert not page.errors  # type: ignore[attr-defined]


def test_the_profile_links_the_replay_and_the_record(
    server: HallServer, played: dict[str, Any], new_page: Callable[..., Page]
) -> None:
    page = new_page(viewport={"width": 390, "height": 844})
    page.context.add_cookies(played["state"]["cookies"])
    page.goto(f"{server.url}#/player/{played['player']['id']}")
    row = page.get_by_test_id("profile-hands").locator("tbody tr").first
    record = row.get_by_test_id("hand-record")
    expect(record).to_have_attribute("href", f"/api/rooms/{played['room']}/hands/1")
    expect(record).to_have_attribute("download", f"paiju-{played['room']}-1.json")
    row.get_by_test_id("hand-replay").click()
    viewer = page.get_by_test_id("replay")
    expect(viewer).to_have_attribute("data-seat", "0")  # the player's own seat
    expect(viewer).to_have_attribute("data-step", "0")
    fits(page)
    # back: to the player's page
    page.get_by_test_id("back").click()
    expect(page.get_by_test_id("profile")).to_be_visible()
    # a seat the game does not have: the hall's reason, translated
    page.goto(f"{server.url}#/replay/{played['room']}/1?seat=7")
    expect(page.get_by_test_id("replay-error")).to_have_text("There is no Seat 8")
    assert not page.errors  # type: ignore[attr-defined]


def finished_record(game: str, seed: int) -> dict[str, Any]:
    g = paiju.new_game(game, seed=seed)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    return dict(g.record())


def test_a_record_file_replays_and_a_bad_one_is_refused(
    server: HallServer, new_page: Callable[..., Page], tmp_path: Path
) -> None:
    page = new_page(locale="zh-CN")
    login(page, server.url, "Filer")
    record = finished_record("shuangkou", 5)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record))
    # the lobby's file button
    page.get_by_test_id("record-file").set_input_files(str(path))
    viewer = page.get_by_test_id("replay")
    expect(viewer).to_have_attribute("data-total", str(len(record["actions"])))
    assert page.url.endswith("#/replay/file")
    expect(page.get_by_test_id("seat-cards-1")).to_have_attribute("data-count", "27")
    page.get_by_test_id("replay-end").click()
    expect(viewer).to_have_attribute("data-step", str(len(record["actions"])))
    expect(page.get_by_test_id("replay-review")).to_have_count(0)  # a file has no 复盘 in the hall
    # dropped anywhere on the page: another record
    other = finished_record("shuangkou", 9)
    page.evaluate(DROP_JS, ["other.json", json.dumps(other)])
    expect(viewer).to_have_attribute("data-total", str(len(other["actions"])))
    expect(viewer).to_have_attribute("data-step", "0")
    # refused, in the page's language: not a record, not JSON, a hand not over
    page.evaluate(DROP_JS, ["bad.json", json.dumps({**record, "actions": ["nonsense"]})])
    expect(page.get_by_test_id("toast").last).to_have_text("这不是 paiju 能读的牌局记录")
    page.evaluate(DROP_JS, ["bad.json", "this is not json"])
    expect(page.get_by_test_id("toast").last).to_have_text("这不是 paiju 能读的牌局记录")
    page.evaluate(DROP_JS, ["short.json", json.dumps({**record, "actions": record["actions"][:5]})])
    expect(page.get_by_test_id("toast").last).to_have_text("这一局还在进行：只能回放和复盘已结束的牌局")
    expect(viewer).to_have_attribute("data-total", str(len(other["actions"])))  # still the last good one
    # a reload forgets the file: said so, with the way to open one
    page.reload()
    expect(page.get_by_test_id("replay-error")).to_contain_text("没有打开的牌谱文件")
    expect(page.get_by_test_id("open-record")).to_be_visible()
    assert not page.errors  # type: ignore[attr-defined]


def test_a_hand_still_being_played_has_no_replay(server: HallServer, new_page: Callable[..., Page]) -> None:
    page = new_page()
    login(page, server.url, "Early")
    room = page.evaluate(PLAY_JS, ["shuangkou", False])
    page.goto(f"{server.url}#/replay/{room}/1")
    error = page.get_by_test_id("replay-error")
    expect(error).to_contain_text("This hand is still being played")  # the hall's hand_not_over, translated
    page.get_by_test_id("back").click()
    expect(page.get_by_test_id("lobby")).to_be_visible()
    page.goto(f"{server.url}#/replay/{room}/2")  # no such hand yet
    expect(page.get_by_test_id("replay-error")).to_contain_text("no replay of this hand")
    assert not page.errors  # type: ignore[attr-defined]


def test_review_shows_progress_then_the_decisions(new_page: Callable[..., Page], tmp_path: Path) -> None:
    hall = HallServer(tmp_path, bot_delay=0, args=["--analysis-budget", "0.01"]).start()
    try:
        page = new_page()
        login(page, hall.url, "Reviewer")
        room = page.evaluate(PLAY_JS, ["shuangkou", True])
        page.goto(f"{hall.url}#/replay/{room}/1")
        viewer = page.get_by_test_id("replay")
        expect(viewer).to_have_attribute("data-seat", "0")
        page.get_by_test_id("replay-review").click()
        progress = page.get_by_test_id("review-progress")
        expect(progress).to_be_visible()
        expect(progress).to_have_attribute("role", "progressbar")
        # (before the hall's first answer the bar is "queued" with no total yet)
        total = int(progress.get_attribute("aria-valuemax") or 0)
        summary = page.get_by_test_id("review-summary")
        expect(summary).to_be_visible(timeout=60_000)
        judged = int(summary.get_attribute("data-decisions") or 0)
        kept = page.evaluate(FETCH_JS, f"/api/rooms/{room}/hands/1/analysis?seat=0")
        assert kept["state"] == "done" and judged == len(kept["analysis"]["decisions"]) > 0
        assert total == 0 or judged <= total
        rows = page.get_by_test_id("review-row")
        expect(rows).to_have_count(judged)
        marked = int(summary.get_attribute("data-dubious") or 0) + int(summary.get_attribute("data-mistakes") or 0)
        expect(page.get_by_test_id("replay-mark")).to_have_count(marked)
        expect(page.get_by_test_id("review-skipped")).to_contain_text("forced")
        # a row: the position before that decision, its verdict by the controls
        row = rows.nth(judged // 2)
        step = row.get_attribute("data-step")
        row.click()
        expect(viewer).to_have_attribute("data-step", str(step))
        verdict = page.get_by_test_id("replay-verdict")
        expect(verdict).to_be_visible()
        expect(verdict).to_have_attribute("data-step", str(step))
        expect(verdict).to_contain_text("Played")
        expect(row).to_have_class(re.compile(r"\bcurrent\b"))
        assert not page.errors  # type: ignore[attr-defined]
        _check_log(hall, 0)
    finally:
        hall.stop()
