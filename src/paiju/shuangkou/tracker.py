"""记牌器 card tracker for Shuangkou: per rank, the copies a seat has not seen.

:func:`tracker` reads one seat's view and nothing else (a pure function of the dict). Of
the two packs (108 cards), a copy is *seen* when it is in the seat's own hand or was
played (the physical cards of every play event); every other copy is in another hand and
counts as *unseen* — also at the end, when ``hands_left`` shows them [decision: the table
stays "what the others hold"].

>>> import paiju
>>> g = paiju.new_game("shuangkou", seed=7)
>>> t = tracker(g.view(0))
>>> list(t)[:3], list(t)[-3:], sum(t.values())
(['3', '4', '5'], ['2', 'SJ', 'BJ'], 81)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paiju.cards import count_ranks, rank_text_of
from paiju.shuangkou.game import deck_cards

RANK_ORDER = ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "SJ", "BJ")
"""Shuangkou's rank order, low to high: the keys of a tracker, as card text ranks."""


def _deck_table() -> dict[str, int]:
    counts = dict.fromkeys(RANK_ORDER, 0)
    for c in deck_cards():
        counts[c.rank_text] += 1
    return counts


DECK_TABLE = _deck_table()
"""Copies per rank in the two packs (a constant: built once at import)."""


def count_played(
    events: Sequence[dict[str, Any]], start: int = 0, counts: dict[str, int] | None = None
) -> dict[str, int]:
    """Copies per rank played, counting ``events[start:]`` on top of ``counts`` (what
    ``events[:start]`` counted): a table that keeps the counts of its growing log reads
    each event once."""
    counts = dict(counts or {})
    for e in events[start:]:
        if "cards" in e:
            count_ranks(counts, e["cards"])
    return counts


def played_counts(view: dict[str, Any]) -> dict[str, int]:
    """Copies per rank played so far: public, the same in every seat's view, so a table
    counts them once and passes them to :func:`tracker` for each of its seats."""
    return count_played(view["events"])


def tracker(view: dict[str, Any], played: dict[str, int] | None = None) -> dict[str, int]:
    """``{rank: copies unseen by the view's seat}`` in :data:`RANK_ORDER`. A spectator's
    view (no hand) counts only the cards played. ``played``: :func:`played_counts` of any
    view of the same moment (else counted here)."""
    left = dict(DECK_TABLE)
    for r, n in (played_counts(view) if played is None else played).items():
        left[r] -= n
    for text in view["hand"] or []:
        left[rank_text_of(text)] -= 1
    return left
