"""双扣 Shuangkou combinations 牌型 (spec §3), how they compare (spec §4), and the plays a
hand can make.

Every Shuangkou play is a *block*: ``length`` consecutive ranks with ``width`` cards of
each. A single, pair, triple or bomb is a block of length 1 (width 1, 2, 3, 4–8); a
straight 顺子 has width 1, a pair run 连对 width 2, a triple run 连三张 width 3. Suits never
matter, so a play is its block: :class:`Play` ``(high, width, length)``. Ranks are kept as
*strength indices*: 3 → 0, 4 → 1, … A → 11, 2 → 12, SJ → 13, BJ → 14.

>>> str(parse_play("7 6 5 4 3")), combination("556677"), combination("66666")
('34567', 'pair_run', 'bomb')
>>> beats("TJQKA", "34567"), beats("3333", "BJ BJ"), beats("33333", "2222"), beats("55", "444")
(True, True, True, False)

Decisions where the spec leaves room:

- [decision] A bomb is 4–8 cards of one *ordinary* rank. 2s are an ordinary rank, so
  ``2222`` is a bomb (the highest of its size); the jokers never form a bomb — two of each
  exist, ``BJ BJ`` is a pair — except the four jokers ``BJ BJ SJ SJ`` 天王炸 with the
  ``four_joker_bomb`` option. The four jokers are stored as the block SJ–BJ of width 2;
  without the option that is no play at all.
- [decision] Blocks of width 4 or more over several ranks (``44445555``) are no play: the
  spec has no consecutive bombs.
- [decision] A straight or run never wraps and never holds a 2 or a joker (A is high
  only, so ``A2345`` and ``QKA23`` are no plays).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import Any, NamedTuple

from paiju.cards import BIG_JOKER, SMALL_JOKER, Card, parse_cards
from paiju.errors import IllegalAction, reasons
from paiju.game import PASS, Pass
from paiju.lazy import LazySequence
from paiju.shuangkou.options import resolve_options

reasons(
    too_many_copies="{cards} is not a play: the two packs hold only {most} × {rank}",
    four_jokers_off="{cards} is not a play: the four jokers are a bomb (天王炸) only in rooms with four_joker_bomb",
    joker_pair="{cards} is not a pair: a pair is two cards of one rank (BJ BJ or SJ SJ, not BJ SJ)",
    jokers_alone="{cards} is not a play: jokers are played alone, as a single or a pair",
    twos_in_run="{cards} is not a play: 2s are never part of a straight or run (A is high only)",
    uneven_run="{cards} is not a play: a straight or run has as many cards of each rank",
    not_consecutive="{cards} is not a play: the ranks of a straight or run must be consecutive",
    short_run="{cards} is not a play: a {kind} needs at least {least} consecutive ranks",
    bomb_run="{cards} is not a play: a bomb is one rank; bombs in a row are no combination",
)

NUM_STRENGTHS = 15
TWO = 12
"""Strength index of the 2: the highest ordinary rank, never in a straight or run."""
SJ = 13
"""Strength index of the small joker 小王."""
BJ = 14
"""Strength index of the big joker 大王."""
RUN_RANKS = 12
"""Straights and runs use the strengths 0 … 11 (3 … A)."""
MAX_WIDTH = 8
"""Two packs hold 8 cards of each ordinary rank: the biggest bomb."""
STRENGTH_TEXT = (*"3456789TJQKA", "2", "SJ", "BJ")

SINGLE = "single"
PAIR = "pair"
TRIPLE = "triple"
STRAIGHT = "straight"
PAIR_RUN = "pair_run"
TRIPLE_RUN = "triple_run"
BOMB = "bomb"
FOUR_JOKERS = "four_jokers"
KIND_NAMES = {
    SINGLE: "单张",
    PAIR: "对子",
    TRIPLE: "三张",
    STRAIGHT: "顺子",
    PAIR_RUN: "连对",
    TRIPLE_RUN: "连三张",
    BOMB: "炸弹",
    FOUR_JOKERS: "天王炸",
}
"""The combination types 牌型, by their names in views and events."""


def strength(card: Card) -> int:
    """Strength index of a card: 3 → 0 … A → 11, 2 → 12, SJ → 13, BJ → 14."""
    return _STRENGTH_OF_RANK[card.rank]


_STRENGTH_OF_RANK = [0] * (BIG_JOKER + 1)  # indexed by Card.rank: 2 … 14, SMALL_JOKER, BIG_JOKER
for _rank in range(3, 15):
    _STRENGTH_OF_RANK[_rank] = _rank - 3
_STRENGTH_OF_RANK[2], _STRENGTH_OF_RANK[SMALL_JOKER], _STRENGTH_OF_RANK[BIG_JOKER] = TWO, SJ, BJ


class Play(NamedTuple):
    """One play: ``width`` cards of each of the ``length`` consecutive ranks ending at
    strength ``high``. ``str`` is its rank text (``34567``, ``99``, ``BJ BJ SJ SJ``).

    Build plays with :func:`parse_play`; a hand-made tuple is checked by the game.
    """

    high: int
    width: int
    length: int = 1

    @property
    def low(self) -> int:
        """Strength of the lowest rank."""
        return self.high - self.length + 1

    @property
    def size(self) -> int:
        """Number of cards."""
        return self.width * self.length

    @property
    def kind(self) -> str | None:
        """The combination type (``single`` … ``four_jokers``) the shape has; whether it
        is allowed in a room is :func:`valid_plays`' business."""
        return _shape_kind(self.high, self.width, self.length)

    @property
    def is_bomb(self) -> bool:
        return _POWER.get(self, -1) >= 0

    def __str__(self) -> str:
        text = _TEXT.get(self)
        return text if text is not None else _text(self)

    def __repr__(self) -> str:
        return f"Play({str(self)!r})"


def _shape_kind(high: int, width: int, length: int) -> str | None:
    if width < 1 or length < 1:
        return None
    if length == 1:
        return (SINGLE, PAIR, TRIPLE)[width - 1] if width <= 3 else BOMB if width <= MAX_WIDTH else None
    if high >= TWO:  # no 2s or jokers in a run; the four jokers are the block SJ–BJ
        return FOUR_JOKERS if (high, width, length) == (BJ, 2, 2) else None
    return (STRAIGHT, PAIR_RUN, TRIPLE_RUN)[width - 1] if width <= 3 else None


def _text(p: Play) -> str:
    high, width, length = p
    low = high - length + 1
    if not (0 <= low <= high < NUM_STRENGTHS and width >= 1):
        return f"<no play: high={high} width={width} length={length}>"
    if high >= SJ:  # jokers are written apart, high to low: "BJ BJ SJ SJ"
        return " ".join(STRENGTH_TEXT[r] for r in range(high, low - 1, -1) for _ in range(width))
    return "".join(STRENGTH_TEXT[r] * width for r in range(low, high + 1))


# Every play shape, created once: legal-play generation hands out these objects instead
# of building new ones (ROW[width][length][high]).
ROW: list[list[list[Play]]] = [
    [[Play(h, w, n) for h in range(NUM_STRENGTHS)] for n in range(RUN_RANKS + 1)] for w in range(MAX_WIDTH + 1)
]
FOUR_JOKERS_PLAY = ROW[2][2][BJ]
FOUR_JOKERS_POWER = 1000
# bombs by strength: more cards first, then rank; the four jokers above all
_POWER: dict[Play, int] = {ROW[n][1][r]: n * NUM_STRENGTHS + r for n in range(4, MAX_WIDTH + 1) for r in range(13)}
_POWER[FOUR_JOKERS_PLAY] = FOUR_JOKERS_POWER


@cache
def valid_plays(min_triple_run: int = 3, four_joker_bomb: bool = False) -> dict[Play, str]:
    """Every play of a room, with its type, in a fixed order (singles, pairs, triples,
    bombs, straights, pair runs, triple runs, four jokers). Shared: do not mutate."""
    out: dict[Play, str] = {}
    out.update((ROW[1][1][r], SINGLE) for r in range(NUM_STRENGTHS))
    out.update((ROW[2][1][r], PAIR) for r in range(NUM_STRENGTHS))
    out.update((ROW[3][1][r], TRIPLE) for r in range(13))
    out.update((ROW[n][1][r], BOMB) for n in range(4, MAX_WIDTH + 1) for r in range(13))
    for width, kind, shortest in ((1, STRAIGHT, 5), (2, PAIR_RUN, 3), (3, TRIPLE_RUN, min_triple_run)):
        for n in range(shortest, RUN_RANKS + 1):
            out.update((ROW[width][n][h], kind) for h in range(n - 1, RUN_RANKS))
    if four_joker_bomb:
        out[FOUR_JOKERS_PLAY] = FOUR_JOKERS
    return out


_TEXT: dict[Play, str] = {p: _text(p) for p in valid_plays(2, True)}


# ---------------------------------------------------------------------------- reading plays
def composition(cards: Sequence[Card], min_triple_run: int = 3, four_joker_bomb: bool = False) -> Play:
    """The play made of ``cards``; raises IllegalAction saying why they are not a play.

    >>> composition(parse_cards("9h 9s")), composition(parse_cards("5 5 5 6 6 6"), min_triple_run=2)
    (Play('99'), Play('555666'))
    """
    if not cards:
        raise IllegalAction("a play needs at least one card", code="empty_play")
    counts = [0] * NUM_STRENGTHS
    for c in cards:
        counts[_STRENGTH_OF_RANK[c.rank]] += 1
    held = [r for r in range(NUM_STRENGTHS) if counts[r]]
    written = " ".join(str(c) for c in cards)
    for r in held:
        most = 2 if r >= SJ else MAX_WIDTH
        if counts[r] > most:
            raise IllegalAction(
                f"{written} is not a play: the two packs hold only {most} × {STRENGTH_TEXT[r]}",
                code="too_many_copies",
                cards=written,
                most=most,
                rank=STRENGTH_TEXT[r],
            )
    if len(held) == 1:
        return ROW[counts[held[0]]][1][held[0]]
    if held[-1] >= SJ:
        if held == [SJ, BJ] and counts[SJ] == 2 and counts[BJ] == 2:
            if four_joker_bomb:
                return FOUR_JOKERS_PLAY
            raise IllegalAction(
                f"{written} is not a play: the four jokers are a bomb (天王炸) only in rooms with four_joker_bomb",
                code="four_jokers_off",
                cards=written,
            )
        if held == [SJ, BJ] and counts[SJ] == 1 and counts[BJ] == 1:
            raise IllegalAction(
                f"{written} is not a pair: a pair is two cards of one rank (BJ BJ or SJ SJ, not BJ SJ)",
                code="joker_pair",
                cards=written,
            )
        raise IllegalAction(
            f"{written} is not a play: jokers are played alone, as a single or a pair (never in a straight or run)",
            code="jokers_alone",
            cards=written,
        )
    if held[-1] == TWO:
        raise IllegalAction(
            f"{written} is not a play: 2s are never part of a straight or run (A is high only)",
            code="twos_in_run",
            cards=written,
        )
    width = counts[held[0]]
    if any(counts[r] != width for r in held):
        shape = ", ".join(f"{counts[r]} × {STRENGTH_TEXT[r]}" for r in held)
        raise IllegalAction(
            f"{written} is not a play: cards of several ranks must be a straight, pair run or triple run, "
            f"with as many cards of each rank ({shape})",
            code="uneven_run",
            cards=written,
        )
    length = len(held)
    if held[-1] - held[0] + 1 != length:
        raise IllegalAction(
            f"{written} is not a play: the ranks of a straight or run must be consecutive",
            code="not_consecutive",
            cards=written,
        )
    if width == 1 and length < 5:
        raise IllegalAction(
            f"{written} is not a play: a straight (顺子) needs at least 5 consecutive ranks",
            code="short_run",
            cards=written,
            kind="straight (顺子)",
            least=5,
        )
    if width == 2 and length < 3:
        raise IllegalAction(
            f"{written} is not a play: a pair run (连对) needs at least 3 consecutive pairs, not {length}",
            code="short_run",
            cards=written,
            kind="pair run (连对)",
            least=3,
        )
    if width == 3 and length < min_triple_run:
        raise IllegalAction(
            f"{written} is not a play: a triple run (连三张) needs at least {min_triple_run} consecutive "
            f"triples in this room (min_triple_run={min_triple_run})",
            code="short_run",
            cards=written,
            kind="triple run (连三张)",
            least=min_triple_run,
        )
    if width > 3:
        raise IllegalAction(
            f"{written} is not a play: a bomb is one rank; bombs in a row are no combination",
            code="bomb_run",
            cards=written,
        )
    return ROW[width][length][held[-1]]


def _room(options: dict[str, Any]) -> tuple[int, bool]:
    o = resolve_options(**options)
    return o["min_triple_run"], o["four_joker_bomb"]


def parse_play(text: str | Iterable[str | Card], **options: Any) -> Play:
    """The play written as card text (bare ranks or suited cards); ``options`` are room
    options (``min_triple_run``, ``four_joker_bomb``)."""
    return composition(parse_cards(text), *_room(options))


def combination(cards: str | Iterable[str | Card], **options: Any) -> str:
    """The type of the play made of ``cards``: ``single``, ``pair``, ``triple``,
    ``straight``, ``pair_run``, ``triple_run``, ``bomb`` or ``four_jokers``. Raises
    IllegalAction with the reason when the cards are no play.

    >>> combination("BJ BJ SJ SJ", four_joker_bomb=True), combination("Ts Jh Qd Kc As")
    ('four_jokers', 'straight')
    """
    kind = parse_play(cards, **options).kind
    assert kind is not None
    return kind


# ---------------------------------------------------------------------------- comparing
def play_beats(new: Play, old: Play) -> bool:
    """Does ``new`` beat ``old`` (both valid plays)? A bomb beats every non-bomb; of two
    bombs the one with more cards, then the higher rank; the four jokers beat every bomb.
    Other plays: the same shape (type and number of cards) with a higher top rank."""
    pn = _POWER.get(new, -1)
    po = _POWER.get(old, -1)
    if pn >= 0 or po >= 0:
        return pn > po
    return new.width == old.width and new.length == old.length and new.high > old.high


def why_not_beats(new: Play, old: Play) -> IllegalAction:
    """The error explaining why ``new`` does not beat ``old``."""
    if old == FOUR_JOKERS_PLAY:
        return IllegalAction(f"nothing beats the four jokers {old}", "nothing_beats", beaten=str(old))
    if old.is_bomb and new.is_bomb:
        text = (
            f"{new} does not beat the bomb {old}: a bomb is beaten by a bomb with more cards, "
            "or as many cards of a higher rank"
        )
    elif old.is_bomb:
        text = f"{new} does not beat the bomb {old}: only a bigger bomb does"
    elif (new.width, new.length) == (old.width, old.length):
        text = f"{new} does not beat {old}: {STRENGTH_TEXT[new.high]} is not higher than {STRENGTH_TEXT[old.high]}"
    else:
        kind = str(old.kind).replace("_", " ")
        text = (
            f"{new} does not beat {old}: answer a {kind} of {old.size} cards with a higher {kind} of as many, or a bomb"
        )
    return IllegalAction(text, "does_not_beat", play=str(new), beaten=str(old))


def beats(new: str | Iterable[str | Card], old: str | Iterable[str | Card], **options: Any) -> bool:
    """Does the play ``new`` beat the play ``old`` (card text)? docs/api.md's
    ``paiju.shuangkou.beats``; ``options`` are room options. Raises IllegalAction when a
    text is not a Shuangkou play (e.g. ``3344``).

    >>> beats("BJ BJ SJ SJ", "88888888", four_joker_bomb=True), beats("BJ", "SJ"), beats("2", "BJ")
    (True, True, False)
    """
    room = _room(options)
    return play_beats(composition(parse_cards(new), *room), composition(parse_cards(old), *room))


# ---------------------------------------------------------------------------- plays of a hand
def holds(counts: Sequence[int], p: Play) -> bool:
    """Does a hand with these per-strength ``counts`` hold the cards of ``p``?"""
    w = p.width
    return all(counts[r] >= w for r in range(p.high - p.length + 1, p.high + 1))


def _runs(counts: Sequence[int], width: int, shortest: int) -> list[tuple[int, int]]:
    """Maximal stretches ``(first strength, length)`` of 3 … A held ``width`` times, at
    least ``shortest`` long."""
    out = []
    start = -1
    for r in range(RUN_RANKS + 1):
        if r < RUN_RANKS and counts[r] >= width:
            if start < 0:
                start = r
        elif start >= 0:
            if r - start >= shortest:
                out.append((start, r - start))
            start = -1
    return out


class LeadPlays(LazySequence[Play]):
    """Every play a hand can lead, as a lazy sequence: singles, pairs, triples and bombs
    (by size, then rank), then straights, pair runs and triple runs (by length, then top
    rank), then the four jokers. It knows its length and decodes an index on demand, so
    random play never builds the whole list; ``in`` checks the hand directly.

    >>> leads = LeadPlays([1, 1, 1, 1, 1] + [0] * 10)
    >>> len(leads), [str(p) for p in leads][-1], "34567" in [str(p) for p in leads]
    (6, '34567', True)
    """

    __slots__ = ("_counts", "_valid", "_same", "_runs", "_len", "_four")

    def __init__(self, counts: Sequence[int], min_triple_run: int = 3, four_joker_bomb: bool = False) -> None:
        c = list(counts)
        self._counts = c
        self._valid = valid_plays(min_triple_run, four_joker_bomb)
        ranks = [r for r in range(NUM_STRENGTHS) if c[r]]
        same: list[tuple[list[Play], list[int]]] = []  # (plays of one width by rank, ranks held)
        width = 1
        while ranks:
            same.append((ROW[width][1], ranks))
            width += 1
            if width > MAX_WIDTH:
                break
            ranks = [r for r in ranks if c[r] >= width and (width < 3 or r < SJ)]
        total = sum(len(rs) for _, rs in same)
        runs: list[tuple[int, int, list[tuple[int, int]]]] = []  # (width, shortest, stretches)
        for w, shortest in ((1, 5), (2, 3), (3, min_triple_run)):
            stretches = _runs(c, w, shortest)
            if stretches:
                runs.append((w, shortest, stretches))
                total += sum((m - shortest + 1) * (m - shortest + 2) // 2 for _, m in stretches)
        self._same = same
        self._runs = runs
        self._four = four_joker_bomb and c[SJ] >= 2 and c[BJ] >= 2
        self._len = total + self._four

    def _decode(self, i: int) -> Play:
        for row, ranks in self._same:
            if i < len(ranks):
                return row[ranks[i]]
            i -= len(ranks)
        for width, shortest, stretches in self._runs:
            for n in range(shortest, max(m for _, m in stretches) + 1):
                row = ROW[width][n]
                for first, m in stretches:
                    k = m - n + 1
                    if k > 0:
                        if i < k:
                            return row[first + n - 1 + i]
                        i -= k
        return FOUR_JOKERS_PLAY

    def __iter__(self) -> Iterator[Play]:
        for row, ranks in self._same:
            for r in ranks:
                yield row[r]
        for width, shortest, stretches in self._runs:
            for n in range(shortest, max(m for _, m in stretches) + 1):
                row = ROW[width][n]
                for first, m in stretches:
                    for h in range(first + n - 1, first + m):
                        yield row[h]
        if self._four:
            yield FOUR_JOKERS_PLAY

    def __contains__(self, p: object) -> bool:
        return isinstance(p, Play) and p in self._valid and holds(self._counts, p)


def follow_plays(counts: Sequence[int], old: Play, four_joker_bomb: bool = False) -> list[Play]:
    """Every play of a hand with per-strength ``counts`` that beats ``old``: the same
    type and length with a higher top rank (lowest first), then the bombs that beat it
    (smallest first), then the four jokers."""
    c = counts
    out: list[Play] = []
    po = _POWER.get(old, -1)
    if po < 0:
        w, n, h = old.width, old.length, old.high
        row = ROW[w][n]
        if n == 1:
            for r in range(h + 1, NUM_STRENGTHS if w <= 2 else SJ):
                if c[r] >= w:
                    out.append(row[r])
        else:
            run = 0
            for r in range(RUN_RANKS):
                if c[r] >= w:
                    run += 1
                    if run >= n and r > h:
                        out.append(row[r])
                else:
                    run = 0
    if po >= FOUR_JOKERS_POWER:
        return out
    big = [r for r in range(13) if c[r] >= 4]
    width = 4
    while big:
        row = ROW[width][1]
        for r in big:
            if width * NUM_STRENGTHS + r > po:
                out.append(row[r])
        width += 1
        big = [r for r in big if c[r] >= width]
    if four_joker_bomb and c[SJ] >= 2 and c[BJ] >= 2:
        out.append(FOUR_JOKERS_PLAY)
    return out


__all__ = [
    "BJ",
    "BOMB",
    "FOUR_JOKERS",
    "KIND_NAMES",
    "PAIR",
    "PAIR_RUN",
    "PASS",
    "SINGLE",
    "SJ",
    "STRAIGHT",
    "TRIPLE",
    "TRIPLE_RUN",
    "LeadPlays",
    "Pass",
    "Play",
    "beats",
    "combination",
    "composition",
    "follow_plays",
    "holds",
    "parse_play",
    "play_beats",
    "strength",
    "valid_plays",
    "why_not_beats",
]
