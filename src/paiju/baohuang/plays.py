"""Baohuang plays 一套牌 and the every-card-beats rule 步步高 (with 烤牌 kao).

A play is ``N`` cards of one ordinary rank plus ``X`` small jokers plus ``Y`` big jokers.
Suits never matter, so a play is its rank composition. Ranks are kept as *strength
indices*: 3 → 0, 4 → 1, … A → 11, 2 → 12, SJ → 13, BJ → 14.

>>> beats("8888", "7777"), beats("9999", "SJ 888"), beats("BJ BJ 8888", "BJ 7777", kao=True)
(True, False, True)
"""

from __future__ import annotations

from typing import NamedTuple

from paiju.cards import BIG_JOKER, RANKS, SMALL_JOKER, Card, parse_cards
from paiju.errors import IllegalAction, reasons
from paiju.game import Action

SJ = 13
"""Strength index of the small joker 小王."""
BJ = 14
"""Strength index of the big joker 大王."""
NUM_STRENGTHS = 15
ORDINARY = range(13)
"""Strength indices of the ordinary ranks 3 … 2."""

STRENGTH_TEXT = [*"3456789TJQKA", "2", "SJ", "BJ"]

reasons(
    not_a_rank="{text} is not a rank",
    mixed_ranks="{cards} is not a play: besides jokers a play is cards of one rank",
)


def strength(card: Card) -> int:
    """Strength index of a card in Baohuang: 3 → 0 … A → 11, 2 → 12, SJ → 13, BJ → 14."""
    r = card.rank
    if r == 2:
        return 12
    if r == SMALL_JOKER:
        return SJ
    if r == BIG_JOKER:
        return BJ
    return r - 3


def rank_of_strength(s: int) -> int:
    """Card rank (2 … 14, 15, 16) of a strength index."""
    if s == 12:
        return 2
    if s == SJ:
        return SMALL_JOKER
    if s == BJ:
        return BIG_JOKER
    return s + 3


def strength_of_text(text: str) -> int:
    """Strength index of a rank written as text (``"6"``, ``"T"``, ``"10"``, ``"SJ"``)."""
    t = text.strip().upper()
    if t == "10":
        t = "T"
    if t in STRENGTH_TEXT:
        return STRENGTH_TEXT.index(t)
    raise IllegalAction(f"{text!r} is not a rank ({' '.join(RANKS)}, SJ, BJ)", code="not_a_rank", text=text)


class Play(NamedTuple):
    """One play: ``n`` cards of ordinary rank ``rank`` plus ``small`` small jokers and
    ``big`` big jokers. ``reveal`` is the role-revealing card when the play includes it
    (the guard card ``SJ*`` or the called suit+rank card) — for its holder, a play with it
    and the same play without it are different actions.

    ``rank`` is a strength index (see module doc), ``-1`` when the play is jokers only.
    """

    rank: int
    n: int
    small: int = 0
    big: int = 0
    reveal: Card | None = None

    @property
    def size(self) -> int:
        return self.n + self.small + self.big

    def __str__(self) -> str:
        parts = ["BJ"] * self.big
        small = self.small
        rev = self.reveal
        if rev is not None and rev.rank == SMALL_JOKER:
            parts.append(str(rev))
            small -= 1
        parts += ["SJ"] * small
        if self.n:
            run = STRENGTH_TEXT[self.rank] * self.n
            if rev is not None and not rev.is_joker:
                run = str(rev) + (" " + STRENGTH_TEXT[self.rank] * (self.n - 1) if self.n > 1 else "")
            parts.append(run)
        return " ".join(parts)

    def sorted_strengths(self) -> list[int]:
        """The play's cards as strength indices, high to low."""
        return [BJ] * self.big + [SJ] * self.small + [self.rank] * self.n


class Yield(Action):
    """Yield 让牌 (Qingdao): wait instead of passing; if the whole circle passes or yields
    without a play, each yielder gets one more turn to play or pass."""

    __slots__ = ()

    def __str__(self) -> str:
        return "yield"

    def __repr__(self) -> str:
        return "YIELD"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Yield)

    def __hash__(self) -> int:
        return hash("yield")


YIELD = Yield()


class Declare(NamedTuple):
    """A pre-play decision, by name: ``accept`` 登基, ``abdicate`` 让位, ``open_solo`` 明独,
    ``call Ah`` 叫侍卫, ``grab`` 抢独, ``reveal`` 明保, ``rebel`` 造反, ``kick`` 踢,
    ``take BJ`` (pick a tribute card 吃贡), ``no`` (decline the question asked)."""

    name: str
    arg: str = ""

    def __str__(self) -> str:
        return f"{self.name} {self.arg}" if self.arg else self.name


def composition(cards: list[Card]) -> Play:
    """The play made of ``cards``; raises IllegalAction if they are not one play.

    >>> str(composition(parse_cards("7 SJ 7 7")))
    'SJ 777'
    """
    if not cards:
        raise IllegalAction("a play needs at least one card", code="empty_play")
    small = big = 0
    rank = -1
    count = 0
    for c in cards:
        s = strength(c)
        if s == SJ:
            small += 1
        elif s == BJ:
            big += 1
        elif rank == -1 or s == rank:
            rank = s
            count += 1
        else:
            written = " ".join(str(c) for c in cards)
            raise IllegalAction(
                f"{written} is not a play: besides jokers a play is "
                f"cards of one rank ({STRENGTH_TEXT[rank]} and {STRENGTH_TEXT[s]} differ; "
                "no straights, and a 2 cannot stand in for another rank)",
                code="mixed_ranks",
                cards=written,
            )
    return Play(rank, count, small, big)


def parse_play(text: str) -> Play:
    """A play written as card text (suits ignored, marks ignored)."""
    return composition(parse_cards(text))


def plain_beats(new: Play, old: Play) -> bool:
    """Every card beats its own card: same size, and sorted high to low each card of
    ``new`` is strictly higher than the card at the same position of ``old``.

    Consequences: nothing beats a play with a big joker; small jokers must be faced by
    big jokers; the ordinary cards by anything higher.
    """
    if new.n + new.small + new.big != old.n + old.small + old.big or old.big:
        return False
    if new.big < old.small:
        return False
    return new.n == 0 or new.rank > old.rank


def kao_beats(new: Play, old: Play) -> bool:
    """烤牌: beat a play containing jokers by giving each old card its own group of new
    cards — one strictly higher card, or ``BJ BJ`` over a BJ, ``SJ SJ`` over an SJ,
    ``SJ SJ SJ`` over a BJ. Every new card belongs to exactly one group.
    """
    if not (old.small or old.big):
        return plain_beats(new, old)
    if new.n > old.n or (new.n and new.rank <= old.rank):
        return False
    return kao_fits(new.big, new.small, new.n, old)


def kao_fits(big: int, small: int, n: int, old: Play) -> bool:
    """Can ``big`` big jokers, ``small`` small jokers and ``n`` higher ordinary cards face
    the joker play ``old`` under 烤牌? (The caller checks the ordinary cards' rank.)"""
    # jokers that must face the old ordinary cards not faced by the new ordinary cards
    free = old.n - n
    for a in range(old.big + 1):  # old BJs faced by BJ BJ; the others by SJ SJ SJ
        for c in range(old.small + 1):  # old SJs faced by one BJ; the others by SJ SJ
            jb = big - 2 * a - c
            js = small - 3 * (old.big - a) - 2 * (old.small - c)
            if jb >= 0 and js >= 0 and jb + js == free:
                return True
    return False


def play_beats(new: Play, old: Play, kao: bool = False) -> bool:
    """Does ``new`` beat ``old`` (both compositions)?"""
    return kao_beats(new, old) if kao else plain_beats(new, old)


def beats(new: str, old: str, kao: bool = False) -> bool:
    """Does the play ``new`` beat the play ``old`` (card text)? docs/api.md's
    ``paiju.baohuang.beats``; raises IllegalAction when a text is not a Baohuang play.

    >>> beats("BJ SJ SJ SJ", "AAAA"), beats("SJ SJ 999", "BJ BJ JJJ")
    (True, False)
    """
    return play_beats(parse_play(new), parse_play(old), kao)


def why_not_beats(new: Play, old: Play, kao: bool) -> IllegalAction:
    """The error explaining why ``new`` does not beat ``old``."""
    if old.big and not kao:
        return IllegalAction(f"nothing beats {old}: no card beats a big joker", "nothing_beats", beaten=str(old))
    if not kao or not (old.small or old.big):
        if new.size != old.size:
            return IllegalAction(
                f"{new} does not beat {old}: a play must have as many cards as the play it beats ({old.size})",
                "wrong_count",
                play=str(new),
                got=new.size,
                count=old.size,
            )
    text = f"{new} does not beat {old}: each card must beat the card it faces"
    return IllegalAction(text, "does_not_beat", play=str(new), beaten=str(old))
