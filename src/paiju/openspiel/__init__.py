"""paiju's games in OpenSpiel: ``python_paiju_baohuang``, ``python_paiju_shengji`` and
``python_paiju_shuangkou``, registered with ``pyspiel`` when this package is imported.

Importing ``paiju`` never imports it; it needs the optional extra
``pip install 'paiju[openspiel]'`` (``open_spiel`` from PyPI, and the environments'
pettingzoo, gymnasium and numpy)::

    import pyspiel
    import paiju.openspiel  # registers the games

    game = pyspiel.load_game("python_paiju_shuangkou", {"min_triple_run": 2})
    state = game.new_initial_state()

The room options are the game parameters (``docs/env.md`` lists them); the design — the
deal as chance over seeds, strings and tensors from ``view(seat)``, action ids equal to
the PettingZoo environments' — is in :mod:`paiju.openspiel.game`. OpenSpiel's ISMCTS plays
as the paiju bot ``openspiel-ismcts`` (:mod:`paiju.openspiel.ismcts`).
"""

from __future__ import annotations

from paiju.openspiel.game import GAME_TYPES, SEED_BYTES, PaijuGame, PaijuState, parameter_specification

SHORT_NAMES = {name: t.short_name for name, t in GAME_TYPES.items()}
"""paiju game name → its OpenSpiel short name."""

__all__ = ["SEED_BYTES", "SHORT_NAMES", "PaijuGame", "PaijuState", "parameter_specification"]
