"""What the worlds of both phases share: the refusal, and view card text as card ids."""

from __future__ import annotations

from functools import cache
from typing import Any

from paiju.cards import Card, packs
from paiju.errors import IllegalAction, reasons
from paiju.shengji.trump import COLOUR_ID, ID_TEXT, NUM_IDS, card_id

_TEXT_ID = {text: c for c, text in enumerate(ID_TEXT)}

reasons(cannot_sample="no world can be sampled from this view")


class CannotSample(IllegalAction):
    """The view describes a state this module cannot reconstruct."""

    def __init__(self, message: str = "", code: str = "cannot_sample", **params: Any) -> None:
        super().__init__(message, code, **params)


def _ids(text: str) -> tuple[int, ...]:
    """Card ids of view card text (cards as the view writes them: colour cards too)."""
    out = []
    for x in text.split():
        c = _TEXT_ID.get(x)
        out.append(card_id(Card.parse(x)) if c is None else c)
    return tuple(out)


@cache
def _pack(decks: int, colours: bool) -> tuple[int, ...]:
    """Copies of each card id in the packs (colour cards with ``two_colours``)."""
    out = [0] * NUM_IDS
    for card in packs(decks):
        c = card_id(card)
        out[COLOUR_ID[c] if colours else c] += 1
    return tuple(out)
