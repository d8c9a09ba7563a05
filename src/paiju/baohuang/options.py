"""Baohuang room options: the four presets and every toggle of the spec (§3 table).

A preset (``variant``) sets the toggles; any toggle given explicitly overrides it.

>>> resolve_options(variant="qingdao")["tribute"], resolve_options(kao=True)["kao"]
(True, True)
"""

from __future__ import annotations

from typing import Any

from paiju.errors import IllegalAction

PRESETS: dict[str, dict[str, Any]] = {
    # 普通玩法 / 简明玩法 (固定保)
    "standard": dict(
        deck="full",
        guard="card",
        abdication="standard",
        solo_grab=False,
        grab_needs_four=False,
        guard_choice="auto",
        rebellion=True,
        kick=False,
        yield_turn=False,
        tribute=False,
        forced_four_exempts=False,
    ),
    # 经典玩法 (叫侍卫)
    "classic": dict(
        deck="full",
        guard="call",
        abdication="classic",
        solo_grab=True,
        grab_needs_four=False,
        guard_choice="auto",
        rebellion=True,
        kick=False,
        yield_turn=False,
        tribute=False,
        forced_four_exempts=True,
    ),
    # 威海玩法
    "weihai": dict(
        deck="weihai",
        guard="card",
        abdication="weihai",
        solo_grab=True,
        grab_needs_four=False,
        guard_choice="auto",
        rebellion=True,
        kick=True,
        yield_turn=False,
        tribute=False,
        forced_four_exempts=False,
    ),
    # 青岛玩法
    "qingdao": dict(
        deck="full",
        guard="call",
        abdication="qingdao",
        solo_grab=True,
        grab_needs_four=True,
        guard_choice="choose",
        rebellion=True,
        kick=True,
        yield_turn=True,
        tribute=True,
        forced_four_exempts=False,
    ),
}

COMMON: dict[str, Any] = dict(
    deal_start="first_finisher",  # first_finisher 头客 (seed 002) | previous_emperor (seed 001)
    pass_is_final=False,  # a player who passed may play again when the turn comes back
    hold_sixes=False,  # 憋6
    hold_rank="6",
    kao=False,  # 烤牌
    leave_penalty=40,  # applied by the server
    unfinished_places="cards",  # cards (revised) | seat (records of version 1, paiju.versions)
    first_seat=0,  # the first dealt seat (a match sets it from deal_start)
    tribute_due=None,  # tribute owed from the previous hand (a match sets it)
)

CHOICES: dict[str, tuple[Any, ...]] = {
    "variant": tuple(PRESETS),
    "deck": ("full", "no345", "weihai"),
    "guard": ("card", "call"),
    "abdication": ("standard", "classic", "qingdao", "weihai"),
    "guard_choice": ("auto", "choose"),
    "deal_start": ("first_finisher", "previous_emperor"),
    "unfinished_places": ("cards", "seat"),
}
BOOLEANS = (
    "solo_grab",
    "grab_needs_four",
    "rebellion",
    "kick",
    "yield_turn",
    "tribute",
    "forced_four_exempts",
    "pass_is_final",
    "hold_sixes",
    "kao",
)

OPTION_NAMES = ("variant", *PRESETS["standard"], *COMMON)


def resolve_options(variant: str = "standard", **overrides: Any) -> dict[str, Any]:
    """All options of a room: the preset's toggles, then the overrides, validated."""
    if variant not in PRESETS:
        raise IllegalAction(
            f"unknown Baohuang variant {variant!r}; choose one of {', '.join(PRESETS)}",
            code="bad_option",
            option="variant",
        )
    unknown = set(overrides) - set(OPTION_NAMES)
    if unknown:
        raise IllegalAction(
            f"unknown Baohuang option(s) {', '.join(sorted(unknown))}; options are {', '.join(OPTION_NAMES)}",
            code="bad_option",
            option=", ".join(sorted(unknown)),
        )
    opts: dict[str, Any] = {"variant": variant, **PRESETS[variant], **COMMON}
    opts.update({k: v for k, v in overrides.items()})
    for name, allowed in CHOICES.items():
        if opts[name] not in allowed:
            raise IllegalAction(
                f"option {name}={opts[name]!r} is not one of {', '.join(map(str, allowed))}",
                code="bad_option",
                option=name,
            )
    for name in BOOLEANS:
        if not isinstance(opts[name], bool):
            raise IllegalAction(
                f"option {name} must be true or false, not {opts[name]!r}", code="bad_option", option=name
            )
    if opts["yield_turn"]:
        opts["pass_is_final"] = True  # 让牌 makes a pass final
    if opts["guard"] == "call" and opts["abdication"] in ("standard", "weihai"):
        raise IllegalAction(
            f"abdication={opts['abdication']} needs guard=card (a fixed guard card)",
            code="bad_option",
            option="abdication",
        )
    if opts["guard"] == "card" and opts["abdication"] in ("classic", "qingdao"):
        raise IllegalAction(
            f"abdication={opts['abdication']} needs guard=call (the emperor calls a guard)",
            code="bad_option",
            option="abdication",
        )
    if not isinstance(opts["first_seat"], int) or not 0 <= opts["first_seat"] < 5:
        raise IllegalAction("first_seat must be a seat 0-4", code="bad_option", option="first_seat")
    if not isinstance(opts["leave_penalty"], int) or opts["leave_penalty"] < 0:
        raise IllegalAction(
            "leave_penalty must be a non-negative number of points", code="bad_option", option="leave_penalty"
        )
    from paiju.baohuang.plays import strength_of_text

    held = strength_of_text(str(opts["hold_rank"]))
    if held > 12:
        raise IllegalAction("hold_rank must be an ordinary rank, not a joker", code="bad_option", option="hold_rank")
    return opts


OPTION_HELP: dict[str, str] = {
    "deck": "cards: full 216, no345 168 (without 3, 4, 5), weihai 165 (no345 minus three 6s)",
    "guard": "card: the holder of the guard card SJ* is guard; call: the emperor calls a suit+rank",
    "abdication": "how the emperor card is passed on when declined (让位)",
    "solo_grab": "抢独: any player may declare an open solo before play",
    "grab_needs_four": "抢独 only with a suited four (Qingdao)",
    "guard_choice": "auto: the best triple is called automatically; choose: the emperor chooses",
    "rebellion": "造反: two rebels declaring reveal the guard and double the stake",
    "kick": "踢: after a rebellion or 明保, double again",
    "yield_turn": "让牌: wait instead of passing (Qingdao)",
    "tribute": "上贡/吃贡 between hands (Qingdao)",
    "forced_four_exempts": "in the forced cycle 逼庄 a holder of a suited four may still decline (经典玩法)",
    "unfinished_places": "players left holding cards: placed by cards held (fewer first) or, in old records, by seat",
    "deal_start": "who is dealt first in the next hand: the first finisher 头客 or the previous emperor",
    "pass_is_final": "a player who passed may not play again in the same trick",
    "hold_sixes": "憋6: the held rank may be played only in the play that empties the hand",
    "hold_rank": "the rank held back under hold_sixes",
    "kao": "烤牌: jokers may be faced by more jokers (BJ BJ over BJ, SJ SJ over SJ, SJ SJ SJ over BJ)",
    "leave_penalty": "points lost by a player who leaves a started hand",
}


def describe_options() -> dict[str, Any]:
    """Presets and every room option with its type, choices and default (for the hall)."""
    defaults = resolve_options()
    opts = []
    for name in OPTION_NAMES:
        if name in ("variant", "first_seat", "tribute_due", "unfinished_places"):  # unfinished_places: old records
            continue
        kind = (
            "bool"
            if name in BOOLEANS
            else "choice"
            if name in CHOICES
            else "int"
            if name == "leave_penalty"
            else "rank"
        )
        entry: dict[str, Any] = {
            "name": name,
            "type": kind,
            "default": defaults[name],
            "help": OPTION_HELP.get(name, ""),
        }
        if name in CHOICES:
            entry["choices"] = list(CHOICES[name])
        opts.append(entry)
    return {
        "presets": {k: dict(v) for k, v in PRESETS.items()},
        "preset_option": "variant",
        "default_preset": "standard",
        "options": opts,
        "seats": 5,
    }
