"""The AEC machinery the paiju environments share: one hand per episode, agents
``player_0 …`` (agent ``player_i`` is seat ``i``), observations
``{"observation": float32 array, "action_mask": int8 array}``.

A subclass gives the game name, the action table (a list of *keys*, see
:meth:`PaijuEnv.action_key`) and the observation encoder (from a view dict only).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import paiju
from paiju.cards import Card, parse_cards
from paiju.game import Game


@lru_cache(maxsize=4096)
def cards_of(text: str) -> tuple[Card, ...]:
    """The cards of a card text (cached: views repeat the same texts)."""
    return tuple(parse_cards(text)) if text else ()


MEMO_LIMIT = 50_000
"""Entries a text → counts memo keeps before it starts afresh (memory stays bounded)."""


def memo(cache: dict[str, np.ndarray], text: str, make: Callable[[str], np.ndarray]) -> np.ndarray:
    """``make(text)``, remembered in ``cache`` (cleared when it reaches MEMO_LIMIT)."""
    got = cache.get(text)
    if got is None:
        if len(cache) >= MEMO_LIMIT:
            cache.clear()
        got = cache[text] = make(text)
    return got


def one_hot(out: np.ndarray, offset: int, index: int | None) -> None:
    """Set ``out[offset + index]`` to 1 when ``index`` is not None."""
    if index is not None:
        out[offset + index] = 1.0


class PaijuEnv(AECEnv):
    """One hand of a paiju game as a PettingZoo AEC environment (see the subclasses)."""

    game_name: str = ""
    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "paiju", "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.game_options = dict(options)
        probe = paiju.new_game(self.game_name, seed=0, **options)  # validates the options
        self.num_players = probe.num_players
        self.possible_agents = [f"player_{i}" for i in range(self.num_players)]
        self.agents: list[str] = []
        keys = self.build_table(probe.options)
        self.action_table: list[Hashable] = keys
        self.action_index: dict[Hashable, int] = {k: i for i, k in enumerate(keys)}
        if len(self.action_index) != len(keys):
            raise AssertionError("duplicate keys in the action table")
        n = len(keys)
        self.obs_size = self.observation_size()
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(self.obs_size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.game: Game = probe
        self._seed_rng = random.Random()
        self._legal: dict[int, Any] = {}  # action index -> engine action, for the seat to act
        self._legal_at = -1  # the step count _legal belongs to
        self._steps = 0
        self._seen: tuple[Any, int, np.ndarray] | None = None  # (game, entries read, cards per seat)

    # -- what a subclass provides ---------------------------------------------------
    def build_table(self, options: dict[str, Any]) -> list[Hashable]:
        raise NotImplementedError

    def action_key(self, action: Any) -> Hashable:
        """The table key of an engine action (the identity by default)."""
        return action

    def observation_size(self) -> int:
        raise NotImplementedError

    def encode(self, view: dict[str, Any], seat: int) -> np.ndarray:
        raise NotImplementedError

    def played_per_seat(
        self, entries: list[dict[str, Any]], counts: Callable[[str], np.ndarray], width: int
    ) -> np.ndarray:
        """Cards played by each (absolute) seat, summed over the public log ``entries``
        of a view (events or tricks: append-only lists; entries with a seat and a card
        text). Entries already read for this game are not read again."""
        seen = self._seen
        if seen is None or seen[0] is not self.game or seen[1] > len(entries):
            seen = (self.game, 0, np.zeros((self.num_players, width), dtype=np.float32))
        game, done, arr = seen
        for e in entries[done:]:
            for seat, cards in self.cards_of_entry(e):
                arr[seat] += counts(cards)
        self._seen = (game, len(entries), arr)
        return arr

    def cards_of_entry(self, entry: dict[str, Any]) -> list[tuple[int, str]]:
        """(seat, card text) pairs a log entry shows played (see :meth:`played_per_seat`)."""
        cards = entry.get("cards")
        return [(entry["seat"], cards)] if isinstance(cards, str) and "action" in entry and cards else []

    def attach(self, game: Game, pending: Any = None) -> None:
        """Look at ``game`` from now on (a clone, a sampled world, another library's state
        holding it: ``paiju.openspiel``) instead of the hand ``reset`` dealt. ``pending``
        is a partial decision the subclass keeps (Shengji's picks), None for none."""
        self.game = game
        self._legal_at = -1  # (the log already read stays: it is kept per game object)

    def action_text(self, index: int) -> str:
        """A readable text of table entry ``index``."""
        return str(self.action_table[index])

    # -- spaces ---------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- AEC ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand. ``seed`` gives the game's seed (the same seed, the same deal);
        without one the hand's seed is drawn from the environment's own generator, which
        the last ``reset(seed=…)`` seeded (so a seeded sequence of hands repeats)."""
        if seed is not None:
            self._seed_rng.seed(seed)
            game_seed = int(seed)
        else:
            game_seed = self._seed_rng.randrange(2**62)
        self.game = paiju.new_game(self.game_name, seed=game_seed, **self.game_options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = 0
        self._legal_at = -1
        self._select()

    def _select(self) -> None:
        seat = self.game.to_act
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        for a in self.agents:
            self.infos[a] = {"seat": self.possible_agents.index(a), "phase": self.game.phase}

    def legal_map(self) -> dict[int, Any]:
        """Action index -> engine action for the seat to act (empty when the hand is over)."""
        if self._legal_at != self._steps:
            index = self.action_index
            key = self.action_key
            self._legal = {index[key(a)]: a for a in self.game.legal_actions()} if self.game.to_act is not None else {}
            self._legal_at = self._steps
        return self._legal

    def action_mask(self, seat: int) -> np.ndarray:
        mask = np.zeros(len(self.action_table), dtype=np.int8)
        if seat == self.game.to_act:
            mask[list(self.legal_map())] = 1
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        return {"observation": self.encode(self.game.view(seat), seat), "action_mask": self.action_mask(seat)}

    def decode(self, index: int) -> Any:
        """The engine action of a table index for the seat to act (ValueError if masked out)."""
        action = self.legal_map().get(int(index))
        if action is None:
            raise ValueError(f"action {index} ({self.action_table[int(index)]!r}) is not legal now (masked out)")
        return action

    def _act(self, index: int) -> None:
        """Carry out a table index for the seat to act (a subclass may keep partial
        decisions of its own, as Shengji's card-by-card plays)."""
        self.game.apply(self.decode(index))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError("a live agent must act: None is only for finished agents")
        self._cumulative_rewards[agent] = 0.0
        self._act(int(action))
        self._steps += 1
        if self.game.is_over:
            scores = self.game.scores
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = float(scores[i])
                self.terminations[a] = True
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        g = self.game
        lines = [f"{self.game_name} phase={g.phase} to_act={g.to_act}"]
        for seat in range(self.num_players):
            lines.append(f"  player_{seat}: {paiju.format_cards(g.hand(seat))}")
        if g.history:
            lines.append(f"  last action: {g.history[-1]}")
        if g.is_over:
            lines.append(f"  scores: {list(g.scores)}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def seat_order(seat: int, n: int) -> Sequence[int]:
    """Seats relative to ``seat``: index 0 is ``seat`` itself, 1 the next seat, …"""
    return [(seat + k) % n for k in range(n)]
