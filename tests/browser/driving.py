"""Drive a table of any game through the page only (clicks and taps), for the layout test,
the phone hands and the screenshots: make the room, fill it with bots, start, and answer
whatever this seat is asked (decisions, the Shengji burial 扣底, plays with 提示).

Nothing here sends a WebSocket message: every action is a click on the page.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from playwright.sync_api import Page, expect

from .pages import Player

GAMES: dict[str, dict[str, Any]] = {
    # game: seats, the preset (None: a game without presets), room options
    "baohuang": {"seats": 5, "preset": "standard", "options": None},
    "shengji": {"seats": 4, "preset": None, "options": {"decks": "2"}},
    "shuangkou": {"seats": 4, "preset": None, "options": None},
}

# this seat is to act while the hand is going (any phase), or the score screen is up
NEXT_ANY_JS = """(seat) => {
  const t = document.querySelector('[data-testid="table"]');
  if (!t || t.dataset.connection !== "open") return false;
  if (document.querySelector('[data-testid="scores"]')) return "over";
  if (t.dataset.toAct === seat && t.dataset.status === "playing") return t.dataset.phase || "?";
  return false;
}"""

# after a hint press at turn t0: the cards went up, the hand went on, the hint said that
# nothing beats (its note beside the hand), or a toast came
HINTED_JS = """(t0) => {
  const t = document.querySelector('[data-testid="table"]');
  if (t.dataset.turn !== t0) return "moved";
  if (document.querySelector('[data-testid="hand"] [data-raised="true"]')) return "raised";
  const note = document.querySelector('[data-testid="message"]');
  if (note && note.dataset.kind === "hint" && !note.classList.contains("hidden")) return "nothing beats";
  if (document.querySelector('[data-testid="toast"]')) return "toast";
  return false;
}"""


class Driver(Player):
    """A person at a table of ``game`` who answers everything by clicking (or tapping)."""

    next_js = NEXT_ANY_JS

    def __init__(self, page: Page, name: str, game: str, tap: bool = False) -> None:
        super().__init__(page, name)
        self.game = game
        self.seats = GAMES[game]["seats"]
        self.tap_mode = tap  # touch taps instead of mouse clicks (a phone)

    def press(self, locator: Any, timeout: float | None = None) -> None:
        if self.tap_mode:
            locator.tap(timeout=timeout)
        else:
            locator.click(timeout=timeout)

    def setup_table(self, url: str) -> None:
        self.login(url)
        spec = GAMES[self.game]
        self.create_room(self.game, preset=spec["preset"], options=spec["options"])
        self.fill_with_bots()
        self.start()

    # -------------------------------------------------------------- one action
    def act(self, phase: str) -> str:
        """Answer this seat's turn in ``phase``; what was done."""
        if phase == "bury":
            return self.bury()
        if phase == "play":
            return self.play()
        return self.decide(phase)

    def decide(self, phase: str) -> str:
        if phase == "deal":
            return self.deal_decision()
        buttons = self.page.locator('[data-testid^="decide-"]')
        expect(buttons.first).to_be_visible()
        ids = [b.get_attribute("data-testid") or "" for b in buttons.all()]
        order = ("decide-no",) if phase == "deal" else ("decide-accept", "decide-no")
        choice = next((p for p in order if p in ids), ids[0])
        t0 = self.begin()
        self.press(self.page.get_by_test_id(choice))
        self.expect_moved(t0, choice)
        return choice

    def deal_decision(self) -> str:
        """升级 deal: 不亮 (no) while the cards arrive. The client may answer by itself (its
        auto-no) and a fast deal may expire the decision first: then there is nothing to do."""
        t0 = self.begin()
        with contextlib.suppress(Exception):
            self.press(self.page.get_by_test_id("decide-no"), timeout=2000)
        self.page.wait_for_function(
            "(t0) => document.querySelector('[data-testid=\"table\"]').dataset.turn !== t0", arg=t0, timeout=10_000
        )
        return "deal"

    def bury(self) -> str:
        """扣底: the hint's whole suggestion when it gives one, else the lowest cards at the right end."""
        count = self.page.get_by_test_id("bury-count")
        expect(count).to_be_visible()
        m = re.search(r"(\d+)\s*/\s*(\d+)", count.inner_text())
        assert m, count.inner_text()
        need = int(m.group(2)) - int(m.group(1))
        t0 = self.begin()
        self.press(self.page.get_by_test_id("hint"))
        with contextlib.suppress(Exception):  # no answer: choose by hand
            self.page.wait_for_function(HINTED_JS, arg=t0, timeout=3000)
        if len(self.raised()) != need:
            self.lower_all()
            n = len(self.state()["cards"])
            for i in range(n - need, n):
                self.press(self.card(i))
            self.assert_raised(list(range(n - need, n)), "each tap raises one more card")
        button = self.page.get_by_test_id("bury")
        expect(button).to_be_enabled()
        self.press(button)
        expect(self.table).not_to_have_attribute("data-phase", "bury", timeout=15_000)
        self.count("bury")
        return "bury"

    def play(self) -> str:
        """提示 then 出牌 (the Play button); when the hint says nothing beats, 不出 (Pass)."""
        if self.raised():
            self.lower_all()
        t0 = self.begin()
        self.press(self.page.get_by_test_id("hint"))
        handle = self.page.wait_for_function(HINTED_JS, arg=t0, timeout=10_000)
        res = str(handle.json_value())
        if res == "moved":  # an older client passes by itself
            self.actions += 1
            self.count("hint → pass")
            return "pass"
        if res == "raised":
            expect(self.page.get_by_test_id("play")).to_have_class(re.compile(r"\bready\b"), timeout=5000)
            t0 = self.begin()
            self.press(self.page.get_by_test_id("play"))
            self.expect_moved(t0, "play")
            return "play"
        # a toast and nothing raised: nothing beats, so pass
        t0 = self.begin()
        self.press(self.page.get_by_test_id("pass"))
        self.expect_moved(t0, "pass")
        return "pass"

    def play_selection(self, indices: list[int]) -> bool:
        """Raise the cards at ``indices`` (one click each: a four-seat game, where a click
        raises one card) and play them when the page marks them a legal play; else lower
        them again. Whether they were played."""
        if self.raised():
            self.lower_all()
        for i in indices:
            self.press(self.card(i))
        self.assert_raised(indices, "each click raises one more card")
        if not self.play_ready():
            self.lower_all()
            return False
        t0 = self.begin()
        self.press(self.page.get_by_test_id("play"))
        self.expect_moved(t0, "chosen play")
        return True

    def play_to_end(self) -> None:
        """Answer every turn of this seat until the score screen is up."""
        while True:
            what = self.wait_next()
            if what == "over":
                return
            self.act(what)

    def until_play_with_cards_out(self) -> None:
        """Go on until it is this seat's turn to play with somebody's cards on the table."""
        while True:
            what = self.wait_next()
            assert what != "over", "the hand ended before this seat had a turn with cards out"
            if what == "play" and self.page.locator('[data-testid^="seat-play-"] .card').count():
                return
            self.act(what)
