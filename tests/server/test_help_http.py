"""GET /api/games/{game}?options= (the rules page #/help/{game}) against a real hall."""

from __future__ import annotations

import json
from urllib.parse import quote

from .harness import Hall


def test_a_games_rules_under_a_rooms_options(hall: Hall) -> None:
    with hall.http() as c:
        options = quote(json.dumps({"decks": 3, "bean_multiplier": 5}))
        r = c.get(f"/api/games/shengji?options={options}")
        assert r.status_code == 200
        d = r.json()
        assert d["game"] == "shengji" and d["preset"] == "standard"
        assert d["options"]["decks"] == 3 and d["options"]["bean_multiplier"] == 5
        assert d["hand_cost"] == 5 * d["max_hand_points"]
        assert [t["zh"] for t in d["titles"]][9] == "轿车"
        assert c.get("/api/games/baohuang").json()["preset"] == "standard"
        bad = c.get(f"/api/games/shengji?options={quote(json.dumps({'decks': 7}))}")
        assert bad.status_code == 400 and bad.json()["code"] == "bad_option"
        assert c.get("/api/games/shengji?options=%5B%5D").json()["code"] == "bad_room_options"
        missing = c.get("/api/games/doudizhu")
        assert missing.status_code == 404 and missing.json()["code"] == "unknown_game"
