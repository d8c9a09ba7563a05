"""Who may sit where beans are at stake (docs/decisions.md "Accounts, beans"): the hand's
cost 入场限制 and 同IP不能同桌.

A seat remembers the address its person sat from only as a keyed hash (:func:`address_mark`:
HMAC-SHA-256 under a random key of its own, kept beside it), in the room's stored seats so
that it survives a reload and holds on whichever worker plays the room; it is never sent to
a client (updates.py names every field a seat shows).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from paiju.errors import IllegalAction
from paiju.server import reasons as _reasons  # noqa: F401 - registers the codes raised here


def address_mark(address: str) -> str:
    """``key$digest``: the address under a fresh random key (the address itself is not kept)."""
    key = secrets.token_hex(8)
    return f"{key}${_digest(key, address)}"


def _digest(key: str, address: str) -> str:
    return hmac.new(key.encode(), address.encode(), hashlib.sha256).hexdigest()[:32]


def marked_by(mark: object, address: str) -> bool:
    """Whether ``mark`` (:func:`address_mark`) was made from ``address``.

    >>> m = address_mark("10.0.0.1")
    >>> marked_by(m, "10.0.0.1"), marked_by(m, "10.0.0.2"), marked_by(None, "10.0.0.1")
    (True, False, False)
    """
    if not isinstance(mark, str) or "$" not in mark:
        return False
    key, digest = mark.split("$", 1)
    return hmac.compare_digest(digest, _digest(key, address))


def check_entry(
    beans: int | None, *, min_beans: int, cost: int, address: str, others: list[Any], one_per_address: bool
) -> None:
    """Raise the refusal of a person sitting down: ``beans`` his balance (None: none at stake,
    a guest or an account before its start beans), ``cost`` the most one hand there can
    cost (``paiju.stakes.max_hand_cost``), ``others`` the marks of the seated persons whose
    beans are at stake. Nothing when he may sit.

    >>> check_entry(30, min_beans=0, cost=24, address="a", others=[], one_per_address=True)
    >>> try:
    ...     check_entry(20, min_beans=0, cost=24, address="a", others=[], one_per_address=True)
    ... except IllegalAction as e:
    ...     print(e.code, e.params)
    beans_do_not_cover {'need': 24, 'beans': 20}
    """
    if beans is None:
        if min_beans:
            raise IllegalAction(
                f"this room needs {min_beans} beans to sit; you have 0", "too_few_beans", min=min_beans, beans=0
            )
        return
    if beans < min_beans:
        raise IllegalAction(
            f"this room needs {min_beans} beans to sit; you have {beans}", "too_few_beans", min=min_beans, beans=beans
        )
    need = max(min_beans, cost)
    if beans < need:
        raise IllegalAction(
            f"one hand here can cost {need} beans; you have {beans}", "beans_do_not_cover", need=need, beans=beans
        )
    if one_per_address and any(marked_by(m, address) for m in others):
        raise IllegalAction(
            "another player from your address sits at this table, where beans are at stake", "same_address"
        )
