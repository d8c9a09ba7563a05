"""Room options of the three games: what ``resolve_options`` accepts and resolves, what it
refuses (reason code, params and sentence), and what ``describe_options`` tells the room
form — pinned over a grid of values in ``data/options_pinned.json``.

The grid gives every option every value of a common list (booleans, numbers, ranks, text,
lists, None) and each of its own choices, alone and with the options it depends on. The
pinned answers were taken from the option code as it stood before the games shared one
option schema; a change of any answer is a change of behaviour. ``python
tests/test_options.py`` writes the file again (after a change meant to change them).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paiju.errors import IllegalAction
from paiju.specs import GAMES, spec

PINNED = Path(__file__).parent / "data" / "options_pinned.json"

VALUES: list[Any] = [
    True, False, None, 0, 1, 2, 3, 4, 5, 14, -1, 2.0, "2", "3", "x", "", "A", "T", "10", "6", "SJ", "BJ", "full",
    [], ["2", "2"], ["2", "3"], ["A"], "all", "competition", "2,5,T,J,Q,K,A", [2, 5, 14], "2,2", "5,2",
]  # fmt: skip
EXTRA: dict[str, list[dict[str, Any]]] = {
    "baohuang": [
        *(
            {"guard": g, "abdication": a}
            for g in ("card", "call")
            for a in ("standard", "classic", "qingdao", "weihai")
        ),
        {"variant": "qingdao", "yield_turn": False},
        {"variant": "standard", "yield_turn": True, "pass_is_final": False},
        {"hold_sixes": True, "hold_rank": "SJ"},
        {"hold_sixes": True, "hold_rank": "Q"},
        {"first_seat": 9, "leave_penalty": -1},
        {"unknown": 1, "other": 2},
        {"variant": "nope", "kao": 3},
    ],
    "shengji": [
        *({"decks": d, "two_colours": True} for d in (1, 2, 3)),
        *({"decks": d, "triples": True} for d in (1, 2, "3")),
        {"team_levels": ["3", "5"]},
        {"team_levels": ["3", "5"], "declarer": 1},
        {"team_levels": ["3", "5", "7"], "declarer": 1},
        {"levels": "2,5,T,J,Q,K,A", "start_level": "3"},
        {"levels": "competition", "start_level": "5", "win_at": "K"},
        {"levels": [2, 3, 4], "win_at": 4},
        {"declarer": True},
        {"unknown": 1},
    ],
    "shuangkou": [
        {"points_double": 0, "points_single": 0, "points_level": 0},
        {"first_lead": 3, "min_triple_run": 2},
        {"unknown": 1},
    ],
}


def cases(game: str) -> list[dict[str, Any]]:
    s = spec(game)
    names = [o["name"] for o in s.describe_options()["options"]]
    names += [n for n in spec(game).resolve_options() if n not in names]
    out: list[dict[str, Any]] = [{}]
    for name in names:
        choices = next((o.get("choices", []) for o in s.describe_options()["options"] if o["name"] == name), [])
        out += [{name: v} for v in VALUES + list(choices)]
    out += [{"variant": v} for v in s.presets]
    out += EXTRA[game]
    return out


def answer(game: str, options: dict[str, Any]) -> dict[str, Any]:
    try:
        resolved = spec(game).resolve_options(**options)
    except IllegalAction as e:
        return {"error": type(e).__name__, "code": e.code, "params": e.params, "message": str(e)}
    except (TypeError, KeyError) as e:  # a value the checks never expected (e.g. a list as a choice)
        return {"error": type(e).__name__}
    if not options:
        return {"resolved": resolved}
    defaults = spec(game).resolve_options()  # pinned as the answer to {}: each other answer is its difference
    return {"resolved_changes": {k: v for k, v in resolved.items() if k not in defaults or defaults[k] != v}}


def everything() -> dict[str, Any]:
    return {
        game: {
            "describe": spec(game).describe_options(),
            "cases": [{"options": o, **answer(game, o)} for o in cases(game)],
        }
        for game in GAMES
    }


def as_json(data: Any) -> Any:
    return json.loads(json.dumps(data, ensure_ascii=False))


@pytest.mark.parametrize("game", GAMES)
def test_options_as_pinned(game: str) -> None:
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))[game]
    now = as_json(everything()[game])
    assert now["describe"] == pinned["describe"]
    assert len(now["cases"]) == len(pinned["cases"])
    for got, want in zip(now["cases"], pinned["cases"]):
        assert got == want


if __name__ == "__main__":  # one case a line, so that a diff of the file shows the answers that changed
    parts = []
    for game, pinned in as_json(everything()).items():
        rows = ",\n".join(json.dumps(c, ensure_ascii=False) for c in pinned["cases"])
        describe = json.dumps(pinned["describe"], ensure_ascii=False)
        parts.append(f'"{game}": {{"describe": {describe}, "cases": [\n{rows}\n]}}')
    PINNED.write_text("{\n" + ",\n".join(parts) + "\n}\n", encoding="utf-8")
