"""Accounts 账号: user names, passwords, and how many failed logins the hall allows.

A player is a **guest** (a display name and a session cookie, one click to play) or an
**account** (a user name and a password). A guest who registers keeps its player, so its
hands, results and rating stay its own. Passwords are hashed with argon2id through
``argon2-cffi`` (its default parameters, rehashed on login when they change); the hall
never writes a hash function of its own. Sessions live in the store (``sessions``): the
cookie carries a random token, the table keeps its SHA-256 only, and logging out, a
changed password or a disabled account ends them.

User names are unique **after normalization** (:func:`normalize_username`): NFKC, then
case-folded, so ``Ｌｉ`` and ``li`` are one name; letters of any script, digits, ``_``
and ``-``, 2 to 20 characters.
"""

from __future__ import annotations

import contextlib
import re
import time
import unicodedata
from collections import deque
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection

from paiju.errors import IllegalAction
from paiju.server import reasons as _reasons  # noqa: F401 - registers the codes raised here
from paiju.server.accounts.settlement import BeanSettings, grant_start_tx
from paiju.server.store import db
from paiju.server.store.db import players

USERNAME_CHARS = re.compile(r"[\w-]{2,20}")  # \w: letters and digits of every script, and _
PASSWORD_MIN, PASSWORD_MAX = 8, 128


_hasher = PasswordHasher()


def normalize_username(raw: object) -> str:
    """The user name as stored and compared: NFKC, case-folded; a clear error otherwise."""
    if not isinstance(raw, str):
        raise IllegalAction("a user name is 2-20 letters, digits, _ or -", "bad_username")
    name = unicodedata.normalize("NFKC", raw.strip()).casefold()
    if not USERNAME_CHARS.fullmatch(name):
        raise IllegalAction("a user name is 2-20 letters, digits, _ or -", "bad_username")
    return name


def check_password(raw: object) -> str:
    if not isinstance(raw, str) or not PASSWORD_MIN <= len(raw) <= PASSWORD_MAX or "\x00" in raw:
        raise IllegalAction(
            f"a password is {PASSWORD_MIN}-{PASSWORD_MAX} characters",
            "bad_password",
            min=PASSWORD_MIN,
            max=PASSWORD_MAX,
        )
    return raw


def hash_password(password: str) -> str:
    return _hasher.hash(check_password(password))


def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the stored hash (no hash: never)."""
    if not stored:
        _hasher.hash("a guest has no password")  # the same cost as a real check: no timing tell
        return False
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    return _hasher.check_needs_rehash(stored)


@dataclass
class LoginLimiter:
    """Failed logins allowed per user name and per address in a sliding window; past
    them a login is refused without looking at the password (``login_too_fast``).

    An attempt is counted when it starts (:meth:`attempt`, before the costly hash), not
    when it fails: concurrent guesses cannot all pass the check while none has finished.
    A login that succeeds is taken back off the address and clears the name."""

    per_name: int = 5
    per_address: int = 20
    window: float = 900.0
    _failures: dict[tuple[str, str], deque[float]] = field(default_factory=dict)

    def _recent(self, key: tuple[str, str], now: float) -> deque[float]:
        q = self._failures.get(key)
        if q is None:
            return deque()
        while q and q[0] <= now - self.window:
            q.popleft()
        if not q:
            del self._failures[key]
        return q

    def check(self, username: str, address: str) -> None:
        """Raise ``login_too_fast`` when either limit is reached."""
        now = time.monotonic()
        for key, limit in ((("name", username), self.per_name), (("address", address), self.per_address)):
            q = self._recent(key, now)
            if len(q) >= limit:
                wait = max(1, int(q[0] + self.window - now) + 1)
                raise IllegalAction(f"too many failed logins: try again in {wait} s", "login_too_fast", seconds=wait)

    def attempt(self, username: str, address: str) -> float:
        """Check, then count this attempt as failed until :meth:`succeeded` says otherwise
        (no await between the two: the event loop runs it whole). Returns its stamp."""
        self.check(username, address)
        return self.failed(username, address)

    def failed(self, username: str, address: str) -> float:
        now = time.monotonic()
        for key in (("name", username), ("address", address)):
            self._failures.setdefault(key, deque()).append(now)
        if len(self._failures) > 100_000:  # a flood of names: forget the oldest rather than grow
            for key in list(self._failures)[:50_000]:
                del self._failures[key]
        return now

    def succeeded(self, username: str, address: str | None = None, stamp: float | None = None) -> None:
        """A right password: the name's failures are forgotten, and the attempt counted
        for ``address`` at ``stamp`` is taken back."""
        self._failures.pop(("name", username), None)
        q = self._failures.get(("address", address)) if address is not None else None
        if q is not None and stamp is not None:
            with contextlib.suppress(ValueError):
                q.remove(stamp)


# ---------------------------------------------------------------------- in the store (writer thread)
def register_tx(
    c: Connection,
    username: str,
    password_hash: str,
    name: str,
    guest: int | None,
    start_beans: int,
    address: str | None = None,
    *,
    per_hour: int | None = None,
    start_after_hands: int = 0,
) -> dict[str, Any] | None:
    """A new account, or the guest ``guest`` made one (its player, history and rating kept;
    its guest sessions end); its first session, and its starting beans once it has finished ``start_after_hands``
    scored hands (at once when 0; the hands of the guest count). None: the user name is
    taken; ``{"too_many": n}``: ``address`` registered ``n`` ≥ ``per_hour`` accounts in the
    last hour (counted in the store, so across workers and restarts). Either way nothing is
    written (a write that raised would fail the writer's whole group)."""
    taken = c.execute(select(players.c.id).where(players.c.username == username)).first()
    if taken is not None:
        return None
    now = db.now()
    if address is not None and per_hour is not None:
        count = registrations_tx(c, address)
        if count >= per_hour:
            return {"too_many": count}
    values = {
        "username": username,
        "password_hash": password_hash,
        "name": name,
        "registered_from": address,
        "registered_at": now,
    }
    if guest is None:
        made = c.execute(insert(players).values(created_at=now, **values)).inserted_primary_key
        assert made is not None
        pid = int(made[0])
    else:
        pid = guest
        c.execute(update(players).where(players.c.id == pid).values(**values))
        db.revoke_sessions_tx(c, pid)  # the guest's cookies end: only the account's new session logs in
    token = db.new_session_tx(c, pid, address)
    grant_start_tx(c, pid, BeanSettings(start=start_beans, start_after_hands=start_after_hands))
    return {"id": pid, "name": name, "username": username, "token": token}


def registrations_tx(c: Connection, address: str) -> int:
    """Accounts registered from ``address`` in the last hour."""
    since = db.now() - timedelta(hours=1)
    q = select(func.count()).where(players.c.registered_from == address, players.c.registered_at > since)
    return int(c.execute(q).scalar_one())


def account_tx(c: Connection, username: str) -> dict[str, Any] | None:
    row = c.execute(select(players).where(players.c.username == username)).mappings().first()
    return dict(row) if row else None


def set_password_tx(c: Connection, pid: int, password_hash: str, keep: str | None = None) -> None:
    """A new password hash; every other session of the account ends (``keep``: the caller's)."""
    c.execute(update(players).where(players.c.id == pid).values(password_hash=password_hash))
    db.revoke_sessions_tx(c, pid, keep=keep)


def set_disabled_tx(c: Connection, pid: int, disabled: bool) -> None:
    """Disable an account for good (its sessions end), or enable it again (a ban ends too)."""
    c.execute(update(players).where(players.c.id == pid).values(disabled=disabled, banned_until=None))
    if disabled:
        db.revoke_sessions_tx(c, pid)
