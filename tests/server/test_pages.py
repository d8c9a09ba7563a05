"""The page's files are served: the index, everything it links, and every module any module
imports (a file moved without its path mended shows here, before a browser test)."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.testclient import TestClient

from paiju.server.web.app import WEB, create_app

IMPORTS = re.compile(
    r"""(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']"""  # import … from "./x.js"
    r"""|import\(\s*["']([^"']+)["']\s*\)"""  # import("./x.js")
)


def test_the_index_and_every_module_it_reaches_are_served(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'hall.db'}", bot_delay=0.0)) as client:
        index = client.get("/")
        assert index.status_code == 200 and "<html" in index.text.lower()
        todo = re.findall(r'(?:src|href)="(/static/[^"]+)"', index.text)
        assert any(path.endswith(".js") for path in todo) and any(path.endswith(".css") for path in todo)
        seen: set[str] = set()
        while todo:
            path = todo.pop()
            if path in seen:
                continue
            seen.add(path)
            answer = client.get(path)
            assert answer.status_code == 200, f"{path} is not served ({answer.status_code})"
            if path.endswith(".js"):
                for found in IMPORTS.findall(answer.text):
                    target = found[0] or found[1]
                    if target.startswith("."):
                        todo.append(_normal(f"{path.rpartition('/')[0]}/{target}"))
    # every module of the page is reached from the index (none is left behind unused)
    modules = {f"/static/{p.relative_to(WEB).as_posix()}" for p in WEB.rglob("*.js")}
    assert modules <= seen, f"modules no page reaches: {sorted(modules - seen)}"


def _normal(path: str) -> str:
    """``/static/table/../cards.js`` → ``/static/cards.js``."""
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/" + "/".join(parts)
