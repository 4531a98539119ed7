"""Why the planning player chose an attack: the options it compared, each one's mean value at
the planning horizon and the terms that made it, read from the decision's own scratch.

`explain_plan` runs `decide_plan` once on a copy of the position with the generator it is
given and reports what that very call compared, so the explanation is the decision's own
arithmetic, never a second estimate.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from features.linear import map_context
from features.search.plan import decide_plan_boxed, make_plan_work
from features.search.player import PlanSettings
from features.search.value import NAMES, NV
from features.work import make_work
from game.jit import RngBox
from game.map import Map
from game.state import Rules, State


@dataclass(frozen=True)
class PlanOption:
    """One option the planner compared: an attack (from, to), or stopping (-1, -1)."""

    source: int
    target: int
    value: float  # mean value over the rollouts
    terms: tuple[tuple[str, float, float], ...]  # (term, weight, mean term value)

    @property
    def stop(self) -> bool:
        """True for the option of stopping the attack phase now."""
        return self.source < 0


@dataclass(frozen=True)
class PlanExplanation:
    """The planner's decision in a position: its action and what it compared (empty when the
    decision continued a chosen battle or was not an attack choice)."""

    action: tuple[int, int, int, int]
    options: tuple[PlanOption, ...]
    rollouts: int
    horizon: str
    greedy: int = -1  # the option the greedy player would take (index into options)
    margin: float = 0.0

    def ranked(self) -> list[PlanOption]:
        """The options best first, as `decide_plan` compares them: stopping is the incumbent
        and an attack takes its place only with a strictly higher value."""
        order = [self.options[-1], *self.options[:-1]]  # stopping first, then the scan order
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
            return "it goes on with the battle it chose (it replans once the odds turn)"
        ranked = self.ranked()
        if self.kept_greedy():
            own, best = self.options[self.greedy], ranked[0]
            return (f"kept its greedy choice, to {self._what(m, own)}: the best plan, to "
                    f"{self._what(m, best)}, was only {best.value - own.value:.3f} better "
                    f"(it deviates for {self.margin:g} or more)")
        best, nxt = ranked[0], ranked[1] if len(ranked) > 1 else None
        when = "at its next turn" if self.horizon == "round" else "at the end of its attacks"
        what = self._what(m, best)
        top = sorted(best.terms, key=lambda t: -abs(t[1] * t[2]))[:2]
        why = ", ".join(f"{n.removeprefix('value.')} {w * x:+.2f}" for n, w, x in top)
        out = (f"planned: {what}, the best position {when} over {self.rollouts} sampled "
               f"continuations (value {best.value:.3f}; mostly {why})")
        if nxt is not None:
            alt = "stopping" if nxt.stop else (
                f"attacking {m.territories[nxt.target]} from {m.territories[nxt.source]}")
            out += f"; next best {alt}, {best.value - nxt.value:.3f} lower"
        return out

    @staticmethod
    def _what(m: Map, o: PlanOption) -> str:
        return "stop attacking" if o.stop else (
            f"attack {m.territories[o.target]} from {m.territories[o.source]}")


def explain_plan(state: State, m: Map, rules: Rules, weights: np.ndarray, plan: PlanSettings,
                 rng: np.random.Generator) -> PlanExplanation:
    """The planning decision of the seat to move in `state`, with what it compared."""
    s = state.copy().kernel
    pw = make_plan_work(m.kernel, s)
    work = make_work(m.kernel, s.pl.shape[0])
    kind, a, b, c = decide_plan_boxed(m.kernel, map_context(m), s, rules.vector(), weights,
                                      plan.vector(), work, pw, RngBox(rng))
    n = int(pw.last[0])
    vw = plan.vector()[-NV:]
    options = []
    for i in range(n + 1):
        src, dst = (-1, -1) if i == n else (int(work.opt_a[i]), int(work.opt_b[i]))
        terms = tuple((NAMES[j], float(vw[j]), float(pw.tacc[i, j])) for j in range(NV))
        options.append(PlanOption(src, dst, float(pw.acc[i]), terms))
    action = (int(kind), int(a), int(b), int(c))
    return PlanExplanation(action, tuple(options) if n else (), int(pw.last[1]), plan.horizon,
                           int(pw.last[2]) if n else -1, plan.margin)


__all__ = ["PlanExplanation", "PlanOption", "explain_plan"]
