"""Playing together in the browser: the creator of a private room copies its invitation
(邀请) from the table, a friend who opens the link — not even logged in yet — is seated at
a free seat; from the friend's profile the creator follows him (关注), then blocks him (拉黑),
which stops following, and both show on the hall's friends list.
"""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from .conftest import HallServer
from .test_accounts import register


def test_an_invitation_link_seats_a_friend_and_the_profile_follows_and_blocks(
    server: HallServer, new_page: Callable[..., Page]
) -> None:
    host = new_page()
    register(host, server.url, "social_host")
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
    invite.click()
    host.wait_for_function("() => window.copied !== null")
    link = host.evaluate("() => window.copied")
    assert f"#/room/{rid}?invite=" in link

    friend = new_page()
    friend.goto(link)  # not logged in: the first screen, then the invitation
    friend.get_by_test_id("login-name").fill("invited friend")
    friend.get_by_test_id("login").click()
    expect(friend.get_by_test_id("table")).to_be_visible()
    expect(friend).to_have_url(server.url + f"#/room/{rid}")  # the token leaves the address
    room = host.request.get(server.url + f"api/rooms/{rid}").json()
    (seated,) = [s for s in room["seats"] if s["player"] == "invited friend"]
    assert room["private"] is True

    host.goto(server.url + f"#/player/{seated['player_id']}")
    follow, block = host.get_by_test_id("profile-follow"), host.get_by_test_id("profile-block")
    follow.click()
    expect(follow).to_have_attribute("data-on", "true")
    host.goto(server.url + "#/")
    expect(host.get_by_test_id(f"friend-{seated['player_id']}")).to_contain_text("invited friend")
    host.goto(server.url + f"#/player/{seated['player_id']}")
    block.click()
    expect(block).to_have_attribute("data-on", "true")
    expect(follow).to_have_attribute("data-on", "false")  # blocking stops following
    got = host.request.get(server.url + "api/friends").json()
    assert got["following"] == [] and [b["name"] for b in got["blocked"]] == ["invited friend"]
    assert not host.errors and not friend.errors  # type: ignore[attr-defined]
