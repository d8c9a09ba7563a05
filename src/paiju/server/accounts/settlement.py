"""The end of a hand in the store: beans 游戏豆, the players' results and their ratings.

Everything here runs inside the transaction that stores the hand's end (or a leave
penalty), on the writer thread: a hand is finished, settled and rated together or not at
all. The beans are ``paiju.beans.settle`` on the hand's scores (docs/rules/baohuang.md
§5 "Beans", the same rule for every game), written to the append-only ``ledger``.

Decisions the spec leaves to the hall **[decision]**:

- Only accounts hold beans. A guest or a computer player plays for no beans: the hall
  (the house) stands in for it, with no limit, so a person's beans move by his own share
  whoever he plays with (a hand with bots changes his balance). The
  house's part of each hand is a ledger row of its own (no player), so every hand's rows
  still sum to exactly 0.
- A hand that is not scored (everyone on 托管) moves no beans and changes no rating.
- Ratings: openskill's Plackett-Luce model, one rating per player and game, the two
  sides as teams (Baohuang: the emperor with his guard, or alone, against the rebels;
  Shengji and Shuangkou: the partnerships), the side with more points ranked first,
  equal points a draw. Computer players take part with the model's starting rating,
  which is never changed (they have no rating of their own). A rating is shown as
  openskill's ordinal (mu − 3 sigma): 0 for a new player.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection

from paiju.beans import cap_house_winnings, leave_penalty, settle, split_penalty
from paiju.errors import IllegalAction
from paiju.server.accounts.profile import standing_tx
from paiju.server.store import db
from paiju.server.store.db import balance_tx, ledger, players, ratings, results
from paiju.stakes import bean_scores, max_hand_cost

MODEL = PlackettLuce()


@dataclass(frozen=True)
class BeanSettings:
    """The hall's bean settings (``paiju serve --start-beans …``)."""

    start: int = 1000  # every account's first balance …
    relief_below: int = 200  # 救济: a balance under this may claim relief …
    relief: int = 500  # … of this many beans, once a day (UTC)
    start_after_hands: int = 3  # … granted at the end of its Nth scored hand (0: when it registers)
    registrations_per_hour: int = 3  # accounts registered from one address in an hour

    def __post_init__(self) -> None:
        for name in ("start", "relief_below", "relief", "start_after_hands", "registrations_per_hour"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{name} must be a whole number ≥ 0, not {value!r}")


# ---------------------------------------------------------------------- roles and sides
def roles(game_name: str, game: Any) -> list[str]:
    """Each seat's role in a finished hand (win rates are counted by role)."""
    n = game.num_players
    if game_name == "baohuang":
        out = ["rebel"] * n
        if game.guard is not None and not game.solo:
            out[game.guard] = "guard"
        if game.emperor is not None:
            out[game.emperor] = "emperor"
        return out
    if game_name == "shengji":
        declarer = game.declarer
        return ["declarer" if declarer is not None and s % 2 == declarer % 2 else "defender" for s in range(n)]
    return ["partner"] * n


def sides(game_name: str, role_of: list[str]) -> list[int]:
    """The side (0 or 1) of each seat: the teams of a rating update."""
    if game_name == "baohuang":
        return [0 if r in ("emperor", "guard") else 1 for r in role_of]
    return [s % 2 for s in range(len(role_of))]  # partners sit opposite


# ---------------------------------------------------------------------- balances
def balances_tx(c: Connection, pids: list[int]) -> dict[int, int]:
    if not pids:
        return {}
    q = select(ledger.c.player_id, func.sum(ledger.c.amount)).where(ledger.c.player_id.in_(pids))
    got = {int(p): int(a) for p, a in c.execute(q.group_by(ledger.c.player_id))}
    return {p: got.get(p, 0) for p in pids}


def add_beans_tx(c: Connection, pid: int | None, amount: int, kind: str, hand_id: int | None = None) -> None:
    """A ledger row (``pid`` None: the house's part of a hand or a penalty)."""
    c.execute(insert(ledger).values(player_id=pid, amount=amount, kind=kind, hand_id=hand_id, created_at=db.now()))


def accounts_tx(c: Connection, pids: list[int]) -> set[int]:
    """Which of ``pids`` are accounts."""
    if not pids:
        return set()
    q = select(players.c.id).where(players.c.id.in_(pids), players.c.username.is_not(None))
    return {int(r[0]) for r in c.execute(q)}


def at_stake_tx(c: Connection, pids: list[int]) -> set[int]:
    """Which of ``pids`` play for beans: the accounts granted their start beans (a ``start``
    row; until then an account plays as a guest does and the house stands in for it)."""
    if not pids:
        return set()
    q = select(ledger.c.player_id).where(ledger.c.player_id.in_(pids), ledger.c.kind == "start").distinct()
    return {int(r[0]) for r in c.execute(q)}


def stake_balances_tx(c: Connection, pids: list[int]) -> dict[int, int]:
    """The balances of those of ``pids`` who play for beans (:func:`at_stake_tx`)."""
    return balances_tx(c, sorted(at_stake_tx(c, pids)))


def scored_hands_tx(c: Connection, pid: int) -> int:
    """The scored hands a player has finished (as a guest too: a guest who registers keeps them)."""
    q = select(func.count()).where(results.c.player_id == pid, results.c.scored.is_(True))
    return int(c.execute(q).scalar_one())


def start_pending_tx(c: Connection, pid: int, settings: BeanSettings) -> int:
    """Scored hands an account still has to finish before its start beans (0: granted)."""
    if at_stake_tx(c, [pid]):
        return 0
    return max(1, settings.start_after_hands - scored_hands_tx(c, pid))


def grant_start_tx(c: Connection, pid: int, settings: BeanSettings) -> bool:
    """The start beans, once: when the account has no ``start`` row and has finished
    ``start_after_hands`` scored hands (True: granted now). The row names no hand: a
    hand's rows are those that sum to 0."""
    if at_stake_tx(c, [pid]) or scored_hands_tx(c, pid) < settings.start_after_hands:
        return False
    add_beans_tx(c, pid, settings.start, "start")
    return True


def claim_relief_tx(c: Connection, pid: int, settings: BeanSettings) -> int | None:
    """救济: ``settings.relief`` beans for an account under ``relief_below``, once a UTC day;
    the new balance (None: not due, nothing written)."""
    if not at_stake_tx(c, [pid]) or balance_tx(c, pid) >= settings.relief_below or relief_claimed_today(c, pid):
        return None
    add_beans_tx(c, pid, settings.relief, "relief")
    return balance_tx(c, pid)


def no_relief(settings: BeanSettings) -> IllegalAction:
    below = settings.relief_below
    return IllegalAction(f"relief is given once a day to a balance under {below}", "no_relief", below=below)


def relief_claimed_today(c: Connection, pid: int) -> bool:
    today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    q = select(func.count()).where(ledger.c.player_id == pid, ledger.c.kind == "relief", ledger.c.created_at >= today)
    return bool(c.execute(q).scalar_one())


def purse_tx(c: Connection, pid: int, settings: BeanSettings) -> dict[str, Any]:
    """An account's beans, whether relief 救济 is due, and ``start_pending``: the scored
    hands it still has to finish before its start beans (0 once granted)."""
    beans = balance_tx(c, pid)
    pending = start_pending_tx(c, pid, settings)
    due = not pending and beans < settings.relief_below and not relief_claimed_today(c, pid)
    return {"beans": beans, "relief_due": due, "start_pending": pending}


# ---------------------------------------------------------------------- the hand's end
def hand_beans(
    scores: list[int],
    accounts: list[bool],
    balances: list[int],
    *,
    room_multiplier: int,
    table_multiplier: int,
    own: list[int],
    cost: int | None = None,
) -> list[int]:
    """The beans each seat wins (+) or pays (−): :func:`paiju.beans.settle` with the
    balances of the ``accounts`` (seats with beans at stake) and no limit for the others
    (the house stands in for them), then :func:`paiju.beans.cap_house_winnings`: the house
    pays an account at most its balance, at most ``cost`` (the most the hand can cost:
    ``paiju.stakes.max_hand_cost``). Sums to 0; no account pays past its balance."""
    held = [max(0, b) if a else None for a, b in zip(accounts, balances)]
    beans = settle(scores, room_multiplier=room_multiplier, table_multiplier=table_multiplier, own=own, balances=held)
    limits = [None if b is None else b if cost is None else min(b, cost) for b in held]
    return cap_house_winnings(beans, [not a for a in accounts], limits)


def finish_tx(
    c: Connection,
    *,
    hand_id: int,
    game_name: str,
    game: Any,
    seat_players: list[int | None],
    scored: bool,
    room_options: dict[str, Any],
    own: list[int],
    settings: BeanSettings | None = None,
) -> dict[str, Any]:
    """Settle, record and rate a finished hand: ``seat_players`` are the persons seated
    when it ended (None: a computer player). Only accounts with beans at stake
    (:func:`at_stake_tx`) win or pay beans; an account whose start beans are due after
    this hand gets them in this transaction (``settings.start_after_hands``). Returns each
    seat's ``beans`` and ``ratings`` and the accounts' ``balances`` after it."""
    settings = settings or BeanSettings()
    scores = list(game.scores)
    n = len(scores)
    role_of = roles(game_name, game)
    pids = [p for p in seat_players if p is not None]
    is_account = at_stake_tx(c, pids)
    beans = [0] * n
    if scored:
        held = balances_tx(c, sorted(is_account))
        room: dict[str, Any] = {
            k: room_options[k] for k in ("bean_multiplier", "table_multiplier") if k in room_options
        }
        beans = hand_beans(
            bean_scores(game_name, scores),
            [p is not None and p in is_account for p in seat_players],
            [held.get(p, 0) if p is not None else 0 for p in seat_players],
            room_multiplier=int(room_options.get("bean_multiplier", 1)),
            table_multiplier=int(room_options.get("table_multiplier", 1)),
            own=own,
            cost=max_hand_cost(game_name, game.options, room),
        )
        house = 0
        for seat, amount in enumerate(beans):
            p = seat_players[seat]
            if p is not None and p in is_account:
                if amount:
                    add_beans_tx(c, p, amount, "hand", hand_id)
            else:
                house += amount
                beans[seat] = 0  # a guest or a bot holds no beans: the house's row has its share
        if house:
            add_beans_tx(c, None, house, "house", hand_id)
    rating_of: list[float | None] = [None] * n
    if scored and pids:
        rating_of = _rate_tx(c, game_name, seat_players, sides(game_name, role_of), scores)
    now = db.now()
    rows = [
        {
            "hand_id": hand_id,
            "player_id": p,
            "game": game_name,
            "seat": seat,
            "role": role_of[seat],
            "score": scores[seat] if scored else 0,
            "scored": scored,
            "beans": beans[seat],
            "rating": rating_of[seat],
            "created_at": now,
        }
        for seat, p in enumerate(seat_players)
        if p is not None
    ]
    if rows:
        c.execute(insert(results), rows)
    pending = accounts_tx(c, pids) - is_account
    if scored:
        is_account |= {p for p in sorted(pending) if grant_start_tx(c, p, settings)}
    return {
        "beans": beans,
        "ratings": rating_of,
        "balances": balances_tx(c, sorted(is_account)),
        "titles": {p: standing_tx(c, p, game_name)["title"] for p in pids},  # after this hand
    }


def _rate_tx(
    c: Connection, game_name: str, seat_players: list[int | None], side_of: list[int], scores: list[int]
) -> list[float | None]:
    """Update the persons' ratings for one hand; each seat's ordinal after it (bots: None)."""
    pids = [p for p in seat_players if p is not None]
    q = select(ratings).where(ratings.c.game == game_name, ratings.c.player_id.in_(pids))
    stored = {r.player_id: r for r in c.execute(q)}
    teams: list[list[Any]] = [[], []]
    members: list[list[int]] = [[], []]
    for seat, p in enumerate(seat_players):
        r = stored.get(p) if p is not None else None
        teams[side_of[seat]].append(MODEL.rating(mu=r.mu, sigma=r.sigma) if r else MODEL.rating())
        members[side_of[seat]].append(seat)
    points = [sum(scores[s] for s in team) for team in members]
    ranks = [1.0 if points[0] >= points[1] else 2.0, 1.0 if points[1] >= points[0] else 2.0]
    new = MODEL.rate(teams, ranks=ranks)
    out: list[float | None] = [None] * len(seat_players)
    now = db.now()
    for side in (0, 1):
        for seat, rating in zip(members[side], new[side]):
            p = seat_players[seat]
            if p is None:
                continue  # a computer player's rating is never kept
            values = {"mu": rating.mu, "sigma": rating.sigma, "updated_at": now}
            if p in stored:
                c.execute(
                    update(ratings)
                    .where(ratings.c.player_id == p, ratings.c.game == game_name)
                    .values(hands=stored[p].hands + 1, **values)
                )
            else:
                c.execute(insert(ratings).values(player_id=p, game=game_name, hands=1, **values))
            out[seat] = round(rating.ordinal(), 2)
    return out


def settled_tx(c: Connection, hand_ids: list[int], seats: int) -> dict[int, dict[str, Any]]:
    """Each finished hand's ``beans`` and ``ratings`` per seat, as :func:`finish_tx` gave
    them, read back from the results (a computer player's seat: 0 and None)."""
    out: dict[int, dict[str, Any]] = {h: {"beans": [0] * seats, "ratings": [None] * seats} for h in hand_ids}
    if hand_ids:
        q = select(results.c.hand_id, results.c.seat, results.c.beans, results.c.rating).where(
            results.c.hand_id.in_(hand_ids)
        )
        for hid, seat, beans, rating in c.execute(q):
            out[hid]["beans"][seat] = int(beans)
            out[hid]["ratings"][seat] = rating
    return out


def hand_players_tx(c: Connection, hand_ids: list[int], seats: int) -> dict[int, list[int | None]]:
    """Who played each seat of each finished hand, from the results (None: a computer player)."""
    out: dict[int, list[int | None]] = {h: [None] * seats for h in hand_ids}
    if hand_ids:
        q = select(results.c.hand_id, results.c.seat, results.c.player_id).where(results.c.hand_id.in_(hand_ids))
        for hid, seat, pid in c.execute(q):
            out[hid][seat] = pid
    return out


def penalty_beans_tx(
    c: Connection,
    *,
    hand_id: int | None,
    leaver: int,
    points: int,
    others: list[int],
    room_options: dict[str, Any],
) -> int:
    """The leave penalty in beans: the leaver (an account) pays ``paiju.beans.leave_penalty``
    of the penalty points, at most his balance, shared equally by the other persons seated
    (``paiju.beans.split_penalty``); a guest's share, or the whole when no other person
    sits, is the house's. A guest who leaves pays no beans. Returns what the leaver paid."""
    accounts = at_stake_tx(c, [leaver, *others])
    if leaver not in accounts:
        return 0
    amount = leave_penalty(
        points,
        room_multiplier=int(room_options.get("bean_multiplier", 1)),
        table_multiplier=int(room_options.get("table_multiplier", 1)),
    )
    amount = min(amount, max(0, balance_tx(c, leaver)))
    if amount <= 0:
        return 0
    add_beans_tx(c, leaver, -amount, "penalty", hand_id)
    receivers = [p for p in others if p != leaver]
    house = 0 if receivers else amount
    for p, share in zip(receivers, split_penalty(amount, len(receivers)) if receivers else []):
        if p in accounts:
            if share:
                add_beans_tx(c, p, share, "penalty", hand_id)
        else:
            house += share
    if house:
        add_beans_tx(c, None, house, "house", hand_id)
    return amount
