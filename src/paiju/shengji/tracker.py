"""记牌器 card tracker for Shengji: per rank, the copies a seat has not seen.

:func:`tracker` reads one seat's view and nothing else (a pure function of the dict).
[decision] One simple table per rank ``2 … A, SJ, BJ`` in the natural order — suits are not
split and the trump order (which changes every hand) is not followed. Of the ``decks``
packs (4 × decks copies of a rank, decks copies of each joker), a copy is *seen* when it
is in the seat's own hand or face up out of every hand:

- played: the cards of every finished trick and of the trick on the table (a failed
  throw 甩牌失败 shows more cards, but only the unit played leaves the hand);
- the kitty 底牌 the seat buried, while it is the burier (it sees its own burial);
- the buried kitty shown to all at the end.

Everything else is *unseen*: the cards in the other hands — declaration cards 亮牌 and a
revealed kitty card 翻底 are shown but stay in a hand — and the kitty while nobody but its
burier knows it (all of it, and the cards still to deal, during the deal). With ``kitty_steal`` 抢底 an earlier
burial's cards went to the stealer's hand: for their first burier they are unseen again.

Who buries now is read from the view's ``burier`` when present; otherwise it is worked
out from the declarations, which is exact except in one case: with ``kitty_steal``, a
declarer 庄家 whose standing declaration is another seat's, made during the deal or in a
steal (a fixed declarer, or ``overturn_changes_declarer`` off), is taken to be the burier
still.

>>> import paiju
>>> g = paiju.new_game("shengji", seed=7)
>>> t = tracker(g.view(0))
>>> list(t)[:3], list(t)[-3:], sum(t.values()) == 108 - len(g.hand(0))
(['2', '3', '4'], ['A', 'SJ', 'BJ'], True)
"""

from __future__ import annotations

from typing import Any

RANK_ORDER = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "SJ", "BJ")
"""The keys of a tracker, as card text ranks (natural order, not the hand's trump order)."""


def _is_burier(view: dict[str, Any]) -> bool:
    """Is the view's seat the one whose burial is the kitty now (its ``buried``)?"""
    seat = view["seat"]
    if "burier" in view:
        return bool(view["burier"] == seat)
    o = view["options"]
    if not o["kitty_steal"]:
        return True  # only the burier is shown ``buried``
    if view["phase"] == "bury":
        return bool(view["to_act"] == seat)
    bid = view["declaration"]
    if bid is None or bid["seat"] == seat:
        return True  # no steal since (a steal leaves the stealer's declaration standing)
    if view["revealed_kitty_card"] is not None or (o["declarer"] is None and o["overturn_changes_declarer"]):
        # nobody declared during the deal (a kitty card was turned), or the standing
        # declaration would be the declarer's: it is a steal's, and not this seat's
        return False
    return bool(view["declarer"] == seat)  # [decision] ambiguous: no steal assumed


def tracker(view: dict[str, Any]) -> dict[str, int]:
    """``{rank: copies unseen by the view's seat}`` in :data:`RANK_ORDER`. A spectator's
    view (no hand) counts only the cards played (and the kitty shown at the end)."""
    decks = view["options"]["decks"]
    left = {r: 4 * decks for r in RANK_ORDER[:13]}
    left["SJ"] = left["BJ"] = decks
    seen = list(view["hand"] or [])
    for trick in view["tricks"]:
        for p in trick["plays"]:
            seen += p["cards"].split()
    for p in view["trick"]:
        seen += p["cards"].split()
    if view["phase"] == "over":
        seen += view["kitty"]
    elif "buried" in view and _is_burier(view):
        seen += view["buried"]
    for text in seen:
        left[text[:2] if text[:2] in ("SJ", "BJ") else text[0]] -= 1
    return left
