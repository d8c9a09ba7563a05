"""Who may come to a room: private rooms 私人房间, passwords 房间密码, invitations 邀请,
reserved seats 预留座位, and blocked players 拉黑 (docs/decisions.md "Playing together").

A room's ``access`` is stored beside it (``rooms.access``) and never sent as stored:
``{"private": bool, "password": argon2 hash | None, "invite": token, "reserved": {seat: player id},
"admitted": [player id, …]}``.
A private room is in no lobby page; it is reached by its link (its id) or its short
``code``. A password room lets a person watch or sit only once admitted — by the password
or the invitation token, through ``POST /api/rooms/{id}/join`` — or while seated or its
creator. The invitation token seats a friend directly (and admits him). A reserved seat is
taken only by its player. Two players one of whom blocked the other never sit at one table.
Who was admitted is stored with the room, so a restart or a move to another worker of a
cluster keeps them in. The creator may change all of it later (``change_access``): make the
room private or listed, set or remove the password, reserve or free seats, and renew the
invitation (the old links stop working).
"""

from __future__ import annotations

import asyncio
import secrets
from typing import TYPE_CHECKING, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from paiju.errors import IllegalAction
from paiju.server import reasons as _reasons  # noqa: F401 - registers the codes raised here
from paiju.server.accounts import social
from paiju.server.store import db
from paiju.server.store.writer import Write

if TYPE_CHECKING:
    from paiju.server.tables.connection import Conn
    from paiju.server.tables.host import TableHost

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and typed by a friend
CODE_LENGTH = 6
PASSWORD_MAX = 32
ADMITTED_MAX = 500  # persons admitted to a password room and remembered with it (the oldest are forgotten)
_hasher = PasswordHasher()


def new_code() -> str:
    """A room's short code 房间号: 6 of 32 letters and digits (about 10⁹ codes)."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def normalize_code(raw: object) -> str | None:
    """A typed room code as stored (upper case, no spaces), or None when it cannot be one.

    >>> normalize_code(" ab3 xyz "), normalize_code("ab1xyz"), normalize_code(7)
    ('AB3XYZ', None, None)
    """
    if not isinstance(raw, str):
        return None
    code = "".join(raw.split()).upper()
    return code if len(code) == CODE_LENGTH and all(ch in CODE_LETTERS for ch in code) else None


def check_room_password(raw: object) -> str | None:
    """A room's password as given when it is made (None or "": no password).

    >>> check_room_password(""), check_room_password("1234")
    (None, '1234')
    """
    if raw is None or raw == "":
        return None
    if not isinstance(raw, str) or len(raw) > PASSWORD_MAX or "\x00" in raw:
        raise IllegalAction(f"a room's password is 1-{PASSWORD_MAX} characters", "bad_room_password", max=PASSWORD_MAX)
    return raw


def hash_room_password(password: str) -> str:
    """argon2id, as account passwords (slow on purpose: call it off the event loop)."""
    return _hasher.hash(password)


def password_matches(stored: str | None, password: object) -> bool:
    if not stored or not isinstance(password, str) or len(password) > PASSWORD_MAX:
        return False
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def new_access(private: bool, password_hash: str | None, reserved: dict[int, int]) -> dict[str, Any]:
    """A new room's access (JSON keys are text: seats as "0", "1" …)."""
    return {
        "private": private,
        "password": password_hash,
        "invite": secrets.token_urlsafe(12),
        "reserved": {str(seat): pid for seat, pid in sorted(reserved.items())},
    }


def reserved_seats(access: dict[str, Any], seats: int) -> list[int | None]:
    """Per seat, the player it is reserved for (None: anybody's).

    >>> reserved_seats({"reserved": {"2": 7}}, 4)
    [None, None, 7, None]
    """
    held = access.get("reserved") or {}
    return [held.get(str(i)) for i in range(seats)]


def seat_refusal(access: dict[str, Any], seat: int, pid: int) -> IllegalAction | None:
    """Why ``pid`` may not take ``seat`` because it is reserved for another (None: he may)."""
    owner = (access.get("reserved") or {}).get(str(seat))
    if owner is not None and owner != pid:
        return IllegalAction(f"seat {seat} is reserved for another player", "seat_reserved", seat=seat)
    return None


def blocked_refusal() -> IllegalAction:
    return IllegalAction("you cannot sit at this table: you and a player here blocked one another", "blocked_table")


def admitted_ids(access: dict[str, Any]) -> set[int]:
    """The persons a room's password or invitation let in, as stored."""
    return {p for p in access.get("admitted") or [] if isinstance(p, int)}


class TableAccess:
    """The access checks of a table (a part of ``Table``, which sets ``access``, ``code``
    and ``admitted`` from its row)."""

    hall: TableHost
    id: str
    seats: list[dict[str, Any]]
    created_by: int | None
    access: dict[str, Any]
    options: dict[str, Any]
    code: str | None
    admitted: set[int]

    if TYPE_CHECKING:  # Table's own methods these call

        async def _save(self, write: Write) -> Any: ...

        def refresh(self) -> None: ...

    def access_info(self) -> dict[str, Any]:
        """What ``room_info`` says of the room's access: never the password nor the invitation."""
        return {
            "private": bool(self.access.get("private")),
            "password": bool(self.access.get("password")),
            "code": self.code,
            "reserved": reserved_seats(self.access, len(self.seats)),
        }

    @property
    def listed(self) -> bool:
        """Is the room in the lobby (a password room is, with its lock shown)?"""
        return not self.access.get("private")

    @property
    def open_to_all(self) -> bool:
        """May quick start seat a stranger here (neither private nor behind a password)?"""
        return not self.access.get("private") and not self.access.get("password")

    def may_enter(self, pid: int) -> bool:
        """May ``pid`` watch (or sit at) this room now without the password?"""
        if not self.access.get("password") or pid == self.created_by or pid in self.admitted:
            return True
        return any(s["player"] == pid for s in self.seats) or pid in reserved_seats(self.access, len(self.seats))

    async def admit(self, pid: int) -> None:
        """Let ``pid`` in for good (stored with the room). Runs in the actor's turn (``in_turn``)."""
        if pid in self.admitted or not self.access.get("password"):
            return
        kept = [p for p in self.access.get("admitted") or [] if p != pid][-(ADMITTED_MAX - 1) :] + [pid]
        await self._save_access({**self.access, "admitted": kept})

    async def _save_access(self, access: dict[str, Any], options: dict[str, Any] | None = None) -> None:
        values: dict[str, Any] = {"access": access}
        if options is not None:
            values["options"] = options
        await self._save(Write(run=lambda c: db.save_room_tx(c, self.id, **values)))
        self.access, self.admitted = access, admitted_ids(access)
        if options is not None:
            self.options = options

    async def change_access(
        self,
        pid: int,
        private: bool | None = None,
        password_hash: str | None = None,
        password_off: bool = False,
        reserved: dict[int, int] | None = None,
        new_invite: bool = False,
    ) -> dict[str, Any]:
        """The creator changes who may come (in the actor's turn): ``private`` (listed or not),
        a new password (``password_hash``) or none (``password_off``: the admitted are
        forgotten), the ``reserved`` seats (all of them, as they should be now; a seated
        player keeps his seat), a new invitation token. The room's access as ``room_info`` says it."""
        if pid != self.created_by:
            raise IllegalAction("only the room's creator may change who may come", "not_room_creator")
        bad = [seat for seat in reserved or {} if not 0 <= seat < len(self.seats)]
        if bad:
            last = len(self.seats) - 1
            raise IllegalAction(f"there is no seat {bad[0]}: seats are 0-{last}", "no_such_seat", seat=bad[0])
        changed = dict(self.access)
        options = None
        if private is not None and private != bool(changed.get("private")):
            changed["private"] = private
            options = {**self.options, "private": private}  # the room's options say it too
        if password_off:
            changed["password"], changed["admitted"] = None, []
        elif password_hash is not None:
            changed["password"] = password_hash  # those admitted before stay admitted
        if reserved is not None:
            changed["reserved"] = {str(seat): p for seat, p in sorted(reserved.items())}
        if new_invite:
            changed["invite"] = secrets.token_urlsafe(12)
        await self._save_access(changed, options)
        if options is not None:
            self.hall.listing_changed(self)
        self.refresh()
        return self.access_info()

    async def blocked_here(self, pid: int) -> bool:
        """Does a person seated here block ``pid``, or is blocked by him (read from the store)?"""
        seated = {s["player"] for s in self.seats if s["player"] is not None} - {pid}
        if not seated:
            return False
        try:
            blocked = await asyncio.to_thread(self.hall.store.read, social.blocked_ids_tx, pid)
        except Exception:
            raise IllegalAction(
                "the hall cannot reach its database right now; try again in a moment", "unavailable"
            ) from None
        return bool(blocked & seated)

    @staticmethod
    def hears(listener: Conn, speaker: Conn) -> bool:
        """Does ``listener`` get what ``speaker`` says (neither blocked the other)?"""
        return listener.player["id"] not in speaker.blocked and speaker.player["id"] not in listener.blocked
