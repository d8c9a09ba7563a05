"""Research environments: paiju's games as PettingZoo AEC environments.

Importing ``paiju`` never imports this package; it needs the optional extra
``pip install 'paiju[env]'`` (pettingzoo, gymnasium, numpy)::

    from paiju.env import baohuang_v0, shengji_v0, shuangkou_v0
    env = shuangkou_v0.env(min_triple_run=2)
    env.reset(seed=1)

Every environment has agents ``player_0 …`` (agent ``player_i`` is seat ``i``), a fixed
``Discrete`` action space whose table is enumerated once per game options, an exact
``action_mask`` and an observation built only from ``game.view(seat)``. The encodings are
documented in ``docs/env.md`` and in each environment module.
"""

from __future__ import annotations

__all__ = ["baohuang_v0", "shengji_v0", "shuangkou_v0"]
