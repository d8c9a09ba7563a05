"""The one game interface every paiju game implements (see docs/api.md).

A game is a small state machine: ``to_act`` names the seat whose decision it is,
``legal_actions()`` lists what that seat may do, ``apply`` performs one action. Every
decision of every phase (declarations before play, plays, tribute picks) is an action of
one seat. A game is its record: options + seed (+ explicit deal) + the actions replay to
the identical state.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from paiju.cards import Card
from paiju.errors import IllegalAction, reasons
from paiju.versions import RECORD_VERSION as RECORD_VERSION  # (read from here too)

# reason codes the three games share (each game registers its own beside them)
reasons(
    hand_over="the hand is over: nobody is to act",
    not_over="the hand is not over yet",
    no_hint="a hint is given only during play, to the seat to act",
    not_text="an action is text, not {type}",
    empty_action="empty action: type the cards to play, or pass",
    no_argument="{word} takes no argument",
    needs_card="{word} needs the cards it names, e.g. '{word} {example}'",
    not_a_decision="{action} is not a decision of this step ({step})",
    not_open="you cannot {action} now ({step}); choose one of: {choices}",
    must_lead="you lead this trick: play something, you cannot {action}",
    not_in_hand="you do not hold {cards}",
    empty_play="a play needs at least one card",
    not_a_play="{cards} is not a play",
    does_not_beat="{play} does not beat {beaten}",
    wrong_count="{play} has {got} cards: the play to answer has {count}",
    nothing_beats="nothing beats {beaten}",
    bad_seat="there is no seat {seat}",
    bad_option="option {option} is not allowed as given",
    bad_deal="the deal given is not possible",
    bad_argument="a value given is not allowed",
    match_over="the match is over",
    hand_not_over="this hand is still being played: only finished hands are replayed or analysed",
)


class Action:
    """Marker base for actions. Every action has ``str(action)``, its text form, and
    ``game.parse_action(str(action)) == action`` holds."""

    __slots__ = ()


class Pass(Action):
    """Pass 过牌 / 不出: let the play on the table stand (climbing games)."""

    __slots__ = ()

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "PASS"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pass)

    def __hash__(self) -> int:
        return hash("pass")


PASS = Pass()


def action_text(text: Any) -> str:
    """The text of an action typed by a player, stripped (raises IllegalAction if it is
    not text): where every game's ``parse_action`` starts."""
    if not isinstance(text, str):
        raise IllegalAction(f"an action is text, not {type(text).__name__}", code="not_text", type=type(text).__name__)
    return text.strip()


def new_seed() -> int:
    """A fresh seed for a game whose caller gave none (it is kept in the record)."""
    return random.SystemRandom().randrange(2**62)


class Game(ABC):
    """Base class of the three games: the uniform interface of docs/api.md.

    Subclasses implement the rule hooks (``_check``, ``_do``, ``legal_actions`` …); the
    base class keeps the action log, turns text into actions and refuses to act when the
    hand is over or an action is illegal — leaving the game unchanged.
    """

    name: ClassVar[str]
    num_players: int
    seed: int
    options: dict[str, Any]

    def __init__(self) -> None:
        self._log: list[Action] = []

    # -- the interface -------------------------------------------------------------
    @property
    @abstractmethod
    def to_act(self) -> int | None:
        """Seat whose decision it is; ``None`` when the hand is over."""

    @property
    @abstractmethod
    def phase(self) -> str:
        """Short name of the current phase ("play" while tricks are played, "over")."""

    @abstractmethod
    def legal_actions(self) -> Sequence[Any]:
        """Actions of ``to_act``; never empty while the hand goes on."""

    @abstractmethod
    def parse_action(self, text: str) -> Any:
        """The action written as ``text`` for the seat to act (raises IllegalAction)."""

    @abstractmethod
    def _check(self, action: Any) -> None:
        """Raise IllegalAction with the reason if ``to_act`` may not take ``action``."""

    @abstractmethod
    def _do(self, action: Any) -> None:
        """Perform an action already checked legal."""

    @abstractmethod
    def hand(self, seat: int) -> list[Card]:
        """Cards ``seat`` holds now."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know, and nothing more (``None``: a spectator)."""

    _scores: tuple[int, ...] | None = None
    """Set by the game when the hand ends."""

    @property
    def scores(self) -> tuple[int, ...]:
        """Points per seat for the finished hand; they sum to 0."""
        if self._scores is None:
            raise IllegalAction("the hand is not over yet: there are no scores", code="not_over")
        return self._scores

    @abstractmethod
    def _record_setup(self) -> dict[str, Any]:
        """Options, seed and deal: what :func:`paiju.replay` needs besides the actions."""

    @abstractmethod
    def clone(self) -> Game:
        """An independent copy (for search)."""

    @property
    def is_over(self) -> bool:
        return self.to_act is None

    def check(self, action: Any) -> IllegalAction | None:
        """Why the seat to act may not take ``action`` (an action or its text) now: the
        :class:`paiju.IllegalAction` that :meth:`apply` would raise, with its reason code
        and params; ``None`` when the action is legal. The game is never changed, so a
        caller may ask without cloning it.

        >>> import paiju
        >>> g = paiju.new_game("shuangkou", seed=1)
        >>> g.check("pass").code, g.check(g.legal_actions()[0]) is None
        ('must_lead', True)
        """
        try:
            self._checked(action)
        except IllegalAction as e:
            return e
        return None

    def apply(self, action: Any) -> None:
        """Take ``action`` (an action or its text) for the seat to act: the same
        :meth:`check`, then the action is carried out.

        Raises :class:`paiju.IllegalAction` with the reason; the game is then unchanged.
        """
        action = self._checked(action)
        self._log.append(action)
        self._do(action)

    def _checked(self, action: Any) -> Any:
        """``action`` as an action object once the rules allow it (raises IllegalAction)."""
        if self.to_act is None:
            raise IllegalAction("the hand is over: nobody is to act", code="hand_over")
        if isinstance(action, str):
            action = self.parse_action(action)
        self._check(action)
        return action

    def record(self) -> dict[str, Any]:
        """JSON-serializable record; :func:`paiju.replay` rebuilds the same state."""
        rec = {"version": RECORD_VERSION, "game": self.name}
        rec.update(self._record_setup())
        rec["actions"] = [str(a) for a in self._log]
        return rec

    @property
    def history(self) -> list[Any]:
        """Actions taken so far, in order."""
        return list(self._log)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed} phase={self.phase} to_act={self.to_act}>"
