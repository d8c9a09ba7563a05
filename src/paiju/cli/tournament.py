"""``paiju tournament``: a duplicate tournament of bots (run by ``paiju.tournament``), and its
tables.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from paiju.bots import bot_descriptions
from paiju.cli.common import _console, _fail, _progress, _table
from paiju.cli.options import GameArg, OptionOpt, SeedOpt, VariantOpt, parse_options
from paiju.errors import IllegalAction
from paiju.terminal import presenter


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
    progress = _progress(console, "deals")
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
