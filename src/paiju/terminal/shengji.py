"""升级 Shengji in the terminal: the deal with declarations, burying the kitty, tricks
with their winner and the defenders' points, and the level change at the end.

The engine asks every seat after every dealt card whether it declares. A human is asked
only when a declaration is possible — with the new card, the hand and the declarations
allowed; an empty line answers ``no``. Otherwise ``no`` is answered for them.

Shengji's view has no event log; :meth:`ShengjiPresenter.events` derives one from the
view (declarations, trump, the kitty, every play of every trick), which only ever grows
during a hand, as the command line needs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

import paiju
from paiju.cards import RANKS, SUITS, parse_cards
from paiju.errors import IllegalAction
from paiju.game import Game
from paiju.shengji import NO, Combos, LeadPlays, Play, trick_winner
from paiju.shengji.options import PACK_SIZES
from paiju.shengji.trump import POINTS, TRUMP, TrumpOrder, card_id, trump_order
from paiju.shengji.units import counts_of, decompose, pair_orders, runs
from paiju.terminal.base import LEGAL_SHOWN, HandStats, Presenter, rate

SUIT_SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_WORD = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
RED = ("h", "d")

HELP = """Cards are rank + suit: [bold]Ks[/bold], [bold]Th[/bold] (or 10h), [bold]SJ[/bold], [bold]BJ[/bold]. \
Play by typing the cards: [bold]Ks[/bold], [bold]Ks Ks[/bold], [bold]Ks Ks Qs Qs[/bold] (a tractor), or several \
units of one suit at once (a throw 甩牌: if another hand can beat a unit, only the smallest beatable unit is played).
During the deal: [bold]declare 2h[/bold] (or [bold]2h[/bold], or the button's number); an empty line is [bold]no[/bold].
Burying the kitty 扣底: [bold]bury 7h[/bold], or several cards at once: [bold]bury 7h 7h 3c[/bold].
[bold]hint[/bold] shows the suggested action; an empty line takes it. [bold]show[/bold] redraws the table, \
[bold]legal[/bold] lists what you may do, [bold]quit[/bold] leaves."""


def points_of(card: str) -> int:
    """Points 分 of a card: 5 → 5, 10 and K → 10."""
    return POINTS[card_id(paiju.Card.parse(card))]


def rank_name(rank: int) -> str:
    return RANKS[rank - 2]


def team_name(team: int) -> str:
    return "0+2" if team == 0 else "1+3"


def suit_label(suit: str | None) -> str:
    if suit is None:
        return "no-trump 无主"
    colour = "red" if suit in RED else "default"
    return f"[{colour}]{SUIT_SYMBOL[suit]}[/{colour}] {SUIT_WORD[suit]}"


def order_of(view: Mapping[str, Any]) -> TrumpOrder | None:
    """The hand's card order, once trump is settled."""
    if not view.get("trump_settled"):
        return None
    level = RANKS.index(view["level"]) + 2
    return trump_order(view.get("trump_suit"), level, bool((view.get("options") or {}).get("twos_trump")))


def declared_suit(cards: str) -> str | None:
    """The trump suit a declaration's cards name: that of its level cards (a joker shown
    with them, under ``declare_with_joker``, adds nothing); None for jokers alone (no-trump)."""
    return next((c.suit for c in parse_cards(cards) if not c.is_joker), None)


def declaration_text(cards: str) -> str:
    """``2h`` → ``♥ hearts``; ``SJ SJ`` → ``no-trump``; ``SJ 2h`` → ``♥ hearts``."""
    return suit_label(declared_suit(cards))


def unit_words(cards: str, t: TrumpOrder) -> str:
    """What a play is made of: ``pair 对子``, ``tractor 拖拉机 of 3 pairs``, ``throw 甩牌: pair + 2 singles``."""
    units = decompose(counts_of(card_id(c) for c in parse_cards(cards)), t)
    names = []
    for u in units:
        if u.pairs == 0:
            names.append("single")
        elif u.pairs == 1:
            names.append("pair 对子")
        else:
            names.append(f"tractor 拖拉机 of {u.pairs} pairs")
    if len(names) == 1:
        return names[0]
    singles = names.count("single")
    rest = [n for n in names if n != "single"] + ([f"{singles} single{'s' if singles > 1 else ''}"] if singles else [])
    return "throw 甩牌: " + " + ".join(rest)


class ShengjiStats(HandStats):
    """Declarers against defenders: level changes, points, the kitty bonus, throws."""

    title = "升级 Shengji"

    def __init__(self) -> None:
        self.hands = 0
        self.hold = 0
        self.change: Counter[int] = Counter()  # level change seen from the declarers: +3 … -n
        self.defender_points = 0
        self.trick_points = 0
        self.last_trick_defenders = 0
        self.kitty_bonus_hands = 0
        self.kitty_bonus = 0
        self.kitty_points = 0
        self.declared = 0
        self.no_trump = 0
        self.tricks = 0
        self.failed_throws = 0

    def add(self, game: Game) -> None:
        view = game.view(None)
        r = view["result"]
        d = r["declarer"]
        self.hands += 1
        self.hold += r["declarers_hold"]
        self.change[r["levels_up"] if r["declarers_hold"] else -r["levels_up"]] += 1
        self.defender_points += r["defender_points"]
        self.trick_points += r["trick_points"]
        self.kitty_points += r["kitty_points"]
        defenders_last = r["last_trick_winner"] % 2 != d % 2
        self.last_trick_defenders += defenders_last
        if r["kitty_bonus"] > 0:
            self.kitty_bonus_hands += 1
            self.kitty_bonus += r["kitty_bonus"]
        self.declared += view["declaration"] is not None
        self.no_trump += view["trump_suit"] is None
        self.tricks += len(view["tricks"])
        self.failed_throws += sum(1 for t in view["tricks"] if t.get("failed_throw"))

    def summary(self, hands: int) -> dict[str, Any]:
        n = self.hands
        up = sum(k for c, k in self.change.items() if c > 0)
        return {
            "declarers_hold_rate": rate(self.hold, n),
            "declarers_up_rate": rate(up, n),
            "defenders_take_over_rate": rate(n - self.hold, n),
            "defenders_up_rate": rate(sum(k for c, k in self.change.items() if c < 0), n),
            "avg_level_change_declarers": rate(sum(c * k for c, k in self.change.items()), n),
            "level_change": {f"{c:+d}": rate(k, n) for c, k in sorted(self.change.items(), reverse=True)},
            "avg_defender_points": rate(self.defender_points, n),
            "avg_trick_points": rate(self.trick_points, n),
            "avg_kitty_points": rate(self.kitty_points, n),
            "last_trick_to_defenders_rate": rate(self.last_trick_defenders, n),
            "kitty_bonus_rate": rate(self.kitty_bonus_hands, n),
            "avg_kitty_bonus": rate(self.kitty_bonus, self.kitty_bonus_hands),
            "declared_rate": rate(self.declared, n),
            "no_trump_rate": rate(self.no_trump, n),
            "tricks_per_hand": rate(self.tricks, n),
            "failed_throws_per_hand": rate(self.failed_throws, n),
        }

    def rows(self, summary: Mapping[str, Any]) -> list[tuple[str, str]]:
        changes = ", ".join(f"{c} {v:.0%}" for c, v in summary["level_change"].items())
        return [
            ("declarers hold (go up)", f"{summary['declarers_hold_rate']:.1%}"),
            ("defenders take over 上台", f"{summary['defenders_take_over_rate']:.1%}"),
            ("defenders go up too", f"{summary['defenders_up_rate']:.1%}"),
            ("level change for the declarers (avg)", f"{summary['avg_level_change_declarers']:+.2f}"),
            ("level change for the declarers", changes),
            ("defenders' points (avg, kitty included)", f"{summary['avg_defender_points']:.1f}"),
            ("defenders' points in tricks (avg)", f"{summary['avg_trick_points']:.1f}"),
            ("last trick to the defenders", f"{summary['last_trick_to_defenders_rate']:.1%}"),
            ("kitty bonus 抠底 (hands with points)", f"{summary['kitty_bonus_rate']:.1%}"),
            ("kitty bonus when taken (avg)", f"{summary['avg_kitty_bonus']:.1f}"),
            ("kitty points buried (avg)", f"{summary['avg_kitty_points']:.1f}"),
            ("trump declared in the deal", f"{summary['declared_rate']:.1%}"),
            ("no-trump hands", f"{summary['no_trump_rate']:.1%}"),
            ("tricks per hand", f"{summary['tricks_per_hand']:.1f}"),
            ("failed throws per hand", f"{summary['failed_throws_per_hand']:.2f}"),
        ]


class ShengjiPresenter(Presenter):
    name = "shengji"
    steps = {
        "deal": "亮主 deal and declare trump",
        "bury": "扣底 bury the kitty",
        "play": "出牌 play",
        "over": "the hand is over",
    }
    roles = {"declarer": "庄家 declarer", "partner": "declarer's partner", "defender": "defender"}
    role_order = ("declarer", "partner", "defender")
    non_plays = frozenset()
    help_text = HELP

    def __init__(self) -> None:
        super().__init__()
        self._dealt: dict[int, Counter[str]] = {}  # the hand at the seat's last deal decision
        self._asked: set[int] = set()  # seats asked during the deal already

    # ------------------------------------------------------------------ words
    def intro(self, game: Game, human: int | None) -> str:
        o = game.options
        text = f" · {o['decks']} pack{'s' if o['decks'] > 1 else ''} · level {o['team_levels'][0]}"
        if o["team_levels"][0] != o["team_levels"][1]:
            text = f" · {o['decks']} packs · team 0+2 at {o['team_levels'][0]}, team 1+3 at {o['team_levels'][1]}"
        if o.get("declarer") is not None:
            text += f" · declarer seat {o['declarer']}"
        if human is not None:
            text += f" · partners sit opposite: yours is seat {(human + 2) % 4}"
        return text

    def role_text(self, view: Mapping[str, Any], s: int) -> str:
        d = view.get("declarer")
        if d is None:
            return f"team {team_name(s % 2)}"
        if s == d:
            return "庄 declarer"
        if s % 2 == d % 2:
            return "declarer's partner"
        return "defender"

    def hand_groups(self, cards: Sequence[str], view: Mapping[str, Any] | None) -> list[tuple[str, str, list[str]]]:
        """The hand as groups ``(short label, long label, cards)``: the trumps (high to
        low), then each plain suit; during the deal, the jokers and level cards (what can
        declare), then the suits."""
        t = order_of(view) if view is not None else None
        level = view.get("level") if view is not None else None
        groups: list[tuple[str, str, list[str]]] = []
        if t is None:
            special = [c for c in cards if c in ("BJ", "SJ") or (level and c[0] == level)]
            if special:
                label = f"level {level} & jokers" if level else "jokers"
                groups.append((label, label, special))
            for s in SUITS:
                mine = [c for c in cards if c not in special and c.endswith(s)]
                groups.append((SUIT_SYMBOL[s], f"{SUIT_SYMBOL[s]} {SUIT_WORD[s]}", mine))
            return groups
        trumps = [c for c in cards if t.psuit[card_id(paiju.Card.parse(c))] == TRUMP]
        ts = t.trump_suit
        short = f"trump {SUIT_SYMBOL[ts]}" if ts else "trump (none)"
        groups.append((short, f"{short}, level {rank_name(t.level)}", trumps))
        for s in SUITS:
            if s != ts:
                mine = [c for c in cards if c not in trumps and c.endswith(s)]
                groups.append((SUIT_SYMBOL[s], f"{SUIT_SYMBOL[s]} {SUIT_WORD[s]}", mine))
        return groups

    def hand_text(self, cards: Sequence[str], view: Mapping[str, Any] | None = None) -> str:
        """One line: ``trump ♥: BJ 2h Ah · ♠: Ks 9s · ♦: — · ♣: 8c`` (``—``: void)."""
        return " · ".join(f"{short}: {' '.join(cs) or '—'}" for short, _, cs in self.hand_groups(cards, view))

    def show_hand(self, console: Console, view: Mapping[str, Any]) -> None:
        hand = view.get("hand")
        if not hand:
            return
        console.print(f"Your hand ({len(hand)}):")
        groups = self.hand_groups(hand, view)
        width = max(len(label) for _, label, _ in groups)
        for _, label, cards in groups:
            text = " ".join(cards) if cards else "— (void)"
            console.print(f"  {escape(label.ljust(width))} ({len(cards):2}): [bold]{escape(text)}[/bold]")

    def notes(self, view: Mapping[str, Any]) -> list[str]:
        out = [f"level {view['level']}"]
        levels = view.get("team_levels") or []
        if len(levels) == 2:
            out.append(f"teams 0+2 at {levels[0]}, 1+3 at {levels[1]}")
        if view.get("trump_settled"):
            out.append("trump " + (f"{SUIT_SYMBOL[view['trump_suit']]}" if view.get("trump_suit") else "none: 无主"))
            out.append(f"defenders' points {view.get('defender_points', 0)}")
            if view.get("penalty_points"):
                out.append(f"throw penalties {view['penalty_points']:+d}")
            out.append(f"kitty {view['kitty_size']} cards")
        else:
            decl = view.get("declaration")
            out.append(f"cards dealt {view.get('cards_dealt', 0)}")
            if decl:
                out.append(f"declaration standing: seat {decl['seat']} {decl['cards']}")
            else:
                out.append("no declaration yet")
        return out

    # ------------------------------------------------------------------ the table
    def show_state(self, console: Console, view: Mapping[str, Any], labels: Sequence[str]) -> None:
        console.rule(f"{escape(self.title)} · {escape(self.step_text(view.get('phase', '')))}")
        counts = view.get("hand_counts") or []
        levels = view.get("team_levels") or ["", ""]
        trick = {p["seat"]: p["cards"] for p in view.get("trick") or ()}
        over = view.get("phase") == "over" and "scores" in view
        table = Table(box=None, pad_edge=False, show_edge=False)
        for col in ("", "Seat", "Cards", "Role", "Level", "This trick"):
            table.add_column(col, justify="right" if col in ("Cards", "Level") else "left")
        if over:
            table.add_column("Score", justify="right")
        for s, label in enumerate(labels):
            row = [
                "▶" if s == view.get("to_act") else "",
                escape(label),
                str(counts[s]) if s < len(counts) else "",
                escape(self.role_text(view, s)),
                str(levels[s % 2]),
                escape(trick.get(s, "")),
            ]
            if over:
                row.append(f"{view['scores'][s]:+d}")
            table.add_row(*row)
        console.print(table)
        console.print(escape(" · ".join(self.notes(view))))
        if view.get("kitty_received") is not None and view.get("phase") in ("bury", "play"):
            buried = view.get("buried") or []
            if view.get("phase") == "bury":
                console.print(f"Kitty 底牌 you picked up: {escape(' '.join(view['kitty_received']))}")
            else:
                points = sum(points_of(c) for c in buried)
                console.print(
                    f"You buried 扣底: {escape(' '.join(buried))} ({points} points; the kitty you picked up: "
                    f"{escape(' '.join(view['kitty_received']))})"
                )
        if over:
            console.print(f"Kitty 底牌 (buried): [bold]{escape(' '.join(view.get('kitty') or []))}[/bold]")
        self.show_last_play(console, view, labels)
        self.show_hand(console, view)

    def show_last_play(self, console: Console, view: Mapping[str, Any], labels: Sequence[str]) -> None:
        if view.get("phase") != "play":
            return
        t = order_of(view)
        plays = view.get("trick") or []
        number = len(view.get("tricks") or []) + 1
        to_act = view.get("to_act")
        if not plays:
            if to_act is not None:
                console.print(f"{escape(labels[to_act])} leads trick {number}.")
            return
        lead = plays[0]
        words = unit_words(lead["cards"], t) if t is not None else ""
        who = escape(labels[lead["seat"]])
        line = f"Trick {number}: {who} led [bold]{escape(lead['cards'])}[/bold] ({escape(words)})"
        if view.get("failed_throw"):
            line += f" — the throw {escape(view['failed_throw'])} failed"
        if len(plays) > 1 and t is not None:
            o = view.get("options") or {}
            w = trick_winner(
                [p["cards"] for p in plays],
                trump_suit=view.get("trump_suit"),
                level=view["level"],
                lead_seat=lead["seat"],
                twos_trump=bool(o.get("twos_trump")),
                throw_evaluation=o.get("throw_evaluation", "largest_unit"),
            )
            line += f"; winning so far: {escape(labels[w])}"
        console.print(line + ".")

    # ------------------------------------------------------------------ events
    def events(self, view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        out: list[Mapping[str, Any]] = []
        prev: Mapping[str, Any] | None = None
        for d in view.get("declarations") or ():
            if prev is None:
                how = "declares"
            elif prev["seat"] == d["seat"] and declared_suit(prev["cards"]) == declared_suit(d["cards"]):
                how = "reinforces 自保 with"
            else:
                how = "overturns 反主 with"
            out.append({"event": "declare", "seat": d["seat"], "cards": d["cards"], "how": how})
            prev = d
        if not view.get("trump_settled"):
            return out
        d = view["declarer"]
        out.append(
            {
                "event": "trump",
                "trump_suit": view.get("trump_suit"),
                "level": view["level"],
                "declarer": d,
                "kitty_card": view.get("revealed_kitty_card"),
                "declared": view.get("declaration") is not None,
            }
        )
        if view.get("kitty_received") is not None:
            out.append({"event": "kitty", "seat": d, "cards": " ".join(view["kitty_received"])})
        if view.get("phase") in ("play", "over"):
            e = {"event": "buried", "seat": d, "n": view["kitty_size"]}
            if view.get("buried") is not None:  # the declarer's own view
                e["cards"] = " ".join(view["buried"])
            out.append(e)
        points = 0
        for i, t in enumerate(view.get("tricks") or (), 1):
            out.extend(self._plays(t["plays"], t.get("failed_throw"), i))
            if t["winner"] % 2 != d % 2:
                points += t["points"]
            out.append(
                {
                    "event": "trick",
                    "number": i,
                    "winner": t["winner"],
                    "points": t["points"],
                    "defenders": t["winner"] % 2 != d % 2,
                    "defender_points": points,
                }
            )
        out.extend(self._plays(view.get("trick") or (), view.get("failed_throw"), len(view.get("tricks") or ()) + 1))
        if view.get("phase") == "over":
            out.append({"event": "over", **view["result"]})
        return out

    @staticmethod
    def _plays(plays: Sequence[Mapping[str, Any]], attempt: str | None, number: int) -> list[dict[str, Any]]:
        out = []
        for j, p in enumerate(plays):
            e = {"seat": p["seat"], "action": p["cards"], "cards": p["cards"], "trick": number}
            if j == 0 and attempt:
                e["action"] = attempt
                e["failed_throw"] = attempt
            out.append(e)
        return out

    def action_text(self, e: Mapping[str, Any], labels: Sequence[str]) -> str:
        who = self.who(e, labels)
        if e.get("failed_throw"):
            return (
                f"  {who}: [bold]{escape(str(e['cards']))}[/bold] [yellow](the throw {escape(e['failed_throw'])} "
                f"failed: another hand beats {escape(str(e['cards']))})[/yellow]"
            )
        return f"  {who}: [bold]{escape(str(e['cards']))}[/bold]"

    def event_text(self, e: Mapping[str, Any], labels: Sequence[str]) -> str | None:
        if "action" in e:
            return self.action_text(e, labels)
        kind = e.get("event")
        who = self.who(e, labels)
        if kind == "declare":
            return f"[yellow]{who} {e['how']} {escape(e['cards'])}: {declaration_text(e['cards'])}.[/yellow]"
        if kind == "trump":
            d = self.who(e, labels, "declarer")
            trump = suit_label(e["trump_suit"])
            if e["declared"]:
                return f"[cyan]The deal is over. Trump: {trump}, level {e['level']}; declarer 庄家: {d}.[/cyan]"
            if e.get("kitty_card"):
                why = f"nobody declared: the kitty card {escape(e['kitty_card'])} decides"
            else:
                why = "nobody declared"
            return f"[cyan]The deal is over; {why}. Trump: {trump}, level {e['level']}; declarer 庄家: {d}.[/cyan]"
        if kind == "kitty":
            return f"[cyan]{who} picks up the kitty 底牌: {escape(e['cards'])}.[/cyan]"
        if kind == "buried":
            cards = f": {escape(e['cards'])}" if e.get("cards") else ""
            return f"[cyan]{who} has buried {e['n']} cards 扣底{cards}. The declarer leads.[/cyan]"
        if kind == "trick":
            winner = self.who(e, labels, "winner")
            if e["defenders"]:
                pts = f"{e['points']} points to the defenders" if e["points"] else "no points"
                return f"  [dim]— trick {e['number']} to {winner}: {pts} (defenders {e['defender_points']})[/dim]"
            pts = f", {e['points']} points saved" if e["points"] else ""
            return f"  [dim]— trick {e['number']} to {winner} (declarers){pts}[/dim]"
        if kind == "over":
            return "[cyan]The hand is over. " + escape(self.result_line(e)) + "[/cyan]"
        return super().event_text(e, labels)

    # ------------------------------------------------------------------ the end
    @staticmethod
    def result_line(r: Mapping[str, Any]) -> str:
        """``defenders 125 → the defenders go up 1 and take over``."""
        d = r["declarer"]
        declarers, defenders = team_name(d % 2), team_name(1 - d % 2)
        n = r["levels_up"]
        plural = "s" if n != 1 else ""
        if r["declarers_hold"]:
            what = f"the declarers ({declarers}) go up {n} level{plural}"
        elif n == 0:
            what = f"the defenders ({defenders}) take over 上台 (no level change)"
        else:
            what = f"the defenders ({defenders}) go up {n} level{plural} and take over 上台"
        return f"Defenders' points {r['defender_points']}: {what}."

    @staticmethod
    def points_lines(r: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        lines = [f"Defenders' points in tricks: {r['trick_points']}."]
        last = labels[r["last_trick_winner"]]
        if r["kitty_bonus"]:
            lines.append(
                f"Kitty bonus 抠底: {last} (a defender) won the last trick — kitty points {r['kitty_points']} "
                f"× {r['kitty_multiplier']} = {r['kitty_bonus']}."
            )
        elif r["last_trick_winner"] % 2 != r["declarer"] % 2:
            lines.append(f"{last} (a defender) won the last trick, but the kitty holds no points.")
        else:
            lines.append(f"{last} (a declarer) won the last trick: the kitty's {r['kitty_points']} points stay.")
        if r["penalty_points"]:
            lines.append(f"Failed-throw penalties: {r['penalty_points']:+d}.")
        return lines

    def show_scores(self, console: Console, game: Game, labels: Sequence[str]) -> None:
        view = game.view(None)
        r = view["result"]
        before = view["team_levels"]
        table = Table(title="Scores (levels gained)", box=None, pad_edge=False)
        for col in ("Seat", "Role", "Level", "Score"):
            table.add_column(col, justify="right" if col == "Score" else "left")
        for s, label in enumerate(labels):
            old, new = before[s % 2], r["team_levels"][s % 2]
            level = f"{old} → {new}" if old != new else old
            table.add_row(escape(label), escape(self.role_text(view, s)), level, f"{game.scores[s]:+d}")
        console.print(table)
        console.print(f"Kitty 底牌 buried by {escape(labels[r['declarer']])}: {escape(' '.join(view['kitty']))}")
        for line in self.points_lines(r, labels):
            console.print(escape(line))
        console.print(f"[bold]{escape(self.result_line(r))}[/bold]")
        extra = f"Next declarer: {escape(labels[r['next_declarer']])}."
        if r.get("jack_reset"):
            extra = "The declarers fall back to 2 (a J won the last trick). " + extra
        if r.get("match_winner") is not None:
            extra = f"Team {team_name(r['match_winner'])} wins the match! " + extra
        console.print(extra)

    def verdict(self, game: Game, seat: int) -> str:
        r = game.view(None)["result"]
        mine = game.scores[seat]
        n = abs(mine)
        plural = "s" if n != 1 else ""
        if mine > 0:
            return f"[bold]Your team goes up {n} level{plural}: {mine:+d}.[/bold]"
        if mine < 0:
            return f"[bold]The other team goes up {n} level{plural}: {mine:+d}.[/bold]"
        if r["team_up"] == seat % 2:
            return "[bold]Your team takes over the deal 上台 (no level change): +0.[/bold]"
        return "[bold]Your team loses the deal (no level change): +0.[/bold]"

    # ------------------------------------------------------------------ the human's turn
    def auto_action(self, game: Game, seat: int) -> Any | None:
        if game.phase != "deal":
            return None
        legal = game.legal_actions()
        if len(legal) == 1 and legal[0] == NO:
            self._dealt[seat] = Counter(str(c) for c in game.hand(seat))
            return NO
        return None

    def show_turn(self, console: Console, game: Game, view: Mapping[str, Any], labels: Sequence[str]) -> None:
        phase = game.phase
        if phase == "deal":
            self._deal_prompt(console, game, view)
            return
        if phase == "bury" and view.get("buried"):
            buried = view["buried"]
            left = view["kitty_size"] - len(buried)
            console.print(f"Buried so far: {escape(' '.join(buried))} — {left} more to bury.")
            self.show_hand(console, view)
            return
        self.show_state(console, view, labels)
        if phase == "bury":
            console.print(
                f"[dim]You are the declarer: bury {view['kitty_size']} cards 扣底, e.g. bury 7h, or several at once "
                f"(bury 7h 7h 3c). Points buried go to the defenders ×2 or more if they win the last trick.[/dim]"
            )

    def _deal_prompt(self, console: Console, game: Game, view: Mapping[str, Any]) -> None:
        """Two lines: the new card and the declaration standing, then the hand."""
        seat = game.to_act or 0
        hand = view["hand"]
        now = Counter(hand)
        new = sorted((now - self._dealt.get(seat, Counter())).elements())
        first = seat not in self._asked
        self._dealt[seat] = now
        self._asked.add(seat)
        if first:
            console.rule(f"{escape(self.title)} · {escape(self.step_text('deal'))}")
            console.print(
                f"[dim]You may declare trump 亮主 by showing level {view['level']}s (a pair of identical jokers: "
                "no-trump); a stronger declaration overturns 反主 it. You are asked only while you can declare; "
                "an empty line = no.[/dim]"
            )
        each = PACK_SIZES[game.options["decks"]][0]
        if new:
            head = f"Deal · card {len(hand)} of {each}: you receive [bold]{escape(' '.join(new))}[/bold]"
        else:
            head = "Deal complete · last chance to declare"
        decl = view.get("declaration")
        standing = f"seat {decl['seat']} {decl['cards']} ({declaration_text(decl['cards'])})" if decl else "none yet"
        console.print(f"{head} · declaration standing: {standing}")
        console.print(f"  Your hand: [bold]{escape(self.hand_text(hand, view))}[/bold]")

    def buttons(self, game: Game, legal: Sequence[Any]) -> bool:
        return game.phase == "deal"

    def read_line(self, game: Game, text: str) -> list[Any]:
        low = text.lower()
        phase = game.phase
        if phase == "deal":
            if low in ("no", "n", "pass", "p"):
                return [NO]
            if low.startswith("declare"):
                return [text]
            return [f"declare {text}"]
        if phase == "bury":
            rest = text[4:] if low.startswith("bury") else text
            cards = [str(c) for c in parse_cards(rest)]
            if not cards:
                raise IllegalAction("bury which card? e.g. bury 7h (or several: bury 7h 7h 3c)")
            view = game.view(game.to_act)
            left = view["kitty_size"] - len(view.get("buried") or ())
            if len(cards) > left:
                raise IllegalAction(f"{len(cards)} cards is too many: bury {left} more")
            held = Counter(view["hand"])
            for c, k in Counter(cards).items():
                if held[c] < k:
                    raise IllegalAction(f"you do not hold {c}" if not held[c] else f"you hold {held[c]} × {c}, not {k}")
            return [f"bury {c}" for c in cards]
        if low in ("pass", "p"):
            raise IllegalAction("there is no pass in Shengji: every player plays to every trick")
        return [text]

    def legal_text(self, game: Game, legal: Sequence[Any]) -> str:
        phase = game.phase
        if phase == "deal":
            return "Legal: " + escape(" | ".join(str(a) for a in legal))
        if phase == "bury":
            return "Bury any card of your hand: [bold]bury 7h[/bold], or several at once: [bold]bury 7h 7h 3c[/bold]."
        view = game.view(game.to_act)
        t = order_of(view)
        if isinstance(legal, LeadPlays) and t is not None:
            lines = [
                f"You lead: any cards of one suit (all trumps are one suit) — {len(legal):,} possible leads: "
                "a single, a pair, a tractor, or a throw 甩牌 of several units (if another hand can beat one of "
                "its units, only the smallest such unit is played)."
            ]
            pairs, tractors = self.units_held(view["hand"], t)
            if pairs:
                lines.append("Your pairs: " + escape(" · ".join(pairs)))
            if tractors:
                lines.append("Your tractors: " + escape(" · ".join(tractors)))
            return "\n".join(lines)
        texts = [str(a) for a in legal[:LEGAL_SHOWN]] if len(legal) > LEGAL_SHOWN else [str(a) for a in legal]
        more = f" … and {len(legal) - LEGAL_SHOWN:,} more" if len(legal) > LEGAL_SHOWN else ""
        head = f"Legal ({len(legal):,})"
        if isinstance(legal, Combos) and legal.fixed:
            head += f" — each holds {Play(legal.fixed)}, all your cards of the led suit"
        return f"{head}: " + escape(" | ".join(texts)) + more

    @staticmethod
    def units_held(hand: Sequence[str], t: TrumpOrder) -> tuple[list[str], list[str]]:
        """The pairs and the tractors (longest runs of adjacent pairs) in a hand."""
        ids = [card_id(paiju.Card.parse(c)) for c in hand]
        counts = counts_of(ids)
        text = {card_id(paiju.Card.parse(c)): c for c in hand}
        pairs = [f"{text[c]} {text[c]}" for c in sorted(counts, key=t.sort_key) if counts[c] >= 2]
        tractors = []
        for suit in range(5):
            mine = {c: k for c, k in counts.items() if t.psuit[c] == suit}
            for top, length in runs(pair_orders(mine, t)):
                if length < 2:
                    continue
                cards = []
                for o in range(top, top - length, -1):
                    c = next(c for c in sorted(mine) if t.order[c] == o and mine[c] >= 2)
                    cards += [text[c], text[c]]
                tractors.append(" ".join(cards))
        return pairs, tractors

    # ------------------------------------------------------------------ simulate
    def outcome(self, game: Game) -> tuple[list[str], list[bool]]:
        r = game.view(None)["result"]
        d = r["declarer"]
        roles = []
        for s in range(game.num_players):
            roles.append("declarer" if s == d else "partner" if s % 2 == d % 2 else "defender")
        return roles, [s % 2 == r["team_up"] for s in range(game.num_players)]

    def teams(self, game: Game) -> list[str] | None:
        d = game.view(None)["result"]["declarer"]
        return ["declarers" if s % 2 == d % 2 else "defenders" for s in range(game.num_players)]

    def team_names(self) -> Mapping[str, str]:
        return {"declarers": "declarers 庄家方", "defenders": "defenders 抓分方"}

    def hand_stats(self) -> HandStats:
        return ShengjiStats()

    # ------------------------------------------------------------------ replay
    def replay_note(self, e: Mapping[str, Any] | None, text: str) -> str:
        if e is None or not e.get("failed_throw"):
            return ""
        return f"  [yellow](the throw failed: plays {escape(str(e['cards']))})[/yellow]"

    def quiet(self, step: str, action: str) -> bool:
        return step == "deal" and action == "no"

    def show_deal(self, console: Console, record: Mapping[str, Any], labels: Sequence[str]) -> None:
        g = paiju.replay({**record, "actions": []})
        actions = list(record.get("actions") or ())
        i = 0
        while g.phase == "deal" and i < len(actions):
            g.apply(actions[i])
            i += 1
        if g.phase == "deal":
            console.print("[dim](the record ends during the deal: the cards dealt so far)[/dim]")
            for s in range(g.num_players):
                console.print(f"{labels[s]}: {escape(self.hand_text([str(c) for c in g.hand(s)], g.view(s)))}")
            return
        d = g.view(None)["declarer"]
        kitty = g.view(d)["kitty_received"]
        for s in range(g.num_players):
            held = [str(c) for c in g.hand(s)]
            if s == d:  # the hand as dealt: without the kitty picked up
                for c in kitty:
                    held.remove(c)
            console.print(f"{labels[s]}: {escape(self.hand_text(held, g.view(s)))}")
        console.print(f"Kitty 底牌: {escape(' '.join(kitty))}")
