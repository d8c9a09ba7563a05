"""paiju on the command line: ``play`` against bots, ``simulate`` bot games, ``replay`` a
saved record, ``serve`` the hall, ``--version``.

Everything here goes through the uniform game interface of API.md (``new_game``,
``to_act``, ``legal_actions``, ``apply``, ``parse_action``, ``view``, ``is_over``,
``scores``, ``record``, ``replay``). What a game looks like — its words, its table, its
events, what ``simulate`` counts — is its presenter's business (``paiju.terminal``); a
game without a presenter gets the generic one. What a human player is shown is exactly
that seat's ``view``.

Input is read line by line from standard input, so a game can be scripted (tests feed
lines; at the end of input the game is left cleanly).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

import paiju
from paiju.admin import admin
from paiju.bots import Bot, LazyView, bot_descriptions, make_bot, suggest
from paiju.errors import IllegalAction
from paiju.game import Game
from paiju.server.throttle import Limits
from paiju.terminal import Presenter, presenter
from paiju.terminal.base import rate

app = typer.Typer(
    name="paiju",
    help="paiju 牌局: play Chinese card games against bots, simulate bot games, replay records.",
    no_args_is_help=True,
    add_completion=False,
)

app.add_typer(admin, name="admin")


def _console(stderr: bool = False) -> Console:
    return Console(highlight=False, stderr=stderr)


def _fail(message: str, code: int = 2) -> NoReturn:
    _console(stderr=True).print(f"[bold red]error:[/bold red] {escape(message)}")
    raise typer.Exit(code)


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


# ---------------------------------------------------------------------------- set-up
def _option_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    if "," in text:  # a list, e.g. Shengji's team_levels=5,3 or levels=2,5,T,J,Q,K,A
        return [_option_value(x.strip()) for x in text.split(",")]
    try:
        return int(text)
    except ValueError:
        return text


def parse_options(pairs: Sequence[str] | None, variant: str | None = None) -> dict[str, Any]:
    """``["kao=true", "hold-sixes=yes"]`` → ``{"kao": True, "hold_sixes": True}`` (plus the
    variant when given). Values true/false/yes/no/on/off are booleans, digits integers,
    comma-separated values lists."""
    opts: dict[str, Any] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            _fail(f"--option {pair!r} is not key=value (e.g. --option kao=true)")
        opts[key] = _option_value(value.strip())
    if variant is not None:
        opts["variant"] = variant
    return opts


def _new_game(name: str, seed: int | None, options: dict[str, Any]) -> Game:
    try:
        return paiju.new_game(name, seed=seed, **options)
    except IllegalAction as e:
        _fail(str(e))
    except TypeError as e:  # a game that takes no such keyword
        _fail(f"bad option for {name}: {e}")


def _make_bots(spec: str, game: Game, skip: int | None, seed: int | None) -> dict[int, Bot]:
    """Bots for every seat but ``skip``: one name for all, or one per seat in seat order
    (either for the bot seats only, or for every seat with the human's entry ignored)."""
    names = [x.strip() for x in spec.split(",") if x.strip()]
    seats = [s for s in range(game.num_players) if s != skip]
    if len(names) == 1:
        names *= len(seats)
    elif skip is not None and len(names) == game.num_players:
        names = [nm for s, nm in enumerate(names) if s != skip]
    if len(names) != len(seats):
        _fail(f"--bots needs one bot name or {len(seats)} (one per bot seat), not {len(names)}")
    rng = random.Random(seed)
    try:
        return {s: make_bot(nm, game=game.name, seed=rng.randrange(2**62)) for s, nm in zip(seats, names)}
    except IllegalAction as e:
        _fail(str(e))


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


# ---------------------------------------------------------------------------- play
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


GameArg = Annotated[str, typer.Argument(help=f"The game: {', '.join(paiju.GAMES)}.", show_default=False)]
VariantOpt = Annotated[str | None, typer.Option("--variant", "-v", help="Rule preset (e.g. standard, classic).")]
SeedOpt = Annotated[int | None, typer.Option("--seed", "-s", help="Seed of the deal (and of the bots).")]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        help="A room option as key=value (repeatable), e.g. -o kao=true, -o decks=3, -o min_triple_run=2.",
    ),
]


@app.command()
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


# ---------------------------------------------------------------------------- simulate
class _Tally:
    """Hands, wins and points of one role or team."""

    def __init__(self) -> None:
        self.n: dict[str, int] = defaultdict(int)
        self.wins: dict[str, int] = defaultdict(int)
        self.points: dict[str, int] = defaultdict(int)

    def add(self, key: str, won: bool, points: int) -> None:
        self.n[key] += 1
        self.wins[key] += won
        self.points[key] += points

    def summary(self, order: Sequence[str] = ()) -> dict[str, dict[str, Any]]:
        keys = [k for k in order if k in self.n] + sorted(k for k in self.n if k not in order)
        return {
            k: {
                "count": self.n[k],
                "wins": self.wins[k],
                "win_rate": rate(self.wins[k], self.n[k]),
                "avg_points": rate(self.points[k], self.n[k]),
            }
            for k in keys
        }


class _Counts:
    """Legal-action counts: mean and max, overall and per kind of decision."""

    def __init__(self) -> None:
        self.total = 0
        self.n = 0
        self.max = 0
        self.kinds: dict[str, list[int]] = {}  # kind → [decisions, total, max]

    def add(self, kind: str, k: int) -> None:
        self.total += k
        self.n += 1
        self.max = max(self.max, k)
        entry = self.kinds.setdefault(kind, [0, 0, 0])
        entry[0] += 1
        entry[1] += k
        entry[2] = max(entry[2], k)

    def summary(self) -> dict[str, Any]:
        return {
            "avg": rate(self.total, self.n),
            "max": self.max,
            "by_kind": {kind: {"decisions": d, "avg": rate(t, d), "max": m} for kind, (d, t, m) in self.kinds.items()},
        }


def _decision_kind(g: Game) -> str:
    """``lead`` or ``follow`` during play, else the phase (``deal``, ``bury``, ``setup`` …)."""
    phase = g.phase
    if phase != "play":
        return phase
    is_leading = getattr(g, "is_leading", None)
    if is_leading is None:
        return phase
    return "lead" if is_leading() else "follow"


def _table(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1) -> Table:
    t = Table(title=title, box=None, pad_edge=False)
    for i, col in enumerate(columns):
        t.add_column(col, justify="left" if i < left else "right")
    for row in rows:
        t.add_row(*row)
    return t


@app.command()
def simulate(
    game: GameArg,
    n: Annotated[int, typer.Option("-n", "--hands", help="Number of hands to play.", min=1)] = 1000,
    variant: VariantOpt = None,
    bots: Annotated[
        str, typer.Option("--bots", "-b", help="Bot for every seat, or one per seat (comma list).")
    ] = "random",
    seed: SeedOpt = None,
    option: OptionOpt = None,
    json_file: Annotated[Path | None, typer.Option("--json", help="Also write the numbers to this JSON file.")] = None,
) -> None:
    """Play many hands with bots and report win rates, points, hand lengths and speed."""
    console = _console()
    opts = parse_options(option, variant)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    rng = random.Random(seed)
    g = _new_game(game, rng.randrange(2**62), opts)
    pres = presenter(g.name)
    seat_bots = _make_bots(bots, g, None, rng.randrange(2**62))
    players = g.num_players
    roles, teams = _Tally(), _Tally()
    stats = pres.hand_stats()
    seat_points = [0] * players
    seat_wins = [0] * players
    decisions = plays = 0
    by_phase: dict[str, int] = defaultdict(int)
    legal_counts = _Counts()
    start = time.perf_counter()
    progress = Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )
    with progress:
        task = progress.add_task("hands", total=n)
        for hand in range(n):
            if hand:
                g = _new_game(game, rng.randrange(2**62), opts)
            while not g.is_over:
                s = g.to_act
                assert s is not None
                legal = g.legal_actions()
                phase = g.phase
                legal_counts.add(_decision_kind(g), len(legal))
                action = seat_bots[s].act(LazyView(g, s), legal)
                try:
                    g.apply(action)
                except IllegalAction as e:
                    _fail(f"bot {seat_bots[s].name} at seat {s} chose an illegal action {action}: {e}", code=1)
                decisions += 1
                by_phase[phase] += 1
                if phase == "play" and str(action) not in pres.non_plays:
                    plays += 1
            seat_roles, won = pres.outcome(g)
            seat_teams = pres.teams(g)
            for s, pts in enumerate(g.scores):
                roles.add(seat_roles[s], won[s], pts)
                if seat_teams is not None:
                    teams.add(seat_teams[s], won[s], pts)
                seat_points[s] += pts
                seat_wins[s] += won[s]
            stats.add(g)
            progress.advance(task)
    seconds = time.perf_counter() - start
    result: dict[str, Any] = {
        "game": g.name,
        "hands": n,
        "seed": seed,
        "options": opts,
        "bots": [seat_bots[s].name for s in range(players)],
        "roles": roles.summary(pres.role_order),
    }
    team_names = pres.team_names()
    if teams.n:
        result["teams"] = teams.summary(tuple(team_names))
    result["seats"] = [
        {"seat": s, "bot": seat_bots[s].name, "win_rate": rate(seat_wins[s], n), "avg_points": rate(seat_points[s], n)}
        for s in range(players)
    ]
    extra = stats.summary(n)
    if extra:
        result[g.name] = extra
    result.update(
        {
            "decisions_per_hand": rate(decisions, n),
            "decisions_by_phase": {p: rate(k, n) for p, k in by_phase.items()},
            "plays_per_hand": rate(plays, n),
            "legal_actions": legal_counts.summary(),
            "seconds": seconds,
            "hands_per_second": rate(n, seconds),
        }
    )
    _print_simulation(console, pres, stats, result)
    if json_file is not None:
        json_file.write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        console.print(f"Wrote {escape(str(json_file))}.")


def _print_simulation(console: Console, pres: Presenter, stats: Any, result: Mapping[str, Any]) -> None:
    console.print(
        f"[bold]{escape(pres.title)}[/bold] · {result['hands']} hands · seed {result['seed']} · "
        f"bots {escape(', '.join(result['bots']))}"
    )
    cols = ("Win rate", "Avg points")

    def rows(d: Mapping[str, Mapping[str, Any]], names: Mapping[str, str]) -> list[list[str]]:
        return [
            [escape(names.get(r, r)), str(v["count"]), f"{v['win_rate']:.1%}", f"{v['avg_points']:+.2f}"]
            for r, v in d.items()
        ]

    console.print(_table("By role", ("Role", "Seats", *cols), rows(result["roles"], pres.roles)))
    if "teams" in result:
        console.print(_table("By team", ("Team", "Seats", *cols), rows(result["teams"], pres.team_names())))
    seat_rows = [
        [str(d["seat"]), escape(d["bot"]), f"{d['win_rate']:.1%}", f"{d['avg_points']:+.2f}"] for d in result["seats"]
    ]
    console.print(_table("By seat", ("Seat", "Bot", *cols), seat_rows, left=2))
    extra = result.get(result["game"])
    if extra:
        t = Table(title=stats.title, box=None, pad_edge=False, show_header=False)
        t.add_column("what")
        t.add_column("value", justify="right")
        for label, value in stats.rows(extra):
            t.add_row(escape(label), escape(value))
        console.print(t)
    t = Table(title="Hands", box=None, pad_edge=False, show_header=False)
    t.add_column("what")
    t.add_column("value", justify="right")
    t.add_row("decisions per hand", f"{result['decisions_per_hand']:.1f}")
    if len(result["decisions_by_phase"]) > 1:
        for phase, k in result["decisions_by_phase"].items():
            t.add_row(f"  of which {escape(phase)}", f"{k:.1f}")
    t.add_row("plays per hand (cards put down)", f"{result['plays_per_hand']:.1f}")
    legal = result["legal_actions"]
    t.add_row("legal actions per decision (avg)", f"{legal['avg']:.1f}")
    t.add_row("legal actions per decision (max)", f"{legal['max']:,}")
    kinds = legal["by_kind"]
    if len(kinds) > 1:
        for kind, d in kinds.items():
            t.add_row(f"  at {escape(kind)} (avg / max)", f"{d['avg']:,.1f} / {d['max']:,}")
    t.add_row("hands per second", f"{result['hands_per_second']:.1f}")
    t.add_row("time", f"{result['seconds']:.2f} s")
    console.print(t)


# ---------------------------------------------------------------------------- tournament
@app.command()
def tournament(
    game: GameArg,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help=f"Two or more bots, comma-separated ({', '.join(bot_descriptions())}); "
            "parameters after colons: search:seconds=0.2.",
        ),
    ] = "greedy,random",
    deals: Annotated[
        int, typer.Option("--deals", "-n", help="Number of deals (each played in every seating).", min=1)
    ] = 100,
    seed: SeedOpt = None,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Processes to play the deals in.", min=1)] = 1,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    json_file: Annotated[Path | None, typer.Option("--json", help="Write the results to this JSON file.")] = None,
    csv_file: Annotated[Path | None, typer.Option("--csv", help="Write one row per bot to this CSV file.")] = None,
    png_file: Annotated[
        Path | None, typer.Option("--png", help="Draw a bar chart with 95 % error bars (needs paiju\\[tournament]).")
    ] = None,
    use_ray: Annotated[
        bool,
        typer.Option("--ray", help="Run the deals on Ray (a local instance unless --ray-address); needs paiju\\[ray]."),
    ] = False,
    ray_address: Annotated[
        str | None,
        typer.Option("--ray-address", help="The Ray cluster to use (auto, ray://host:10001); implies --ray."),
    ] = None,
) -> None:
    """Duplicate tournament: every deal is played with the bots rotated through the seats, so
    each bot holds every seat's cards; reports score per hand with 95 % intervals."""
    from paiju import tournament as tm

    console = _console()
    names = [x.strip() for x in bots.split(",") if x.strip()]
    opts = parse_options(option, variant)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    progress = Progress(
        TextColumn("deals"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )
    try:
        with progress:
            task = progress.add_task("deals", total=deals)

            def advance(done: int, total: int) -> None:
                progress.update(task, completed=done)

            if use_ray or ray_address:
                result = tm.run_tournament_ray(
                    game, names, deals, seed, options=opts, progress=advance, address=ray_address
                )
            else:
                result = tm.run_tournament(game, names, deals, seed, workers=workers, options=opts, progress=advance)
    except tm.RayUnavailable as e:
        _fail(str(e))
    except (IllegalAction, ValueError) as e:
        _fail(str(e))
    _print_tournament(console, result)
    try:
        if json_file is not None:
            result.to_json(json_file)
            console.print(f"Wrote {escape(str(json_file))}.")
        if csv_file is not None:
            result.to_csv(csv_file)
            console.print(f"Wrote {escape(str(csv_file))}.")
        if png_file is not None:
            result.plot(png_file)
            console.print(f"Wrote {escape(str(png_file))}.")
    except ImportError as e:
        _fail(str(e))
    except OSError as e:
        _fail(f"cannot write: {e}")


def _print_tournament(console: Console, result: Any) -> None:
    console.print(
        f"[bold]{escape(presenter(result.game).title)}[/bold] · duplicate · {result.deals} deals × "
        f"{len(result.lineups)} seatings · seed {result.seed} · {result.seconds:.1f} s"
    )
    seatings = "  ".join("".join(chr(65 + b) for b in lineup) for lineup in result.lineups)
    console.print(
        "Seatings (seat 0 first): "
        + escape(seatings)
        + " · "
        + escape(", ".join(f"{chr(65 + i)} = {label}" for i, label in enumerate(result.labels)))
    )
    rows = []
    for st in result.stats:
        ci = st.ci
        rows.append(
            [
                escape(st.label),
                f"{st.mean:+.3f}",
                f"[{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "—",
                str(st.hands),
                f"{st.win_rate:.1%}",
                f"{st.mean_decision_ms:.3f}",
            ]
        )
    cols = ("Bot", "Score/hand", "95 % CI", "Seats", "Win rate", "ms/decision")
    console.print(_table("Score per hand (CI over the per-deal means)", cols, rows))
    roles = result.roles
    role_rows = []
    for st in result.stats:
        row = [escape(st.label)]
        for r in roles:
            rs = st.roles.get(r)
            row.append(f"{rs.win_rate:.1%} of {rs.hands}" if rs else "—")
        role_rows.append(row)
    console.print(_table("Win rate by role", ("Bot", *roles), role_rows))


# ---------------------------------------------------------------------------- replay
def _read_record(file: Path) -> dict[str, Any]:
    """The game record in ``file``, checked by replaying it whole (a bad one fails with its reason)."""
    try:
        record = json.loads(file.read_text(encoding="utf-8"))
    except OSError as e:
        _fail(f"cannot read {file}: {e.strerror or e}")
    except json.JSONDecodeError as e:
        _fail(f"{file} is not JSON: {e}")
    if not isinstance(record, dict) or not isinstance(record.get("actions"), list):
        _fail(f"{file} is not a paiju game record (no list of actions)")
    try:
        paiju.replay(record)
    except IllegalAction as e:
        _fail(str(e), code=1)
    return record


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON), e.g. from `paiju play --save`.")],
    hands: Annotated[bool, typer.Option("--hands", help="Show every seat's cards at the start.")] = False,
) -> None:
    """Show a recorded game move by move, then the scores."""
    console = _console()
    record = _read_record(file)
    g = paiju.replay({**record, "actions": []})
    pres = presenter(g.name)
    labels = [f"Seat {s}" for s in range(g.num_players)]
    actions = record["actions"]
    console.print(
        f"[bold]{escape(pres.title)}[/bold] · seed {g.seed}" + pres.intro(g, None) + f" · {len(actions)} actions"
    )
    if hands:
        pres.show_deal(console, record, labels)
    width = len(str(len(actions)))
    done = 0
    folded: list[Any] = []  # [first index, last index, step, action] of quiet actions in a row

    def flush() -> None:
        if folded:
            first, last, step, text = folded
            span = f"#{first}" if first == last else f"#{first}–{last}"
            console.print(f"{span:<{width + 1}} {'':7} {step:8} [dim]{last - first + 1} × {escape(text)}[/dim]")
            folded.clear()

    for i, text in enumerate(actions, 1):
        view = g.view(None)
        seat = g.to_act
        step = str(view.get("step", g.phase))
        g.apply(text)
        events = pres.events(g.view(None))
        new = events[done:]
        done = len(events)
        if pres.quiet(step, text):
            if folded and folded[3] == text and folded[2] == step:
                folded[1] = i
            else:
                flush()
                folded.extend([i, i, step, text])
        else:
            flush()
            mine = [e for e in new if "action" in e]
            tail = pres.replay_note(mine[0] if mine else None, text)
            who = labels[seat] if seat is not None else "?"
            console.print(f"#{i:<{width}} {who:7} {step:8} [bold]{escape(text)}[/bold]{tail}")
        shown = [e for e in new if "action" not in e and e.get("event") != "deal"]
        if shown:
            flush()
        for event in shown:
            line = pres.event_text(event, labels)
            if line is not None:
                console.print("      " + line)
    flush()
    if g.is_over:
        pres.show_scores(console, g, labels)
    else:
        console.print("[yellow]The record ends before the hand is over.[/yellow]")


# ---------------------------------------------------------------------------- analyze
MARKS = {"mistake": "[bold red]失误[/bold red]", "dubious": "[yellow]疑问手[/yellow]", None: ""}


@app.command()
def analyze(
    file: Annotated[Path, typer.Argument(help="A finished hand's record (JSON): `paiju play --save`, the hall's.")],
    seat: Annotated[int, typer.Option("--seat", help="The seat whose decisions are judged.")],
    budget: Annotated[float, typer.Option("--budget", help="Seconds of search per decision.")] = 1.0,
    worlds: Annotated[int, typer.Option("--worlds", help="At most this many worlds per decision.")] = 400,
    double_dummy: Annotated[
        bool, typer.Option("--double-dummy", help="Also play each candidate out in the real deal (all cards known).")
    ] = False,
    workers: Annotated[int, typer.Option("--workers", help="Processes judging decisions in parallel.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the sampled worlds (a run repeats).")] = 0,
    all_rows: Annotated[bool, typer.Option("--all", help="List every decision, not only the marked ones.")] = False,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the whole analysis to this file.")] = None,
) -> None:
    """复盘: judge every decision a seat made in a finished hand with the search bot.

    Each decision of the card play gets the expected final score of the action taken and
    of the best alternative found, estimated from that seat's information at that moment
    (worlds sampled from its view), with standard errors; decisions that lose enough,
    surely enough, are marked 疑问手 (dubious) or 失误 (mistake). docs/ai.md explains it.
    """
    from concurrent.futures import ProcessPoolExecutor

    from paiju.analysis import analyze as judge

    record = _read_record(file)
    if budget <= 0 or worlds < 1 or workers < 1:
        _fail("--budget must be above 0, --worlds and --workers at least 1")
    console = _console()
    columns = [
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    ]
    try:
        with Progress(*columns, console=_console(stderr=True), transient=True) as bar:
            task = bar.add_task(f"seat {seat}'s decisions", total=None)

            def progress(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            kw: dict[str, Any] = {"seconds": budget, "worlds": worlds, "double_dummy": double_dummy, "seed": seed}
            if workers > 1:
                with ProcessPoolExecutor(workers) as pool:
                    result = judge(record, seat, progress=progress, executor=pool, **kw)
            else:
                result = judge(record, seat, progress=progress, **kw)
    except IllegalAction as e:
        _fail(str(e), code=1)
    _show_analysis(console, result, all_rows)
    if json_out is not None:
        json_out.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
        console.print(f"analysis written to {json_out}")


def _show_analysis(console: Console, result: Mapping[str, Any], all_rows: bool) -> None:
    def est(e: Mapping[str, Any]) -> str:
        return f"{e['mean']:+.2f}±{e['se']:.2f}"

    dd = result["double_dummy"]
    headers = ["#", "played", "legal", "expected", "better", "expected", "loss", "worlds", "mark"]
    if dd:
        headers += ["dd loss"]
    rows = []
    for d in result["decisions"]:
        if not all_rows and d["mark"] is None and not (d["dd"] and d["dd"]["mark"]):
            continue
        better = d["best"]["action"] if d["best"]["action"] != d["action"] else "—"
        row = [str(d["step"] + 1), escape(d["action"]), str(d["legal"]), est(d["taken"]), escape(better)]
        row += [est(d["best"]) if better != "—" else "", f"{d['loss']:.2f}±{d['loss_se']:.2f}", str(d["worlds"])]
        row += [MARKS[d["mark"]]]
        if dd:
            x = d["dd"]
            row += [f"{x['loss']:.2f} ({escape(x['best']['action'])})" if x["loss"] > 0 else "0"]
        rows.append(row)
    title = f"Seat {result['seat']} of {result['game']}: {result['budget']:g} s per decision, in {result['unit']}"
    if rows:
        console.print(_table(title, headers, rows, left=2))
    s = result["summary"]
    skipped = len(result["not_analysed"])
    console.print(
        f"{s['decisions']} decisions analysed ({skipped} not: before the play or forced): "
        f"{s['mistakes']} 失误 mistakes, {s['dubious']} 疑问手 dubious; estimated loss {s['loss']:.2f} in all"
    )
    t = result["thresholds"]
    console.print(
        f"[dim]marked 失误 (mistake) when the loss is ≥ {t['mistake']:g}, 疑问手 (dubious) when ≥ "
        f"{t['dubious']:g}, and ≥ {t['sure']:g} standard errors, from ≥ {t['min_worlds']} worlds"
        + ("; double-dummy: the real deal played out once by the heuristic" if dd else "")
        + "[/dim]"
    )


LIMIT_HELP = "a limit of what one visitor may use, NAME=VALUE (repeatable; docs/protocol.md): " + ", ".join(
    f"{name}={getattr(Limits(), name)}" for name in Limits.names()
)


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="address to listen on"),
    port: int = typer.Option(8000, help="port to listen on"),
    db: str | None = typer.Option(None, help="database URL: sqlite:///file.db (default ./paiju.db) or postgresql://…"),
    bot_delay: float = typer.Option(0.6, help="seconds a computer player waits before acting"),
    rate: float = typer.Option(20.0, help="table messages per second one player may send (bursts of twice that)"),
    origin: list[str] = typer.Option(  # noqa: B008 - typer declares options as defaults
        [], help="another origin whose pages may act in the hall, e.g. the https address of a proxy (repeatable)"
    ),
    max_connections: int = typer.Option(4096, help="open connections of the whole hall"),
    deal_step: float = typer.Option(0.06, help="seconds each decision of the Shengji deal waits while cards arrive"),
    deal_final_window: float = typer.Option(1.5, help="seconds a person has to declare after the last card"),
    bot_workers: int = typer.Option(1, help="processes the 最强 (strongest) bots search in (0: none)"),
    ready_timeout: float = typer.Option(20.0, help="seconds between hands for everyone to press 准备 (then 托管)"),
    archive_after: float = typer.Option(1800.0, help="seconds a room may have no person before it is archived"),
    start_beans: int = typer.Option(1000, help="every account's first beans 游戏豆"),
    relief_below: int = typer.Option(200, help="an account under this many beans may claim relief 救济 once a day"),
    relief: int = typer.Option(500, help="the beans of one relief 救济"),
    analysis_budget: float = typer.Option(1.0, help="seconds of search per decision of a 复盘 analysis"),
    analysis_jobs: int = typer.Option(4, help="复盘 analyses waiting or running at once (one per player)"),
    analysis_workers: int = typer.Option(1, help="processes 复盘 analyses run in (one analysis each)"),
    redis: str | None = typer.Option(
        None,
        help="redis://… : run as one worker of a cluster sharing --db and this Redis (docs/deploy.md)",
    ),
    worker_id: str | None = typer.Option(None, help="this worker's name in its cluster (default: host-port)"),
    lease_ttl: float = typer.Option(3.0, help="seconds a worker's hold on a room lasts unless renewed (cluster)"),
    limit: list[str] = typer.Option(  # noqa: B008
        [],
        help=LIMIT_HELP,
    ),
) -> None:
    """Run the web card hall: lobby, tables, bots and the browser client."""
    import dataclasses

    from paiju.server.analysis_jobs import AnalysisSettings
    from paiju.server.app import cluster_settings
    from paiju.server.app import serve as run_server
    from paiju.server.settlement import BeanSettings

    if analysis_budget <= 0 or analysis_jobs < 1 or analysis_workers < 1:
        _fail("--analysis-budget must be above 0, --analysis-jobs and --analysis-workers at least 1")
    values: dict[str, Any] = {"rate": rate, "ready_timeout": ready_timeout, "archive_after": archive_after}
    defaults = Limits()
    for item in limit:
        name, _, text = item.partition("=")
        name = name.strip().replace("-", "_")
        if name not in Limits.names() or not text:
            _fail(f"--limit takes NAME=VALUE with NAME one of {', '.join(Limits.names())}")
        kind = type(getattr(defaults, name))
        try:
            values[name] = kind(text)
        except ValueError:
            _fail(f"--limit {name}: {text!r} is not a {kind.__name__}")
    limits = dataclasses.replace(defaults, **values)
    try:
        cluster = cluster_settings(redis, worker_id, port, lease_ttl)
    except SystemExit as e:
        _fail(str(e))
    run_server(
        host=host,
        port=port,
        db=db,
        bot_delay=bot_delay,
        limits=limits,
        origins=origin,
        max_connections=max_connections,
        deal_step=deal_step,
        deal_final_window=deal_final_window,
        bot_workers=bot_workers,
        beans=BeanSettings(start_beans, relief_below, relief),
        analysis=AnalysisSettings(budget=analysis_budget, jobs=analysis_jobs, workers=analysis_workers),
        cluster=cluster,
    )


def _limit_names() -> list[str]:
    from paiju.server.throttle import Limits

    return Limits.names()


# ---------------------------------------------------------------------------- cluster
cluster = typer.Typer(
    help="A cluster of hall workers behind HAProxy: try one on this machine (up), or write the "
    "proxy's configuration for real machines (config). docs/deploy.md explains the design.",
    no_args_is_help=True,
)
app.add_typer(cluster, name="cluster")

STOP_WAIT = 10.0  # seconds the cluster's processes have to stop after SIGTERM before SIGKILL
WORKER_START = 60.0  # seconds a worker may take to answer /healthz (the first one migrates the database)
SBIN = ("/usr/local/sbin", "/usr/sbin", "/sbin")  # where Debian puts haproxy (not on every user's PATH)


def find_haproxy() -> str | None:
    """The ``haproxy`` program: on PATH, or where Debian installs it."""
    path = os.pathsep.join([os.environ.get("PATH", ""), *SBIN])
    return shutil.which("haproxy", path=path)


def _host_port(text: str, what: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        _fail(f"{what} {text!r} is not HOST:PORT (e.g. 10.0.0.11:8000)")
    return host, int(port)


def _worker_name(name: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", name):
        _fail(f"worker name {name!r}: 1-64 letters, digits, '.', '_' or '-'")
    return name


@cluster.command("config")
def cluster_config(
    worker: Annotated[
        list[str],
        typer.Option("--worker", "-w", help="A worker as NAME=HOST:PORT (repeatable), e.g. w1=10.0.0.11:8000."),
    ],
    bind: Annotated[str, typer.Option("--bind", help="HOST:PORT the proxy listens on.")] = "0.0.0.0:8000",
    stats: Annotated[
        str | None, typer.Option("--stats", help="HOST:PORT of HAProxy's statistics page (none by default).")
    ] = None,
) -> None:
    """Print HAProxy's configuration for a cluster's workers (deploy/haproxy.cfg is one)."""
    from paiju.server.proxy_config import haproxy_config

    workers: list[tuple[str, str, int]] = []
    for item in worker:
        name, sep, address = item.partition("=")
        if not sep:
            _fail(f"--worker {item!r} is not NAME=HOST:PORT (e.g. w1=10.0.0.11:8000)")
        host, port = _host_port(address, f"--worker {name}:")
        workers.append((_worker_name(name), host, port))
    names = [name for name, _, _ in workers]
    if len(set(names)) < len(names):
        _fail("two --worker options have the same name")
    bind_at = _host_port(bind, "--bind")
    stats_at = _host_port(stats, "--stats") if stats is not None else None
    args = " ".join(f"--worker {name}={host}:{port}" for name, host, port in workers) + f" --bind {bind}"
    if stats is not None:
        args += f" --stats {stats}"
    header = (
        "# Made by `paiju cluster config`; to make it again (after a change of the workers):\n"
        f"#   paiju cluster config {args} > haproxy.cfg\n\n"
    )
    typer.echo(header + haproxy_config(workers, bind=bind_at, stats=stats_at), nl=False)


def _health(url: str, timeout: float = 1.0) -> dict[str, Any] | None:
    """``url``'s JSON answer when it answers 200 (None otherwise); never through an HTTP proxy."""
    import urllib.request

    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=timeout) as answer:
            if answer.status != 200:
                return None
            body = json.loads(answer.read())
            return body if isinstance(body, dict) else None
    except (OSError, ValueError):
        return None


def _port_free(host: str, port: int) -> bool:
    import socket

    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the servers do: a closed connection's port is free
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def _tail(path: Path, lines: int = 20) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:]) or "(the log is empty)"


def _with_parent() -> Callable[[], None] | None:
    """What makes a child of ``paiju cluster up`` get SIGTERM when ``paiju cluster up`` dies,
    however it dies (Linux's PR_SET_PDEATHSIG; None elsewhere)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)  # loaded here, not in the child between fork and exec

    def die_with_parent() -> None:  # pragma: no cover - runs in the child
        libc.prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG

    return die_with_parent


class _Stop(Exception):
    """SIGINT (Ctrl-C) or SIGTERM: stop the cluster."""


class _Failed(Exception):
    """A process of the cluster did not start, or HAProxy stopped: why, and its log."""

    def __init__(self, message: str, log: Path) -> None:
        super().__init__(message)
        self.log = log


class _Processes:
    """The processes of ``paiju cluster up``, each in a process group of its own (so a Ctrl-C
    in the terminal reaches ``paiju cluster up`` alone, which stops them in order)."""

    def __init__(self) -> None:
        self.running: list[tuple[str, subprocess.Popen[bytes], Path]] = []
        self.hurry = False
        self.before_exec = _with_parent()

    def start(self, name: str, argv: Sequence[str], log: Path, env: Mapping[str, str] | None = None) -> int:
        with log.open("ab") as out:
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
                preexec_fn=self.before_exec,
            )
        self.running.append((name, proc, log))
        return proc.pid

    def exited(self) -> list[tuple[str, int, Path]]:
        """The processes that exited since the last call: name, exit code, log. What one of
        them left behind (a dead worker's helper processes) is killed."""
        gone = [(name, proc, log) for name, proc, log in self.running if proc.poll() is not None]
        self.running = [x for x in self.running if x[1].returncode is None]
        for _, proc, _ in gone:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        return [(name, proc.returncode, log) for name, proc, log in gone]

    def stop(self) -> None:
        """SIGTERM to each process — HAProxy first, so that no new player arrives — then SIGKILL
        to whatever is left after STOP_WAIT seconds, and to what each one left behind. Another
        Ctrl-C meanwhile kills them at once."""

        def hurry(signum: int, frame: Any) -> None:
            self.hurry = True

        signal.signal(signal.SIGINT, hurry)
        signal.signal(signal.SIGTERM, hurry)
        for _, proc, _ in sorted(self.running, key=lambda x: x[0] != "haproxy"):
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_WAIT
        while any(proc.poll() is None for _, proc, _ in self.running):
            if self.hurry or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        for _, proc, _ in self.running:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)  # the process if it is still there, and its children
            proc.wait()
        self.running = []


def _on_sigterm(signum: int, frame: Any) -> None:
    raise _Stop


@cluster.command("up")
def cluster_up(
    workers: Annotated[int, typer.Option("--workers", "-n", help="How many workers.", min=1, max=64)],
    db: Annotated[str, typer.Option("--db", help="The workers' PostgreSQL database: postgresql://user:pass@host/db.")],
    redis: Annotated[str, typer.Option("--redis", help="The workers' Redis: redis://host:port/0.")],
    port: Annotated[int, typer.Option("--port", help="Port of the hall (HAProxy).")] = 8000,
    first_port: Annotated[
        int, typer.Option("--first-port", help="Port of the first worker; the next ones follow.")
    ] = 8101,
    host: Annotated[str, typer.Option("--host", help="Address the proxy and the workers listen on.")] = "127.0.0.1",
    bot_delay: Annotated[float, typer.Option("--bot-delay", help="Seconds a computer player waits to act.")] = 0.6,
    directory: Annotated[
        Path | None, typer.Option("--dir", help="Where the logs and haproxy.cfg go (default: a new temporary one).")
    ] = None,
    worker_prefix: Annotated[
        str, typer.Option("--worker-prefix", help="The workers' ids are this and a number: w1, w2, …")
    ] = "w",
) -> None:
    """Run a cluster on this machine: N workers and HAProxy in front; Ctrl-C stops it.

    The workers share one PostgreSQL database and one Redis server; the proxy is Debian's
    haproxy. The workers' logs and haproxy.cfg are kept in --dir."""
    import tempfile

    from paiju.server.proxy_config import haproxy_config

    scheme = db.partition(":")[0].lower()
    if scheme.startswith("sqlite"):
        _fail(
            f"--db {db}: the workers of a cluster share one PostgreSQL database; SQLite cannot be "
            "shared by several servers (give --db postgresql://user:pass@host/db)"
        )
    if not scheme.startswith("postgresql"):
        _fail(f"--db {db}: the workers of a cluster need PostgreSQL (postgresql://user:pass@host/db)")
    if redis.partition(":")[0].lower() not in ("redis", "rediss", "unix"):
        _fail(f"--redis {redis}: give the Redis server as redis://host:port/0")
    haproxy = find_haproxy()
    if haproxy is None:
        _fail("haproxy is not installed: install Debian's haproxy (apt-get install haproxy)")
    names = [_worker_name(f"{worker_prefix}{i + 1}") for i in range(workers)]
    ports = [first_port + i for i in range(workers)]
    if port in ports or ports[-1] > 65535:
        _fail(f"--first-port {first_port}: the workers' ports {ports[0]}-{ports[-1]} overlap --port or pass 65535")
    busy = [p for p in [port, *ports] if not _port_free(host, p)]
    if busy:
        _fail(f"port {', '.join(map(str, busy))} on {host} is in use (choose --port and --first-port)")
    if directory is None:
        directory = Path(tempfile.mkdtemp(prefix="paiju-cluster-"))
    directory.mkdir(parents=True, exist_ok=True)
    directory = directory.resolve()
    hall = f"http://{host}:{port}"
    logs = [directory / f"{name}.log" for name in names]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    # the workers believe the proxy's X-Forwarded-For (the players' addresses) from this machine
    env.setdefault("FORWARDED_ALLOW_IPS", ",".join(dict.fromkeys(["127.0.0.1", "::1", host])))
    typer.echo(f"cluster directory: {directory} (logs, haproxy.cfg)")

    procs = _Processes()
    signal.signal(signal.SIGTERM, _on_sigterm)
    code = 0
    try:

        def start_worker(i: int) -> None:
            argv = [sys.executable, "-m", "paiju.server.app", "--host", host, "--port", str(ports[i])]
            argv += ["--db", db, "--redis", redis, "--worker-id", names[i], "--bot-delay", str(bot_delay)]
            argv += ["--origin", hall]
            pid = procs.start(names[i], argv, logs[i], env)
            typer.echo(f"worker {names[i]}: http://{host}:{ports[i]}/ pid {pid}, log {logs[i]}")

        def wait_until(url: str, seconds: float, what: str, log: Path) -> None:
            deadline = time.monotonic() + seconds
            while _health(url) is None:
                for name, rc, its_log in procs.exited():
                    raise _Failed(f"{name} exited with code {rc} while the cluster started", its_log)
                if time.monotonic() > deadline:
                    raise _Failed(f"{what} did not answer {url} in {seconds:g} s", log)
                time.sleep(0.2)

        # the first worker alone brings the database's schema up to date; then the others
        start_worker(0)
        wait_until(f"http://{host}:{ports[0]}/healthz", WORKER_START, f"worker {names[0]}", logs[0])
        for i in range(1, workers):
            start_worker(i)
        for i in range(1, workers):
            wait_until(f"http://{host}:{ports[i]}/healthz", WORKER_START, f"worker {names[i]}", logs[i])
        config = directory / "haproxy.cfg"
        config.write_text(haproxy_config(list(zip(names, [host] * workers, ports)), bind=(host, port)))
        pid = procs.start("haproxy", [haproxy, "-f", str(config)], directory / "haproxy.log")
        typer.echo(f"haproxy: pid {pid}, config {config}, log {directory / 'haproxy.log'}")
        wait_until(f"{hall}/healthz", 15.0, "haproxy", directory / "haproxy.log")
        count = f"{workers} worker" + ("s" if workers > 1 else "")
        typer.echo(f"the hall: {hall}/  ({count}; Ctrl-C stops the cluster)")
        while True:
            for name, rc, log in procs.exited():
                if name == "haproxy":
                    raise _Failed(f"haproxy exited with code {rc}", log)
                typer.echo(f"worker {name} exited with code {rc}; the others play its rooms. Its log:", err=True)
                typer.echo(_tail(log), err=True)
            time.sleep(0.5)
    except _Failed as e:
        _console(stderr=True).print(f"[bold red]error:[/bold red] {escape(e.args[0])}")
        typer.echo(f"the last lines of {e.log}:\n{_tail(e.log)}", err=True)
        code = 1
    except (KeyboardInterrupt, _Stop):
        pass
    finally:
        typer.echo("stopping the cluster …")
        procs.stop()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
    typer.echo("the cluster stopped")
    if code:
        raise typer.Exit(code)


if __name__ == "__main__":  # pragma: no cover
    app()
