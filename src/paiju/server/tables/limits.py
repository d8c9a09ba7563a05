"""What the hall can carry: values are refused at the door, with a message, not deep inside.

Every value a client puts into a room or a message is stored as JSON and sent to browsers
(JavaScript numbers), so integers stay within ±2^53, numbers are finite, text is short and
nothing nests deeply. A value past these limits would fail later — in the JSON encoder
while other tables wait on the same broadcast, or in a browser — so it never gets in.

>>> check_value(40, "option leave_penalty")
>>> check_value(2**70, "option leave_penalty")
Traceback (most recent call last):
...
paiju.errors.IllegalAction: option leave_penalty must be an integer between -9007199254740992 and 9007199254740992
"""

from __future__ import annotations

import math
import unicodedata
from typing import Any

from paiju.errors import IllegalAction
from paiju.server import reasons as _reasons  # noqa: F401 - registers bad_value, bad_name

MAX_INT = 2**53  # the largest integer a JavaScript number holds exactly
MAX_TEXT = 200  # characters of one text value
MAX_ITEMS = 64  # items of one list or object
MAX_DEPTH = 4  # lists and objects within each other


def check_value(value: Any, where: str, depth: int = 0) -> None:
    """Raise IllegalAction naming ``where`` if ``value`` is past the hall's limits."""
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        if not -MAX_INT <= value <= MAX_INT:
            raise IllegalAction(
                f"{where} must be an integer between {-MAX_INT} and {MAX_INT}", "bad_value", where=where
            )
        return
    if isinstance(value, float):
        if not math.isfinite(value) or abs(value) > MAX_INT:
            raise IllegalAction(
                f"{where} must be a finite number between {-MAX_INT} and {MAX_INT}", "bad_value", where=where
            )
        return
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise IllegalAction(f"{where} is too long (at most {MAX_TEXT} characters)", "bad_value", where=where)
        check_text(value, where)
        return
    if isinstance(value, list | dict):
        if depth >= MAX_DEPTH:
            raise IllegalAction(f"{where} nests too deeply", "bad_value", where=where)
        if len(value) > MAX_ITEMS:
            raise IllegalAction(f"{where} has too many items (at most {MAX_ITEMS})", "bad_value", where=where)
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in items:
            if isinstance(value, dict):
                check_value(k, f"{where}: a key", depth + 1)
            check_value(v, f"{where}[{k!r}]", depth + 1)
        return
    raise IllegalAction(f"{where} must be a number, text, true/false, a list or an object", "bad_value", where=where)


def check_text(text: str, where: str) -> None:
    """Text the hall can store and send: no NUL (PostgreSQL refuses it) and no lone
    surrogate (no UTF-8 encoder writes one)."""
    if "\x00" in text:
        raise IllegalAction(f"{where} contains a NUL character", "bad_value", where=where)
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        raise IllegalAction(f"{where} contains a lone surrogate (not valid Unicode text)", "bad_value", where=where)


MAX_NAME = 20
_HIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}  # controls, bidi and zero-width marks, unassigned


def hidden_char(text: str) -> str | None:
    """The first invisible or misleading character of ``text`` (None: it has none).

    >>> hidden_char("room\u202e1"), hidden_char("保皇 room")
    ('\u202e', None)
    """
    return next((ch for ch in text if unicodedata.category(ch) in _HIDDEN), None)


def normalize_name(name: Any) -> str:
    """A player's name as shown to everybody: NFKC, spaces collapsed, 1–20 characters and
    nothing invisible or misleading (controls, bidi overrides, zero-width characters).

    >>> normalize_name("  Ａｄａ   Lovelace ")
    'Ada Lovelace'
    >>> normalize_name("admin\u200b")
    Traceback (most recent call last):
    ...
    paiju.errors.IllegalAction: a name may not contain invisible or control characters (U+200B)
    """
    if not isinstance(name, str):
        raise IllegalAction(f"a name is text of 1-{MAX_NAME} characters", "bad_name", max=MAX_NAME)
    check_text(name, "the name")
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    ch = hidden_char(text)
    if ch is not None:
        raise IllegalAction(
            f"a name may not contain invisible or control characters (U+{ord(ch):04X})", "bad_name", max=MAX_NAME
        )
    if not 1 <= len(text) <= MAX_NAME:
        raise IllegalAction(f"a name is 1-{MAX_NAME} visible characters", "bad_name", max=MAX_NAME)
    return text
