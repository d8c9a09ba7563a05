"""The version is written once (``paiju.__version__``) and the changelog's newest release is it."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import paiju

ROOT = Path(__file__).resolve().parents[1]


def test_the_installed_package_has_the_code_s_version() -> None:
    assert importlib.metadata.version("paiju") == paiju.__version__


def test_the_changelog_s_newest_release_is_the_version() -> None:
    releases = re.findall(r"^## (\d+\.\d+\.\d+)", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), flags=re.M)
    assert releases and releases[0] == paiju.__version__
