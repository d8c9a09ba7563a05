"""A Swiss round from start to result: the two calls the hall makes per round.

At the round's start :func:`start_round` pairs the field on the standings so far and plans
every hand (table, board seed, seating); the hall creates the tables and plays the plan.
When every table is done, or the round clock runs out, :func:`finish_round` scores what
was played (unplayed hands average, see :mod:`.scoring`). A referee's correction is
:func:`paiju.server.tournaments.scoring.correct_hand` on the stored hands, then
:func:`finish_round` again.

>>> done = []
>>> pairing, plan = start_round("shengji", ["A", "B", "C"], done, seed=4, round_no=1, boards=2)
>>> len(pairing.tables), len(pairing.byes), len(plan)
(1, 1, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from paiju.server.tournaments.boards import Hand, round_plan
from paiju.server.tournaments.entrants import is_pair_game
from paiju.server.tournaments.scoring import round_percentages, with_unfinished
from paiju.server.tournaments.standings import RoundResult, had_bye, met_tables, standings
from paiju.server.tournaments.swiss import Pairing, met_counts, swiss_pairing
from paiju.tournament import derive_seed

PAIR_TABLE = 2
BAOHUANG_TABLE = 5


def table_size(game: str) -> int:
    """Entrants a table: 2 pairs, or 5 Baohuang players."""
    return PAIR_TABLE if is_pair_game(game) else BAOHUANG_TABLE


def start_round(
    game: str, seeded: Sequence[str], done: Sequence[RoundResult], seed: int, round_no: int, boards: int
) -> tuple[Pairing, list[Hand]]:
    """Round ``round_no``'s pairing and its hands, from the ``done`` rounds."""
    scores = {row.entrant: row.score for row in standings(seeded, done)}
    pairing = swiss_pairing(
        scores,
        met_counts(met_tables(done)),
        table_size(game),
        derive_seed(seed, "pairing", round_no),
        had_bye(done),
    )
    return pairing, round_plan(game, pairing.tables, boards, seed, round_no)


def finish_round(pairing: Pairing, plan: Sequence[Hand], played: Iterable[Hand]) -> RoundResult:
    """The round's result from the hands played so far (the rest average)."""
    hands = with_unfinished(plan, played)
    return RoundResult(
        tuple(tuple(t) for t in pairing.tables), tuple(pairing.byes), round_percentages(hands, pairing.byes)
    )
