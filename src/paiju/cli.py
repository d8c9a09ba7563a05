"""paiju on the command line: ``play`` against bots, ``simulate`` bot games, ``replay`` a
saved record, ``--version``.

Everything here goes through the uniform game interface of API.md (``new_game``,
``to_act``, ``legal_actions``, ``apply``, ``parse_action``, ``view``, ``is_over``,
``scores``, ``record``, ``replay``), so a new game needs no new code here — only, if it
wants nicer words, an entry in the small tables of step, role and place names below.
What a human player is shown is exactly that seat's ``view``.

Input is read line by line from standard input, so a game can be scripted (tests feed
lines; at the end of input the game is left cleanly).
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

import paiju
from paiju.bots import Bot, LazyView, bot_descriptions, make_bot, suggest
from paiju.errors import IllegalAction
from paiju.game import Game

app = typer.Typer(
    name="paiju",
    help="paiju 牌局: play Chinese card games against bots, simulate bot games, replay records.",
    no_args_is_help=True,
    add_completion=False,
)

# ---------------------------------------------------------------------------- game words
TITLES = {"baohuang": "保皇 Baohuang", "shengji": "升级 Shengji", "shuangkou": "双扣 Shuangkou"}
SUITLESS = {"baohuang", "shuangkou"}
"""Games where suits never matter in play: the hand is shown grouped by rank with counts."""
PLACES: dict[str, tuple[str, ...]] = {"baohuang": ("头客", "二客", "三客", "二落", "大落")}
ROLES = {
    "emperor": "皇帝 emperor",
    "guard": "侍卫 guard",
    "rebel": "rebel",
    "solo": "独 solo emperor",
}
SOLO = {"open": "明独 open solo", "hidden": "暗独 hidden solo"}
STEPS: dict[str, dict[str, str]] = {
    "baohuang": {
        "tribute": "吃贡 pick a tribute card",
        "emperor": "登基 take the throne?",
        "call": "叫侍卫 call your guard",
        "grab": "抢独 grab an open solo?",
        "reveal": "明保 reveal the guard?",
        "rebel": "造反 rebel?",
        "kick": "踢 kick?",
        "play": "出牌 play",
        "over": "the hand is over",
    }
}
"""Short names of each game's steps (the ``step`` of a view), for headings."""
STEP_HELP: dict[str, dict[str, str]] = {
    "baohuang": {
        "tribute": "Pick one of the tribute cards 贡牌 for your hand.",
        "emperor": "You hold the emperor card 皇牌. accept 登基: be the emperor · abdicate 让位: pass it to your "
        "上家 (the seat before you) · open_solo 明独: be emperor alone against four (±24).",
        "call": "Call a suit+rank you hold three of: whoever holds the fourth copy is your guard 侍卫. Calling "
        "one you hold all four of makes you a hidden solo 暗独 · open_solo 明独: alone, openly.",
        "grab": "grab 抢独: take the throne as an open solo against all four others (±24) · no: let it be.",
        "reveal": "reveal 明保: show everyone you are the guard (stake ×2) · no: stay hidden (everyone is asked).",
        "rebel": "rebel 造反: if two or more rebel, a hidden guard is unmasked and the stake doubles · no.",
        "kick": "kick 踢: double the stake again · no.",
    }
}
"""One line explaining a decision step to the human who has to take it."""
NON_PLAYS = {"pass", "yield"}
"""Play-phase actions that put no cards on the table."""
ROLE_ORDER = ("emperor", "guard", "rebel", "solo")


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
    try:
        return int(text)
    except ValueError:
        return text


def parse_options(pairs: Sequence[str] | None, variant: str | None = None) -> dict[str, Any]:
    """``["kao=true", "hold-sixes=yes"]`` → ``{"kao": True, "hold_sixes": True}`` (plus the
    variant when given). Values true/false/yes/no/on/off are booleans, digits integers."""
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


# ---------------------------------------------------------------------------- display
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
    """A hand for display. Suit-less games group equal ranks with a count, keeping the
    engine's order (low to high): ``3×3 4×2 … SJ×2 BJ*``; marked cards stay apart."""
    if game not in SUITLESS:
        return " ".join(cards)
    groups: list[list[Any]] = []
    for text in cards:
        c = paiju.Card.parse(text)
        key = c.rank_text + ("*" if c.marked else "")
        if groups and groups[-1][0] == key:
            groups[-1][1] += 1
        else:
            groups.append([key, 1])
    return " ".join(k if n == 1 else f"{k}×{n}" for k, n in groups)


def _place_name(game: str, place: int) -> str:
    names = PLACES.get(game, ())
    return names[place - 1] if 0 < place <= len(names) else f"#{place}"


def _step_text(game: str, step: str) -> str:
    return STEPS.get(game, {}).get(step, step)


def _role_text(view: Mapping[str, Any], s: int) -> str:
    roles = view.get("roles") or []
    role = roles[s] if s < len(roles) else None
    if role:
        text = ROLES.get(role, role)
        solo = view.get("solo")
        if role == "emperor" and solo:
            text += f" ({SOLO.get(solo, solo)})"
    elif view.get("emperor") is None and view.get("emperor_card_holder") == s and view.get("phase") != "over":
        text = "holds 皇牌"
        if view.get("attached"):
            text += f" +{view['attached']} attached"
    else:
        text = "?" if roles else ""
    if s in (view.get("rebels_declared") or ()):
        text += " 锄头"
    return text


def _trick_cards(view: Mapping[str, Any]) -> dict[int, str]:
    out: dict[int, str] = {}
    for t in view.get("trick") or ():
        out[t["seat"]] = t["cards"]
    return out


def show_state(console: Console, view: Mapping[str, Any], labels: Sequence[str]) -> None:
    """Everything ``view`` shows, as a table of seats plus the viewer's hand and choices."""
    game = view.get("game", "")
    step = view.get("step", view.get("phase", ""))
    console.rule(f"{escape(TITLES.get(game, game))} · {escape(_step_text(game, step))}")
    counts = view.get("hand_counts") or []
    finished = list(view.get("finished") or ())
    trick = _trick_cards(view)
    to_act = view.get("to_act")
    table = Table(box=None, pad_edge=False, show_edge=False)
    table.add_column("")
    table.add_column("Seat")
    table.add_column("Cards", justify="right")
    table.add_column("Role")
    table.add_column("Place")
    table.add_column("This trick")
    if view.get("phase") == "over" and "scores" in view:
        table.add_column("Score", justify="right")
    for s, label in enumerate(labels):
        place = _place_name(game, finished.index(s) + 1) if s in finished else ""
        row = [
            "▶" if s == to_act else "",
            escape(label),
            str(counts[s]) if s < len(counts) else "",
            escape(_role_text(view, s)),
            place,
            escape(trick.get(s, "")),
        ]
        if view.get("phase") == "over" and "scores" in view:
            row.append(f"{view['scores'][s]:+d}")
        table.add_row(*row)
    console.print(table)
    notes = []
    if view.get("called"):
        notes.append(f"called card {view['called']}")
    if view.get("open_guard"):
        notes.append("明保 open guard ×2")
    if view.get("rebellion"):
        notes.append("造反 rebellion ×2")
    if view.get("kicks"):
        notes.append(f"踢 kick ×{2 ** view['kicks']}")
    if view.get("tribute_pool"):
        notes.append("tribute cards: " + " ".join(view["tribute_pool"]))
    if notes:
        console.print(escape(" · ".join(notes)))
    last = view.get("last_play")
    if last:
        console.print(f"Last play: {escape(labels[last['seat']])} — [bold]{escape(str(last['play']))}[/bold]")
    elif view.get("phase") == "play" and to_act is not None:
        console.print(f"{escape(labels[to_act])} leads.")
    hand = view.get("hand")
    if hand is not None:
        console.print(f"Your hand ({len(hand)}): [bold]{escape(hand_text(game, hand))}[/bold]")
        called = view.get("called")
        if called and called in hand:
            console.print(f"You hold the called card {called}: playing it reveals you.")


def event_text(game: str, e: Mapping[str, Any], labels: Sequence[str]) -> str:
    """One public event as a line of rich markup."""

    def who(key: str = "seat") -> str:
        s = e.get(key)
        return escape(labels[s]) if isinstance(s, int) and 0 <= s < len(labels) else f"seat {s}"

    if "action" in e:
        action = str(e["action"])
        step = e.get("step")
        head = f"{who()}" + (f" [dim]\\[{escape(str(step))}][/dim]" if step else "")
        if action in NON_PLAYS:
            return f"  [dim]{head}: {escape(action)}[/dim]"
        cards = e.get("cards")
        tail = f" [dim]({escape(str(cards))})[/dim]" if cards and cards != action else ""
        return f"  {head}: [bold]{escape(action)}[/bold]{tail}"
    kind = e.get("event")
    if kind == "deal":
        return "[cyan]Cards dealt.[/cyan]" if e.get("number", 1) == 1 else "[cyan]Cards dealt again.[/cyan]"
    if kind == "redeal":
        return "[cyan]Nobody took the throne: redeal.[/cyan]"
    if kind == "emperor":
        return f"[yellow]{who()} is the emperor 皇帝.[/yellow]"
    if kind == "open_solo":
        return f"[yellow]{who()} plays 明独 open solo: alone against everyone.[/yellow]"
    if kind == "guard_revealed":
        if e.get("solo"):
            return f"[yellow]{who()} is alone: {escape(SOLO.get(e['solo'], str(e['solo'])))}.[/yellow]"
        return f"[yellow]{who()} is the guard 侍卫.[/yellow]"
    if kind == "trick":
        return f"  [dim]— trick to {who('winner')}[/dim]"
    if kind == "finished":
        place = e.get("place", 0)
        return f"[green]{who()} is out: {_place_name(game, place)} (place {place}).[/green]"
    if kind == "tribute":
        gifts = ", ".join(f"{escape(labels[g])} gives {escape(c)}" for g, c in e.get("cards") or ())
        return f"[cyan]Tribute 上贡: {gifts or 'nothing'}.[/cyan]"
    if kind == "over":
        return "[cyan]The hand is over.[/cyan]"
    rest = " ".join(f"{k}={v}" for k, v in e.items() if k != "event")
    return escape(f"{kind}: {rest}")


def show_scores(console: Console, game: Game, labels: Sequence[str]) -> None:
    view = game.view(None)
    scores = game.scores
    places = list(view.get("finished") or ())
    table = Table(title="Scores", box=None, pad_edge=False)
    table.add_column("Seat")
    table.add_column("Role")
    table.add_column("Place")
    table.add_column("Score", justify="right")
    for s, label in enumerate(labels):
        place = _place_name(game.name, places.index(s) + 1) if s in places else "—"
        table.add_row(escape(label), escape(_role_text(view, s)), place, f"{scores[s]:+d}")
    console.print(table)


# ---------------------------------------------------------------------------- play
HELP = """Type a play as cards: [bold]7[/bold], [bold]777[/bold], [bold]SJ 777[/bold], [bold]BJ BJ 8888[/bold] \
(suits optional; name the called/guard card, e.g. [bold]Ah AA[/bold] or [bold]SJ*[/bold], to show it).
[bold]pass[/bold] (or p) passes. [bold]hint[/bold] shows the suggested action; an empty line takes it.
Before play, answer by name ([bold]accept[/bold], [bold]abdicate[/bold], [bold]no[/bold] …) or by number.
[bold]show[/bold] redraws the table, [bold]legal[/bold] lists your legal actions, [bold]quit[/bold] leaves."""


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


def _human_turn(console: Console, game: Game, seat: int, labels: Sequence[str]) -> None:
    """Ask until the human's input is a legal action, and apply it."""
    view = game.view(seat)
    show_state(console, view, labels)
    setup = game.phase != "play"
    explain = STEP_HELP.get(game.name, {}).get(str(view.get("step"))) if setup else None
    if explain:
        console.print(f"[dim]{escape(explain)}[/dim]")
    legal = game.legal_actions()
    texts = [str(a) for a in legal]
    default = suggest(view, legal)
    while True:
        if setup:
            buttons = "  ".join(f"[bold]\\[{i}][/bold] {escape(t)}" for i, t in enumerate(texts, 1))
            console.print(f"Choose: {buttons}")
        prompt = f"[bold cyan]{escape(labels[seat])}[/bold cyan] (Enter = [bold]{escape(str(default))}[/bold]) > "
        text = _ask(console, prompt).strip()
        low = text.lower()
        if low in ("quit", "exit"):
            console.print("[yellow]You left the game.[/yellow]")
            raise _Left
        if low in ("help", "?"):
            console.print(HELP)
            continue
        if low == "hint":
            console.print(f"Hint: [bold]{escape(str(default))}[/bold] (press Enter to take it)")
            continue
        if low in ("show", "hand"):
            show_state(console, view, labels)
            continue
        if low in ("legal", "moves"):
            shown = texts[:60]
            more = f" … and {len(texts) - 60} more" if len(texts) > 60 else ""
            console.print("Legal: " + escape(" | ".join(shown)) + more)
            continue
        action: Any
        if not text:
            action = default
        elif setup and text.isdigit():
            k = int(text)
            if not 1 <= k <= len(legal):
                console.print(f"[red]choose a number from 1 to {len(legal)}[/red]")
                continue
            action = legal[k - 1]
        else:
            action = text
        try:
            game.apply(action)
        except IllegalAction as e:
            console.print(f"[red]{escape(str(e))}[/red]")
            continue
        return


def _print_events(console: Console, game: Game, viewer: int | None, done: int, labels: Sequence[str]) -> int:
    events = game.view(viewer).get("events") or []
    for e in events[done:]:
        console.print(event_text(game.name, e, labels))
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
    typer.Option("--option", "-o", help="A room option as key=value (repeatable), e.g. -o kao=true."),
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
            "--bots", "-b", help=f"Bot for the other seats, or a comma list ({', '.join(bot_descriptions())})."
        ),
    ] = "greedy",
    delay: Annotated[float, typer.Option("--delay", help="Seconds to wait before each bot action.")] = 0.0,
    save: Annotated[Path | None, typer.Option("--save", help="Write the game record (JSON) here at the end.")] = None,
    watch: Annotated[bool, typer.Option("--watch", help="Bots in every seat; just watch.")] = False,
) -> None:
    """Play one hand in the terminal against bots (type `help` at the prompt)."""
    console = _console()
    g = _new_game(game, seed, parse_options(option, variant))
    human: int | None = None if watch else seat
    if human is not None and not 0 <= human < g.num_players:
        _fail(f"--seat must be 0-{g.num_players - 1}")
    seat_bots = _make_bots(bots, g, human, g.seed)
    labels = _labels(g.num_players, human, seat_bots)
    opts = getattr(g, "options", {}) or {}
    console.print(
        f"[bold]{escape(TITLES.get(g.name, g.name))}[/bold] · seed {g.seed}"
        + (f" · variant {escape(str(opts['variant']))}" if "variant" in opts else "")
        + (f" · you are seat {human}" if human is not None else " · watching")
        + ". Type [bold]help[/bold] for help."
    )
    done = 0
    try:
        while not g.is_over:
            done = _print_events(console, g, human, done, labels)
            s = g.to_act
            assert s is not None
            if s == human:
                _human_turn(console, g, s, labels)
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
    _print_events(console, g, human, done, labels)
    show_state(console, g.view(human), labels)
    show_scores(console, g, labels)
    if human is not None:
        mine = g.scores[human]
        word = "won" if mine > 0 else "lost" if mine < 0 else "broke even"
        console.print(f"[bold]You {word}: {mine:+d} points.[/bold]")
    _save(console, g, save)


# ---------------------------------------------------------------------------- simulate
def _role_of_seat(view: Mapping[str, Any], s: int) -> str:
    roles = view.get("roles") or []
    role = roles[s] if s < len(roles) and roles[s] else f"seat {s}"
    if role == "emperor" and view.get("solo"):
        return "solo"
    return str(role)


def _rate(a: float, b: float) -> float:
    return a / b if b else 0.0


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
    seat_bots = _make_bots(bots, g, None, rng.randrange(2**62))
    players = g.num_players
    role_n: dict[str, int] = defaultdict(int)
    role_wins: dict[str, int] = defaultdict(int)
    role_points: dict[str, int] = defaultdict(int)
    seat_points = [0] * players
    seat_wins = [0] * players
    decisions = plays = legal_total = legal_max = 0
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
                k = len(legal)
                legal_total += k
                legal_max = max(legal_max, k)
                in_play = g.phase == "play"
                action = seat_bots[s].act(LazyView(g, s), legal)
                try:
                    g.apply(action)
                except IllegalAction as e:
                    _fail(f"bot {seat_bots[s].name} at seat {s} chose an illegal action {action}: {e}", code=1)
                decisions += 1
                if in_play and str(action) not in NON_PLAYS:
                    plays += 1
            view = g.view(None)
            for s, pts in enumerate(g.scores):
                role = _role_of_seat(view, s)
                role_n[role] += 1
                role_points[role] += pts
                seat_points[s] += pts
                if pts > 0:
                    role_wins[role] += 1
                    seat_wins[s] += 1
            progress.advance(task)
    seconds = time.perf_counter() - start
    order = [r for r in ROLE_ORDER if r in role_n] + sorted(r for r in role_n if r not in ROLE_ORDER)
    roles = {
        r: {
            "count": role_n[r],
            "wins": role_wins[r],
            "win_rate": _rate(role_wins[r], role_n[r]),
            "avg_points": _rate(role_points[r], role_n[r]),
        }
        for r in order
    }
    result: dict[str, Any] = {
        "game": g.name,
        "hands": n,
        "seed": seed,
        "options": opts,
        "bots": [seat_bots[s].name for s in range(players)],
        "roles": roles,
        "seats": [
            {
                "seat": s,
                "bot": seat_bots[s].name,
                "win_rate": _rate(seat_wins[s], n),
                "avg_points": _rate(seat_points[s], n),
            }
            for s in range(players)
        ],
        "decisions_per_hand": _rate(decisions, n),
        "plays_per_hand": _rate(plays, n),
        "legal_actions": {"avg": _rate(legal_total, decisions), "max": legal_max},
        "seconds": seconds,
        "hands_per_second": _rate(n, seconds),
    }
    title = TITLES.get(g.name, g.name)
    console.print(f"[bold]{escape(title)}[/bold] · {n} hands · seed {seed} · bots {escape(', '.join(result['bots']))}")
    t = Table(title="By role", box=None, pad_edge=False)
    for col in ("Role", "Seats", "Win rate", "Avg points"):
        t.add_column(col, justify="left" if col == "Role" else "right")
    for r, d in roles.items():
        t.add_row(escape(ROLES.get(r, r)), str(d["count"]), f"{d['win_rate']:.1%}", f"{d['avg_points']:+.2f}")
    console.print(t)
    t = Table(title="By seat", box=None, pad_edge=False)
    for col in ("Seat", "Bot", "Win rate", "Avg points"):
        t.add_column(col, justify="left" if col in ("Seat", "Bot") else "right")
    for d in result["seats"]:
        t.add_row(str(d["seat"]), escape(d["bot"]), f"{d['win_rate']:.1%}", f"{d['avg_points']:+.2f}")
    console.print(t)
    t = Table(title="Hands", box=None, pad_edge=False, show_header=False)
    t.add_column("what")
    t.add_column("value", justify="right")
    t.add_row("decisions per hand", f"{result['decisions_per_hand']:.1f}")
    t.add_row("plays per hand (cards put down)", f"{result['plays_per_hand']:.1f}")
    t.add_row("legal actions per decision (avg)", f"{result['legal_actions']['avg']:.1f}")
    t.add_row("legal actions per decision (max)", str(legal_max))
    t.add_row("hands per second", f"{result['hands_per_second']:.1f}")
    t.add_row("time", f"{seconds:.2f} s")
    console.print(t)
    if json_file is not None:
        json_file.write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        console.print(f"Wrote {escape(str(json_file))}.")


# ---------------------------------------------------------------------------- replay
@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON), e.g. from `paiju play --save`.")],
    hands: Annotated[bool, typer.Option("--hands", help="Show every seat's cards at the start.")] = False,
) -> None:
    """Show a recorded game move by move, then the scores."""
    console = _console()
    try:
        record = json.loads(file.read_text(encoding="utf-8"))
    except OSError as e:
        _fail(f"cannot read {file}: {e.strerror or e}")
    except json.JSONDecodeError as e:
        _fail(f"{file} is not JSON: {e}")
    if not isinstance(record, dict) or not isinstance(record.get("actions"), list):
        _fail(f"{file} is not a paiju game record (no list of actions)")
    try:
        paiju.replay(record)  # check the whole record first: a bad one fails with its reason
        g = paiju.replay({**record, "actions": []})
    except IllegalAction as e:
        _fail(str(e), code=1)
    labels = [f"Seat {s}" for s in range(g.num_players)]
    opts = getattr(g, "options", {}) or {}
    console.print(
        f"[bold]{escape(TITLES.get(g.name, g.name))}[/bold] · seed {g.seed}"
        + (f" · variant {escape(str(opts['variant']))}" if "variant" in opts else "")
        + f" · {len(record['actions'])} actions"
    )
    if hands:
        for s in range(g.num_players):
            console.print(f"{labels[s]}: {escape(hand_text(g.name, [str(c) for c in g.hand(s)]))}")
    done = 0
    width = len(str(len(record["actions"])))
    for i, text in enumerate(record["actions"], 1):
        view = g.view(None)
        seat = g.to_act
        step = view.get("step", g.phase)
        g.apply(text)
        events = g.view(None).get("events") or []
        mine = [e for e in events[done:] if "action" in e]
        cards = mine[0].get("cards") if mine else None
        tail = f"  [dim]({escape(str(cards))})[/dim]" if cards and cards != text else ""
        console.print(
            f"#{i:<{width}} {labels[seat] if seat is not None else '?':7} {step:8} [bold]{escape(text)}[/bold]{tail}"
        )
        for event in events[done:]:
            if "action" not in event and event.get("event") != "deal":
                console.print("      " + event_text(g.name, event, labels))
        done = len(events)
    if g.is_over:
        show_scores(console, g, labels)
    else:
        console.print("[yellow]The record ends before the hand is over.[/yellow]")


if __name__ == "__main__":  # pragma: no cover
    app()


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="address to listen on"),
    port: int = typer.Option(8000, help="port to listen on"),
    db: str | None = typer.Option(None, help="database URL: sqlite:///file.db (default ./paiju.db) or postgresql://…"),
    bot_delay: float = typer.Option(0.6, help="seconds a computer player waits before acting"),
    rate: float = typer.Option(20.0, help="messages per second one connection may send"),
) -> None:
    """Run the web card hall: lobby, tables, bots and the browser client."""
    from paiju.server.app import serve as run_server

    run_server(host=host, port=port, db=db, bot_delay=bot_delay, rate=rate)
