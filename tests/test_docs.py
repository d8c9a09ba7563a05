"""The documents agree with the code: docs/api.md's examples run, every room option of
each game is in its rules page (docs/rules/<game>.md) with the code's values and default,
and the links between the documents lead somewhere."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import pytest

import paiju

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def test_api_doc_examples_run() -> None:
    blocks = _python_blocks((DOCS / "api.md").read_text())
    assert len(blocks) >= 5
    namespace: dict[str, Any] = {"__name__": "api_doc"}
    for i, block in enumerate(blocks):
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                exec(compile(block, f"docs/api.md block {i + 1}", "exec"), namespace)
            except Exception as e:  # the message names the block
                raise AssertionError(f"docs/api.md python block {i + 1} fails: {e!r}\n{block}") from e


def _literal(value: Any) -> str:
    """An option value as the rules pages write it: `"full"`, `True`, `40`."""
    return f'`"{value}"`' if isinstance(value, str) else f"`{value!r}`"


def _table(text: str, heading: str) -> dict[str, list[str]]:
    """The rows of the first table after the line holding ``heading``, by first cell."""
    start = text.index(heading)
    rows: dict[str, list[str]] = {}
    started = False
    for line in text[start:].splitlines():
        if line.startswith("|"):
            started = True
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows[cells[0]] = cells[1:]
        elif started:
            break
    return rows


@pytest.mark.parametrize("name", paiju.GAMES)
def test_rules_page_lists_every_room_option(name: str) -> None:
    text = (DOCS / "rules" / f"{name}.md").read_text()
    described = getattr(paiju, name).describe_options()
    rows = _table(text, "Room options at a glance\n")
    for entry in described["options"]:
        key = f"`{entry['name']}`"
        assert key in rows, f"docs/rules/{name}.md §Room options has no row for {entry['name']}"
        values, default = rows[key][0], rows[key][1]
        assert default == _literal(entry["default"]), f"{entry['name']}: the page says {default}"
        expected = [True, False] if entry["type"] == "bool" else entry.get("choices", [])
        if entry["type"] in ("bool", "choice"):
            for choice in expected:
                assert _literal(choice) in values, f"{entry['name']}: {choice!r} is missing from {values}"
    # every option the engine resolves (match-carried and old-record ones too) is named
    for option in getattr(paiju, name).resolve_options():
        assert f"`{option}`" in text, f"docs/rules/{name}.md does not name the option {option}"


def test_baohuang_presets_table_matches_the_code() -> None:
    text = (DOCS / "rules" / "baohuang.md").read_text()
    rows = _table(text, "The same presets as option values:\n")
    presets = paiju.baohuang.PRESETS
    assert rows["option"] == [f"`{p}`" for p in presets]
    for option in presets["standard"]:
        assert rows[f"`{option}`"] == [_literal(presets[p][option]) for p in presets], option


def _slug(heading: str) -> str:
    """The anchor a Markdown heading gets (GitHub's rule)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(), flags=re.S | re.M)
    return {_slug(m.group(1)) for m in re.finditer(r"^#+ (.*)$", text, flags=re.M)}


DOCUMENTS = sorted([ROOT / "README.md", *DOCS.glob("*.md"), *DOCS.glob("rules/*.md")])


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_between_documents_resolve(path: Path) -> None:
    text = re.sub(r"^```.*?^```", "", path.read_text(), flags=re.S | re.M)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        assert linked.exists(), f"{path.name} links to {target}: no such file"
        assert linked.is_relative_to(ROOT), f"{path.name} links outside the repository: {target}"
        if anchor and linked.suffix == ".md":
            assert anchor in _anchors(linked), f"{path.name} links to {target}: no such heading"
