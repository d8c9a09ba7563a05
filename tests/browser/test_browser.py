"""Real-browser tests of the card hall: a person in Chromium plays whole Baohuang hands
against four computer players through the lobby and table pages, with the selection
interaction of the rule pages (click raises a rank, Ctrl+click a range, click lowers,
right-click plays or passes, Hint, the Play/Pass buttons); the table survives a reload
and a crash of the server; the language switch and the phone-width layout work.

The server runs as a subprocess (see conftest.py); every page is its own player.
"""

from __future__ import annotations

import json
import os
import re
import signal
import time
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("playwright.sync_api")
if not os.path.exists("/usr/bin/chromium"):
    pytest.skip("the browser tests need Debian's chromium at /usr/bin/chromium", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

from .pages import TURN_TIMEOUT, Player  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Callable

    from .conftest import HallServer

# resolves to "over" (score screen) or the phase when the seat `seat` is to act
NEXT_JS = """(seat) => {
  const t = document.querySelector('[data-testid="table"]');
  if (!t || t.dataset.connection !== "open") return false;
  if (document.querySelector('[data-testid="scores"]')) return "over";
  if (t.dataset.toAct === seat && (t.dataset.phase === "setup" || t.dataset.phase === "play")) return t.dataset.phase;
  return false;
}"""

RANKS = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "SJ", "BJ"]


def rank_of(card: str) -> str:
    """The rank a click raises together: 'Th' → 'T', 'SJ*' → 'SJ' (a marked joker is a joker)."""
    return card[:2] if card[:2] in ("SJ", "BJ") else card[0]


def choose_group(cards: list[str], top: list[str]) -> list[int] | None:
    """The rank to raise with one click: leading, the lowest; following a play of one
    ordinary rank, the lowest rank above it with exactly as many cards; else None (pass)."""
    groups = rank_groups(cards)
    if not top:
        return groups[0]
    ranks = {rank_of(c) for c in top}
    if len(ranks) != 1 or ranks & {"SJ", "BJ"}:
        return None
    beat = RANKS.index(ranks.pop())
    for g in groups:
        r = rank_of(cards[g[0]])
        if r not in ("SJ", "BJ") and len(g) == len(top) and RANKS.index(r) > beat:
            return g
    return None


def rank_groups(cards: list[str]) -> list[list[int]]:
    """Indices of the (sorted) hand grouped by rank, lowest rank first."""
    groups: dict[str, list[int]] = {}
    for i, c in enumerate(cards):
        groups.setdefault(rank_of(c), []).append(i)
    return list(groups.values())


class Person(Player):
    """A person at a Baohuang table (five seats): a click raises a whole rank."""

    seats = 5
    next_js = NEXT_JS

    def __init__(self, page: Page, name: str) -> None:
        super().__init__(page, name)
        self.play_turns = 0
        self.exercise_pending = False

    def create_room(self, game: str, *, preset: str | None = None, options: dict[str, str] | None = None) -> str:
        room = super().create_room(game, preset=preset, options=options)
        assert self.page.url.endswith("#/room/" + room)
        return room

    def start(self) -> None:
        super().start()
        expect(self.page.get_by_test_id("card").first).to_be_visible()
        self.actions = 0

    def decide(self) -> None:
        buttons = self.page.locator('[data-testid^="decide-"]')
        expect(buttons.first).to_be_visible()
        ids = [b.get_attribute("data-testid") or "" for b in buttons.all()]
        choice = next((p for p in ("decide-accept", "decide-no") if p in ids), ids[0])
        t0 = self.begin()
        self.page.get_by_test_id(choice).click()
        self.expect_moved(t0, "decide")

    def play_turn(self) -> None:
        st = self.state()
        if st["raised"]:
            self.lower_all()
            st = self.state()
        groups = rank_groups(st["cards"])
        ordinary = [g for g in groups if rank_of(st["cards"][g[0]]) not in ("SJ", "BJ")]
        if self.exercise_pending and len(ordinary) >= 2 and self.pass_enabled():
            self.exercise_pending = False
            self.exercise_selection(st["cards"], ordinary)
            return
        mode = ("click", "hint", "buttons")[self.play_turns % 3]
        self.play_turns += 1
        if mode == "hint" and self.by_hint():
            return
        if mode != "hint" and self.by_click(choose_group(st["cards"], st["top"]), right_click=mode == "click"):
            return
        if not self.by_hint():
            raise AssertionError(f"found no way to act: {self.state()}, toasts {self.toasts()}")

    def by_click(self, group: list[int] | None, right_click: bool) -> bool:
        """Raise a rank by clicking one of its cards; play it when the client marks it legal
        (right-click or the Play button); else pass (right-click with nothing raised or the
        Pass button). False when neither works (leading with no legal group)."""
        if group is not None:
            self.card(group[0]).click()
            self.assert_raised(group, "a click raises every card of its rank")
            if self.play_ready():
                t0 = self.begin()
                if right_click:
                    self.right_click_hand()
                else:
                    self.page.get_by_test_id("play").click()
                self.expect_moved(t0, "right-click play" if right_click else "Play button")
                return True
            self.lower_all()
        if not self.pass_enabled():
            return False
        t0 = self.begin()
        if right_click:
            self.right_click_hand()
        else:
            self.page.get_by_test_id("pass").click()
        self.expect_moved(t0, "right-click pass" if right_click else "Pass button")
        return True

    def by_hint(self) -> bool:
        """提示: the client raises the hinted cards (then they are played) or passes itself."""
        t0 = self.begin()
        self.page.get_by_test_id("hint").click()
        res = self.wait_after(t0, want_raised=True, want_toast=True)
        assert res != "moved", "the hint never acts by itself"
        if res == "nothing beats":  # the hint suggests 不出: the person passes
            t0 = self.begin()
            self.page.get_by_test_id("pass").click()
            self.expect_moved(t0, "hint → pass")
            return True
        if res != "raised":
            assert res == "toast", f"the hint failed: {self.toasts()}"
            return False  # a hint the client could not match: try something else
        assert self.state()["raised"], "the hint raised nothing"
        assert self.play_ready(), f"the client does not take its own hint as legal: {self.state()}"
        t0 = self.begin()
        if self.tally["hint → play"] % 2:
            self.page.get_by_test_id("play").click()
        else:
            self.right_click_hand()
        self.expect_moved(t0, "hint → play")
        return True

    def exercise_selection(self, cards: list[str], ordinary: list[list[int]]) -> None:
        """Once: click, Ctrl+click a range over two ranks, try that illegal selection (the
        server refuses it with a toast and nothing changes), click a raised card to lower
        it, lower everything with a click on empty space, then pass with a right-click."""
        g0, g1 = ordinary[0], ordinary[1]
        a, b = g0[0], g1[0]
        self.card(a).click()
        self.assert_raised(g0, "a click raises every card of its rank")
        self.card(b).click(modifiers=["Control"])
        ranged = sorted(set(g0) | set(range(a, b + 1)))
        self.assert_raised(ranged, "Ctrl+click raises the range from the last clicked card")
        assert not self.play_ready(), "two ranks at once cannot be a legal play"
        t0 = self.begin()
        self.right_click_hand()
        assert self.wait_after(t0) == "error", "an illegal selection must be refused with its reason"
        assert self.state()["turn"] == t0
        self.assert_raised(ranged, "a refused play keeps the selection")
        expect(self.card(b)).to_have_attribute("data-raised", "true")
        self.card(b).click()
        expect(self.card(b)).to_have_attribute("data-raised", "false")
        self.assert_raised([i for i in ranged if i != b], "a click on a raised card lowers that card alone")
        self.lower_all()
        t0 = self.begin()
        self.right_click_hand()
        self.expect_moved(t0, "illegal → right-click pass")
        self.count("ctrl+click range")

    def play_hand(self, stop_after: int | None = None) -> bool:
        """Act whenever this seat is to act, until the score screen (True) or, with
        ``stop_after``, until it is this seat's turn to play after that many own actions."""
        while True:
            what = self.wait_next()
            if what == "over":
                return True
            if stop_after is not None and self.actions >= stop_after and what == "play":
                return False
            if what == "setup":
                self.decide()
            else:
                self.play_turn()

    def check_scores(self) -> list[int]:
        points = super().check_scores()
        rows = self.page.locator('[data-testid="scores"] tbody tr[data-seat]')
        standings = [int(r.locator("td").last.inner_text()) for r in rows.all()]
        assert standings == points, "after the first hand the standings are that hand's points"
        return points


def snapshot(person: Person) -> dict[str, Any]:
    st = person.state()
    return {k: st[k] for k in ("mySeat", "turn", "toAct", "phase", "step", "cards")}


def wait_same_table(person: Person, before: dict[str, Any]) -> None:
    """The page shows the same seat, turn and hand as before (after a reload/reconnect)."""
    expect(person.table).to_have_attribute("data-connection", "open", timeout=30_000)
    expect(person.table).to_have_attribute("data-turn", before["turn"])
    expect(person.page.get_by_test_id("card")).to_have_count(len(before["cards"]))
    assert snapshot(person) == before


def no_page_errors(page: Page) -> None:
    errors = getattr(page, "errors", [])
    assert not errors, f"uncaught errors in the page: {errors}"


# ------------------------------------------------------------------ the tests


@pytest.mark.slow
def test_whole_hand_with_the_seed_interaction(server: HallServer, page: Page) -> None:
    ann = Person(page, "Ann")
    ann.login(server.url)
    room = ann.create_room("baohuang", preset="standard")
    ann.fill_with_bots("normal")
    ann.start()
    ann.exercise_pending = True
    assert ann.play_hand() is True
    ann.check_scores()
    tally = ann.tally
    assert tally["decide"] >= 1, tally
    assert tally["ctrl+click range"] == 1, tally
    assert tally["hint → play"] + tally["hint → pass"] >= 1, tally
    assert tally["right-click play"] + tally["right-click pass"] >= 1, tally
    assert tally["Play button"] + tally["Pass button"] + tally["hint → play"] >= 1, tally
    # back to the lobby between hands stands Ann up (docs/decisions.md "Between hands"): the
    # lobby lists the room with the four computer players' seats taken and hers free
    page.get_by_test_id("back").click()
    row = page.locator(f'[data-testid="room-row"][data-room-id="{room}"]')
    expect(row).to_be_visible()
    expect(row).to_contain_text("4/5")
    expect(page.get_by_test_id(f"join-{room}")).to_be_enabled()
    no_page_errors(page)


@pytest.mark.slow
def test_reload_mid_hand_keeps_seat_hand_and_turn(server: HallServer, page: Page) -> None:
    bo = Person(page, "Bo")
    bo.login(server.url)
    bo.create_room("baohuang", preset="standard")
    bo.fill_with_bots("normal")
    bo.start()
    assert bo.play_hand(stop_after=3) is False, "the hand ended before the reload"
    before = snapshot(bo)
    assert before["toAct"] == before["mySeat"] == "0" and before["phase"] == "play"
    timer = page.get_by_test_id("timer")
    expect(timer).to_have_attribute("data-seat", "0")
    expect(timer).to_have_text(re.compile(r"^\d+$"))
    left = int(timer.inner_text())
    assert 0 < left <= TURN_TIMEOUT
    expect(page.get_by_test_id("hosted")).to_have_attribute("aria-pressed", "false")
    page.reload()
    wait_same_table(bo, before)
    expect(page.get_by_test_id("hint")).to_be_enabled()
    # the turn's clock is the server's: a reload does not give the seat more time
    expect(timer).to_have_text(re.compile(r"^\d+$"))
    assert int(timer.inner_text()) <= left
    assert bo.play_hand() is True
    bo.check_scores()
    no_page_errors(page)


@pytest.mark.slow
def test_server_crash_and_restart_mid_hand(private_server: HallServer, page: Page) -> None:
    cy = Person(page, "Cy")
    cy.login(private_server.url)
    cy.create_room("baohuang", preset="standard")
    cy.fill_with_bots("normal")
    cy.start()
    assert cy.play_hand(stop_after=3) is False, "the hand ended before the crash"
    before = snapshot(cy)
    private_server.kill()
    # the client notices and retries with backoff
    expect(cy.table).to_have_attribute("data-connection", "reconnecting")
    expect(page.get_by_test_id("banner")).to_be_visible()
    private_server.start()
    wait_same_table(cy, before)
    expect(page.get_by_test_id("banner")).to_be_hidden()
    assert cy.play_hand() is True
    cy.check_scores()
    no_page_errors(page)


@pytest.mark.slow
def test_a_silent_server_is_given_up_and_the_page_reconnects(private_server: HallServer, page: Page) -> None:
    """A server that answers nothing (paused, as a worker of a cluster may be, or cut off
    without a close) is given up after two unanswered pings — during a hand a ping goes
    every 3 s, so within 9 s — and the page reconnects (a socket that does not open within
    5 s is given up too: the paused server accepts connections and answers none)."""
    cy = Person(page, "Cy")
    cy.login(private_server.url)
    cy.create_room("baohuang", preset="standard")
    cy.fill_with_bots("normal")
    cy.start()
    assert cy.play_hand(stop_after=2) is False, "the hand ended before the pause"
    before = snapshot(cy)
    assert private_server.proc is not None
    os.kill(private_server.proc.pid, signal.SIGSTOP)
    paused = time.monotonic()
    try:
        # two pings of 3 s unanswered (a hand is being played): the page gives the socket up
        expect(cy.table).to_have_attribute("data-connection", "reconnecting", timeout=10_000)
        noticed = time.monotonic() - paused
        time.sleep(6)  # the page's attempts meanwhile open nothing (each given up after 5 s)
    finally:
        os.kill(private_server.proc.pid, signal.SIGCONT)
    print(f"the page gave a silent server up {noticed:.1f} s into its pause")
    wait_same_table(cy, before)
    expect(page.get_by_test_id("banner")).to_be_hidden()
    assert cy.play_hand() is True
    no_page_errors(page)


def test_the_banner_says_why_the_page_reconnects(server: HallServer, page: Page) -> None:
    """A table socket the hall refuses (an ``error`` with its reason, then close 1013, try
    again later) shows the reason in the banner while the page waits to reconnect — the room
    moving, the server restarting, the database away; a socket opened anew clears it. The
    hall's side is played by Playwright's WebSocket route."""
    dee = Person(page, "Dee")
    dee.login(server.url)
    dee.create_room("baohuang", preset="standard")
    refusing: dict[str, str | None] = {"code": "room_moving"}

    def hall(ws: Any) -> None:
        code = refusing["code"]
        if code is None:
            ws.connect_to_server()  # the real hall again
            return
        ws.send(json.dumps({"type": "error", "error": "…", "code": code, "params": {}, "reply_to": None}))
        ws.close(code=1013)

    page.route_web_socket(re.compile(r".*/ws/.*"), hall)
    page.reload()
    banner = page.get_by_test_id("banner")
    for code, shown in (
        ("room_moving", "This room is moving to another server"),
        ("worker_busy", "This server is restarting"),
        ("unavailable", "The hall cannot reach its database right now"),
    ):
        refusing["code"] = code  # the next attempt (the page retries every 2 s at most)
        expect(banner).to_contain_text(shown, timeout=10_000)
        expect(banner).to_contain_text("reconnecting in")
    refusing["code"] = None
    expect(dee.table).to_have_attribute("data-connection", "open", timeout=10_000)
    expect(banner).to_be_hidden()
    no_page_errors(page)


def test_language_switch(server: HallServer, page: Page) -> None:
    page.goto(server.url)
    login = page.get_by_test_id("login")
    lang = page.get_by_test_id("lang")
    expect(login).to_have_text("Enter the hall")  # the context's locale is en-US
    expect(page.locator("html")).to_have_attribute("lang", "en")
    lang.click()
    expect(login).to_have_text("进入大厅")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(lang).to_have_text("English")
    page.get_by_test_id("login-name").fill("Dee")
    login.click()
    expect(page.get_by_test_id("create")).to_have_text("创建")
    # the choice is remembered across a reload
    page.reload()
    expect(page.get_by_test_id("create")).to_have_text("创建")
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("create")).to_have_text("Create")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    # and on the table page
    dee = Person(page, "Dee")
    dee.create_room("baohuang", preset="standard")
    # seated before the first hand the back button also stands up ("Leave seat"), else "Lobby"
    expect(page.get_by_test_id("back")).to_have_text(re.compile(r"Lobby|Leave seat"))
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("back")).to_have_text(re.compile(r"返回大厅|离座回大厅"))
    expect(page.get_by_test_id("table")).to_be_visible()
    no_page_errors(page)


def test_phone_width_layout(server: HallServer, new_page: Callable[..., Page]) -> None:
    width = 375
    page = new_page(viewport={"width": width, "height": 667})

    def no_horizontal_scroll(where: str) -> None:
        sw = page.evaluate("() => document.documentElement.scrollWidth")
        assert sw <= width, f"{where}: the page scrolls sideways ({sw} px > {width} px)"

    eve = Person(page, "Eve")
    eve.login(server.url)
    expect(page.get_by_test_id("create-form")).to_be_visible()
    no_horizontal_scroll("lobby")
    eve.create_room("baohuang", preset="standard")
    eve.fill_with_bots("normal")
    no_horizontal_scroll("table before the hand")
    eve.start()
    cards = page.get_by_test_id("card")
    n = cards.count()
    assert n >= 40, f"a standard hand has 43 or 44 cards, the page shows {n}"
    no_horizontal_scroll("table during the hand")
    for i in range(n):
        card = cards.nth(i)
        expect(card).to_be_visible()
        box = card.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, f"card {i} is cut off: {box}"
    expect(cards.first).to_be_in_viewport()
    expect(cards.last).to_be_in_viewport()
    # a tap-sized click still raises the card's rank
    st = eve.state()
    group = rank_groups(st["cards"])[0]
    eve.card(group[0]).click()
    eve.assert_raised(group, "a click raises every card of its rank (phone layout)")
    for i in group:
        expect(eve.card(i)).to_have_attribute("data-raised", "true")
    assert re.fullmatch(r"\d+", st["turn"])
    no_page_errors(page)
