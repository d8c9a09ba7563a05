"""提示无则PASS in the page: a toggle of the table's tools, kept in this browser (off by
default); with it on, 提示 when nothing beats passes by itself and says so."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Page, expect  # noqa: E402

from .test_browser import no_page_errors  # noqa: E402
from .test_newcomer import seated  # noqa: E402

if TYPE_CHECKING:
    from .conftest import HallServer

pytestmark = pytest.mark.slow  # Baohuang hands with computer players until nothing beats

MESSAGES_JS = """() => {
  window.__messages = [];
  new MutationObserver(() => {
    const m = document.querySelector('[data-testid="message"]');
    if (m && m.innerText) window.__messages.push(m.innerText);
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""


def test_hint_passes_by_itself_when_the_setting_is_on(server: HallServer, page: Page) -> None:
    bo = seated(page, server, "Hp")
    assert page.evaluate("localStorage.getItem('paiju.hintPass')") is None  # off by default
    if not page.get_by_test_id("hint-pass-toggle").is_visible():
        page.get_by_test_id("tools-more").click()
    toggle = page.get_by_test_id("hint-pass-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(page.get_by_test_id("hint-pass-toggle")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("localStorage.getItem('paiju.hintPass')") == "on"
    # the message may be gone by the time the test looks (the bots play on fast): keep every one shown
    page.evaluate(MESSAGES_JS)
    hands = 0
    while hands < 3:
        what = bo.wait_next()
        if what == "over":
            hands += 1
            page.get_by_test_id("next-hand").click()
            continue
        if what == "setup":
            bo.decide()
            continue
        if bo.raised():
            bo.lower_all()
        t0 = bo.begin()
        page.get_by_test_id("hint").click()
        res = bo.wait_after(t0, want_raised=True)
        if res == "moved":  # nothing beat: the hall passed for us
            page.wait_for_function("() => window.__messages.some((m) => m.includes('passed for you'))")
            break
        assert res == "raised", res
        t1 = bo.begin()
        page.get_by_test_id("play").click()
        bo.expect_moved(t1, "hint → play")
    else:
        raise AssertionError("no turn where nothing beats came up")
    no_page_errors(page)
