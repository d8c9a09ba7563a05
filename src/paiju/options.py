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

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is not a value of this option (the sentence); None when it is."""
        if value is None and self.optional:
            return None
        if self.type == "bool":
            ok = isinstance(value, bool)
        else:
            ok = not self.whole or (isinstance(value, int) and (self.bool_is_number or not isinstance(value, bool)))
            if ok and self.minimum is not None:
                ok = value >= self.minimum
            if ok and self.maximum is not None:
                ok = value <= self.maximum
            if ok and self.choices is not None:
                ok = value in self.choices
        if ok:
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


@dataclass(frozen=True)
class OptionSchema:
    """Every option of one game, in the order the game lists them."""

    game: str
    """The game's name in the sentences of refusals ("unknown Baohuang option …")."""
    options: tuple[Option, ...]

    def __iter__(self) -> Iterator[Option]:
        return iter(self.options)

    def __getitem__(self, name: str) -> Option:
        return next(o for o in self.options if o.name == name)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.options)

    @property
    def defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    @property
    def form(self) -> tuple[Option, ...]:
        """The options a room form offers."""
        return tuple(o for o in self.options if o.in_form)

    def refuse_unknown(self, given: Iterable[str]) -> None:
        """Raise ``bad_option`` naming the options given that the game does not have."""
        unknown = set(given) - set(self.names)
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
        if names is None:
            names = self.checked_first + tuple(n for n in self.names if n not in self.checked_first)
        for name in names:
            problem = self[name].problem(values[name])
            if problem is not None:
                raise IllegalAction(problem, code="bad_option", option=name)

    @property
    def checked_first(self) -> tuple[str, ...]:
        """The options a value is checked against first: those with choices, then the booleans."""
        return tuple(o.name for o in self.options if o.choices is not None) + tuple(
            o.name for o in self.options if o.type == "bool"
        )

    def describe(self, defaults: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """The room form's entries of the options it offers (``defaults``: the values shown first)."""
        shown = self.defaults if defaults is None else defaults
        return [o.describe(shown[o.name]) for o in self.form]
