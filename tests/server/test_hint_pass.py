"""提示无则PASS on a real hall: a player's setting sent with the hint (``auto_pass``); when
nothing beats, the hall passes for him (seed 000: 系统自动选出最小可打条件嘚牌无则PASS);
otherwise the hint only suggests, as always."""

from __future__ import annotations

import pytest

from .harness import Hall, is_my_turn, sit_with_bots
from .test_newcomer import answer, ended, no_update_since


@pytest.mark.slow  # a few hands of Baohuang with bots: ~10 s
def test_hint_with_auto_pass_passes_only_when_nothing_beats(hall: Hall) -> None:
    p = hall.login("passer")
    rid = hall.create_room(p, {"variant": "standard"})
    suggested = passed = 0
    with hall.connect(rid, p) as c:
        sit_with_bots(c)
        for _ in range(3):  # hands until both kinds of turn were seen
            c.send({"type": "start"})
            acted = -1
            while True:
                m = c.until_update(lambda x, a=acted: ended(x) or (is_my_turn(x) and x["turn"] > a), 60)
                if ended(m):
                    break
                view, turn = m["view"], m["turn"]
                acted = turn
                if view["phase"] != "play":
                    c.act(c.hint(), turn)
                    continue
                got = answer(c, {"type": "hint", "auto_pass": True}, "hint")
                assert got["type"] == "hint", got
                nothing = [a for a in view["legal_actions"] if a not in ("pass", "yield")] == []
                assert got["pass"] is nothing and got["passed"] is nothing, got
                if nothing:
                    passed += 1
                    c.until_update(lambda x, t=turn: x["turn"] > t)  # the hall passed for seat 0
                    if passed >= 1 and suggested >= 1:
                        break
                    continue
                suggested += 1
                no_update_since(c)  # something beats: the hint never acts
                assert answer(c, {"type": "hint"}, "hint")["passed"] is False
                c.act(got["action"], turn)
            if passed and suggested:
                break
    assert passed >= 1, "no turn where nothing beats was met"
    assert suggested >= 1
