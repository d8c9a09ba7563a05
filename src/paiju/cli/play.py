"""``paiju play``: one hand in the terminal against bots, or watching bots play.

What the human is shown is exactly their seat's ``view``, written by the game's presenter.
Input is read line by line from standard input, so a game can be scripted (tests feed
lines; at the end of input the game is left cleanly).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from paiju.bots import Bot, LazyView, bot_descriptions, suggest
from paiju.cli.common import _console, _fail
from paiju.cli.options import GameArg, OptionOpt, SeedOpt, VariantOpt, _make_bots, _new_game, parse_options
from paiju.errors import IllegalAction
from paiju.game import Game
from paiju.terminal import Presenter, presenter


def _labels(n: int, human: int | None, bots: Mapping[int, Bot]) -> list[str]:
    out = []
    for s in range(n):
        if s == human:
            out.append(f"You (seat {s})")
        elif s in bots:
            out.append(f"Seat {s} · {bots[s].name}")
        else:
            out.append(f"Seat {s}")
    return out


def hand_text(game: str, cards: Sequence[str]) -> str:
    """A hand for display, as the game's presenter writes it. Suit-less games group equal
    ranks with a count, keeping the engine's order (low to high): ``3×3 4×2 … SJ×2 BJ*``."""
    return presenter(game).hand_text(cards)


class _Left(Exception):
    """The human left (quit, end of input, Ctrl-C)."""


def _ask(console: Console, prompt: str) -> str:
    try:
        line = console.input(prompt)
    except (EOFError, KeyboardInterrupt):
        console.print()
        console.print("[yellow]End of input: leaving the game.[/yellow]")
        raise _Left from None
    if not sys.stdin.isatty():
        console.print(escape(line))  # echo scripted input so the transcript reads like a session
    return line


def _human_turn(console: Console, pres: Presenter, game: Game, seat: int, labels: Sequence[str]) -> None:
    """Ask until the human's input is legal, and apply it (one action, or several when the
    presenter reads the line as several — e.g. Shengji's ``bury 7h 7h 3c``)."""
    auto = pres.auto_action(game, seat)
    if auto is not None:
        game.apply(auto)
        return
    view = game.view(seat)
    pres.show_turn(console, game, view, labels)
    legal = game.legal_actions()
    default = suggest(view, legal)
    buttons = pres.buttons(game, legal)
    texts = [str(a) for a in legal] if buttons else []
    while True:
        if buttons:
            shown = "  ".join(f"[bold]\\[{i}][/bold] {escape(t)}" for i, t in enumerate(texts, 1))
            console.print(f"Choose: {shown}")
        prompt = f"[bold cyan]{escape(labels[seat])}[/bold cyan] (Enter = [bold]{escape(str(default))}[/bold]) > "
        text = _ask(console, prompt).strip()
        low = text.lower()
        if low in ("quit", "exit"):
            console.print("[yellow]You left the game.[/yellow]")
            raise _Left
        if low in ("help", "?"):
            console.print(pres.help_text)
            continue
        if low == "hint":
            console.print(f"Hint: [bold]{escape(str(default))}[/bold] (press Enter to take it)")
            continue
        if low in ("show", "hand"):
            pres.show_state(console, view, labels)
            continue
        if low in ("legal", "moves"):
            console.print(pres.legal_text(game, legal))
            continue
        actions: list[Any]
        if not text:
            actions = [default]
        elif buttons and text.isdigit():
            k = int(text)
            if not 1 <= k <= len(legal):
                console.print(f"[red]choose a number from 1 to {len(legal)}[/red]")
                continue
            actions = [legal[k - 1]]
        else:
            try:
                actions = pres.read_line(game, text)
            except IllegalAction as e:
                console.print(f"[red]{escape(str(e))}[/red]")
                continue
        done = 0
        try:
            for action in actions:
                game.apply(action)
                done += 1
        except IllegalAction as e:
            console.print(f"[red]{escape(str(e))}[/red]")
            if not done:
                continue
        return


def _print_events(
    console: Console, pres: Presenter, game: Game, viewer: int | None, done: int, labels: Sequence[str]
) -> int:
    events = pres.events(game.view(viewer))
    for e in events[done:]:
        line = pres.event_text(e, labels)
        if line is not None:
            console.print(line)
    return len(events)


def _save(console: Console, game: Game, path: Path | None) -> None:
    if path is None:
        return
    path.write_text(json.dumps(game.record(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    state = "finished" if game.is_over else "unfinished"
    console.print(f"Saved the {state} hand to {escape(str(path))} (paiju replay {escape(str(path))}).")


def play(
    game: GameArg,
    variant: VariantOpt = None,
    seat: Annotated[int, typer.Option("--seat", help="Your seat.")] = 0,
    seed: SeedOpt = None,
    option: OptionOpt = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help=f"Bot for the other seats, or a comma list ({', '.join(bot_descriptions())}); "
            "parameters after colons: search:seconds=0.2.",
        ),
    ] = "heuristic",
    delay: Annotated[float, typer.Option("--delay", help="Seconds to wait before each bot action.")] = 0.0,
    save: Annotated[Path | None, typer.Option("--save", help="Write the game record (JSON) here at the end.")] = None,
    watch: Annotated[bool, typer.Option("--watch", help="Bots in every seat; just watch.")] = False,
) -> None:
    """Play one hand in the terminal against bots (type `help` at the prompt)."""
    console = _console()
    g = _new_game(game, seed, parse_options(option, variant))
    pres = presenter(g.name)
    human: int | None = None if watch else seat
    if human is not None and not 0 <= human < g.num_players:
        _fail(f"--seat must be 0-{g.num_players - 1}")
    seat_bots = _make_bots(bots, g, human, g.seed)
    labels = _labels(g.num_players, human, seat_bots)
    console.print(
        f"[bold]{escape(pres.title)}[/bold] · seed {g.seed}"
        + pres.intro(g, human)
        + (f" · you are seat {human}" if human is not None else " · watching")
        + ". Type [bold]help[/bold] for help."
    )
    done = 0
    try:
        while not g.is_over:
            done = _print_events(console, pres, g, human, done, labels)
            s = g.to_act
            assert s is not None
            if s == human:
                _human_turn(console, pres, g, s, labels)
                continue
            if delay > 0:
                time.sleep(delay)
            legal = g.legal_actions()
            action = seat_bots[s].act(LazyView(g, s), legal)
            try:
                g.apply(action)
            except IllegalAction as e:
                _fail(f"bot {seat_bots[s].name} at seat {s} chose an illegal action {action}: {e}", code=1)
    except (_Left, KeyboardInterrupt):
        _save(console, g, save)
        return
    _print_events(console, pres, g, human, done, labels)
    pres.show_state(console, g.view(human), labels)
    pres.show_scores(console, g, labels)
    if human is not None:
        console.print(pres.verdict(g, human))
    _save(console, g, save)
