"""双扣 Shuangkou in the terminal: partners (team A seats 0+2, team B seats 1+3), the
combination type of every play, the finishing order, and 双扣 / 单扣 / 平扣."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from paiju.game import Game
from paiju.shuangkou import KIND_NAMES, Play
from paiju.terminal.base import HandStats, Presenter, ordinal, rate

KINDS = {
    "single": "single",
    "pair": "pair",
    "triple": "triple",
    "straight": "straight",
    "pair_run": "pair run",
    "triple_run": "triple run",
    "bomb": "bomb",
    "four_jokers": "four jokers",
}
RESULTS = {"double": "双扣 double", "single": "单扣 single", "level": "平扣 level"}
RESULT_ORDER = ("double", "single", "level")
TEAM_SEATS = {"A": (0, 2), "B": (1, 3)}

HELP = """Type a play as ranks: [bold]7[/bold], [bold]99[/bold], [bold]QQQ[/bold], [bold]34567[/bold] (straight), \
[bold]556677[/bold] (pair run), [bold]555666777[/bold] (triple run), [bold]8888[/bold] (bomb), [bold]BJ BJ[/bold] \
(suits optional; 10 or T).
[bold]pass[/bold] (or p) passes. [bold]hint[/bold] shows the suggested play; an empty line takes it.
[bold]show[/bold] redraws the table, [bold]legal[/bold] lists your plays by type, [bold]quit[/bold] leaves.
Partners sit opposite (team A: seats 0+2, team B: seats 1+3). When both of a team are out the hand ends:
partner 2nd = 双扣 double, 3rd = 单扣 single, 4th = 平扣 level."""


def team_of(seat: int) -> str:
    return "A" if seat % 2 == 0 else "B"


def kind_text(kind: str | None, cards: int | None = None) -> str:
    """``顺子 straight``; a bomb says its size."""
    if not kind:
        return ""
    text = f"{KIND_NAMES.get(kind, kind)} {KINDS.get(kind, kind)}"
    if kind == "bomb" and cards:
        text += f" of {cards}"
    return text


def _size(cards: str | None) -> int:
    return len(cards.split()) if cards else 0


class ShuangkouStats(HandStats):
    """Team wins, how hands end (双扣 / 单扣 / 平扣), bombs, 接风 and tricks."""

    title = "双扣 Shuangkou"

    def __init__(self) -> None:
        self.hands = 0
        self.results: Counter[str] = Counter()
        self.team_wins: Counter[str] = Counter()
        self.first_lead_team_wins = 0
        self.bombs = 0
        self.partner_leads = 0
        self.tricks = 0
        self.passes = 0
        self.points = 0

    def add(self, game: Game) -> None:
        view = game.view(None)
        self.hands += 1
        self.results[view["result"]] += 1
        winners = view["winners"]
        self.team_wins[team_of(winners[0])] += 1
        self.first_lead_team_wins += view["first_lead"] in winners
        self.points += game.scores[winners[0]]
        for e in view["events"]:
            if e.get("action") == "pass":
                self.passes += 1
            elif e.get("type") in ("bomb", "four_jokers"):
                self.bombs += 1
            elif e.get("event") == "trick":
                self.tricks += 1
                self.partner_leads += e["leader"] != e["winner"]

    def summary(self, hands: int) -> dict[str, Any]:
        n = self.hands
        return {
            "team_win_rate": {t: rate(self.team_wins[t], n) for t in TEAM_SEATS},
            "results": {r: rate(self.results[r], n) for r in RESULT_ORDER},
            "first_lead_team_win_rate": rate(self.first_lead_team_wins, n),
            "avg_points_per_winner": rate(self.points, n),
            "bombs_per_hand": rate(self.bombs, n),
            "partner_leads_per_hand": rate(self.partner_leads, n),
            "tricks_per_hand": rate(self.tricks, n),
            "passes_per_hand": rate(self.passes, n),
        }

    def rows(self, summary: Mapping[str, Any]) -> list[tuple[str, str]]:
        wins = summary["team_win_rate"]
        out = [(f"team {t} (seats {a}+{b}) wins", f"{wins[t]:.1%}") for t, (a, b) in TEAM_SEATS.items()]
        out += [(f"{RESULTS[r]}", f"{summary['results'][r]:.1%}") for r in RESULT_ORDER]
        out += [
            ("the team leading first wins", f"{summary['first_lead_team_win_rate']:.1%}"),
            ("points per winner (avg)", f"{summary['avg_points_per_winner']:.2f}"),
            ("bombs per hand", f"{summary['bombs_per_hand']:.1f}"),
            ("接风 partner leads per hand", f"{summary['partner_leads_per_hand']:.2f}"),
            ("tricks per hand", f"{summary['tricks_per_hand']:.1f}"),
            ("passes per hand", f"{summary['passes_per_hand']:.1f}"),
        ]
        return out


class ShuangkouPresenter(Presenter):
    name = "shuangkou"
    suitless = True
    steps = {"play": "出牌 play", "over": "the hand is over"}
    roles = {"first_lead_team": "the team leading first", "other_team": "the other team"}
    role_order = ("first_lead_team", "other_team")
    help_text = HELP

    def intro(self, game: Game, human: int | None) -> str:
        if human is None:
            return " · team A: seats 0+2, team B: seats 1+3"
        return f" · team {team_of(human)} with your partner seat {(human + 2) % 4}"

    def place_name(self, place: int) -> str:
        return ordinal(place)

    def role_text(self, view: Mapping[str, Any], s: int) -> str:
        text = f"team {team_of(s)}"
        me = view.get("seat")
        if me is not None and s == view.get("partner"):
            text += " · your partner"
        elif me is not None and s != me and s % 2 != me % 2:
            text += " · opponent"
        return text

    def notes(self, view: Mapping[str, Any]) -> list[str]:
        notes = []
        finished = view.get("finished") or []
        if finished:
            notes.append("out: " + ", ".join(f"{ordinal(i)} seat {s}" for i, s in enumerate(finished, 1)))
        if view.get("result"):
            notes.append(f"{RESULTS.get(view['result'], view['result'])}: team {team_of(view['winners'][0])} wins")
        return notes

    def show_state(self, console: Console, view: Mapping[str, Any], labels: Sequence[str]) -> None:
        # the base table, with the combination type next to the cards of this trick
        view = {**view, "trick": [{**t, "cards": self._trick_text(t)} for t in view.get("trick") or ()]}
        super().show_state(console, view, labels)

    @staticmethod
    def _trick_text(t: Mapping[str, Any]) -> str:
        return f"{t['play']} · {KIND_NAMES.get(t.get('type', ''), '')}".rstrip(" ·")

    def show_last_play(self, console: Console, view: Mapping[str, Any], labels: Sequence[str]) -> None:
        last = view.get("last_play")
        to_act = view.get("to_act")
        if last:
            kind = kind_text(last.get("type"), _size(last.get("cards")))
            console.print(
                f"Last play: {escape(labels[last['seat']])} — [bold]{escape(str(last['play']))}[/bold]"
                f" {escape(kind)} [dim]({escape(str(last.get('cards', '')))})[/dim]"
            )
        elif view.get("phase") == "play" and to_act is not None:
            console.print(f"{escape(labels[to_act])} leads: any combination.")

    def action_text(self, e: Mapping[str, Any], labels: Sequence[str]) -> str:
        action = str(e["action"])
        who = self.who(e, labels)
        if action == "pass":
            return f"  [dim]{who}: pass[/dim]"
        kind = kind_text(e.get("type"), _size(e.get("cards")))
        style = "bold magenta" if e.get("type") in ("bomb", "four_jokers") else "bold"
        return f"  {who}: [{style}]{escape(action)}[/{style}] {escape(kind)} [dim]({escape(str(e.get('cards')))})[/dim]"

    def event_text(self, e: Mapping[str, Any], labels: Sequence[str]) -> str | None:
        kind = e.get("event")
        if kind == "deal":
            return f"[cyan]Cards dealt: 27 each. {self.who(e, labels, 'first_lead')} leads first.[/cyan]"
        if kind == "trick":
            winner = self.who(e, labels, "winner")
            text = f"  [dim]— trick to {winner}"
            if e.get("leader") != e.get("winner"):
                text += f"; {winner} is out: the partner {self.who(e, labels, 'leader')} leads 接风"
            return text + "[/dim]"
        if kind == "finished":
            return f"[green]{self.who(e, labels)} is out: {ordinal(e.get('place', 0))}.[/green]"
        if kind == "over":
            team = team_of(e["winners"][0])
            pts = e["scores"][e["winners"][0]]
            name = RESULTS.get(e["result"], e["result"])
            return f"[cyan]The hand is over: {escape(name)} — team {team} wins, {pts:+d} each.[/cyan]"
        return super().event_text(e, labels)

    def show_scores(self, console: Console, game: Game, labels: Sequence[str]) -> None:
        view = game.view(None)
        finished = list(view["finished"])
        table = Table(title="Scores", box=None, pad_edge=False)
        for col in ("Seat", "Team", "Place", "Score"):
            table.add_column(col, justify="right" if col == "Score" else "left")
        for s, label in enumerate(labels):
            place = ordinal(finished.index(s) + 1) if s in finished else "—"
            table.add_row(escape(label), f"team {team_of(s)}", place, f"{game.scores[s]:+d}")
        console.print(table)
        winners = view["winners"]
        mate_place = finished.index(winners[1]) + 1 if winners[1] in finished else 4
        console.print(
            f"{escape(RESULTS.get(view['result'], view['result']))}: {escape(labels[winners[0]])} went out first, "
            f"the partner {escape(labels[winners[1]])} {ordinal(mate_place)} — team {team_of(winners[0])} "
            f"wins {game.scores[winners[0]]:+d} each."
        )

    def verdict(self, game: Game, seat: int) -> str:
        view = game.view(None)
        mine = game.scores[seat]
        name = RESULTS.get(view["result"], view["result"])
        word = "won" if mine > 0 else "lost"
        return f"[bold]Your team {word} ({escape(name)}): {mine:+d} points.[/bold]"

    def replay_note(self, e: Mapping[str, Any] | None, text: str) -> str:
        if e is None or not e.get("type"):
            return ""
        return f"  {escape(kind_text(e['type'], _size(e.get('cards'))))} [dim]({escape(str(e.get('cards')))})[/dim]"

    def legal_text(self, game: Game, legal: Sequence[Any]) -> str:
        groups: dict[str, list[str]] = {}
        passes = False
        for a in legal:
            if isinstance(a, Play):
                groups.setdefault(a.kind or "?", []).append(str(a))
            else:
                passes = True
        parts = [
            f"[bold]{escape(kind_text(kind))}[/bold] ({len(plays)}): {escape(' '.join(plays))}"
            for kind, plays in groups.items()
        ]
        if passes:
            parts.append("[bold]pass[/bold]")
        head = f"Legal ({len(legal)}):"
        return head + ("\n  " + "\n  ".join(parts) if parts else " nothing")

    def outcome(self, game: Game) -> tuple[list[str], list[bool]]:
        view = game.view(None)
        first = view["first_lead"] % 2
        winners = set(view["winners"])
        roles = ["first_lead_team" if s % 2 == first else "other_team" for s in range(game.num_players)]
        return roles, [s in winners for s in range(game.num_players)]

    def teams(self, game: Game) -> list[str] | None:
        return [team_of(s) for s in range(game.num_players)]

    def team_names(self) -> Mapping[str, str]:
        return {"A": "team A (seats 0+2)", "B": "team B (seats 1+3)"}

    def hand_stats(self) -> HandStats:
        return ShuangkouStats()
