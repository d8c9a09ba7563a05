"""Bots: programs that take a seat. A bot sees only its seat's view and the legal
actions (:class:`Bot`); :func:`make_bot` builds one by name.

>>> import paiju
>>> from paiju.bots import LazyView, make_bot
>>> g = paiju.new_game("baohuang", seed=3)
>>> bot = make_bot("hosted", game="baohuang")
>>> g.apply(bot.act(LazyView(g, g.to_act), g.legal_actions()))
"""

from paiju.bots import heuristic as heuristic  # registers the "heuristic" bot
from paiju.bots import openspiel_ismcts as openspiel_ismcts  # registers "openspiel-ismcts" (OpenSpiel, if installed)
from paiju.bots import search as search  # registers the "search" bot
from paiju.bots.base import Bot, LazyView, bot_descriptions, bot_names, make_bot, register
from paiju.bots.simple import GreedyBot, HostedBot, RandomBot, SeatFromView, suggest

__all__ = [
    "Bot",
    "GreedyBot",
    "HostedBot",
    "LazyView",
    "RandomBot",
    "SeatFromView",
    "bot_descriptions",
    "bot_names",
    "make_bot",
    "register",
    "suggest",
]
