"""How each game is shown and played in the terminal (``paiju play``, ``simulate``,
``replay``): one :class:`Presenter` per game.

The command line (``paiju.cli``) is written once against the uniform game interface;
a presenter adds a game's own words and display — Baohuang's roles and setup questions,
Shengji's deal, kitty and levels, Shuangkou's partners and combination types — and what
``simulate`` counts for it. Everything a presenter shows comes from a seat's ``view``
(or, for ``simulate`` and ``replay``, the spectator's view of a finished hand).

>>> presenter("shuangkou").hand_text(["3s", "3h", "5d", "BJ"])
'3×2 5 BJ'
"""

from __future__ import annotations

from paiju.terminal.baohuang import BaohuangPresenter
from paiju.terminal.base import TITLES, HandStats, Presenter, ordinal
from paiju.terminal.shengji import ShengjiPresenter
from paiju.terminal.shuangkou import ShuangkouPresenter

PRESENTERS: dict[str, type[Presenter]] = {
    "baohuang": BaohuangPresenter,
    "shengji": ShengjiPresenter,
    "shuangkou": ShuangkouPresenter,
}


def presenter(name: str) -> Presenter:
    """A fresh presenter for game ``name`` (the generic one for a game without its own)."""
    cls = PRESENTERS.get(name)
    return cls() if cls is not None else Presenter(name)


__all__ = [
    "PRESENTERS",
    "TITLES",
    "BaohuangPresenter",
    "HandStats",
    "Presenter",
    "ShengjiPresenter",
    "ShuangkouPresenter",
    "ordinal",
    "presenter",
]
