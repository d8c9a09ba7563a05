"""The generic presenter: how any game behind the uniform interface is shown and played
in the terminal. Game presenters (``baohuang``, ``shengji``, ``shuangkou``) override the
hooks they need; everything here uses only ``view``, ``legal_actions`` and the game's
public attributes of docs/api.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

import paiju
from paiju.game import Game

TITLES = {"baohuang": "保皇 Baohuang", "shengji": "升级 Shengji", "shuangkou": "双扣 Shuangkou"}

HELP = """Type a play as cards: [bold]7[/bold], [bold]777[/bold], [bold]SJ 777[/bold], [bold]BJ BJ 8888[/bold] \
(suits optional; name the called/guard card, e.g. [bold]Ah AA[/bold] or [bold]SJ*[/bold], to show it).
[bold]pass[/bold] (or p) passes. [bold]hint[/bold] shows the suggested action; an empty line takes it.
Before play, answer by name ([bold]accept[/bold], [bold]abdicate[/bold], [bold]no[/bold] …) or by number.
[bold]show[/bold] redraws the table, [bold]legal[/bold] lists your legal actions, [bold]quit[/bold] leaves."""

LEGAL_SHOWN = 60
"""``legal`` lists at most this many actions."""


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th …"""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def rate(a: float, b: float) -> float:
    return a / b if b else 0.0


def trick_cards(view: Mapping[str, Any]) -> dict[int, str]:
    """The cards each seat put on the table in the current trick."""
    out: dict[int, str] = {}
    for t in view.get("trick") or ():
        out[t["seat"]] = t["cards"]
    return out


class HandStats:
    """Game-specific numbers of ``paiju simulate``: :meth:`add` every finished hand, then
    :meth:`summary` (JSON-ready) and :meth:`rows` (label, value) for the printed table."""

    title = ""

    def add(self, game: Game) -> None:
        """Count one finished hand."""

    def summary(self, hands: int) -> dict[str, Any]:
        return {}

    def rows(self, summary: Mapping[str, Any]) -> list[tuple[str, str]]:
        return []


class Presenter:
    """Shows one game in the terminal. The defaults suit any game: a table of seats, the
    viewer's hand, the public events of ``view["events"]``, and one action per line."""

    name = ""
    title = ""
    suitless = False
    """Suits never matter in play: the hand is shown grouped by rank with counts."""
    steps: Mapping[str, str] = {}
    """Short names of the game's steps (the ``step`` of a view), for headings."""
    step_help: Mapping[str, str] = {}
    """One line explaining a decision step to the human who has to take it."""
    places: tuple[str, ...] = ()
    """Names of the finishing places, first first."""
    non_plays: frozenset[str] = frozenset({"pass", "yield"})
    """Play-phase actions that put no cards on the table."""
    roles: Mapping[str, str] = {}
    """Display names of the roles of ``simulate``."""
    role_order: tuple[str, ...] = ()
    help_text = HELP

    def __init__(self, name: str | None = None) -> None:
        if name is not None:
            self.name = name
        if not self.title:
            self.title = TITLES.get(self.name, self.name)

    # ------------------------------------------------------------------ words
    def step_text(self, step: str) -> str:
        return self.steps.get(step, step)

    def place_name(self, place: int) -> str:
        return self.places[place - 1] if 0 < place <= len(self.places) else f"#{place}"

    def intro(self, game: Game, human: int | None) -> str:
        """What follows ``title · seed N`` on the first line of ``play`` and ``replay``."""
        opts = getattr(game, "options", {}) or {}
        return f" · variant {escape(str(opts['variant']))}" if "variant" in opts else ""

    def hand_text(self, cards: Sequence[str], view: Mapping[str, Any] | None = None) -> str:
        """A hand for display. Suit-less games group equal ranks with a count, keeping the
        engine's order (low to high): ``3×3 4×2 … SJ×2 BJ*``; marked cards stay apart."""
        if not self.suitless:
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

    def role_text(self, view: Mapping[str, Any], s: int) -> str:
        roles = view.get("roles") or []
        role = roles[s] if s < len(roles) else None
        if role:
            return self.roles.get(role, role)
        return "?" if roles else ""

    def notes(self, view: Mapping[str, Any]) -> list[str]:
        """Short public facts shown under the table (markup-free)."""
        return []

    # ------------------------------------------------------------------ the table
    def show_state(self, console: Console, view: Mapping[str, Any], labels: Sequence[str]) -> None:
        """Everything ``view`` shows, as a table of seats plus the viewer's hand."""
        step = view.get("step", view.get("phase", ""))
        console.rule(f"{escape(self.title)} · {escape(self.step_text(step))}")
        counts = view.get("hand_counts") or []
        finished = list(view.get("finished") or ())
        trick = trick_cards(view)
        to_act = view.get("to_act")
        table = Table(box=None, pad_edge=False, show_edge=False)
        table.add_column("")
        table.add_column("Seat")
        table.add_column("Cards", justify="right")
        table.add_column("Role")
        table.add_column("Place")
        table.add_column("This trick")
        over = view.get("phase") == "over" and "scores" in view
        if over:
            table.add_column("Score", justify="right")
        for s, label in enumerate(labels):
            place = self.place_name(finished.index(s) + 1) if s in finished else ""
            row = [
                "▶" if s == to_act else "",
                escape(label),
                str(counts[s]) if s < len(counts) else "",
                escape(self.role_text(view, s)),
                place,
                escape(trick.get(s, "")),
            ]
            if over:
                row.append(f"{view['scores'][s]:+d}")
            table.add_row(*row)
        console.print(table)
        notes = self.notes(view)
        if notes:
            console.print(escape(" · ".join(notes)))
        self.show_last_play(console, view, labels)
        self.show_hand(console, view)

    def show_last_play(self, console: Console, view: Mapping[str, Any], labels: Sequence[str]) -> None:
        last = view.get("last_play")
        to_act = view.get("to_act")
        if last:
            console.print(f"Last play: {escape(labels[last['seat']])} — [bold]{escape(str(last['play']))}[/bold]")
        elif view.get("phase") == "play" and to_act is not None:
            console.print(f"{escape(labels[to_act])} leads.")

    def show_hand(self, console: Console, view: Mapping[str, Any]) -> None:
        hand = view.get("hand")
        if hand is not None:
            console.print(f"Your hand ({len(hand)}): [bold]{escape(self.hand_text(hand, view))}[/bold]")

    # ------------------------------------------------------------------ events
    def events(self, view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        """The public events ``view`` shows, oldest first. The list only ever grows during
        a hand (the CLI prints the ones it has not printed yet)."""
        return list(view.get("events") or ())

    def who(self, e: Mapping[str, Any], labels: Sequence[str], key: str = "seat") -> str:
        s = e.get(key)
        return escape(labels[s]) if isinstance(s, int) and 0 <= s < len(labels) else f"seat {s}"

    def action_text(self, e: Mapping[str, Any], labels: Sequence[str]) -> str:
        action = str(e["action"])
        step = e.get("step")
        head = f"{self.who(e, labels)}" + (f" [dim]\\[{escape(str(step))}][/dim]" if step else "")
        if action in self.non_plays:
            return f"  [dim]{head}: {escape(action)}[/dim]"
        cards = e.get("cards")
        tail = f" [dim]({escape(str(cards))})[/dim]" if cards and cards != action else ""
        return f"  {head}: [bold]{escape(action)}[/bold]{tail}"

    def event_text(self, e: Mapping[str, Any], labels: Sequence[str]) -> str | None:
        """One public event as a line of rich markup (None: nothing to print)."""
        if "action" in e:
            return self.action_text(e, labels)
        kind = e.get("event")
        if kind == "deal":
            return "[cyan]Cards dealt.[/cyan]" if e.get("number", 1) == 1 else "[cyan]Cards dealt again.[/cyan]"
        if kind == "trick":
            return f"  [dim]— trick to {self.who(e, labels, 'winner')}[/dim]"
        if kind == "finished":
            place = e.get("place", 0)
            return f"[green]{self.who(e, labels)} is out: {self.place_name(place)} (place {place}).[/green]"
        if kind == "over":
            return "[cyan]The hand is over.[/cyan]"
        rest = " ".join(f"{k}={v}" for k, v in e.items() if k != "event")
        return escape(f"{kind}: {rest}")

    # ------------------------------------------------------------------ the end
    def show_scores(self, console: Console, game: Game, labels: Sequence[str]) -> None:
        view = game.view(None)
        scores = game.scores
        places = list(view.get("places") or view.get("finished") or ())  # places: every seat (Baohuang)
        table = Table(title="Scores", box=None, pad_edge=False)
        table.add_column("Seat")
        table.add_column("Role")
        table.add_column("Place")
        table.add_column("Score", justify="right")
        for s, label in enumerate(labels):
            place = self.place_name(places.index(s) + 1) if s in places else "—"
            table.add_row(escape(label), escape(self.role_text(view, s)), place, f"{scores[s]:+d}")
        console.print(table)

    def verdict(self, game: Game, seat: int) -> str:
        """The last line for the human: how the hand went for them."""
        mine = game.scores[seat]
        word = "won" if mine > 0 else "lost" if mine < 0 else "broke even"
        return f"[bold]You {word}: {mine:+d} points.[/bold]"

    # ------------------------------------------------------------------ the human's turn
    def auto_action(self, game: Game, seat: int) -> Any | None:
        """An action to take for the human without asking (None: ask)."""
        return None

    def show_turn(self, console: Console, game: Game, view: Mapping[str, Any], labels: Sequence[str]) -> None:
        """What the human sees before being asked: the table, and a line about the step."""
        self.show_state(console, view, labels)
        if game.phase != "play":
            explain = self.step_help.get(str(view.get("step")))
            if explain:
                console.print(f"[dim]{escape(explain)}[/dim]")

    def buttons(self, game: Game, legal: Sequence[Any]) -> bool:
        """Offer the legal actions as numbered buttons?"""
        return game.phase != "play"

    def read_line(self, game: Game, text: str) -> list[Any]:
        """The actions a line of input stands for (usually the text itself). Raise
        :class:`paiju.IllegalAction` to refuse the whole line before anything is applied."""
        return [text]

    def legal_text(self, game: Game, legal: Sequence[Any]) -> str:
        """The answer to ``legal`` (rich markup)."""
        texts = [str(a) for a in legal[:LEGAL_SHOWN]]
        more = f" … and {len(legal) - LEGAL_SHOWN} more" if len(legal) > LEGAL_SHOWN else ""
        return "Legal: " + escape(" | ".join(texts)) + more

    # ------------------------------------------------------------------ simulate
    def outcome(self, game: Game) -> tuple[list[str], list[bool]]:
        """Per seat of a finished hand: its role and whether it won."""
        view = game.view(None)
        roles = view.get("roles") or []
        names = [str(roles[s]) if s < len(roles) and roles[s] else f"seat {s}" for s in range(game.num_players)]
        return names, [p > 0 for p in game.scores]

    def teams(self, game: Game) -> list[str] | None:
        """Per seat of a finished hand: its side, when the game has two sides to compare."""
        return None

    def team_names(self) -> Mapping[str, str]:
        return {}

    def hand_stats(self) -> HandStats:
        return HandStats()

    # ------------------------------------------------------------------ replay
    def replay_note(self, e: Mapping[str, Any] | None, text: str) -> str:
        """What ``replay`` adds after an action's text (rich markup): the cards put down,
        when they say more than the text."""
        cards = e.get("cards") if e is not None else None
        return f"  [dim]({escape(str(cards))})[/dim]" if cards and cards != text else ""

    def quiet(self, step: str, action: str) -> bool:
        """Actions ``replay`` folds into one line when several come in a row."""
        return False

    def show_deal(self, console: Console, record: Mapping[str, Any], labels: Sequence[str]) -> None:
        """``replay --hands``: every seat's cards at the start."""
        g = paiju.replay({**record, "actions": []})
        for s in range(g.num_players):
            console.print(f"{labels[s]}: {escape(self.hand_text([str(c) for c in g.hand(s)]))}")
