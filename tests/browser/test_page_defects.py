"""The page defects a newcomer's play-throughs found (issue 29, item 6), each seen in Chromium:
the login form (an empty guest name is told, a language switch keeps what was typed, an
error toast goes once a login succeeds), the guest profile (no "null", a way back), the top
bar's bean balance fresh on the lobby and the profile, the lobby, profile and leaderboard
styled (no underlined links, no system selects, no controls touching); slow: the score
dialog reachable at 1366×768, 390×844 and 844×390 with the seat boxes named and inside the
screen and, in that Baohuang hand's replay on a phone, every seat's played cards inside the
screen and over no other seat's box, the card tracker inside its panel, a replay's played cards off the centre and the
hand inside the screen with the 复盘 panel open. (The English page's wording is checked
without a browser: test_translations.)
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import HallServer
from .driving import Driver
from .test_accounts import register
from .test_layout import MEASURE_JS, SETTLED_JS, inside, overlap


def test_login_form_and_guest_profile(server: HallServer, new_page: Callable[..., Page]) -> None:
    page = new_page()
    page.goto(server.url)
    toast = page.get_by_test_id("toast")
    # an empty guest name is told, not silently ignored
    page.get_by_test_id("login").click()
    expect(toast.filter(has_text="Please enter a name")).to_be_visible()
    # a refused account login leaves an error toast …
    page.get_by_test_id("login-tab-account").click()
    page.get_by_test_id("login-username").fill("nobody_here")
    page.get_by_test_id("login-password").fill("wrong password")
    page.get_by_test_id("login").click()
    expect(page.locator('[data-testid="toast"].error')).to_have_count(2)
    # … a language switch keeps what was typed and the tab …
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("login-username")).to_have_value("nobody_here")
    expect(page.get_by_test_id("login-tab-account")).to_have_class(re.compile(r"\bactive\b"))
    page.get_by_test_id("lang").click()
    page.get_by_test_id("login-tab-guest").click()
    page.get_by_test_id("login-name").fill("Gus")
    page.get_by_test_id("lang").click()
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("login-name")).to_have_value("Gus")
    # … and the next successful login takes the errors away
    page.get_by_test_id("login").click()
    expect(page.get_by_test_id("lobby")).to_be_visible()
    expect(page.locator('[data-testid="toast"].error')).to_have_count(0)
    # the guest's profile prints no "null" and has a way back to the lobby
    page.get_by_test_id("my-profile").click()
    profile = page.get_by_test_id("profile")
    expect(profile.get_by_test_id("profile-hands")).to_be_visible()
    assert "null" not in profile.inner_text()
    page.get_by_test_id("back-lobby").click()
    expect(page.get_by_test_id("lobby")).to_be_visible()
    assert not page.errors  # type: ignore[attr-defined]


# the pages around the table: no underlined links, no system selects, chart labels that can
# be read, and no two controls side by side touching
STYLE_JS = """() => {
  const out = [];
  const shown = (e) => e.getBoundingClientRect().width > 0;
  for (const a of document.querySelectorAll(".topbar a, main a"))
    if (shown(a) && getComputedStyle(a).textDecorationLine.includes("underline"))
      out.push(`link ${a.textContent} underlined`);
  for (const s of document.querySelectorAll("select"))
    if (shown(s) && getComputedStyle(s).appearance !== "none") out.push(`a system select ${s.dataset.testid}`);
  for (const t of document.querySelectorAll("svg.chart text"))
    if (t.getBoundingClientRect().height < 12) out.push(`a chart label ${t.getBoundingClientRect().height}px high`);
  const ctl = [...document.querySelectorAll("button, select, .topbar a, .pager > *")].filter(shown);
  for (const a of ctl) for (const b of ctl) {
    if (a === b || a.contains(b) || b.contains(a)) continue;
    const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
    const sameRow = p.top < q.bottom && q.top < p.bottom;
    if (sameRow && p.right <= q.left && q.left - p.right < 4) out.push(`${a.textContent} touches ${b.textContent}`);
  }
  return out;
}"""


def test_top_bar_balance_is_fresh(server: HallServer, new_page: Callable[..., Page]) -> None:
    """The balance moves with a hand (a ledger row) while the page keeps the login's copy:
    the lobby and the profile ask /api/me again when shown, without a new login."""
    page = new_page()
    register(page, server.url, "fresh_beans")
    beans = page.get_by_test_id("my-beans")
    expect(beans).to_have_text(re.compile(r"\b1000\b"))
    pid = page.evaluate("async () => (await (await fetch('/api/me')).json()).player.id")
    with sqlite3.connect(server.db) as db:  # what a finished hand writes: the account's share
        db.execute(
            "INSERT INTO ledger (player_id, amount, kind, created_at) VALUES (?, 2, 'grant', ?)",
            (pid, datetime.now(UTC).isoformat(sep=" ")),
        )
    page.get_by_test_id("my-profile").click()
    expect(page.get_by_test_id("profile-beans")).to_have_text(re.compile(r"\b1002\b"))
    expect(beans).to_have_text(re.compile(r"\b1002\b"))
    expect(page.get_by_test_id("chart-beans")).to_be_visible()
    found = page.evaluate(STYLE_JS)
    page.get_by_test_id("leaderboard-link").click()
    expect(page.get_by_test_id("board-by")).to_be_visible()
    found += page.evaluate(STYLE_JS)
    page.get_by_test_id("my-profile").click()
    assert not found, "the pages look unkempt:\n" + "\n".join(found)
    page.get_by_test_id("back-lobby").click()
    expect(page.get_by_test_id("lobby")).to_be_visible()
    expect(beans).to_have_text(re.compile(r"\b1002\b"))
    expect(page.get_by_test_id("create-form")).to_be_visible()
    found = page.evaluate(STYLE_JS)
    assert not found, "the lobby looks unkempt:\n" + "\n".join(found)
    assert not page.errors  # type: ignore[attr-defined]


# every button of the score dialog, and whether it is inside the viewport or can be scrolled
# into it inside the dialog (the dialog itself inside the viewport, its content scrolling)
DIALOG_JS = """() => {
  const vw = innerWidth, vh = innerHeight, out = [];
  const card = document.querySelector('[data-testid="scores"] .scores-card');
  const c = card.getBoundingClientRect();
  if (c.left < -0.5 || c.top < -0.5 || c.right > vw + 0.5 || c.bottom > vh + 0.5)
    out.push(`the dialog ${c.left},${c.top}–${c.right},${c.bottom} is not inside ${vw}×${vh}`);
  if (card.scrollWidth > card.clientWidth + 1)
    out.push(`the dialog scrolls sideways: ${card.scrollWidth} > ${card.clientWidth}`);
  for (const el of card.querySelectorAll("button, tr, .hands-left-row, .result-line, .chips")) {
    card.scrollTop = 0;
    el.scrollIntoView({block: "nearest", inline: "nearest"});
    const r = el.getBoundingClientRect();
    const name = el.dataset.testid || el.className || el.tagName;
    if (r.left < c.left - 0.5 || r.right > c.right + 0.5 || r.top < c.top - 0.5 || r.bottom > c.bottom + 0.5)
      out.push(`${name} ${r.left},${r.top}–${r.right},${r.bottom} is outside the dialog even scrolled to`);
  }
  card.scrollTop = 0;
  return out;
}"""


# between hands, behind the dialog: each seat box, its buttons (移除) inside the screen and its
# name shown (at least a few characters wide)
SEATS_JS = """() => {
  const vw = innerWidth, vh = innerHeight, out = [];
  for (const box of document.querySelectorAll(".seat-box")) {
    for (const el of [box, ...box.querySelectorAll("button")]) {
      const r = el.getBoundingClientRect();
      if (r.width && (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5))
        out.push(`${el.dataset.testid || el.className} ${r.left},${r.top}–${r.right},${r.bottom} is off the screen`);
    }
    const name = box.querySelector(".name-text");
    const shown = name ? name.getBoundingClientRect().width : 0;
    if (name && shown < 0.8 * Math.min(name.scrollWidth, 40))
      out.push(`a seat's name is cut to ${shown}px: ${name.textContent}`);
  }
  return out;
}"""


@pytest.mark.slow
def test_score_dialog_fits_every_size(server: HallServer, new_page: Callable[..., Page]) -> None:
    """At 1366×768, 390×844 and 844×390 the score dialog is inside the screen, nothing in
    it runs off to the side, and every button and row can be reached (scrolled to within)."""
    page = new_page(viewport={"width": 1366, "height": 768}, locale="zh-CN")
    person = Driver(page, "Dlg", "baohuang")
    person.setup_table(server.url)
    person.play_to_end()
    expect(page.get_by_test_id("scores")).to_be_visible()
    summary = page.locator('[data-testid="history"] summary')
    if summary.count():  # the room's hands so far: open, its table measured too
        summary.click()
    found = []
    for w, h in ((1366, 768), (390, 844), (844, 390)):
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(200)
        found += [f"{w}×{h}: {p}" for p in page.evaluate(DIALOG_JS) + page.evaluate(SEATS_JS)]
    # the hand's replay on a phone: every seat's played cards inside the screen and over no seat's
    # box (an open hand makes the seat boxes tall there: the top seats' plays reached the side seats)
    room = person.table.get_attribute("data-room")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server.url}#/replay/{room}/1?seat=0")
    expect(page.get_by_test_id("replay")).to_be_visible()
    for step in range(60):
        page.get_by_test_id("replay-next").click()
        page.wait_for_function(SETTLED_JS)
        off = [p for p in play_problems(page.evaluate(MEASURE_JS)) if "outside the screen" in p or "covers seat" in p]
        found += [f"390×844 replay step {step}: {p}" for p in off]
    assert not found, "\n".join(found)


# the tracker's cells inside its panel, the panel over no seat box
TRACKER_JS = """() => {
  const out = [], panel = document.querySelector('[data-testid="panel"]').getBoundingClientRect();
  for (const c of document.querySelectorAll('[data-testid="tracker"] [data-testid^="tracker-"]')) {
    const r = c.getBoundingClientRect();
    if (r.left < panel.left - 0.5 || r.right > panel.right + 0.5)
      out.push(`tracker ${c.dataset.testid} past the panel's edge`);
  }
  for (const s of document.querySelectorAll(".seat-box")) {
    const r = s.getBoundingClientRect();
    if (r.right > panel.left && r.left < panel.right && r.bottom > panel.top && r.top < panel.bottom)
      out.push(`the panel covers ${s.textContent.slice(0, 20)}`);
  }
  return out;
}"""


def play_problems(m: dict[str, Any], hand_inside: bool = False) -> list[str]:
    """What is wrong with a measured replay frame: a seat's played cards off the screen or
    over a centre item or another seat; (with hand_inside) the hand off the screen."""
    vw, vh = m["vw"], m["vh"]
    out = []
    named = [(f"seat {s['seat']}'s played cards", s["play"]) for s in m["seats"] if s["play"]]
    for name, b in named:
        if not inside(b, vw, vh):
            out.append(f"{name} outside the screen: {b}")
        out += [f"{name} covers centre {it['name']}" for it in m["items"] if overlap(b, it["box"])]
        out += [f"{name} covers seat {s['seat']}" for s in m["seats"] if overlap(b, s["box"])]
    if hand_inside and m["hand"] and not inside(m["hand"], vw, vh):
        out.append(f"the hand is outside the screen: {m['hand']}")
    return out


@pytest.mark.slow
def test_table_and_replay_layout(server: HallServer, new_page: Callable[..., Page]) -> None:
    """The card tracker fits its panel and covers no seat (1366 wide); the replay of a
    four-seat hand keeps the played cards off the centre's status and inside the screen
    (1366×768, 390×844), and its hand inside the screen with the 复盘 panel open."""
    page = new_page(viewport={"width": 1366, "height": 768}, locale="zh-CN")
    person = Driver(page, "Lay", "shuangkou")
    person.setup_table(server.url)
    person.until_play_with_cards_out()
    found = []
    page.get_by_test_id("tracker-toggle").click()
    expect(page.get_by_test_id("tracker")).to_be_visible()
    page.wait_for_timeout(300)
    found += page.evaluate(TRACKER_JS)
    page.get_by_test_id("tracker-toggle").click()
    person.play_to_end()
    room = person.table.get_attribute("data-room")
    page.goto(f"{server.url}#/replay/{room}/1?seat=0")
    expect(page.get_by_test_id("replay")).to_be_visible()
    for size in ((1366, 768), (390, 844)):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.get_by_test_id("replay-start").click()
        for step in range(40):  # the first tricks, each play
            page.get_by_test_id("replay-next").click()
            page.wait_for_function(SETTLED_JS)
            found += [f"{size} step {step}: {p}" for p in play_problems(page.evaluate(MEASURE_JS))]
    page.set_viewport_size({"width": 1366, "height": 768})
    page.get_by_test_id("replay-start").click()  # the whole hand: the widest fan
    page.wait_for_function(SETTLED_JS)
    page.get_by_test_id("analysis-toggle").click()
    expect(page.get_by_test_id("review")).to_be_visible()
    page.wait_for_timeout(300)
    found += [f"复盘 open: {p}" for p in play_problems(page.evaluate(MEASURE_JS), hand_inside=True)]
    assert not found, "\n".join(dict.fromkeys(re.sub(r" step \d+", "", f) for f in found))
