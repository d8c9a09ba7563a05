"""``paiju admin``: look after a hall's database — check every stored hand, back it up, move it.

``paiju admin check`` replays every stored hand and lists those that do not replay
(``--quarantine`` sets their rooms aside, as the hall does at start-up for a current
hand); ``paiju admin export`` writes every player, room, hand and penalty as JSON lines
(each hand with its API.md record), and ``paiju admin import`` reads such a file into an
empty database — a backup, and the way from SQLite to PostgreSQL.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

if TYPE_CHECKING:
    from paiju.server.store import Store

admin = typer.Typer(
    name="admin",
    help="Look after the hall's database: check stored hands, export and import.",
    no_args_is_help=True,
    add_completion=False,
)

DB = typer.Option(help="database URL: sqlite:///file.db (default ./paiju.db) or postgresql://…")


def _store(db: str | None) -> Store:
    from paiju.server.store import Store

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
    from paiju.server.records import check_store

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


@admin.command("export")
def export_(
    file: Annotated[Path, typer.Argument(help="JSON-lines file to write ('-': standard output)")],
    db: Annotated[str | None, DB] = None,
) -> None:
    """Write every player, room, hand (with its record) and penalty as JSON lines.

    The file holds the players' login tokens: keep it as secret as the database."""
    from paiju.server.records import export_store

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
    from paiju.server.records import import_store

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
