"""The page helper of the browser tests: a person at a table of the hall in one browser
page, acting only through the UI (lobby form, seat buttons, cards, Hint, right-click,
Play/Pass). ``Player`` is what every game shares; ``FourSeatPlayer`` adds what the
four-seat partnership games (Shengji, Shuangkou) share. What one test alone needs stays in
its test file, as a subclass or small functions.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections import Counter
from typing import Any

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

TURN_TIMEOUT = 120  # seconds: far longer than any test waits, so 托管 never takes over
HAND_TIMEOUT_MS = 60_000  # bots finishing a hand among themselves
POLLING_MS = 50
READY = re.compile(r"\bready\b")
SHOTS = os.environ.get("PAIJU_SHOTS")  # a directory: save screenshots of the table there

STATE_JS = """() => {
  const t = document.querySelector('[data-testid="table"]');
  if (!t) return null;
  const cards = [...document.querySelectorAll('[data-testid="hand"] [data-testid="card"]')];
  return {
    game: t.dataset.game, phase: t.dataset.phase, step: t.dataset.step, toAct: t.dataset.toAct,
    mySeat: t.dataset.mySeat, status: t.dataset.status, turn: t.dataset.turn, connection: t.dataset.connection,
    cards: cards.map((c) => c.dataset.card),
    raised: cards.filter((c) => c.dataset.raised === "true").map((c) => Number(c.dataset.index)),
    scores: !!document.querySelector('[data-testid="scores"]'),
    top: [...document.querySelectorAll('[data-testid="last-play"]:not(.previous) .card')].map((c) => c.dataset.card),
  };
}"""

# "over" when the score screen is up, else the phase when this seat is to act while the hand is playing
NEXT_PLAYING_JS = """(seat) => {
  const t = document.querySelector('[data-testid="table"]');
  if (!t || t.dataset.connection !== "open") return false;
  if (document.querySelector('[data-testid="scores"]')) return "over";
  if (t.dataset.toAct === seat && t.dataset.status === "playing") return t.dataset.phase;
  return false;
}"""

# after an action chosen at turn t0: "moved" (the hand went on), "error" (an error toast or a
# reason in the message line), with wantRaised also "raised" (cards went up: a hint) or
# "nothing beats" (the hint says so and raises nothing), with wantToast also "toast" (any other toast)
AFTER_JS = """([t0, wantRaised, wantToast]) => {
  const t = document.querySelector('[data-testid="table"]');
  if (!t) return false;
  if (t.dataset.turn !== t0) return "moved";
  if (document.querySelector('[data-testid="toast"].error')) return "error";
  if (document.querySelector('[data-testid="message"][data-kind="error"]')) return "error";
  if (wantRaised && document.querySelector('[data-testid="hand"] [data-raised="true"]')) return "raised";
  if (wantRaised && document.querySelector('[data-testid="message"][data-kind="hint"]')) return "nothing beats";
  if (wantToast && document.querySelector('[data-testid="toast"]')) return "toast";
  return false;
}"""

RAISED_IS_JS = """(want) => {
  const got = [...document.querySelectorAll('[data-testid="hand"] [data-testid="card"]')]
    .filter((c) => c.dataset.raised === "true").map((c) => Number(c.dataset.index));
  return JSON.stringify(got) === JSON.stringify(want);
}"""

# remove every toast; the turn an action is chosen at
BEGIN_JS = """() => {
  document.querySelectorAll('[data-testid="toast"]').forEach((e) => e.remove());
  return document.querySelector('[data-testid="table"]').dataset.turn;
}"""


class Player:
    """A person at the hall in one browser page, acting only through the UI."""

    seats: int  # seats at the table, set by the game's subclass
    next_js = NEXT_PLAYING_JS  # what wait_next waits for

    def __init__(self, page: Page, name: str) -> None:
        self.page = page
        self.name = name
        self.table = page.get_by_test_id("table")
        self.seat: str = ""
        self.actions = 0  # own actions taken in the current hand
        self.tally: Counter[str] = Counter()  # how each action was taken

    def count(self, kind: str) -> None:
        self.tally[kind] += 1

    def shot(self, name: str) -> None:
        """A screenshot of the page into $PAIJU_SHOTS (when set)."""
        if SHOTS:
            os.makedirs(SHOTS, exist_ok=True)
            self.page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))

    # -------------------------------------------------------------- lobby and seats
    def login(self, url: str) -> None:
        self.page.goto(url)
        self.page.get_by_test_id("login-name").fill(self.name)
        self.page.get_by_test_id("login").click()
        expect(self.page.get_by_test_id("lobby")).to_be_visible()

    def create_room(self, game: str, *, preset: str | None = None, options: dict[str, str] | None = None) -> str:
        """Create a room of ``game`` in the lobby form (with a preset, else the game's default
        preset if it has presets, and ``options``; a yes/no option is given as "true" or
        "false"); the creator is seated at the first seat on arrival."""
        form = self.page.get_by_test_id("create-form")
        expect(form).to_be_visible()
        self.page.get_by_test_id("opt-game").select_option(game)
        if preset is not None:
            self.page.get_by_test_id("opt-variant").select_option(preset)
        more = self.page.locator("details.more-options")
        if options and more.count() and more.get_attribute("open") is None:
            more.locator("summary").click()  # the rule options open folded
        for name, value in (options or {}).items():
            field = self.page.get_by_test_id(f"opt-{name}")
            if field.get_attribute("type") == "checkbox":  # a yes/no option: "true" or "false"
                field.set_checked(value == "true")
            else:
                field.select_option(value)
        self.page.get_by_test_id("opt-turn_timeout").fill(str(TURN_TIMEOUT))
        self.page.get_by_test_id("create").click()
        expect(self.table).to_be_visible()
        expect(self.table).to_have_attribute("data-my-seat", "0")
        expect(self.table).to_have_attribute("data-connection", "open")
        self.seat = "0"
        room = self.table.get_attribute("data-room")
        assert room
        return room

    def fill_with_bots(self, level: str = "normal") -> None:
        """A computer player of ``level`` on every other (empty) seat."""
        for s in range(self.seats):
            if str(s) == self.seat:
                continue
            seat = self.page.get_by_test_id(f"seat-{s}")
            expect(seat).to_have_attribute("data-empty", "true")
            self.page.get_by_test_id(f"bot-{s}-{level}").click()
            expect(seat).to_have_attribute("data-empty", "false")

    def start(self) -> None:
        self.page.get_by_test_id("start").click()
        expect(self.table).to_have_attribute("data-status", "playing")

    # -------------------------------------------------------------- reading the table
    def state(self) -> dict[str, Any]:
        st = self.page.evaluate(STATE_JS)
        assert st is not None, "the table page is not shown"
        return dict(st)

    def card(self, index: int) -> Any:
        return self.page.locator(f'[data-testid="hand"] [data-testid="card"][data-index="{index}"]')

    def raised(self) -> list[int]:
        return list(self.state()["raised"])

    def assert_raised(self, expected: list[int], why: str) -> None:
        want = sorted(expected)
        with contextlib.suppress(PlaywrightTimeout):  # the assert below says what differs
            self.page.wait_for_function(RAISED_IS_JS, arg=want, timeout=3000)
        got = self.raised()
        assert got == want, f"{why}: raised {got}, expected {want} (hand {self.state()['cards']})"

    def play_ready(self) -> bool:
        """Does the client mark the raised cards as a legal play (the Play button's 'ready')?
        (once the server has answered the client's check on them)"""
        play = self.page.get_by_test_id("play")
        with contextlib.suppress(PlaywrightTimeout):
            expect(play).not_to_have_attribute("data-check", "pending", timeout=3000)
        return "ready" in (play.get_attribute("class") or "").split()

    def pass_enabled(self) -> bool:
        return self.page.get_by_test_id("pass").is_enabled()

    def toasts(self) -> list[str]:
        return self.page.get_by_test_id("toast").all_inner_texts()

    # -------------------------------------------------------------- acting
    def wait_next(self) -> str:
        """Wait until this seat is to act (the phase) or the score screen is up ("over")."""
        handle = self.page.wait_for_function(self.next_js, arg=self.seat, timeout=HAND_TIMEOUT_MS, polling=POLLING_MS)
        return str(handle.json_value())

    def begin(self) -> str:
        """Start an action: clear old toasts; the turn it is chosen at."""
        return str(self.page.evaluate(BEGIN_JS))

    def wait_after(self, t0: str, want_raised: bool = False, want_toast: bool = False) -> str:
        try:
            handle = self.page.wait_for_function(
                AFTER_JS, arg=[t0, want_raised, want_toast], timeout=10_000, polling=POLLING_MS
            )
        except PlaywrightTimeout:
            raise AssertionError(f"nothing happened after the action at turn {t0}: {self.state()}") from None
        return str(handle.json_value())

    def expect_moved(self, t0: str, kind: str) -> None:
        res = self.wait_after(t0)
        assert res == "moved", f"{kind}: the server refused it ({self.toasts()}); state {self.state()}"
        self.actions += 1
        self.count(kind)

    def right_click_hand(self) -> None:
        self.page.get_by_test_id("hand-area").click(button="right", position={"x": 6, "y": 6})

    def lower_all(self) -> None:
        """A left click on empty table space lowers every raised card."""
        self.page.get_by_test_id("centre").click()
        self.assert_raised([], "a click on empty space lowers everything")

    # -------------------------------------------------------------- the end of a hand
    def check_scores(self) -> list[int]:
        """The score screen of a finished hand; each seat's points of the hand (they sum to 0)."""
        scores = self.page.get_by_test_id("scores")
        expect(scores).to_be_visible()
        expect(self.table).to_have_attribute("data-phase", "over")
        expect(self.table).to_have_attribute("data-status", "between")
        rows = scores.locator("tbody tr[data-seat]")
        expect(rows).to_have_count(self.seats)
        points = [int(r.locator("td").nth(3).inner_text()) for r in rows.all()]
        assert sum(points) == 0, f"a hand's points sum to 0: {points}"
        expect(scores.locator("tr.mine")).to_have_attribute("data-seat", self.seat)
        expect(self.page.get_by_test_id("next-hand")).to_be_visible()
        return points


class FourSeatPlayer(Player):
    """A person at a four-seat partnership table (Shengji, Shuangkou): partners sit
    opposite, a click raises one card, the hint is played with right-click or Play."""

    seats = 4

    def create_room(self, game: str, *, preset: str | None = None, options: dict[str, str] | None = None) -> str:
        room = super().create_room(game, preset=preset, options=options)
        expect(self.table).to_have_attribute("data-game", game)
        # four seats around the table
        expect(self.page.locator('[data-testid^="seat-"][data-seat]')).to_have_count(4)
        return room

    def fill_with_bots(self, level: str = "normal") -> None:
        super().fill_with_bots(level)
        # partners sit opposite
        expect(self.page.get_by_test_id("seat-2")).to_have_attribute("data-partner", "true")
        expect(self.page.get_by_test_id("partner-2")).to_be_visible()
        expect(self.page.get_by_test_id("seat-1")).to_have_attribute("data-team", "1")

    def exercise_selection(self) -> None:
        """A click raises ONE card (not its whole rank), a second click lowers it, Ctrl+click
        raises a range, a drag raises the cards passed over; then everything is lowered."""
        n = len(self.state()["cards"])
        assert n >= 4
        self.card(1).click()
        self.assert_raised([1], "a click raises that card alone")
        self.card(1).click()
        self.assert_raised([], "a click on a raised card lowers it")
        self.card(0).click()
        self.card(3).click(modifiers=["Control"])
        self.assert_raised([0, 1, 2, 3], "Ctrl+click raises the range from the last clicked card")
        self.lower_all()
        a, b = self.card(0).bounding_box(), self.card(2).bounding_box()
        assert a and b
        self.page.mouse.move(a["x"] + 5, a["y"] + a["height"] / 2)
        self.page.mouse.down()
        self.page.mouse.move(b["x"] + 5, b["y"] + b["height"] / 2, steps=6)
        self.page.mouse.up()
        self.assert_raised([0, 1, 2], "a drag raises the cards passed over")
        self.lower_all()
        self.count("selection exercised")

    def hint_and_play(self) -> None:
        """提示: the client raises the hinted cards (or passes by itself); the person then plays
        them with a right-click or the Play button, in turn."""
        t0 = self.begin()
        self.page.get_by_test_id("hint").click()
        res = self.wait_after(t0, want_raised=True)
        assert res != "moved", "the hint never acts by itself"
        if res == "nothing beats":  # the hint suggests 不出: the person passes
            t0 = self.begin()
            self.page.get_by_test_id("pass").click()
            self.expect_moved(t0, "hint → pass")
            return
        assert res == "raised", f"the hint failed: {self.toasts()} {self.state()}"
        # the client takes its own hint as a legal play
        expect(self.page.get_by_test_id("play")).to_have_class(READY, timeout=3000)
        t0 = self.begin()
        if self.tally["hint → play"] % 2:
            self.page.get_by_test_id("play").click()
            kind = "Play button"
        else:
            self.right_click_hand()
            kind = "right-click"
        self.expect_moved(t0, "hint → play")
        self.count(kind)

    def check_scores(self) -> list[int]:
        points = super().check_scores()
        assert points[0] == points[2] and points[1] == points[3], f"partners score alike: {points}"
        return points


class Clock:
    def __init__(self) -> None:
        self.t0 = time.monotonic()

    def seconds(self) -> float:
        return time.monotonic() - self.t0
