"""The fast Shengji deal 发牌: how long each decision of the deal waits, told by public facts only.

Shengji deals one card per decision: 100 decisions for two packs, 156 for three. At the
play's pace that is a minute or two before anyone plays, so while the cards are still
being dealt every seat — computer, 托管 or person — decides within ``deal_step``
seconds (a person's silence is ``no``, never 托管), and after the last card a person has
``deal_final_window`` seconds (at most the room's turn timeout) to declare. A person may
click a declaration whenever a card arrives: it is queued and made at that seat's next
decision (``Table``). Which window applies depends only on how many cards are dealt —
the same for every seat whatever it holds, so the timing tells nobody anything.
"""

from __future__ import annotations

from typing import Any

DEAL_STEP = 0.06  # seconds per decision while the cards are being dealt
DEAL_FINAL_WINDOW = 1.5  # seconds a person has after the last card


def deal_stage(game: Any) -> str | None:
    """``"cards"`` while cards are still being dealt, ``"final"`` once the last card is out
    (its receiver's decision and the round after it), ``None`` outside a deal."""
    if getattr(game, "name", None) != "shengji" or game.phase != "deal":
        return None
    public = game.view(None)  # the dealt count is public: every seat sees the same
    total = game.hand_size * game.num_players
    return "cards" if public["cards_dealt"] < total else "final"


def is_declaration(text: str) -> bool:
    """Is ``text`` a declaration 亮主 (the one action a person may send ahead during the deal)?"""
    return text.strip().lower().startswith("declare ")
