"""A decision's record, made by the player as it decides (`Why`): the position it saw, the
action it played and, when its search decided, what the plan compared (`PlanExplanation`, read
from the search's scratch by `features.search.plan.plan_record`). Plain data below the players
that make it (`features.linear`, `features.search.player`); `features.search.explain` and
`arena.why` read it."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from features.work import MAX_OPTIONS, Action4
from game.map import Map
from game.rules import layout as L
from game.state import State

GREEDY_PLACE = -2  # PlanOption.source of the greedy player's own placement


@dataclass(frozen=True)
class PlanOption:
    """One option the search compared: an attack (from, to), stopping (-1, -1), the turn's
    whole pool placed on t (t, t), or the greedy player's own placement (-2, -2)."""

    source: int
    target: int
    value: float  # mean value over the rollouts
    terms: tuple[tuple[str, float, float], ...]  # (term, weight, mean term value)

    @property
    def stop(self) -> bool:
        """True for the option of stopping the attack phase now."""
        return self.source == -1

    @property
    def placement(self) -> bool:
        """True for a placement (the whole pool on one territory, or the greedy one)."""
        return self.source == GREEDY_PLACE or (self.source >= 0 and self.source == self.target)

    def what(self, m: Map) -> str:
        """The option in words: "stop attacking", "attack B from A", "place every army on T",
        "place as its weights rank the territories"."""
        if self.stop:
            return "stop attacking"
        if self.source == GREEDY_PLACE:
            return "place as its weights rank the territories"
        if self.placement:
            return f"place every army on {m.territories[self.source]}"
        return f"attack {m.territories[self.target]} from {m.territories[self.source]}"


@dataclass(frozen=True)
class PlanExplanation:
    """The search's decision in a position: its action and what it compared, attacks or the
    turn's placements (empty when the decision continued a chosen battle or had nothing to
    weigh). The last option is the incumbent: stopping, or the greedy placement."""

    action: tuple[int, int, int, int]
    options: tuple[PlanOption, ...]
    rollouts: int
    horizon: str
    greedy: int = -1  # the option the greedy player would take (index into options)
    margin: float = 0.0

    def ranked(self) -> list[PlanOption]:
        """The options best first, as `decide_plan` compares them: the last option (stopping,
        or the greedy placement) is the incumbent, and another takes its place only with a
        strictly higher value."""
        order = [self.options[-1], *self.options[:-1]]  # the incumbent first, then scan order
        return sorted(order, key=lambda o: -o.value)

    def kept_greedy(self) -> bool:
        """True when the best plan was not worth the margin over the greedy choice."""
        if not self.options or self.greedy < 0:
            return False
        best, own = self.ranked()[0], self.options[self.greedy]
        return best is not own and best.value < own.value + self.margin

    def words(self, m: Map) -> str:
        """Plain words: the choice, its two largest terms, and the runner-up."""
        if not self.options:
            if self.action[0] == L.A_PLACE:
                return "place as its weights rank the territories: nothing to weigh it against"
            if self.action[0] != L.A_ATTACK:
                return "stop attacking: it has no attack to weigh"
            return (f"attack {m.territories[self.action[2]]} from "
                    f"{m.territories[self.action[1]]}: it goes on with the battle it chose "
                    "(it replans once the odds turn)")
        ranked = self.ranked()
        if self.kept_greedy():
            own, best = self.options[self.greedy], ranked[0]
            return (f"kept its greedy choice, to {own.what(m)}: the best plan, to "
                    f"{best.what(m)}, was only {best.value - own.value:.3f} better "
                    f"(it deviates for {self.margin:g} or more)")
        best, nxt = ranked[0], ranked[1] if len(ranked) > 1 else None
        when = "at its next turn" if self.horizon == "round" else "at the end of its attacks"
        what = best.what(m)
        top = sorted(best.terms, key=lambda t: -abs(t[1] * t[2]))[:2]
        why = ", ".join(f"{n.removeprefix('value.')} {w * x:+.2f}" for n, w, x in top)
        out = (f"planned: {what}, the best position {when} over {self.rollouts} sampled "
               f"continuations (value {best.value:.3f}; mostly {why})")
        if nxt is not None:
            out += f"; next best {nxt.what(m)}, {best.value - nxt.value:.3f} lower"
        return out


@dataclass(frozen=True)
class Why:
    """A decision as the player made it: the position it saw (a copy), the action it played
    and, when its search decided (an attack-phase decision of a planning player), what the
    plan compared. The greedy part is a function of the position alone
    (`features.explain.explain` reproduces it exactly and checks it against `decide`)."""

    state: State
    action: Action4
    plan: PlanExplanation | None = None

    @property
    def planned(self) -> bool:
        """True when the search made this decision (its options may be empty: it went on
        with a battle it had chosen, or had no attack)."""
        return self.plan is not None


HORIZONS = ("attack", "round")  # value the end of the attack phase, or the next turn's start


def record_json(why: Why) -> dict[str, Any]:
    """The record as JSON for a transcript (`game.record.transcript.why_line`): the move and the
    plan; the position is the transcript's own, rebuilt where it is read."""
    out: dict[str, Any] = {"action": [int(x) for x in why.action]}
    p = why.plan
    if p is not None:
        names = [t[0] for t in p.options[0].terms] if p.options else []
        out["plan"] = {
            "action": list(p.action), "rollouts": p.rollouts, "horizon": p.horizon,
            "greedy": p.greedy, "margin": p.margin, "terms": names,
            "weights": [t[1] for t in p.options[0].terms] if p.options else [],
            "options": [[o.source, o.target, o.value, [t[2] for t in o.terms]]
                        for o in p.options]}
    return out


def record_from_json(data: dict[str, Any], state: State) -> Why:
    """A record read back (`record_json`) in the position `state` the transcript rebuilds;
    ValueError naming the field that is not as written."""
    def ints(x: Any, n: int, what: str) -> tuple[int, ...]:
        if not isinstance(x, list) or len(x) != n or not all(type(v) is int for v in x):
            raise ValueError(f"{what} must be {n} whole numbers")
        return tuple(x)

    def num(x: Any, what: str) -> float:
        try:  # an integer beyond a float's range is not finite either
            ok = type(x) in (int, float) and math.isfinite(x)
        except OverflowError:
            ok = False
        if not ok:
            raise ValueError(f"{what} must be a finite number")
        return float(x)

    action = ints(data.get("action"), 4, "action")
    raw = data.get("plan")
    if raw is None:
        return Why(state, action)  # type: ignore[arg-type]
    if not isinstance(raw, dict):
        raise ValueError("plan must be an object")
    names, weights, options = raw.get("terms"), raw.get("weights"), raw.get("options")
    if (not isinstance(names, list) or not all(isinstance(n, str) and len(n) <= 80
                                               for n in names) or len(names) > 64):
        raise ValueError("plan.terms must be a list of at most 64 names")
    if not isinstance(weights, list) or len(weights) != len(names):
        raise ValueError("plan.weights must have one number per term")
    w = [num(x, "plan.weights") for x in weights]
    if not isinstance(options, list) or len(options) > MAX_OPTIONS + 1:
        raise ValueError(f"plan.options must be a list of at most {MAX_OPTIONS + 1}")
    opts = []
    for o in options:
        if not isinstance(o, list) or len(o) != 4 or not isinstance(o[3], list) or len(
                o[3]) != len(names):
            raise ValueError("each plan option must be [source, target, value, [term values]]")
        src, dst = ints(o[:2], 2, "a plan option's source and target")
        n_t = len(state.owner)
        if not ((src, dst) in ((-1, -1), (GREEDY_PLACE, GREEDY_PLACE))
                or (0 <= src < n_t and 0 <= dst < n_t)):
            raise ValueError(f"a plan option's source and target must be territories 0..{n_t - 1}"
                             f", or -1 -1 (stop), or {GREEDY_PLACE} {GREEDY_PLACE} (the greedy "
                             f"placement), got {src} {dst}")
        terms = tuple((n, wj, num(x, "a plan option's term"))
                      for n, wj, x in zip(names, w, o[3], strict=True))
        opts.append(PlanOption(src, dst, num(o[2], "a plan option's value"), terms))
    horizon = raw.get("horizon")
    if horizon not in HORIZONS:
        raise ValueError(f"plan.horizon must be one of {', '.join(HORIZONS)}")
    rollouts, greedy = raw.get("rollouts"), raw.get("greedy")
    if type(rollouts) is not int or type(greedy) is not int or not -1 <= greedy < max(1, len(
            opts)):
        raise ValueError("plan.rollouts and plan.greedy must be whole numbers in range")
    plan = PlanExplanation(ints(raw.get("action"), 4, "plan.action"),  # type: ignore[arg-type]
                           tuple(opts), rollouts, str(horizon), greedy,
                           num(raw.get("margin"), "plan.margin"))
    return Why(state, action, plan)  # type: ignore[arg-type]


__all__ = ["HORIZONS", "PlanExplanation", "PlanOption", "Why", "record_from_json", "record_json"]
