"""Make the screenshots of docs/screenshots/: each game in play at the three screen sizes
of issue 13 (a desktop 1366×768, a phone upright 390×844 and on its side 844×390).

    .venv/bin/python docs/screenshots/make.py [out_dir]

A hall runs on a free port with a temporary database; in each game a person plays (by
clicks, like the browser tests) against computer players until it is their turn with
cards on the table, and the page is shot at each size (device_scale_factor 1, and a
palette of 96 colours when Pillow is there, so the PNGs stay small).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, HallServer  # noqa: E402
from tests.browser.driving import GAMES, Driver  # noqa: E402

SIZES = {"desktop": (1366, 768), "phone": (390, 844), "landscape": (844, 390)}


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = HallServer(Path(tmp)).start()
        try:
            shoot(server, out)
        finally:
            server.stop()


def shoot(server: HallServer, out: Path) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for game in GAMES:
            ctx = browser.new_context(viewport={"width": 1366, "height": 768}, device_scale_factor=1, locale="zh-CN")
            page = ctx.new_page()
            person = Driver(page, "小明", game)
            person.setup_table(server.url)
            person.until_play_with_cards_out()
            for size, (w, h) in SIZES.items():
                page.set_viewport_size({"width": w, "height": h})
                page.wait_for_timeout(400)  # the hand is laid out again on resize
                path = out / f"{game}-{size}.png"
                page.screenshot(path=str(path))
                shrink(path)
                print(path, path.stat().st_size)
            ctx.close()
        browser.close()


def shrink(path: Path) -> None:
    """A palette PNG of 96 colours (a few tens of kB) when Pillow is installed."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as im:
        small = im.convert("RGB").quantize(colors=96, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent)
