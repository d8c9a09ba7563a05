"""保皇 Baohuang in the terminal: roles (emperor, guard, rebels), the setup questions,
places 头客 … 大落."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape

from paiju.game import Game
from paiju.terminal.base import Presenter

ROLES = {
    "emperor": "皇帝 emperor",
    "guard": "侍卫 guard",
    "rebel": "rebel",
    "solo": "独 solo emperor",
}
SOLO = {"open": "明独 open solo", "hidden": "暗独 hidden solo"}


class BaohuangPresenter(Presenter):
    name = "baohuang"
    suitless = True
    places = ("头客", "二客", "三客", "二落", "大落")
    roles = ROLES
    role_order = ("emperor", "guard", "rebel", "solo")
    steps = {
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
    step_help = {
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

    def role_text(self, view: Mapping[str, Any], s: int) -> str:
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

    def notes(self, view: Mapping[str, Any]) -> list[str]:
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
        return notes

    def show_hand(self, console: Console, view: Mapping[str, Any]) -> None:
        super().show_hand(console, view)
        hand = view.get("hand")
        called = view.get("called")
        if hand is not None and called and called in hand:
            console.print(f"You hold the called card {called}: playing it reveals you.")

    def event_text(self, e: Mapping[str, Any], labels: Sequence[str]) -> str | None:
        kind = e.get("event")
        if "action" in e or kind not in ("redeal", "emperor", "open_solo", "guard_revealed", "tribute"):
            return super().event_text(e, labels)
        who = self.who(e, labels)
        if kind == "redeal":
            return "[cyan]Nobody took the throne: redeal.[/cyan]"
        if kind == "emperor":
            return f"[yellow]{who} is the emperor 皇帝.[/yellow]"
        if kind == "open_solo":
            return f"[yellow]{who} plays 明独 open solo: alone against everyone.[/yellow]"
        if kind == "guard_revealed":
            if e.get("solo"):
                return f"[yellow]{who} is alone: {escape(SOLO.get(e['solo'], str(e['solo'])))}.[/yellow]"
            return f"[yellow]{who} is the guard 侍卫.[/yellow]"
        gifts = ", ".join(f"{escape(labels[g])} gives {escape(c)}" for g, c in e.get("cards") or ())
        return f"[cyan]Tribute 上贡: {gifts or 'nothing'}.[/cyan]"

    def outcome(self, game: Game) -> tuple[list[str], list[bool]]:
        view = game.view(None)
        roles = view.get("roles") or []
        out = []
        for s in range(game.num_players):
            role = roles[s] if s < len(roles) and roles[s] else f"seat {s}"
            if role == "emperor" and view.get("solo"):
                role = "solo"
            out.append(str(role))
        return out, [p > 0 for p in game.scores]
