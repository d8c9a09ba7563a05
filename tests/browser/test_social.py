"""Playing together in the browser: the creator of a private room copies its invitation
(邀请) from the table's invitation dialog, a friend who opens the link — not even logged in yet — is seated at
a free seat; from the friend's profile the creator follows him (关注), then blocks him (拉黑),
which stops following, and both show on the hall's friends list. At 1366×768 (the default
run), 390×844 and 844×390 (slow) the invite button, the room-code box, the friends list and
the profile's follow and block buttons are shown inside the screen, nothing scrolling sideways.
Then a friend is invited from the table's dialog and joins from the invitation his lobby
shows; the seat's menu follows, mutes and blocks him; the creator sets a password from the
same dialog and a newcomer is asked for it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from .conftest import HallServer
from .test_accounts import register

SIZES = [
    pytest.param((1366, 768), id="desktop"),
    pytest.param((390, 844), id="phone", marks=pytest.mark.slow),
    pytest.param((844, 390), id="landscape", marks=pytest.mark.slow),
]


def shown_inside(page: Page, testid: str) -> None:
    """The element is visible, wholly inside the viewport, and the page scrolls not sideways."""
    el = page.get_by_test_id(testid)
    expect(el).to_be_visible()
    el.scroll_into_view_if_needed()
    box, vw, vh = el.bounding_box(), page.viewport_size["width"], page.viewport_size["height"]  # type: ignore[index]
    assert box is not None
    assert box["x"] >= -0.5 and box["y"] >= -0.5, f"{testid} past the left/top edge: {box}"
    assert box["x"] + box["width"] <= vw + 0.5, f"{testid} past the right edge of {vw}: {box}"
    assert box["y"] + box["height"] <= vh + 0.5, f"{testid} below the bottom of {vh}: {box}"
    wide = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert wide <= 1, f"the page scrolls sideways by {wide}px next to {testid}"


@pytest.mark.parametrize("size", SIZES)
def test_an_invitation_link_seats_a_friend_and_the_profile_follows_and_blocks(
    server: HallServer, new_page: Callable[..., Page], size: tuple[int, int]
) -> None:
    w, h = size
    host = new_page(viewport={"width": w, "height": h})
    name, guest = f"social_host_{w}", f"invited {w}"
    register(host, server.url, name)
    origin = {"Origin": server.url.rstrip("/")}
    r = host.request.post(
        server.url + "api/rooms",
        data={"name": "friends only", "game": "shuangkou", "options": {"private": True}},
        headers=origin,
    )
    assert r.ok, r.text()
    rid = r.json()["id"]
    host.goto(server.url + f"#/room/{rid}")
    expect(host.get_by_test_id("table")).to_be_visible()
    # 邀请: the link the button copies (the clipboard stands in for the page's own)
    host.evaluate(
        "() => { window.copied = null; navigator.clipboard.writeText = async (s) => { window.copied = s; }; }"
    )
    invite = host.get_by_test_id("invite")
    if not invite.is_visible():
        host.get_by_test_id("tools-more").click()
    shown_inside(host, "invite")
    invite.click()  # the dialog: the link, friends to invite (and, for the creator, who may come)
    shown_inside(host, "invite-copy")
    host.get_by_test_id("invite-copy").click()
    host.wait_for_function("() => window.copied !== null")
    host.get_by_test_id("invite-close").click()
    link = host.evaluate("() => window.copied")
    assert f"#/room/{rid}?invite=" in link

    friend = new_page(viewport={"width": w, "height": h})
    friend.goto(link)  # not logged in: the first screen, then the invitation
    friend.get_by_test_id("login-name").fill(guest)
    friend.get_by_test_id("login").click()
    expect(friend.get_by_test_id("table")).to_be_visible()
    expect(friend).to_have_url(server.url + f"#/room/{rid}")  # the token leaves the address
    room = host.request.get(server.url + f"api/rooms/{rid}").json()
    (seated,) = [s for s in room["seats"] if s["player"] == guest]
    assert room["private"] is True

    host.goto(server.url + f"#/player/{seated['player_id']}")
    follow, block = host.get_by_test_id("profile-follow"), host.get_by_test_id("profile-block")
    shown_inside(host, "profile-follow")
    shown_inside(host, "profile-block")
    follow.click()
    expect(follow).to_have_attribute("data-on", "true")
    host.goto(server.url + "#/")
    expect(host.get_by_test_id(f"friend-{seated['player_id']}")).to_contain_text(guest)
    shown_inside(host, "room-code")
    shown_inside(host, "room-code-go")
    shown_inside(host, "friends")
    host.goto(server.url + f"#/player/{seated['player_id']}")
    block.click()
    expect(block).to_have_attribute("data-on", "true")
    expect(follow).to_have_attribute("data-on", "false")  # blocking stops following
    got = host.request.get(server.url + "api/friends").json()
    assert got["following"] == [] and [b["name"] for b in got["blocked"]] == [guest]
    assert not host.errors and not friend.errors  # type: ignore[attr-defined]


def open_invite_dialog(page: Page) -> None:
    expect(page.get_by_test_id("table")).to_have_attribute("data-status", "waiting")  # the room has come
    invite = page.get_by_test_id("invite")
    if not invite.is_visible():
        page.get_by_test_id("tools-more").click()
    invite.click()
    expect(page.get_by_test_id("invite-dialog")).to_be_visible()


@pytest.mark.slow  # the invitation's page asks every 8 s: ~15 s (make test-slow)
@pytest.mark.parametrize("size", SIZES[:2])
def test_a_friend_is_invited_from_the_table_and_the_seat_menu_mutes_and_blocks(
    server: HallServer, new_page: Callable[..., Page], size: tuple[int, int]
) -> None:
    w, h = size
    host, friend = new_page(viewport={"width": w, "height": h}), new_page(viewport={"width": w, "height": h})
    register(host, server.url, f"inv_host_{w}")
    register(friend, server.url, f"inv_friend_{w}")
    fid = friend.request.get(server.url + "api/me").json()["player"]["id"]
    origin = {"Origin": server.url.rstrip("/")}
    assert host.request.post(server.url + "api/follow", data={"player": fid}, headers=origin).ok
    room = {"name": "come play", "game": "shuangkou", "options": {"one_per_address": False}}  # both on loopback
    r = host.request.post(server.url + "api/rooms", data=room, headers=origin)
    rid = r.json()["id"]
    host.goto(server.url + f"#/room/{rid}")
    host.get_by_test_id("sit-0").click()
    expect(host.get_by_test_id("table")).to_have_attribute("data-my-seat", "0")
    # 邀请好友: the friend, in the lobby, is shown the invitation and joins: seated at once
    open_invite_dialog(host)
    shown_inside(host, f"invite-friend-{fid}")
    host.get_by_test_id(f"invite-friend-{fid}").click()
    expect(host.get_by_test_id(f"invite-friend-{fid}")).to_have_text("Invited")
    host.get_by_test_id("invite-close").click()
    card = friend.locator('[data-testid^="invitation-"]', has_text="come play").first
    expect(card).to_be_visible(timeout=15_000)  # the page asks every 8 s
    expect(card).to_contain_text(re.compile(f"inv_host_{w} invites you to Shuangkou", re.I))
    card.get_by_test_id("invitation-join").click()
    expect(friend.get_by_test_id("table")).to_have_attribute("data-my-seat", "1")
    expect(friend.locator('[data-testid^="invitation-"]', has_text="come play")).to_have_count(0)
    # the seat's menu: mute his chat here, then block him
    host.get_by_test_id("seat-menu-1").click()
    host.get_by_test_id("mute-1").click()
    expect(host.get_by_test_id("toast").last).to_contain_text("Their words are hidden at this table")
    host.get_by_test_id("seat-menu-1").click()
    expect(host.get_by_test_id("mute-1")).to_have_text("Unmute")
    host.get_by_test_id("block-1").click()
    got = host.request.get(server.url + "api/friends").json()
    assert [b["id"] for b in got["blocked"]] == [fid] and got["following"] == []
    assert not host.errors and not friend.errors  # type: ignore[attr-defined]


def test_the_creator_sets_a_password_and_a_newcomer_is_asked_for_it(
    server: HallServer, new_page: Callable[..., Page]
) -> None:
    host = new_page()
    register(host, server.url, "pw_host")
    origin = {"Origin": server.url.rstrip("/")}
    r = host.request.post(server.url + "api/rooms", data={"name": "later locked", "game": "baohuang"}, headers=origin)
    rid = r.json()["id"]
    host.goto(server.url + f"#/room/{rid}")
    open_invite_dialog(host)
    host.get_by_test_id("access-password").fill("tea time")
    host.get_by_test_id("access-save").click()
    expect(host.get_by_test_id("toast").last).to_contain_text("saved")
    assert host.request.get(server.url + f"api/rooms/{rid}").json()["password"] is True
    newcomer = new_page()
    newcomer.goto(server.url + f"#/room/{rid}")
    newcomer.get_by_test_id("login-name").fill("newcomer")
    newcomer.get_by_test_id("login").click()
    expect(newcomer.get_by_test_id("room-password")).to_be_visible()
    newcomer.get_by_test_id("room-password-password").fill("wrong")
    newcomer.get_by_test_id("room-password-yes").click()
    expect(newcomer.get_by_test_id("toast").last).to_contain_text("This room has a password")
    newcomer.get_by_test_id("room-password-password").fill("tea time")
    newcomer.get_by_test_id("room-password-yes").click()
    expect(newcomer.get_by_test_id("table")).to_be_visible()
    expect(newcomer.get_by_test_id("sit-0")).to_be_visible()
    assert not host.errors and not newcomer.errors  # type: ignore[attr-defined]
