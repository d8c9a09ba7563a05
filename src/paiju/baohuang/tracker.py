"""记牌器 card tracker for Baohuang: per rank, the copies a seat has not seen.

:func:`tracker` reads one seat's view and nothing else (a pure function of the dict, so
it can tell only what the view tells). A copy counts as *seen* when it is in the seat's
own hand or face up out of every hand:

- played: the physical cards of every play event since the last deal (a redeal starts
  the count again);
- the Qingdao tribute pool 贡牌 on the table while receivers pick;
- for the holder of the travelling emperor card (before anyone accepts): the attached
  cards 贴牌 he is shown and the emperor card itself.

Everything else is *unseen*: the cards in the other hands — including tribute cards a
receiver picked up, a revealed guard's cards and, at the end, the cards left shown in
``hands_left`` [decision: the table stays "what the others hold"] — and the cards
travelling with the emperor card for every seat but its holder. A card a seat gave away
(a tribute or an attached card) is counted as unseen by it too: the view no longer names
it. Marked jokers ``BJ*`` / ``SJ*`` count as ``BJ`` / ``SJ``.

>>> import paiju
>>> g = paiju.new_game("baohuang", seed=7)
>>> t = tracker(g.view(0))
>>> list(t)[:3], list(t)[-3:], sum(t.values()) == 216 - len(g.hand(0))
(['3', '4', '5'], ['2', 'SJ', 'BJ'], True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paiju.baohuang.game import deck_cards
from paiju.cards import count_ranks, rank_text_of

RANK_ORDER = ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "SJ", "BJ")
"""Baohuang's rank order, low to high: the keys of a tracker, as card text ranks."""


def _deck_table(deck: str) -> dict[str, int]:
    counts = dict.fromkeys(RANK_ORDER, 0)
    for c in deck_cards(deck):
        counts[c.rank_text] += 1
    return {r: n for r, n in counts.items() if n}  # [decision] ranks a deck lacks (no345) are left out


DECK_TABLES = {deck: _deck_table(deck) for deck in ("full", "no345", "weihai")}
"""Copies per rank of each ``deck`` option (constants: built once at import)."""


def count_played(
    events: Sequence[dict[str, Any]], start: int = 0, counts: dict[str, int] | None = None
) -> dict[str, int]:
    """Copies per rank played since the last deal, counting ``events[start:]`` on top of
    ``counts`` (what ``events[:start]`` counted): a table that keeps the counts of its
    growing log reads each event once. A redeal starts the count again."""
    counts = dict(counts or {})
    for e in events[start:]:
        if e.get("event") == "deal":
            counts = {}  # a redeal: the new deal starts the count again
        elif "event" not in e and "cards" in e:  # a play (the tribute event also has "cards")
            count_ranks(counts, e["cards"])
    return counts


def played_counts(view: dict[str, Any]) -> dict[str, int]:
    """Copies per rank played since the last deal: public, the same in every seat's view, so
    a table counts them once and passes them to :func:`tracker` for each of its seats."""
    return count_played(view["events"])


def tracker(view: dict[str, Any], played: dict[str, int] | None = None) -> dict[str, int]:
    """``{rank: copies unseen by the view's seat}`` in :data:`RANK_ORDER` (ranks of the
    room's deck only). A spectator's view (no hand) counts only the cards played.
    ``played``: :func:`played_counts` of any view of the same moment (else counted here)."""
    left = dict(DECK_TABLES[view["options"]["deck"]])
    for r, n in (played_counts(view) if played is None else played).items():
        left[r] -= n
    hand = view["hand"] or []
    seen = [*hand, *view.get("tribute_pool", ()), *view.get("attached_cards", ())]
    seat = view["seat"]
    if seat is not None and view["emperor"] is None and view["emperor_card_holder"] == seat and "BJ*" not in hand:
        seen.append("BJ")  # the emperor card travels with its holder, outside his hand
    for text in seen:
        left[rank_text_of(text)] -= 1
    return left
