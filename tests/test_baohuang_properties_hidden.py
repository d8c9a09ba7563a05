"""Property tests of what the Baohuang engine hides (check 5 of
``baohuang_property_checks.py``): two deals that differ only in who holds the role card,
or in any two hidden cards, look the same to everybody else until the rules let it show.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from baohuang_property_helpers import GUARD_CARD, PERSONAL, SEATS, Chooser, choosers, new, rooms, swap
from paiju.baohuang import Declare, Play
from paiju.baohuang.plays import strength
from paiju.cards import SMALL_JOKER, Card, format_cards

# ---------------------------------------------------------- hidden cards, hidden roles


def _common_action(g1: Any, g2: Any, chooser: Chooser) -> Any | None:
    """A random action legal in both games (None if there is none)."""
    l1, l2 = g1.legal_actions(), g2.legal_actions()
    for _ in range(20):
        a = l1[chooser.index(g1, l1)]
        if a in l2:
            return a
    common = [a for a in l1 if a in l2]
    return chooser.rng.choice(common) if common else None


def _lockstep(g1: Any, g2: Any, a: int, b: int, ranks: set[int], chooser: Chooser, role_swap: bool) -> int:
    """Play both games with the same actions; every view but a's and b's own secrets
    must be identical, until the games may rightly differ: the hand ends, a role is
    shown or an open solo makes the guard card a plain card showing its mark (when the
    two games have different guards), or a or b shows a card of a swapped rank (suits
    may differ) or gives cards away by abdicating (贴牌)."""
    steps = 0
    watched = [s for s in SEATS if s not in (a, b)]
    while not (g1.is_over or g2.is_over):
        shown = g1.guard_revealed or g2.guard_revealed or g1.solo == "open"
        if shown and (role_swap or (g1.guard, g1.solo) != (g2.guard, g2.solo)):
            break
        # identical for everybody but a and b (who know their own cards); to_act too,
        # through every setup question and every play
        assert g1.to_act == g2.to_act
        for s in (*watched, None):
            assert g1.view(s) == g2.view(s), s
        for s in (a, b):
            v1, v2 = g1.view(s), g2.view(s)
            assert {k: v for k, v in v1.items() if k not in PERSONAL} == {
                k: v for k, v in v2.items() if k not in PERSONAL
            }
        act = _common_action(g1, g2, chooser)
        if act is None:
            break
        if g1.to_act in (a, b):
            if isinstance(act, Play) and set(act.sorted_strengths()) & ranks:
                break
            if isinstance(act, Declare) and act.name == "abdicate":
                break
        g1.apply(act)
        g2.apply(act)
        steps += 1
    return steps


@settings(max_examples=50, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), opts=rooms(tribute_due=False), chooser=choosers, data=st.data())
def test_role_card_holder_is_invisible(seed: int, opts: dict[str, Any], chooser: Chooser, data: Any) -> None:
    """Two deals that differ only in which of seats a, b holds the role card (the guard
    card SJ*, or the copy of the called card) look the same to every other seat and to a
    spectator — same views, same ``to_act`` sequence through setup and play — until the
    rules reveal the guard, or a or b shows a card of that rank."""
    base = new(seed, opts)
    deal = [base.hand(s) for s in SEATS]
    if base.options["guard"] == "card":
        a = next(s for s in SEATS if GUARD_CARD in deal[s])
        others = [s for s in SEATS if s != a and Card(SMALL_JOKER) in deal[s]]
        assume(others)
        b = data.draw(st.sampled_from(others))
        x, y = GUARD_CARD, Card(SMALL_JOKER)
        prefix: list[str] = []
        ranks: set[int] = set()  # an SJ shown without the mark looks the same
    else:
        # find the called card and its holder with a first run through the call
        probe = base.clone()
        while probe.step in ("emperor", "call") and probe.deals == 1:
            legal = probe.legal_actions()
            probe.apply(legal[chooser.index(probe, legal)])
        assume(probe.deals == 1 and probe.called is not None and probe.solo is None)
        prefix = [str(act) for act in probe.history]
        x, a = probe.called, probe.guard
        cands = [(s, c) for s in SEATS if s not in (a, probe.emperor) for c in deal[s] if c.rank == x.rank and c != x]
        assume(cands)
        b, y = data.draw(st.sampled_from(cands))
        ranks = {strength(x)}
    g1 = new(seed, opts, deal=[format_cards(h) for h in deal])
    g2 = new(seed, opts, deal=[format_cards(h) for h in swap(deal, a, x, b, y)])
    for text in prefix:
        g1.apply(text)
        # a or b may have answered by their own cards (逼庄: a suited triple must accept)
        assume(g2.parse_action(text) in g2.legal_actions())
        g2.apply(text)
    if prefix:
        # the same answers led to the same call, but the fourth copy is elsewhere
        assume(g2.called == x and g2.guard == b and g1.guard == a)
    _lockstep(g1, g2, a, b, ranks, chooser, role_swap=True)
    if g1.deals == 1 and g1.emperor is not None and g1.step != "call" and g1.solo != "open":
        # the two games really had different guards (or a hidden solo against a guard)
        assert (g1.guard, g2.guard) == (a, b)


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), opts=rooms(tribute_due=False), chooser=choosers, data=st.data())
def test_hidden_cards_are_invisible(seed: int, opts: dict[str, Any], chooser: Chooser, data: Any) -> None:
    """Swap any two unmarked cards between two seats a and b: nobody else (nor a
    spectator) sees a difference in any view until a or b plays a card of one of the two
    ranks — whatever is dealt to a seat reaches the others only through its plays."""
    base = new(seed, opts)
    deal = [base.hand(s) for s in SEATS]
    a, b = data.draw(st.lists(st.sampled_from(list(SEATS)), min_size=2, max_size=2, unique=True))
    x = data.draw(st.sampled_from([c for c in deal[a] if not c.marked]))
    ys = [c for c in deal[b] if not c.marked and c != x]
    assume(ys)
    y = data.draw(st.sampled_from(ys))
    g1 = new(seed, opts, deal=[format_cards(h) for h in deal])
    g2 = new(seed, opts, deal=[format_cards(h) for h in swap(deal, a, x, b, y)])
    _lockstep(g1, g2, a, b, {strength(x), strength(y)}, chooser, role_swap=False)
