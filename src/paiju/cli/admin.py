"""``paiju admin``: look after a hall's database — check every stored hand, back it up, move it.

``paiju admin check`` replays every stored hand and lists those that do not replay
(``--quarantine`` sets their rooms aside, as the hall does at start-up for a current
hand); ``paiju admin export`` writes every player, room, hand and penalty as JSON lines
(each hand with its docs/api.md record), and ``paiju admin import`` reads such a file into an
empty database — a backup, and the way from SQLite to PostgreSQL.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

if TYPE_CHECKING:
    from paiju.server.store.db import Store

admin = typer.Typer(
    name="admin",
    help="Look after the hall's database: check stored hands, export and import.",
    no_args_is_help=True,
    add_completion=False,
)

DB = typer.Option(help="database URL: sqlite:///file.db (default ./paiju.db) or postgresql://…")


def _store(db: str | None) -> Store:
    from paiju.server.store.db import Store

    try:
        return Store(db, checkpoints=False)
    except Exception as e:
        Console(stderr=True).print(f"[bold red]error:[/bold red] cannot open the database: {escape(str(e))}")
        raise typer.Exit(2) from None


@admin.command()
def check(
    db: Annotated[str | None, DB] = None,
    quarantine: Annotated[bool, typer.Option(help="set aside every room with a hand that does not replay")] = False,
) -> None:
    """Replay every stored hand; list those that fail (exit 1 if any)."""
    from paiju.server.store.records import check_store

    store = _store(db)
    try:
        checked, problems = check_store(store, quarantine=quarantine)
    finally:
        store.close()
    out = Console(highlight=False)
    for p in problems:
        out.print(f"room {p.room}: {escape(p.reason)}")
    rooms = len({p.room for p in problems})
    verdict = f"{checked} hands checked, {len(problems)} damaged"
    if problems:
        verdict += f" in {rooms} room(s)" + (" — set aside" if quarantine else " (--quarantine sets them aside)")
    out.print(verdict)
    raise typer.Exit(1 if problems else 0)


@admin.command()
def audit(
    db: Annotated[str | None, DB] = None,
    share: Annotated[
        float, typer.Option(help="farming signal: the part of an account's losses gone to one other")
    ] = 0.8,
    min_lost: Annotated[
        int, typer.Option(help="farming signal: only accounts that lost at least this many beans")
    ] = 500,
) -> None:
    """Check the bean ledger (every hand sums to 0, no balance below 0, one start grant per
    account; exit 1 if anything fails) and list the farming signal — a report, not a verdict."""
    from paiju.server.accounts.audit import audit_tx

    if not 0 < share <= 1 or min_lost < 0:
        Console(stderr=True).print("[bold red]error:[/bold red] --share is in (0, 1], --min-lost at least 0")
        raise typer.Exit(2)
    store = _store(db)
    try:
        report = store.read(lambda c: audit_tx(c, share=share, min_lost=min_lost))
    finally:
        store.close()
    out = Console(highlight=False)

    def who(pid: int) -> str:
        return f"{escape(report.names.get(pid, '?'))} (#{pid})"

    for p in report.problems:
        d = p.detail
        if p.what == "unbalanced_hand":
            out.print(f"hand {d['hand']}: its ledger rows sum to {d['sum']}, not 0")
        elif p.what == "unbalanced_penalties":
            out.print(f"the penalty rows without a hand sum to {d['sum']}, not 0")
        elif p.what == "negative_balance":
            out.print(f"{who(d['player'])}: balance {d['beans']} is below 0")
        else:
            out.print(f"{who(d['player'])}: start beans granted {d['grants']} times")
    if report.signals:
        table = Table(title=f"farming signal: ≥ {share:.0%} of an account's lost beans to one other account")
        for col in ("lost by", "to", "beans", "of lost", "share", "hands"):
            table.add_column(col)
        for s in report.signals:
            pct = f"{s.beans / s.lost:.0%}"
            table.add_row(who(s.loser), who(s.receiver), str(s.beans), str(s.lost), pct, str(s.hands))
        out.print(table)
    out.print(
        f"{report.hands} hands and {report.accounts} accounts checked: {len(report.problems)} problem(s), "
        f"{len(report.signals)} farming signal(s)"
    )
    raise typer.Exit(1 if report.problems else 0)


@admin.command("export")
def export_(
    file: Annotated[Path, typer.Argument(help="JSON-lines file to write ('-': standard output)")],
    db: Annotated[str | None, DB] = None,
) -> None:
    """Write every player, room, hand (with its record) and penalty as JSON lines.

    The file holds the players' login tokens: keep it as secret as the database."""
    from paiju.server.store.records import export_store

    store = _store(db)
    try:
        if str(file) == "-":
            n = export_store(store, sys.stdout)
        else:
            with file.open("w", encoding="utf-8") as out:
                n = export_store(store, out)
    finally:
        store.close()
    Console(stderr=True, highlight=False).print(f"{n} lines written")


@admin.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="a file written by paiju admin export")],
    db: Annotated[str | None, DB] = None,
) -> None:
    """Read an export into an empty database (made and migrated if needed)."""
    from paiju.server.store.records import import_store

    store = _store(db)
    try:
        with file.open(encoding="utf-8") as src:
            counts = import_store(store, src)
    except (OSError, ValueError, KeyError) as e:
        Console(stderr=True).print(f"[bold red]error:[/bold red] {escape(str(e))}")
        raise typer.Exit(2) from None
    finally:
        store.close()
    Console(highlight=False).print(", ".join(f"{n} {kind}s" for kind, n in counts.items()) + " imported")


# ---------------------------------------------------------------------- accounts
user = typer.Typer(
    name="user",
    help="Look after an account: reset its password, grant beans, disable it, give it a role.",
    no_args_is_help=True,
)
admin.add_typer(user, name="user")


def _account(store: Store, username: str) -> dict[str, Any]:
    from paiju.errors import IllegalAction
    from paiju.server.accounts import users as accounts

    try:
        name = accounts.normalize_username(username)
    except IllegalAction as e:
        Console(stderr=True).print(f"[bold red]error:[/bold red] {escape(str(e))}")
        raise typer.Exit(2) from None
    found = store.read(accounts.account_tx, name)
    if found is None:
        Console(stderr=True).print(f"[bold red]error:[/bold red] no account {escape(name)!r}")
        raise typer.Exit(2)
    return found


@user.command("reset-password")
def reset_password(
    username: Annotated[str, typer.Argument(help="the account's user name")],
    password: Annotated[str | None, typer.Option(help="the new password (default: a random one, printed once)")] = None,
    db: Annotated[str | None, DB] = None,
) -> None:
    """Set a new password; every session of the account ends."""
    import secrets

    from paiju.errors import IllegalAction
    from paiju.server.accounts import users as accounts
    from paiju.server.accounts.moderation import audit_tx

    store = _store(db)
    try:
        found = _account(store, username)
        new = password or secrets.token_urlsafe(12)
        try:
            hashed = accounts.hash_password(new)
        except IllegalAction as e:
            Console(stderr=True).print(f"[bold red]error:[/bold red] {escape(str(e))}")
            raise typer.Exit(2) from None
        with store.engine.begin() as c:
            accounts.set_password_tx(c, int(found["id"]), hashed)
            audit_tx(c, None, "reset_password", "reset on the command line", target=int(found["id"]))
    finally:
        store.close()
    out = Console(highlight=False)
    out.print(f"password of {found['username']} reset; its sessions are ended")
    if password is None:
        out.print(f"new password: {new}")


@user.command("grant")
def grant(
    username: Annotated[str, typer.Argument(help="the account's user name")],
    beans: Annotated[int, typer.Argument(help="beans to add (negative, after --: to take away, never below 0)")],
    reason: Annotated[str, typer.Option(help="why (kept in the audit log)")] = "granted on the command line",
    db: Annotated[str | None, DB] = None,
) -> None:
    """Add beans 游戏豆 to an account (a ledger row of kind grant, and a line in the audit log)."""
    from paiju.errors import IllegalAction
    from paiju.server.accounts import moderation

    store = _store(db)
    try:
        found = _account(store, username)
        pid = int(found["id"])
        try:
            why = moderation.check_reason(reason)
            with store.engine.begin() as c:
                balance = moderation.grant_tx(c, None, pid, beans, why)
        except IllegalAction as e:
            Console(stderr=True).print(f"[bold red]error:[/bold red] {escape(str(e))}")
            raise typer.Exit(2) from None
    finally:
        store.close()
    Console(highlight=False).print(f"{found['username']} now has {balance} beans")


@user.command("disable")
def disable(
    username: Annotated[str, typer.Argument(help="the account's user name")],
    enable: Annotated[bool, typer.Option("--enable", help="enable it again instead")] = False,
    db: Annotated[str | None, DB] = None,
) -> None:
    """Disable an account (it cannot log in; its sessions end, and a hall running on the
    database closes its open tables within seconds), or --enable it again."""
    from paiju.server.accounts import users as accounts
    from paiju.server.accounts.moderation import audit_tx

    store = _store(db)
    try:
        found = _account(store, username)
        with store.engine.begin() as c:
            accounts.set_disabled_tx(c, int(found["id"]), not enable)
            what = "enable" if enable else "disable"
            audit_tx(c, None, what, f"{what}d on the command line", target=int(found["id"]))
    finally:
        store.close()
    Console(highlight=False).print(f"{found['username']} is {'enabled' if enable else 'disabled'}")


@user.command("role")
def role(
    username: Annotated[str, typer.Argument(help="the account's user name")],
    new_role: Annotated[str, typer.Argument(metavar="ROLE", help="admin, moderator or player")],
    reason: Annotated[str, typer.Option(help="why (kept in the audit log)")] = "set on the command line",
    db: Annotated[str | None, DB] = None,
) -> None:
    """Make an account an admin or a moderator (the admin console #/admin), or a player again."""
    from paiju.errors import IllegalAction
    from paiju.server.accounts import moderation

    store = _store(db)
    try:
        found = _account(store, username)
        try:
            checked = moderation.check_role(new_role)
            why = moderation.check_reason(reason)
            with store.engine.begin() as c:
                moderation.set_role_tx(c, None, int(found["id"]), checked, why)
        except IllegalAction as e:
            Console(stderr=True).print(f"[bold red]error:[/bold red] {escape(str(e))}")
            raise typer.Exit(2) from None
    finally:
        store.close()
    Console(highlight=False).print(f"{found['username']} is now {checked}")
