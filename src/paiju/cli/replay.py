"""``paiju replay``: a saved game record shown move by move, then the scores."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

import paiju
from paiju.cli.common import _console, _fail
from paiju.errors import IllegalAction
from paiju.terminal import presenter


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
