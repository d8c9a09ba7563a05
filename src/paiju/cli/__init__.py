"""paiju on the command line: ``play`` against bots, ``simulate`` bot games, ``replay`` a
saved record, ``serve`` the hall, ``--version``.

Everything here goes through the uniform game interface of docs/api.md (``new_game``,
``to_act``, ``legal_actions``, ``apply``, ``parse_action``, ``view``, ``is_over``,
``scores``, ``record``, ``replay``). What a game looks like — its words, its table, its
events, what ``simulate`` counts — is its presenter's business (``paiju.terminal``); a
game without a presenter gets the generic one. What a human player is shown is exactly
that seat's ``view``.

This module makes the ``paiju`` command (the console script ``paiju.cli:app``) of one
module per command or group of subcommands: ``play``, ``simulate``, ``tournament``,
``replay``, ``analyze``, ``serve``, ``cluster``, ``admin`` and ``demo-tournament``; ``options`` reads the
arguments that set a game up, ``common`` what every command shows with (console, error
exit, table, progress bar).
"""

from __future__ import annotations

from typing import Annotated

import typer

import paiju
from paiju.cli import admin, analyze, cluster, demo_tournament, play, replay, serve, simulate, tournament
from paiju.cli.cluster import find_haproxy
from paiju.cli.options import parse_options
from paiju.cli.play import hand_text

__all__ = ["app", "find_haproxy", "hand_text", "parse_options"]

app = typer.Typer(
    name="paiju",
    help="paiju 牌局: play Chinese card games against bots, simulate bot games, replay records.",
    no_args_is_help=True,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"paiju {paiju.__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    """paiju 牌局: Chinese card games — rules engines, bots, and this command line."""


# the commands in the order `paiju --help` lists them; the groups of subcommands after them
app.command()(play.play)
app.command()(simulate.simulate)
app.command()(tournament.tournament)
app.command("demo-tournament")(demo_tournament.demo_tournament)
app.command()(replay.replay)
app.command()(analyze.analyze)
app.command()(serve.serve)
app.add_typer(admin.admin, name="admin")
app.add_typer(cluster.cluster, name="cluster")
