"""复盘 — analysis of a finished hand: the search bot's judgment of every decision one seat made.

For each decision of the seat during the card play (a choice among two or more legal
actions), :func:`analyze_decision` estimates the seat's expected final score after the
action it took and after each of a few alternatives — the candidates the ``search`` bot
would compare (:data:`paiju.bots.search.CANDIDATE_MAKERS`), plus the action taken:

- **from the seat's own information** (the honest judgment): the position is rebuilt from
  the record, the seat's view at that moment is taken, and worlds — the hidden cards dealt
  at random consistently with that view (:func:`paiju.bots.search.sampled_worlds`) — are
  drawn until the budget is spent. In each world every candidate is played and the rest
  of the hand played out by the heuristic bot; the seat's final score is noted. Every
  candidate meets the same worlds, so the *loss* of the action taken — the best
  candidate's mean score less the taken one's — is measured world by world and its
  standard error is that of the paired differences;
- **double-dummy** (optional, labelled so): the same candidates played out once each in the
  real deal (the heuristic's play-out is deterministic). It says what the play cost with
  the cards as they lay, which the seat could not see.

A decision is marked 失误 (a mistake) when its loss is at least :data:`MISTAKE` points of
the game's score and 疑问手 (dubious) when at least :data:`DUBIOUS`, in both cases only when
the loss is also at least :data:`SURE` standard errors above zero — a loss the worlds
cannot tell from noise is not marked. The loss is measured in two stages: the candidates
are compared on one set of worlds to pick the challenger (the best of them), and the
challenger is then played against the action taken on fresh worlds, which alone give the
loss and its standard error (the best of several picked on the same worlds looks better
than it is); a verdict still open then is measured longer, once, up to :data:`EXTEND`
times the budget in all. Scores are each game's
own — Baohuang's points (±1 … ±12 and more), Shuangkou's ±1/±2/±3 — but Shengji's are
judged by the points 分 the seat's side ends with (:func:`side_points`): its levels are a
step of those points, too coarse for one decision to show.

Decisions before the play (登基, 明保, 亮主, 扣底 …) and forced ones (one legal action) are
listed as not analysed: worlds are sampled in the play only. ``docs/ai.md`` says how far
to trust the numbers.

>>> import paiju
>>> g = paiju.new_game("shuangkou", seed=3)
>>> while not g.is_over:
...     g.apply(g.legal_actions()[-1])
>>> steps = decision_steps(g.record(), 0)
>>> d = analyze_decision(g.record(), 0, steps[-1], seconds=0.05, worlds=4)
>>> d["taken"]["mean"] >= d["best"]["mean"] - d["loss"] - 1e-9 and d["worlds"] >= 1
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, Future
from typing import Any

from paiju.bots.base import make_bot
from paiju.bots.search import (
    CANDIDATE_MAKERS,
    CANDIDATES,
    MAX_WORLDS,
    ROLLOUTS,
    final_score,
    mean_se,
    play_outs,
    sampled_worlds,
)
from paiju.errors import IllegalAction
from paiju.game import Game
from paiju.registry import replay
from paiju.shengji.game import team_of

VERSION = 1
"""Of the analysis's JSON form (a cached analysis of another version is made again)."""
SECONDS = 1.0
"""Default budget per decision, in seconds."""
DUBIOUS = {"baohuang": 0.75, "shengji": 5.0, "shuangkou": 0.4}
"""Expected loss (in the game's :data:`UNITS`) from which a decision is 疑问手."""
MISTAKE = {"baohuang": 2.0, "shengji": 10.0, "shuangkou": 1.0}
"""Expected loss from which a decision is 失误."""


def side_points(game: Game, seat: int) -> float:
    """Shengji: the points 分 of the seat's side at the end — the defenders' points (the
    kitty's bonus and penalties included) for a defender, less them for a declarer. The
    level change is a step of these points (every 40 in two packs), so a decision that
    gives away 10 points moves the expected levels by a fraction that worlds cannot
    resolve; the points show it."""
    result = game.result  # type: ignore[attr-defined]
    defender = team_of(seat) != team_of(result["declarer"])
    return float(result["defender_points"] if defender else -result["defender_points"])


VALUES: dict[str, Callable[[Game, int], float]] = {"shengji": side_points}
"""What a decision is judged by, where not the game's own score (:func:`final_score`)."""
UNITS = {"baohuang": "points", "shengji": "card points of the side", "shuangkou": "points"}
EXTEND = 4.0
"""A decision takes its budget twice — once to choose the challenger among the candidates,
once to measure its loss on fresh worlds — and a verdict still open then (a loss big
enough to mark, not yet two standard errors sure) is measured longer, up to this many
times the budget in all."""
SURE = 2.0
"""A loss is marked only when it is at least this many standard errors above zero (one
standard error would mark noise about one decision in six)."""
MIN_WORLDS = 8
"""Nor from fewer worlds: a standard error from a handful of worlds is itself a guess."""

Progress = Callable[[int, int], None]


def mark_of(game: str, loss: float, se: float | None, worlds: int = MIN_WORLDS) -> str | None:
    """ "mistake", "dubious" or None for a ``loss`` estimated on ``worlds`` worlds with
    standard error ``se`` (None: the double-dummy play-out, exact for its one deal).

    >>> mark_of("baohuang", 3.0, 0.5), mark_of("baohuang", 3.0, 2.0), mark_of("baohuang", 1.0, None)
    ('mistake', None, 'dubious')
    >>> mark_of("baohuang", 3.0, 0.5, worlds=3)
    """
    if se is not None and (loss < SURE * se or worlds < MIN_WORLDS):
        return None
    if loss >= MISTAKE[game]:
        return "mistake"
    if loss >= DUBIOUS[game]:
        return "dubious"
    return None


def position(record: Mapping[str, Any], step: int) -> Game:
    """The game of ``record`` before its action number ``step`` (0-based)."""
    return replay({**record, "actions": list(record["actions"][:step])})


def decision_steps(record: Mapping[str, Any], seat: int) -> list[int]:
    """The steps (0-based action indices) where ``seat`` chose among two or more actions
    in the card play: the decisions :func:`analyze_decision` judges."""
    return [d["step"] for d in seat_actions(record, seat) if d["why"] is None]


def seat_actions(record: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """Every action ``seat`` took, with why it is not analysed (None: it is)."""
    game = replay({**record, "actions": []})
    if not 0 <= seat < game.num_players:
        raise IllegalAction(f"a {game.name} game has seats 0 to {game.num_players - 1}", code="bad_seat", seat=seat)
    out = []
    for step, text in enumerate(record["actions"]):
        if game.to_act == seat:
            why = None
            if game.phase != "play":
                why = "before_play"
            elif len(game.legal_actions()) < 2:
                why = "forced"
            out.append({"step": step, "action": text, "why": why})
        game.apply(text)
    if not game.is_over:
        raise IllegalAction("this hand is still being played", code="hand_not_over")
    return out


def analyze_decision(
    record: Mapping[str, Any],
    seat: int,
    step: int,
    *,
    seconds: float = SECONDS,
    worlds: int = MAX_WORLDS,
    candidates: int = CANDIDATES,
    double_dummy: bool = False,
    seed: int = 0,
    extend: float = EXTEND,
) -> dict[str, Any]:
    """The judgment of ``seat``'s action number ``step`` (module doc), as JSON-ready data.

    Raises :class:`IllegalAction` when that action is not a decision of the seat in the play.
    """
    game = position(record, step)
    legal = game.legal_actions()
    if game.to_act != seat or game.phase != "play" or len(legal) < 2:
        raise IllegalAction(f"action {step} is not a decision of seat {seat} in the play", code="bad_argument")
    taken = game.parse_action(record["actions"][step])
    view = game.view(seat)
    name = game.name
    heuristic = make_bot("heuristic", game=name).act(view, legal)
    cands = [taken] + [a for a in CANDIDATE_MAKERS[name](view, legal, heuristic, candidates) if a != taken]
    cands = cands[: max(2, candidates)]
    rollout = ROLLOUTS[name]["heuristic"]
    value = VALUES.get(name, final_score)
    rng = random.Random(f"{seed}:{seat}:{step}")
    source = sampled_worlds(name, view, rng)
    # 1. choose: every candidate on the same worlds; the best mean is the challenger
    chosen = play_outs(source, cands, seat, rollout, seconds, worlds, value)
    ests = [mean_se(row) for row in chosen]
    challenger = max(range(len(cands)), key=lambda i: (ests[i][0], i == 0))
    taken_est, best_est, best = ests[0], ests[0], 0
    loss = loss_se = 0.0
    measured = len(chosen[0])
    if challenger:
        # 2. measure, on fresh worlds: the best of several picked on the same worlds looks
        # better than it is, so its loss is measured anew — the taken action against the
        # challenger only — and, while the verdict is open, measured longer (once: a verdict
        # looked at again and again until it says "sure" would be sure too often)
        pair = [cands[0], cands[challenger]]
        duel = play_outs(source, pair, seat, rollout, seconds, worlds, value)
        gain = mean_se([b - t for t, b in zip(duel[0], duel[1], strict=True)])
        if _open(name, gain[0], gain[1], len(duel[0])) and extend > 2:
            more = play_outs(source, pair, seat, rollout, seconds * (extend - 2), worlds - len(duel[0]), value)
            duel = [duel[0] + more[0], duel[1] + more[1]]
            gain = mean_se([b - t for t, b in zip(duel[0], duel[1], strict=True)])
        measured = len(duel[0])
        taken_est = mean_se(duel[0])
        if gain[0] > 0:  # the challenger held up: it is the better play, by this much
            best, best_est, (loss, loss_se) = challenger, mean_se(duel[1]), gain
        else:  # it did not: the action taken was as good as any found
            best_est, loss_se = taken_est, gain[1]
    out: dict[str, Any] = {
        "step": step,
        "action": str(taken),
        "legal": len(legal),
        "taken": {"action": str(taken), "mean": taken_est[0], "se": taken_est[1]},
        "best": {"action": str(cands[best]), "mean": best_est[0], "se": best_est[1]},
        "loss": loss,
        "loss_se": loss_se,
        "mark": mark_of(name, loss, loss_se, measured) if best else None,
        "worlds": measured,
        "candidates": [
            {"action": str(a), "mean": m, "se": se, "worlds": len(chosen[0])}
            for a, (m, se) in zip(cands, ests, strict=True)
        ],
        "dd": None,
    }
    if double_dummy:
        true = play_outs([game], cands, seat, rollout, 0.0, 1, value)
        values = [row[0] for row in true]
        b = max(range(len(cands)), key=lambda i: (values[i], i == 0))
        out["dd"] = {
            "taken": values[0],
            "best": {"action": str(cands[b]), "value": values[b]},
            "loss": values[b] - values[0],
            "mark": mark_of(name, values[b] - values[0], None) if b else None,
        }
    return out


def _open(game: str, loss: float, se: float, worlds: int) -> bool:
    """A loss that would be marked if it held up, but is not sure yet."""
    return loss >= DUBIOUS[game] and mark_of(game, loss, se, worlds) is None


def summary(decisions: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Counts of the analysed decisions and their marks, and the total estimated loss."""
    return {
        "decisions": len(decisions),
        "dubious": sum(d["mark"] == "dubious" for d in decisions),
        "mistakes": sum(d["mark"] == "mistake" for d in decisions),
        "loss": sum(d["loss"] for d in decisions),
    }


def analyze(
    record: Mapping[str, Any],
    seat: int,
    *,
    seconds: float = SECONDS,
    worlds: int = MAX_WORLDS,
    candidates: int = CANDIDATES,
    double_dummy: bool = False,
    seed: int = 0,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> dict[str, Any]:
    """Every decision of ``seat`` in the finished hand ``record`` judged (module doc).

    ``seconds`` and ``worlds`` bound each decision's search; ``progress(done, total)`` is
    called as decisions finish; with an ``executor`` (a process pool) the decisions are
    judged in parallel. The result is JSON-ready: ``decisions``, ``not_analysed`` (with
    ``why``: ``before_play`` or ``forced``), ``summary`` and the settings.
    """
    listed = seat_actions(record, seat)
    steps = [d["step"] for d in listed if d["why"] is None]
    kw = {"seconds": seconds, "worlds": worlds, "candidates": candidates, "double_dummy": double_dummy, "seed": seed}
    if progress:
        progress(0, len(steps))
    judgments: list[dict[str, Any]] = []
    unsampled: list[int] = []
    if executor is None:
        results: Any = (judge_or_none(record, seat, s, kw) for s in steps)
    else:
        futures: list[Future[dict[str, Any] | None]] = [
            executor.submit(judge_or_none, dict(record), seat, s, kw) for s in steps
        ]
        results = (f.result() for f in futures)
    for s, d in zip(steps, results, strict=True):
        if d is None:
            unsampled.append(s)
        else:
            judgments.append(d)
        if progress:
            progress(len(judgments) + len(unsampled), len(steps))
    return assemble(record, seat, judgments, listed, seconds=seconds, double_dummy=double_dummy, unsampled=unsampled)


def judge_or_none(record: Mapping[str, Any], seat: int, step: int, kw: Mapping[str, Any]) -> dict[str, Any] | None:
    """:func:`analyze_decision`'s answer, or None when no world of the seat's view can be
    built (none is known in a consistent view; the decision is then listed as not analysed)."""
    try:
        return analyze_decision(record, seat, step, **kw)
    except IllegalAction as e:
        if getattr(e, "code", None) == "cannot_sample":
            return None
        raise


def assemble(
    record: Mapping[str, Any],
    seat: int,
    judged: Sequence[Mapping[str, Any]],
    listed: Sequence[Mapping[str, Any]],
    *,
    seconds: float,
    double_dummy: bool,
    unsampled: Sequence[int] = (),
) -> dict[str, Any]:
    """The whole analysis from its judged decisions (:func:`analyze`'s result);
    ``unsampled``: decisions whose view no world could be built for."""
    game = str(record["game"])
    skipped = [{"step": d["step"], "action": d["action"], "why": d["why"]} for d in listed if d["why"]]
    lost = [d for d in listed if d["step"] in unsampled]
    skipped += [{"step": d["step"], "action": d["action"], "why": "cannot_sample"} for d in lost]
    return {
        "version": VERSION,
        "game": game,
        "seat": seat,
        "budget": seconds,
        "double_dummy": double_dummy,
        "rollout": "heuristic",
        "unit": UNITS[game],
        "thresholds": {"dubious": DUBIOUS[game], "mistake": MISTAKE[game], "sure": SURE, "min_worlds": MIN_WORLDS},
        "decisions": list(judged),
        "not_analysed": sorted(skipped, key=lambda d: d["step"]),
        "summary": summary(judged),
    }
