"""Record versions: what a record of an earlier version means in today's options.

A record keeps every option value of its hand (its *resolved* options), so a change of a
default never changes how an old hand replays. A change of what an option value *means*
would, so each such change raises :data:`RECORD_VERSION` and adds here the option values
that give an older record its old meaning; :func:`paiju.replay` and the hall's stored
hands go through :func:`upgrade_options`.

Version 2 (the rules revision of December 2026):

- Shengji ``kitty_multiplier="pairs_power"`` gives ×1 when the last trick is won by a
  plain-suit play and counts the *winning* play's largest unit; version 1 gave 2^(pairs+1)
  on the lead's largest unit, trump or not — today's ``pairs_power_lead``.
- Baohuang Qingdao's forced cycle no longer lets a suited four decline; version 1 let it
  in both forced-cycle variants — today's ``forced_four_exempts=True``.
- Baohuang players left holding cards are placed by their number of cards; version 1
  placed them in seat order — today's ``unfinished_places="seat"``.

**[decision]** A room's match carries its options from hand to hand, so a match begun
under version 1 goes on with version 1's rules; rooms made since get today's defaults.

>>> upgrade_options("shengji", {"kitty_multiplier": "pairs_power"}, 1)
{'kitty_multiplier': 'pairs_power_lead'}
>>> upgrade_options("baohuang", {"variant": "qingdao"}, 1)
{'variant': 'qingdao', 'forced_four_exempts': True, 'unfinished_places': 'seat'}
>>> upgrade_options("shengji", {"kitty_multiplier": "pairs_power"}, RECORD_VERSION)
{'kitty_multiplier': 'pairs_power'}
"""

from __future__ import annotations

from typing import Any

from paiju.errors import IllegalAction, reasons

reasons(bad_record="this is not a game record paiju can read")

RECORD_VERSION = 2
"""The version of the records this paiju writes (``record()["version"]``)."""


def upgrade_options(game: str, options: dict[str, Any], version: int) -> dict[str, Any]:
    """The options that replay a hand of ``game`` recorded at ``version`` as it was played."""
    if not isinstance(version, int) or not 1 <= version <= RECORD_VERSION:
        raise IllegalAction(
            f"record version {version!r} is not one this paiju reads (1 to {RECORD_VERSION})", code="bad_record"
        )
    out = dict(options)
    if version < 2:
        if game == "shengji" and out.get("kitty_multiplier", "pairs_power") == "pairs_power":
            out["kitty_multiplier"] = "pairs_power_lead"
        if game == "baohuang":
            out.setdefault("forced_four_exempts", True)
            out.setdefault("unfinished_places", "seat")
    return out
