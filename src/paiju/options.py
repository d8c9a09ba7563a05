"""Room options, declared: one :class:`Option` per option of a game says its name, type,
default, accepted values, the game's own word for it and its help. The room form's
description (``describe_options``) and the checks of ``resolve_options`` both read the
declaration, in every game; what a game adds by hand is only the rules that tie options
together (Baohuang's guard and abdication, Shengji's packs and variants …).

>>> schema = OptionSchema("Example", (
...     Option("kao", "bool", False, term="烤牌", help="jokers may be faced by more jokers"),
...     Option("decks", "choice", 2, choices=(1, 2, 3)),
... ))
>>> schema.check({"kao": "yes", "decks": 2})
Traceback (most recent call last):
...
paiju.errors.IllegalAction: option kao must be true or false, not 'yes'
>>> schema.describe({"kao": True, "decks": 2})[1]
{'name': 'decks', 'type': 'choice', 'default': 2, 'help': '', 'choices': [1, 2, 3]}
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from paiju.errors import IllegalAction, reasons

reasons(bad_option="option {option} is not allowed as given")


@dataclass(frozen=True)
class Option:
    """One room option of a game."""

    name: str
    type: str
    """What the room form shows: ``bool``, ``choice``, ``int``, ``rank``, ``seat`` or ``text``."""
    default: Any
    help: str = ""
    term: str = ""
    """The game's own word for the option (a Chinese term), when it has one."""
    choices: tuple[Any, ...] | None = None
    """The values accepted; None: any value of the type (a game rule may check more)."""
    offered: tuple[Any, ...] | None = None
    """The values the room form offers, when not all the accepted ones (old records' values)."""
    whole: bool = False
    """The value must be a whole number (an int; a bool too only with ``bool_is_number``)."""
    bool_is_number: bool = False
    """true/false pass as 1/0 (the option was always read that way: kept for its records)."""
    minimum: int | None = None
    maximum: int | None = None
    optional: bool = False
    """None is accepted too (the game decides: a seat drawn from the seed …)."""
    in_form: bool = True
    """Offered in the room form (not: carried by a match from hand to hand, or for old records)."""
    error: str = ""
    """The sentence when a value is refused, with ``{name}`` and ``{value!r}``; empty: the usual one."""

    def accepts(self, value: Any) -> bool:
        """Is ``value`` a value of this option (as far as the option alone says)?"""
        if value is None and self.optional:
            return True
        if self.type == "bool":
            return isinstance(value, bool)
        if self.whole and (not isinstance(value, int) or (isinstance(value, bool) and not self.bool_is_number)):
            return False
        if self.minimum is not None and value < self.minimum:
            return False
        if self.maximum is not None and value > self.maximum:
            return False
        return self.choices is None or value in self.choices

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is not a value of this option (the sentence); None when it is."""
        if self.accepts(value):
            return None
        if self.error:
            return self.error.format(name=self.name, value=value)
        if self.type == "bool":
            return f"option {self.name} must be true or false, not {value!r}"
        return f"option {self.name}={value!r} is not one of {', '.join(map(str, self.choices or ()))}"

    def describe(self, default: Any) -> dict[str, Any]:
        """The room form's entry: name, type, default, help and the choices offered."""
        entry: dict[str, Any] = {"name": self.name, "type": self.type, "default": default, "help": self.help}
        offered = self.offered if self.offered is not None else self.choices
        if offered is not None:
            entry["choices"] = list(offered)
        return entry


class OptionSchema:
    """Every option of one game, in the order the game lists them."""

    def __init__(self, game: str, options: tuple[Option, ...]) -> None:
        self.game = game
        """The game's name in the sentences of refusals ("unknown Baohuang option …")."""
        self.options = options
        self.names = tuple(o.name for o in options)
        self._by_name = {o.name: o for o in options}
        self.checked_first = tuple(o.name for o in options if o.choices is not None) + tuple(
            o.name for o in options if o.type == "bool"
        )
        """The options a value is checked against first: those with choices, then the booleans."""
        self._order = self.checked_first + tuple(n for n in self.names if n not in self.checked_first)

    def __iter__(self) -> Iterator[Option]:
        return iter(self.options)

    def __getitem__(self, name: str) -> Option:
        return self._by_name[name]

    @property
    def defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    @property
    def form(self) -> tuple[Option, ...]:
        """The options a room form offers."""
        return tuple(o for o in self.options if o.in_form)

    def refuse_unknown(self, given: Iterable[str]) -> None:
        """Raise ``bad_option`` naming the options given that the game does not have."""
        by_name = self._by_name
        unknown = {name for name in given if name not in by_name}
        if unknown:
            raise IllegalAction(
                f"unknown {self.game} option(s) {', '.join(sorted(unknown))}; options are {', '.join(self.names)}",
                code="bad_option",
                option=", ".join(sorted(unknown)),
            )

    def check(self, values: Mapping[str, Any], names: Iterable[str] | None = None) -> None:
        """Raise ``bad_option`` for the first option whose value is not allowed: the named
        options in that order, or else every option — those with choices first, then the
        booleans, then the others (the order the games have always checked them in)."""
        by_name = self._by_name
        for name in self._order if names is None else names:
            option = by_name[name]
            if not option.accepts(values[name]):
                raise IllegalAction(str(option.problem(values[name])), code="bad_option", option=name)

    def describe(self, defaults: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """The room form's entries of the options it offers (``defaults``: the values shown first)."""
        shown = self.defaults if defaults is None else defaults
        return [o.describe(shown[o.name]) for o in self.form]
