"""``paiju analyze`` (复盘): a seat's decisions in a finished hand judged by ``paiju.analysis``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from paiju.cli.common import _console, _fail, _table
from paiju.cli.replay import _read_record
from paiju.errors import IllegalAction

MARKS = {"mistake": "[bold red]失误[/bold red]", "dubious": "[yellow]疑问手[/yellow]", None: ""}


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
