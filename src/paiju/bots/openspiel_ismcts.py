"""The ``openspiel-ismcts`` bot's place in the registry: OpenSpiel's ISMCTS
(:mod:`paiju.openspiel.ismcts`), imported only when the bot is made, since OpenSpiel is an
optional extra (``pip install 'paiju[openspiel]'``).

``paiju.openspiel`` sits above the bots (it uses their world samplers), so the registry names
the bot's module instead of importing it: the one import of paiju made by name, like a
plugin's entry point."""

from __future__ import annotations

import importlib
from typing import Any

from paiju.bots.base import register
from paiju.errors import IllegalAction


@register(
    "openspiel-ismcts",
    "OpenSpiel's ISMCTS over worlds sampled from the view, at the end of a hand (needs paiju[openspiel]); "
    "parameters openspiel-ismcts:seconds=1:simulations=100000:uct_c=2:rollout=random:rollouts=1:cards=6:before=0",
)
def openspiel_ismcts(game: str = "baohuang", seed: int | None = None, **params: Any) -> Any:
    try:
        ismcts = importlib.import_module("paiju.openspiel.ismcts")
    except ImportError as e:
        raise IllegalAction(f"the openspiel-ismcts bot needs OpenSpiel: pip install 'paiju[openspiel]' ({e})") from None
    return ismcts.OpenSpielISMCTS(game=game, seed=seed, **params)
