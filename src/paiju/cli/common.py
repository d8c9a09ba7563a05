"""What every command shares: its console, failing with a message, a plain table, a progress bar."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table


def _console(stderr: bool = False) -> Console:
    return Console(highlight=False, stderr=stderr)


def _fail(message: str, code: int = 2) -> NoReturn:
    _console(stderr=True).print(f"[bold red]error:[/bold red] {escape(message)}")
    raise typer.Exit(code)


def _table(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1) -> Table:
    t = Table(title=title, box=None, pad_edge=False)
    for i, col in enumerate(columns):
        t.add_column(col, justify="left" if i < left else "right")
    for row in rows:
        t.add_row(*row)
    return t


def _progress(console: Console, label: str) -> Progress:
    """A bar of work done, shown only on a terminal and gone when the work is."""
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )
