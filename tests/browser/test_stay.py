"""The table as a place to stay (issue 14, item 7, the page's side): the hand log 牌谱 lists
every event of the view and the previous trick 上一轮 shows on the key L; the 记牌器 shows
the counts the hall sent; 准备 between hands with its countdown; 快速开始 from the lobby
seats the person (Shuangkou; Baohuang and Shengji: at a new table with bots, or at the first
free seat of a table waiting for players); a quick phrase 快捷语 reaches a spectator's page;
the sound switch is remembered after a reload, and with it on (only then) the page really
plays its Web Audio sounds: a turn, a play, a pass, a bomb or joker play, the last seconds;
plays slide in from their seat unless the person prefers reduced motion; free-text chat in a
room with the `chat` option reaches seated players and spectators, at most 60 characters.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("playwright.sync_api")
if not os.path.exists("/usr/bin/chromium"):
    pytest.skip("the browser tests need Debian's chromium at /usr/bin/chromium", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

from .driving import GAMES, Driver  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from .conftest import HallServer

UPDATE_JS = "() => window.paijuTable && window.paijuTable.update"


def previous_trick(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The plays (and passes) of the last finished trick, from the event log."""
    cur: list[dict[str, Any]] = []
    prev: list[dict[str, Any]] = []
    for e in events:
        if e.get("event") in ("deal", "redeal"):
            cur, prev = [], []
        elif e.get("event") == "trick":
            prev, cur = cur, []
        elif "event" not in e and "step" not in e and "action" in e:
            cur.append(e)
    return prev


@pytest.mark.slow  # a whole scenario of 20-45 s: make test-slow (CI runs it)
def test_log_previous_trick_tracker_and_ready(server: HallServer, page: Page) -> None:
    person = Driver(page, "Stay", "baohuang")
    person.setup_table(server.url)
    # play until a trick has ended and it is this seat's turn again
    while True:
        what = person.wait_next()
        assert what != "over", "the hand ended before a trick did"
        u = page.evaluate(UPDATE_JS)
        if what == "play" and previous_trick(u["view"]["events"]):
            break
        person.act(what)
    u = page.evaluate(UPDATE_JS)
    events = u["view"]["events"]
    # 牌谱: one row per event of the view, in the page's language
    page.get_by_test_id("log-toggle").click()
    log = page.get_by_test_id("hand-log")
    expect(log).to_have_attribute("data-count", str(len(events)))
    expect(log.get_by_test_id("log-row")).to_have_count(len(events))
    kinds = log.get_by_test_id("log-row").evaluate_all("(els) => els.map((e) => e.dataset.kind)")
    plays = sum(1 for e in events if "event" not in e and "step" not in e and e.get("action") not in ("pass", "yield"))
    assert kinds.count("play") == plays, kinds
    assert kinds[0] == "deal"
    # 上一轮 on the key L: every play of the last finished trick
    page.keyboard.press("l")
    prev = previous_trick(events)
    box = page.get_by_test_id("prev-trick-plays")
    expect(box).to_have_attribute("data-count", str(len(prev)))
    shown = [p.get_attribute("data-cards") or "" for p in box.get_by_test_id("prev-play").all()]
    assert shown == [e.get("cards") or ("" if e["action"] in ("pass", "yield") else e["action"]) for e in prev]
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("panel")).to_be_hidden()
    # 记牌器: the counts the hall sent this seat
    tracker = page.evaluate("() => window.paijuTable.tracker")
    if tracker is not None:  # the room option is on by default
        page.get_by_test_id("tracker-toggle").click()
        for rank, n in tracker.items():
            expect(page.get_by_test_id(f"tracker-{rank}")).to_have_attribute("data-count", str(n))
        page.get_by_test_id("panel-close").click()
    # 准备: after the hand, the countdown and the ready button; bots are ready at once
    person.play_to_end()
    room = page.evaluate(UPDATE_JS)["room"]
    if "ready" in room:
        expect(page.get_by_test_id("scores").get_by_test_id("ready-countdown")).to_contain_text(" s")
        for s in range(1, 5):
            expect(page.get_by_test_id(f"ready-{s}")).to_have_attribute("data-ready", "true")
        expect(page.get_by_test_id("ready-0")).to_have_attribute("data-ready", "false")
        expect(person.table).to_have_attribute("data-status", "between")
    page.get_by_test_id("next-hand").click()
    expect(person.table).to_have_attribute("data-status", "playing")
    expect(person.table).to_have_attribute("data-hand-number", "2")
    assert not page.errors, page.errors  # type: ignore[attr-defined]


def test_quick_start_phrase_and_sound(server: HallServer, new_page: Callable[..., Page]) -> None:
    page = new_page()
    person = Driver(page, "Quick", "shuangkou")
    person.login(server.url)
    page.get_by_test_id("quick-start-shuangkou").click()
    table = page.get_by_test_id("table")
    expect(table).to_be_visible()
    expect(table).to_have_attribute("data-connection", "open")
    expect(table).not_to_have_attribute("data-my-seat", "")
    seat = table.get_attribute("data-my-seat")
    room = table.get_attribute("data-room")
    # the lobby's game filter lists that room under its game only
    watcher_page = new_page()
    watcher = Driver(watcher_page, "Watcher", "shuangkou")
    watcher.login(server.url)
    watcher_page.get_by_test_id("room-filter").select_option("shuangkou")
    expect(watcher_page.locator(f'[data-room-id="{room}"]')).to_be_visible()
    watcher_page.get_by_test_id("room-filter").select_option("baohuang")
    expect(watcher_page.locator(f'[data-room-id="{room}"]')).to_have_count(0)
    watcher_page.goto(server.url + f"#/room/{room}")
    expect(watcher_page.get_by_test_id("watching")).to_be_visible()
    # a phrase from the seat reaches the spectator, in the spectator's language, beside the seat
    page.get_by_test_id("phrases-toggle").click()
    page.get_by_test_id("phrase-well_played").click()
    bubble = watcher_page.get_by_test_id(f"bubble-{seat}")
    expect(bubble).to_have_text("Well played")
    expect(page.get_by_test_id(f"bubble-{seat}")).to_be_visible()
    # too fast: refused, the reason in the message line
    page.get_by_test_id("phrases-toggle").click()
    page.get_by_test_id("phrase-thanks").click()
    expect(page.get_by_test_id("message")).to_have_attribute("data-kind", "error")
    expect(page.get_by_test_id("message")).to_contain_text("too fast")
    # sounds: off by default, the switch remembered after a reload
    toggle = page.get_by_test_id("sound-toggle")
    expect(toggle).to_have_attribute("data-on", "false")
    toggle.click()
    expect(toggle).to_have_attribute("data-on", "true")
    page.reload()
    expect(page.get_by_test_id("table")).to_be_visible()
    expect(page.get_by_test_id("sound-toggle")).to_have_attribute("data-on", "true")
    assert not page.errors and not watcher_page.errors  # type: ignore[attr-defined]


# ---------------------------------------------------------------- sounds
# Before the page's scripts: every playSound (it assigns window.paijuSounds each call, on or
# off) is recorded in __wanted, and in __switch whether the switch was on then; every
# oscillator the page really starts in __sounds, with the sound it belongs to (its number and
# name in __wanted), its waveform, frequency and the state of its AudioContext; every
# AudioContext made is counted in __contexts.
SOUND_RECORDER_JS = """(() => {
  window.__wanted = [];
  window.__switch = [];
  window.__sounds = [];
  window.__contexts = 0;
  let asked = [];
  Object.defineProperty(window, "paijuSounds", {
    configurable: true,
    get: () => asked,
    set: (v) => {
      asked = v;
      window.__wanted.push(v[v.length - 1]);
      window.__switch.push(localStorage.getItem("paiju.sound") === "on");
    },
  });
  const Ctx = window.AudioContext;
  window.AudioContext = class extends Ctx {
    constructor(...args) {
      super(...args);
      window.__contexts += 1;
    }
  };
  const setValue = AudioParam.prototype.setValueAtTime;
  AudioParam.prototype.setValueAtTime = function (value, when) {
    this.__set = value;
    return setValue.call(this, value, when);
  };
  const start = AudioScheduledSourceNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    window.__sounds.push({
      id: window.__wanted.length,
      kind: window.__wanted[window.__wanted.length - 1],
      wave: this.type,
      freq: this.frequency.__set ?? this.frequency.value,
      state: this.context.state,
    });
    return start.apply(this, args);
  };
})();"""

SOUND_KINDS = {"turn", "play", "pass", "bomb", "tick"}
JOKERS = ("SJ", "BJ")


def wanted(page: Page) -> list[str]:
    return list(page.evaluate("() => window.__wanted"))


def sounds(page: Page) -> list[dict[str, Any]]:
    return list(page.evaluate("() => window.__sounds"))


def sound_kinds(page: Page) -> set[str]:
    return {s["kind"] for s in sounds(page)}


def play_on(person: Driver, done: Callable[[], bool], big: bool = False, hands: int = 3) -> str:
    """Answer this seat's turns (the next hand when one ends, at most ``hands``) until ``done()``
    holds at a turn of this seat; that turn's phase (not answered). ``big``: at each play
    turn first try a bomb, else a joker alone (Shuangkou)."""
    while True:
        what = person.wait_next()
        if what == "over":
            hands -= 1
            assert hands > 0, "the hands ended before the sounds wanted came"
            person.page.get_by_test_id("next-hand").click()
            expect(person.table).to_have_attribute("data-status", "playing")
            continue
        if done():
            return what
        if what == "play" and big and play_big(person):
            continue
        person.act(what)


def play_big(person: Driver) -> bool:
    """A Shuangkou bomb (four cards of a rank) or one joker, when the page takes it as legal."""
    cards = person.state()["cards"]
    ranks: dict[str, list[int]] = {}
    for i, c in enumerate(cards):
        ranks.setdefault(c[:2] if c[:2] in JOKERS else c[0], []).append(i)
    bombs = [ix[:4] for r, ix in ranks.items() if r not in JOKERS and len(ix) >= 4]
    jokers = [[i] for r in JOKERS for i in ranks.get(r, [])[:1]]
    return any(person.play_selection(sel) for sel in [*bombs[:1], *jokers])


def last_seconds(page: Page) -> None:
    """Jump the page's clock (not the hall's: no 托管 comes) to four seconds before this
    seat's turn ends, as a laptop opened again would."""
    left = page.evaluate("() => window.paijuTable.update.deadline")
    assert isinstance(left, (int, float)) and left > 20, left
    page.clock.fast_forward(int((left - 4) * 1000))


def test_sounds_played_only_when_switched_on(server: HallServer, page: Page) -> None:
    page.add_init_script(SOUND_RECORDER_JS)
    page.clock.install()  # the page's own clock, moved on only by last_seconds
    person = Driver(page, "Ears", "shuangkou")
    person.setup_table(server.url)
    toggle = page.get_by_test_id("sound-toggle")
    expect(toggle).to_have_attribute("data-on", "false")
    # off (the default): the page comes to a turn, a play and a pass, and the last seconds of
    # a turn, yet no sound is made, no AudioContext even
    phase = play_on(person, lambda: {"turn", "play", "pass"} <= set(wanted(page)))
    last_seconds(page)
    page.wait_for_function("() => window.__wanted.filter((k) => k === 'tick').length >= 2")  # a tick a second
    assert sounds(page) == [] and page.evaluate("() => window.__contexts") == 0, sounds(page)
    person.act(phase)
    # on: each kind is really played, in a running AudioContext (the switch's click let it start)
    toggle.click()
    expect(toggle).to_have_attribute("data-on", "true")
    phase = play_on(person, lambda: {"turn", "play", "pass", "bomb"} <= sound_kinds(page), big=True)
    assert "tick" not in sound_kinds(page), "no tick before the last seconds"
    last_seconds(page)
    page.wait_for_function("() => window.__sounds.some((s) => s.kind === 'tick')")
    made = sounds(page)
    assert {s["kind"] for s in made} == SOUND_KINDS, made
    assert all(s["state"] == "running" for s in made), made
    # the kinds sound different: each its own first note (waveform, frequency)
    first: dict[int, tuple[str, str, float]] = {}
    for s in made:
        first.setdefault(s["id"], (s["kind"], s["wave"], s["freq"]))
    notes = {k: (w, f) for k, w, f in first.values()}
    assert len(set(notes.values())) == len(SOUND_KINDS), notes
    person.act(phase)
    # off again: what the page asks for is not played any more
    toggle.click()
    expect(toggle).to_have_attribute("data-on", "false")
    mark = len(wanted(page))
    play_on(person, lambda: len(wanted(page)) >= mark + 4)
    # every sound asked for while the switch was on was made, none while it was off
    switch = page.evaluate("() => window.__switch")
    assert switch[-4:] == [False] * 4
    made = sounds(page)
    assert {s["id"] - 1 for s in made} == {i for i, on in enumerate(switch) if on}, (made, switch)
    assert not page.errors, page.errors  # type: ignore[attr-defined]


# ---------------------------------------------------------------- motion
# Before the page's scripts: every play the page puts beside a seat, as it comes (its computed
# animation, its running animations, and where the slide starts: the transform at the
# animation's first moment) into window.__plays
PLAY_RECORDER_JS = """(() => {
  window.__plays = [];
  const record = (el) => {
    if (!el.isConnected) return;
    const seat = el.closest(".seat");
    const cs = getComputedStyle(el);
    const anims = el.getAnimations();
    let dx = 0, dy = 0;
    const a = anims[0];
    if (a) {
      const now = a.currentTime;
      a.currentTime = 0;
      const m = new DOMMatrixReadOnly(getComputedStyle(el).transform);
      [dx, dy] = [m.m41, m.m42];
      a.currentTime = now;
    }
    window.__plays.push({
      seat: seat ? seat.dataset.seat : null,
      pos: seat ? [...seat.classList].find((c) => c.startsWith("pos-")) : null,
      fresh: el.classList.contains("fresh"),
      name: cs.animationName,
      duration: cs.animationDuration,
      running: anims.map((x) => x.animationName || "?"),
      dx, dy,
    });
  };
  new MutationObserver((muts) => {
    for (const m of muts)
      for (const n of m.addedNodes) {
        if (n.nodeType !== 1) continue;
        for (const el of [n, ...n.querySelectorAll(".play-cards")])
          if (el.matches('[data-testid^="seat-play-"] .play-cards')) record(el);
      }
  }).observe(document, { childList: true, subtree: true });
})();"""

# where a play slides in from, by the seat's place at the table: (sign of dx, sign of dy)
SLIDE_FROM = {"pos-left": (-1, 0), "pos-right": (1, 0), "pos-top": (0, -1), "pos-bottom": (0, 1)}


def fresh_plays(page: Page, since: int = 0) -> list[dict[str, Any]]:
    return [p for p in page.evaluate("() => window.__plays")[since:] if p["fresh"]]


def sign(x: float) -> int:
    return (x > 0.5) - (x < -0.5)


def test_plays_slide_in_unless_reduced_motion(server: HallServer, page: Page) -> None:
    page.emulate_media(reduced_motion="no-preference")
    page.add_init_script(PLAY_RECORDER_JS)
    person = Driver(page, "Motion", "shuangkou")
    person.setup_table(server.url)
    # each new play slides in from its seat's side; the seat to act pulses
    play_on(person, lambda: len({p["pos"] for p in fresh_plays(page)}) >= 3)
    plays = fresh_plays(page)
    for p in plays:
        assert p["name"] == "play-in" and p["duration"] == "0.25s" and p["running"] == ["play-in"], p
        assert (sign(p["dx"]), sign(p["dy"])) == SLIDE_FROM[p["pos"]], p
    shown = page.evaluate("() => window.__plays.length")
    seat_box = page.locator(".seat-box.to-act")
    expect(seat_box).to_have_count(1)
    assert seat_box.evaluate("(el) => getComputedStyle(el).animationName") == "seat-pulse"
    # reduced motion: the plays come without any animation, nothing pulses
    page.emulate_media(reduced_motion="reduce")
    assert seat_box.evaluate("(el) => getComputedStyle(el).animationName") == "none"
    play_on(person, lambda: len(fresh_plays(page, shown)) >= 4)
    for p in fresh_plays(page, shown):
        assert p["name"] == "none" and p["running"] == [] and (p["dx"], p["dy"]) == (0, 0), p
    assert seat_box.evaluate("(el) => el.getAnimations().length") == 0
    assert not page.errors, page.errors  # type: ignore[attr-defined]


# ---------------------------------------------------------------- chat
@pytest.mark.slow  # ~11 s (make test-slow)
def test_free_text_chat_when_the_room_allows_it(server: HallServer, new_page: Callable[..., Page]) -> None:
    # chat off (the default): the quick phrases, no free text
    quiet_page = new_page()
    quiet = Driver(quiet_page, "Quiet", "shuangkou")
    quiet.login(server.url)
    quiet.create_room("shuangkou")
    quiet_page.get_by_test_id("phrases-toggle").click()
    expect(quiet_page.get_by_test_id("phrase-thanks")).to_be_visible()
    expect(quiet_page.get_by_test_id("chat-input")).to_have_count(0)
    # chat on: a seated person (a page in Chinese) writes; another seated person and a
    # spectator see it beside the writer's seat
    page = new_page(locale="zh-CN")
    writer = Driver(page, "Writer", "shuangkou")
    writer.login(server.url)
    room = writer.create_room("shuangkou", options={"chat": "true"})
    other_page, watcher_page = new_page(), new_page()
    other = Driver(other_page, "Other", "shuangkou")
    other.login(server.url)
    other_page.goto(server.url + f"#/room/{room}")
    other_page.get_by_test_id("sit-1").click()
    expect(other.table).to_have_attribute("data-my-seat", "1")
    Driver(watcher_page, "Watcher", "shuangkou").login(server.url)
    watcher_page.goto(server.url + f"#/room/{room}")
    expect(watcher_page.get_by_test_id("watching")).to_be_visible()
    page.get_by_test_id("phrases-toggle").click()
    box = page.get_by_test_id("chat-input")
    box.press_sequentially("加油 good luck!")
    page.get_by_test_id("chat-send").click()
    sent_at = time.monotonic()
    for p in (page, other_page, watcher_page):
        expect(p.get_by_test_id("seat-0").get_by_test_id("bubble-0")).to_have_text("加油 good luck!")
    # at most 60 characters: typing stops there ...
    page.get_by_test_id("phrases-toggle").click()
    box.press_sequentially("x" * 65)
    assert box.input_value() == "x" * 60
    # ... and a longer text (the page's limit taken away) is refused, in the page's language
    box.evaluate("(el) => el.removeAttribute('maxlength')")
    box.fill("y" * 61)
    box.press("Enter")
    message = page.get_by_test_id("message")
    expect(message).to_have_attribute("data-kind", "error")
    expect(message).to_contain_text("一句话最多 60 个字")
    # sixty characters are sent (once the hall's gap between two lines has passed)
    page.wait_for_timeout(max(0.0, sent_at + 2.2 - time.monotonic()) * 1000)
    page.get_by_test_id("phrases-toggle").click()
    box.fill("z" * 60)
    box.press("Enter")
    expect(watcher_page.get_by_test_id("bubble-0")).to_have_text("z" * 60)
    expect(other_page.get_by_test_id("bubble-0")).to_have_text("z" * 60)
    # the spectator's hand log has both lines, and nothing of the refused one
    watcher_page.get_by_test_id("log-toggle").click()
    said = watcher_page.get_by_test_id("log-said")
    expect(said).to_have_count(2)
    expect(said.first).to_contain_text("加油 good luck!")
    expect(said.last).to_contain_text("z" * 60)
    for p in (page, other_page, watcher_page, quiet_page):
        assert not p.errors, p.errors  # type: ignore[attr-defined]


# ---------------------------------------------------------------- quick start
@pytest.mark.parametrize("game", ["baohuang", "shengji"])
def test_quick_start_seats_at_a_table_of_the_game(
    game: str, private_server: HallServer, new_page: Callable[..., Page]
) -> None:
    seats = GAMES[game]["seats"]
    # nobody waits for players: a new table of the game, the person at the first seat, bots on the others
    page = new_page()
    person = Driver(page, "Quick", game)
    person.login(private_server.url)
    page.get_by_test_id(f"quick-start-{game}").click()
    expect(person.table).to_be_visible()
    expect(person.table).to_have_attribute("data-connection", "open")
    expect(person.table).to_have_attribute("data-game", game)
    expect(person.table).to_have_attribute("data-my-seat", "0")
    expect(page.locator('[data-testid^="seat-"][data-seat]')).to_have_count(seats)
    for s in range(1, seats):
        expect(page.get_by_test_id(f"seat-{s}")).to_contain_text(f"Bot {s + 1} (Strong)")
    # quick start's own room deals at once: no 开始 to press (docs/decisions.md "Between hands")
    expect(page.get_by_test_id("hand").get_by_test_id("card").first).to_be_visible(timeout=15_000)
    # somebody waits at a table of the game with free seats: the first free seat there
    host_page = new_page()
    host = Driver(host_page, "Host", game)
    host.login(private_server.url)
    room = host.create_room(game, preset=GAMES[game]["preset"], options=GAMES[game]["options"])
    guest_page = new_page()
    guest = Driver(guest_page, "Guest", game)
    guest.login(private_server.url)
    guest_page.get_by_test_id(f"quick-start-{game}").click()
    expect(guest.table).to_have_attribute("data-room", room)
    expect(guest.table).to_have_attribute("data-game", game)
    expect(guest.table).to_have_attribute("data-my-seat", "1")
    expect(host_page.get_by_test_id("seat-1")).to_contain_text("Guest")
    for s in range(2, seats):
        expect(guest_page.get_by_test_id(f"seat-{s}")).to_have_attribute("data-empty", "true")
    for p in (page, host_page, guest_page):
        assert not p.errors, p.errors  # type: ignore[attr-defined]
