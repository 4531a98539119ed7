"""Why a riskevo linear bot made a decision: one account for the command line (`arena explain`),
the web page's log lines (live and replayed) and its hint.

A decision's record (`features.search.explain.Why`) is made by the player as it decides: the
position it saw, the action it played and, when its search decided, what the plan compared.
`account` turns a record into words (plain first, the arithmetic behind) and data. Where no
record exists (a transcript line, a line the bot did not play), `reestimate` makes the bot decide
again in the position the transcript rebuilds: the account then says so, and says when the line
records another move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from arena.bots import GameArgError, is_bot_file, read_bot_file
from arena.plainwords import highlight, plain
from arena.play import labels_for
from features.explain import ExplainError, describe, explain, to_json
from features.explain.words import action_words
from features.linear import map_context
from features.search.explain import Why, decide_now
from features.search.player import PlanSettings
from features.why import record_from_json
from game.actions import parse_action
from game.map import Map
from game.protocol import Action4
from game.record.position import Positions, position_at
from game.record.transcript import RecordError, records
from game.state import Rules, State


def bot_of(spec: str) -> tuple[np.ndarray, PlanSettings]:
    """A bot file's weights and how it plays (GameArgError for anything else)."""
    if not is_bot_file(spec):
        raise GameArgError(f"BOT must be a riskevo bot file (a genome .json), got {spec!r}")
    try:
        bot = read_bot_file(spec)
    except (OSError, ValueError) as e:
        raise GameArgError(f"BOT {e}") from None
    return bot.weights, bot.settings


def line_action(lines: Sequence[str], no: int, m: Map) -> Action4 | None:
    """The action transcript line `no` (1-based) records, None for a line that is not one."""
    parts = lines[no - 1].strip().split(" ", 2)
    if len(parts) < 3 or not parts[0].startswith("r") or not parts[1].startswith("s"):
        return None
    try:
        return tuple(int(x) for x in parse_action(parts[2].partition(" = ")[0],
                                                  m).encode())  # type: ignore[return-value]
    except ValueError:
        return None


def reestimate(st: State, m: Map, rules: Rules, weights: np.ndarray, plan: PlanSettings,
               no: int) -> Why:
    """The bot deciding again in the position of transcript line `no` (a planning player draws a
    fixed sample, seeded by the line: the same answer every time it is asked)."""
    return decide_now(st, m, rules, weights, plan, np.random.default_rng([no, 7]))


def played_by(lines: Sequence[str], seat: int) -> tuple[str, str]:
    """Who played `seat` as the transcript header names it: ('seat N (player P, 'label')',
    the label or 'seat N')."""
    seats = next((x.split()[1:] for x in lines if x.startswith("seats ")), [])
    player = seats[seat] if seat < len(seats) else "?"
    label = next((x.split(" ", 2)[2] for x in lines
                  if x.startswith(f"player {player} ") and len(x.split(" ", 2)) == 3), None)
    return (f"seat {seat}" + (f" (player {player}, {label!r})" if label is not None else ""),
            label or f"seat {seat}")


def account(why: Why, m: Map, rules: Rules, weights: np.ndarray, who: str, *,
            recorded: bool, played: Action4 | None = None, by: str = "",
            line: int = 0, label: str = "") -> dict[str, Any]:
    """A decision explained: `plain` (words first), `text` (the arithmetic), `highlight` (the
    move's territories), `explanation` (data), the move (`action`, `move`), whether it is the
    decision's own record (`recorded`) and a `note` when the line (`played`, by `by`) records
    another move than the one explained (`label`: who played it, in plain words)."""
    try:
        ex = explain(m.kernel, map_context(m), why.state.kernel, rules.vector(), weights)
    except ExplainError as e:
        raise GameArgError(str(e)) from None
    k, a, b, c = why.action
    action: Action4 = (int(k), int(a), int(b), int(c))
    note = None
    if played is not None and tuple(played) != action:
        note = (f"{f'line {line}' if line else 'this line'} was played by "
                f"{by or 'another player'}, and {who!r} chooses "
                "otherwise there: what follows is its own choice, not the line's")
    plan_text = why.plan.words(m) if why.plan is not None else None
    data = {**to_json(ex, m), "action": list(action), "text": action_words(m, action)}
    if why.plan is not None:
        data["plan"] = {"options": [{"source": o.source, "target": o.target, "value": o.value}
                                    for o in why.plan.options],
                        "greedy": why.plan.greedy, "margin": why.plan.margin}
    weighed = describe(ex, m, who)
    if why.plan is not None and tuple(int(x) for x in ex.action) != action:
        # The arithmetic below is the weights' own ranking; the plan played another move.
        weighed = (f"its weights alone would {action_words(m, ex.action)}; its plan chose to "
                   f"{action_words(m, action)} instead (above)\n"
                   + describe(ex, m, f"{who}'s weights alone"))
    text = ((f"note: {note}\n" if note else "") + (f"plan: {plan_text}\n" if plan_text else "")
            + weighed)
    words = plain(data, why.state, m, why.plan)
    if note and label == who:
        words = (f"Thinking it over again (the game kept no record of this decision, and its "
                 f"plan samples the hidden cards afresh), {who} would now choose otherwise, so "
                 f"this is not the move made: {words}")
    elif not recorded:
        words += (" Worked out again from the board: the game kept no record of this decision"
                  + (", and a plan samples the hidden cards afresh, so a close call can come "
                     "out otherwise." if why.plan else "."))
    if note and label != who:
        words = (f"This move was {label or 'another player'}'s; {who} would choose otherwise, "
                 f"and this is its own choice: {words}")
    return {"bot": who, "action": list(action), "move": action_words(m, action),
            "recorded": recorded, "note": note, "plan": plan_text, "text": text,
            "plain": words, "highlight": highlight(data), "explanation": data}


def transcript_account(spec: str, lines: Sequence[str], no: int, record: Why | None = None,
                       positions: Positions | None = None) -> dict[str, Any]:
    """Transcript line `no` (1-based) explained by bot file `spec`: from the decision's own
    `record` (given, or carried by the transcript after its end: `game.record.transcript.records`)
    when it is the line's, else decided again (`reestimate`); `positions` as `position_at`'s."""
    weights, plan = bot_of(spec)
    st, m, rules, line = position_at(lines, no, positions)
    played = line_action(lines, no, m)
    if record is None:
        record = carried(lines, no, st)
    who = labels_for([spec])[0]
    seat = int(line.split()[1][1:])
    if record is not None and played is not None and tuple(record.action) == played:
        out = account(record, m, rules, weights, who, recorded=True)
    else:
        why = reestimate(st, m, rules, weights, plan, no)
        by, label = played_by(lines, seat)
        out = account(why, m, rules, weights, who, recorded=False, played=played, by=by,
                      line=no, label=label)
    return {"line": no, "played": line, **out}


def carried(lines: Sequence[str], no: int, st: State) -> Why | None:
    """The record transcript `lines` carry for action line `no` (in position `st`), if any;
    GameArgError naming a record that cannot be read."""
    try:
        data = records(lines).get(no)
        return None if data is None else record_from_json(data, st)
    except RecordError as e:
        raise GameArgError(str(e)) from None
    except ValueError as e:
        raise GameArgError(f"the record of line {no}: {e}") from None


def ask(spec: str, st: State, m: Map, rules: Rules, rng: np.random.Generator) -> dict[str, Any]:
    """What bot file `spec` does in position `st`, as it plays (its plan included): the hint."""
    weights, plan = bot_of(spec)
    why = decide_now(st, m, rules, weights, plan, rng)
    return account(why, m, rules, weights, labels_for([spec])[0], recorded=True)


__all__ = ["account", "ask", "bot_of", "carried", "line_action", "played_by", "reestimate",
           "transcript_account"]
