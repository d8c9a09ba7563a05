"""Small helpers shared by the Shengji 升级 rule tests (``test_shengji_rules_*.py``): the
spec's trump settings, a tractor test on card text, explicit deals for the engine
(``build_deal``) and a hand driven to the first lead (``to_play``).
"""

from __future__ import annotations

import paiju
from paiju.cards import packs
from paiju.shengji.options import PACK_SIZES
from paiju.shengji.trump import ID_TEXT, card_id, ids_of, trump_order
from paiju.shengji.units import counts_of, is_tractor

H10 = dict(trump_suit="h", level="T")  # the spec's examples: playing 10, hearts trump
S10 = dict(trump_suit="s", level="T")


def tractor(text: str, trump: str | None = "h", level: int = 10, twos: bool = False) -> bool:
    t = trump_order(trump, level, twos)
    ids = ids_of(text)
    if len({t.psuit[c] for c in ids}) != 1:
        return False
    return is_tractor(counts_of(ids), t)


def build_deal(prefix: list[str], kitty: str = "", decks: int = 2, prefer: dict[int, str] | None = None) -> list[str]:
    """Hands starting with the given cards (seat s's i-th card is dealt at step 4i+s), the
    rest filled from the remaining cards (``prefer``: seat → suit it is filled with first);
    the kitty starts with ``kitty``."""
    n, k = PACK_SIZES[decks]
    prefix = list(prefix) + [""] * (4 - len(prefix))
    pool = counts_of(card_id(c) for c in packs(decks))
    hands = [ids_of(p) for p in prefix]
    kit = ids_of(kitty)
    for c in [c for h in hands for c in h] + kit:
        pool[c] -= 1
        assert pool[c] >= 0
    rest = [c for c in sorted(pool) for _ in range(pool[c])]
    for seat, suit in (prefer or {}).items():
        mine = [c for c in rest if ID_TEXT[c].endswith(suit)][: n - len(hands[seat])]
        for c in mine:
            rest.remove(c)
        hands[seat] += mine
    for h in hands:
        while len(h) < n:
            h.append(rest.pop())
    kit += rest
    assert len(kit) == k
    return [" ".join(ID_TEXT[c] for c in h) for h in hands] + [" ".join(ID_TEXT[c] for c in kit)]


def to_play(g: paiju.Game, bury: str | None = None) -> None:
    """Answer ``no`` through the deal and bury the given cards (default: the kitty back)."""
    while g.phase == "deal":
        g.apply("no")
    cards = bury.split() if bury is not None else g.view(g.to_act)["kitty_received"]
    for c in cards:
        g.apply(f"bury {c}")
    assert g.phase == "play"
