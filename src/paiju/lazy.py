"""Lazy sequences of actions: they know their length and decode an index on demand.

A hand can lead thousands of plays (every multiset of a Shengji suit, every Baohuang
rank part times joker part), so ``legal_actions()`` returns such a sequence there, like
python-chess's ``LegalMoveGenerator``: ``len``, ``[i]``, ``in`` and iteration without
building the list, and ``random.choice`` never pays for the whole of it. A subclass sets
``_len`` and decodes an index already in range (``_decode``); ``in`` is its own business.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")


class LazySequence(Sequence[T]):
    """A sequence of ``_len`` items, item ``i`` decoded by ``_decode(i)`` when asked."""

    __slots__ = ()
    _len: int

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, i: int) -> T:  # type: ignore[override]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError(i)
        return self._decode(i)

    @abstractmethod
    def _decode(self, i: int) -> T:
        """Item ``i``, for ``0 <= i < len(self)``."""

    def __iter__(self) -> Iterator[T]:
        decode = self._decode
        for i in range(self._len):
            yield decode(i)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._len} plays>"
