"""Moderation in Chromium (issue 28, item 7): an administrator kicks a seated player mid-hand
from the console #/admin, and the player's page says why (the admin's reason, the penalty)
and does not reconnect; a player reports another from the table (the seat's ⋯ menu), the
administrator finds the report in the console with the chat line kept with it, and opens
the hand's replay from it; a moderator mutes a player from the console's users, whose
phrase is then refused with the reason, and the room's creator unseats that player between
hands (only the creator's menu offers it), who is told by whom and watches on.

The administrator is an account made one by `paiju admin user role NAME admin`; the
players are guests. The reported hand is played out by the
two pages' own sockets (the first legal action at each turn) — the table's clicks are
other tests' work.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable

import pytest

pytest.importorskip("playwright.sync_api")
if not os.path.exists("/usr/bin/chromium"):
    pytest.skip("the browser tests need Debian's chromium at /usr/bin/chromium", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

from .conftest import HallServer  # noqa: E402
from .driving import Driver  # noqa: E402

PASSWORD = "a good password"
ADMIN = "console_admin"

# Play seat `seat` of `room` on a socket of the page's own (its player's second connection):
# the first legal action at each of its turns, until the hand is over. Returns at once.
AUTOPLAY_JS = """([room, seat]) => {
  const ws = new WebSocket(`ws://${location.host}/ws/${room}`);
  const acted = new Set();
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type !== "update") return;
    const v = m.view;
    if (m.room.status === "between") { ws.close(); return; }
    if (v && v.to_act === seat && (v.legal_actions || []).length && !acted.has(m.turn)) {
      acted.add(m.turn);
      ws.send(JSON.stringify({ type: "act", action: v.legal_actions[0], turn: m.turn }));
    }
  };
}"""


def set_role(server: HallServer, username: str, role: str) -> None:
    """`paiju admin user role NAME ROLE` on the hall's database (the store's players.role)."""
    code = "from paiju.cli import app; app()"
    cmd = [sys.executable, "-c", code, "admin", "user", "role", username, role, "--db", f"sqlite:///{server.db}"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def admin_page(server: HallServer, new_page: Callable[..., Page]) -> Page:
    """A page of the administrator's account (registered and made admin the first time)."""
    page = new_page()
    page.goto(server.url)
    page.get_by_test_id("login-tab-account").click()
    page.get_by_test_id("login-username").fill(ADMIN)
    page.get_by_test_id("login-password").fill(PASSWORD)
    page.get_by_test_id("login").click()
    toast = page.locator('[data-testid="toast"].error')
    lobby = page.get_by_test_id("lobby")
    expect(lobby.or_(toast)).to_be_visible()
    if toast.count():  # no such account yet: register it, make it an admin
        page.get_by_test_id("login-tab-register").click()
        page.get_by_test_id("login").click()
        expect(lobby).to_be_visible()
        set_role(server, ADMIN, "admin")
        page.reload()
    expect(page.get_by_test_id("admin-link")).to_be_visible()
    return page


def guest(new_page: Callable[..., Page], server: HallServer, name: str) -> Page:
    page = new_page()
    page.goto(server.url)
    page.get_by_test_id("login-name").fill(name)
    page.get_by_test_id("login").click()
    expect(page.get_by_test_id("lobby")).to_be_visible()
    return page


@pytest.mark.slow  # a hand played to the kick: ~12 s (make test-slow)
def test_a_player_kicked_mid_hand_sees_why_and_stays_out(server: HallServer, new_page: Callable[..., Page]) -> None:
    # a guest's page opening the console is refused, and has no link to it
    player = Driver(new_page(), "Kicked", "baohuang")
    player.login(server.url)
    expect(player.page.get_by_test_id("admin-link")).to_have_count(0)
    player.page.goto(server.url + "#/admin")
    expect(player.page.get_by_test_id("admin-refused")).to_be_visible()
    # the player sits with bots and the hand starts
    player.page.goto(server.url + "#/")
    room = player.create_room("baohuang", preset="standard")
    player.fill_with_bots()
    player.start()
    expect(player.table).to_have_attribute("data-connection", "open")

    admin = admin_page(server, new_page)
    admin.get_by_test_id("admin-link").click()
    expect(admin.get_by_test_id("admin-reports")).to_be_visible()  # the reports come first
    admin.get_by_test_id("admin-tab-rooms").click()
    seat = admin.get_by_test_id(f"admin-seat-{room}-0")
    expect(seat).to_contain_text("Kicked")
    admin.get_by_test_id(f"kick-{room}-0").click()
    admin.get_by_test_id("admin-ask-reason").fill("abusive play, warned twice")
    admin.get_by_test_id("admin-ask-yes").click()
    expect(admin.get_by_test_id("toast")).to_contain_text(re.compile(r"Kicked was removed and loses \d+ points"))

    # the player's page says why, with the penalty, and stays closed
    banner = player.page.get_by_test_id("banner")
    expect(banner).to_have_attribute("data-closed", "kicked")
    why = "You were removed from this game by an administrator: abusive play, warned twice"
    expect(player.page.get_by_test_id("closed-text")).to_have_text(
        re.compile(re.escape(why) + r" \(\d+ points lost\)$")
    )
    expect(player.table).to_have_attribute("data-connection", "closed")
    opened: list[str] = []
    player.page.on("websocket", lambda ws: opened.append(ws.url))
    player.page.wait_for_timeout(3000)  # longer than the longest wait before a reconnection (RETRY_MAX)
    assert not opened, f"the page reconnected after the kick: {opened}"
    expect(player.table).to_have_attribute("data-connection", "closed")
    # the kick is in the audit log, with its reason
    admin.get_by_test_id("admin-tab-audit").click()
    row = admin.locator('[data-testid^="audit-"][data-action="kick"]', has_text="abusive play, warned twice")
    expect(row).to_have_count(1)
    assert not player.page.errors and not admin.errors  # type: ignore[attr-defined]


@pytest.mark.slow  # a whole scenario of 20-45 s: make test-slow (CI runs it)
def test_a_report_from_the_table_is_opened_with_its_replay(server: HallServer, new_page: Callable[..., Page]) -> None:
    reporter = Driver(new_page(), "Reporter", "shuangkou")
    reporter.login(server.url)
    room = reporter.create_room("shuangkou")
    reported = guest(new_page, server, "Rude One")
    reported.goto(server.url + f"#/room/{room}")
    reported.get_by_test_id("sit-1").click()
    expect(reported.get_by_test_id("table")).to_have_attribute("data-my-seat", "1")
    for s in (2, 3):
        reporter.page.get_by_test_id(f"bot-{s}-hosted").click()  # the quickest computer players
        expect(reporter.page.get_by_test_id(f"seat-{s}")).to_have_attribute("data-empty", "false")
    reported.get_by_test_id("start").click()  # 准备: both people are ready, the hand starts
    reporter.start()
    # the reported says something (kept with the report); the reporter reports from the seat's menu
    reported.get_by_test_id("phrases-toggle").click()
    reported.get_by_test_id("phrase-hurry").click()
    expect(reporter.page.get_by_test_id("bubble-1")).to_be_visible()
    reporter.page.get_by_test_id("seat-menu-1").click()
    reporter.page.get_by_test_id("report-1").click()
    reporter.page.get_by_test_id("report-reason").select_option("abuse")
    reporter.page.get_by_test_id("report-text").fill("keeps hurrying everyone")
    reporter.page.get_by_test_id("report-yes").click()
    expect(reporter.page.get_by_test_id("toast")).to_contain_text("Thank you")
    # the reported player is told nothing
    expect(reported.locator('[data-testid="toast"]', has_text=re.compile("report", re.I))).to_have_count(0)
    # the hand is played out (only a finished hand has a replay)
    reporter.page.evaluate(AUTOPLAY_JS, [room, 0])
    reported.evaluate(AUTOPLAY_JS, [room, 1])
    admin = admin_page(server, new_page)  # meanwhile
    expect(reporter.table).to_have_attribute("data-status", "between", timeout=60_000)
    admin.goto(server.url + "#/admin")
    card = admin.locator('[data-testid^="report-"][data-status="open"]', has_text="keeps hurrying everyone")
    expect(card).to_have_count(1)
    expect(card.get_by_test_id("report-reported")).to_have_text("Rude One")
    expect(card).to_contain_text("Abuse in chat")
    expect(card.get_by_test_id("report-chat")).to_contain_text("Rude One: ")
    card.get_by_test_id("report-replay").click()
    # the hand's replay: every other seat's cards face up
    expect(admin.get_by_test_id("replay")).to_be_visible()
    expect(admin).to_have_url(re.compile(rf"#/replay/{room}/1"))
    for s in (1, 2, 3):
        expect(admin.get_by_test_id(f"seat-cards-{s}").locator(".card")).not_to_have_count(0)
    # back in the console, the report is closed with its outcome
    admin.go_back()
    card = admin.locator('[data-testid^="report-"]', has_text="keeps hurrying everyone")
    card.get_by_test_id("report-outcome-input").fill("warned in private")
    card.get_by_test_id("report-close").click()
    expect(card).to_have_count(0)  # only open ones are listed
    assert not reporter.page.errors and not reported.errors and not admin.errors  # type: ignore[attr-defined]


@pytest.mark.slow  # a hand to its end: ~9 s (make test-slow)
def test_a_muted_player_is_told_and_the_owner_unseats_between_hands(
    server: HallServer, new_page: Callable[..., Page]
) -> None:
    owner = Driver(new_page(), "Owner", "shuangkou")
    owner.login(server.url)
    room = owner.create_room("shuangkou")
    chatty = guest(new_page, server, "Chatty")
    chatty.goto(server.url + f"#/room/{room}")
    chatty.get_by_test_id("sit-1").click()
    table = chatty.get_by_test_id("table")
    expect(table).to_have_attribute("data-my-seat", "1")
    # only the room's creator may unseat: another person's menu offers the report alone
    chatty.get_by_test_id("seat-menu-0").click()
    expect(chatty.get_by_test_id("report-0")).to_be_visible()
    expect(chatty.get_by_test_id("unseat-0")).to_have_count(0)
    chatty.get_by_test_id("seat-menu-cancel").click()

    # a moderator's mute from the console: the user found by name, muted with a reason
    admin = admin_page(server, new_page)
    admin.goto(server.url + "#/admin/users")
    admin.get_by_test_id("users-q").fill("Chatty")
    admin.get_by_test_id("users-search").click()
    admin.locator('[data-testid^="user-open-"]', has_text="Chatty").first.click()
    expect(admin.get_by_test_id("user-detail").locator("h3")).to_contain_text("Chatty")
    admin.get_by_test_id("user-mute").click()
    admin.get_by_test_id("admin-ask-minutes").fill("30")
    admin.get_by_test_id("admin-ask-reason").fill("spamming the table")
    admin.get_by_test_id("admin-ask-yes").click()
    expect(admin.get_by_test_id("user-detail").locator("h3")).to_contain_text("muted until")
    # the muted player's phrase is refused with the sentence of `muted`
    chatty.get_by_test_id("phrases-toggle").click()
    chatty.get_by_test_id("phrase-hurry").click()
    expect(chatty.get_by_test_id("message")).to_have_text(re.compile(r"You are muted: \d+ min to go"))

    # between hands the owner unseats Chatty, who is told by whom and watches on
    owner.page.get_by_test_id("seat-menu-1").click()
    owner.page.get_by_test_id("unseat-1").click()
    owner.page.get_by_test_id("unseat-confirm-yes").click()
    expect(chatty.get_by_test_id("toast")).to_contain_text("The room's owner unseated you")
    expect(table).to_have_attribute("data-my-seat", "")
    expect(table).to_have_attribute("data-connection", "open")
    assert not owner.page.errors and not chatty.errors and not admin.errors  # type: ignore[attr-defined]
