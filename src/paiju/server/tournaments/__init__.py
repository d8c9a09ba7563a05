"""Tournaments 比赛: the formats and duplicate scoring, as pure functions.

The hall creates the tables of a round, seats them, stores results and shows standings;
everything it *decides* about a tournament is here, with no database, no clock and no
connection, so each rule is a function a test can call:

* :mod:`.entrants` — who may enter (a player, or a fixed pair in a partnership game) and
  the checks of a tournament's settings, with reason codes;
* :mod:`.swiss` — the pairing of a Swiss round (by score, no repeat opponents where
  possible, byes);
* :mod:`.boards` — the duplicate boards of a round: the same seeds at every table, the
  seats rotated so every entrant holds every side equally;
* :mod:`.scoring` — matchpoints over those who held the same cards, unfinished boards,
  the referee's correction;
* :mod:`.knockout` — the bracket and the two-entrant match;
* :mod:`.standings` — the ordered table with its tie-breaks.

The choices and their reasons are in docs/decisions.md, "Tournaments 比赛". The vocabulary
(seatings, deal seeds, partnership games) is that of :mod:`paiju.tournament`, the bots'
duplicate tournaments.
"""
