"""The bot server's legality check (`arena.serve.answers.legal`) agrees with the rule kernel.

`legal` judges an answer on a protocol request's board, where no live game stands behind the
view; here, at every decision of seeded games, each candidate answer (legal or not) is also
tried with `kernel.step` on a copy of the state, and both verdicts must be the same.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from arena.serve.answers import legal
from game.actions import END_TRADE, SKIP, STOP, Action, Attack, Fortify, MoveIn, Place, Trade
from game.bots import RandomBot
from game.decision import Decision, DecisionKind
from game.engine import play_game
from game.state import Rules
from game.view import GameView
from tests.helpers.positions import Verdicts


def _candidates(view: GameView, d: Decision) -> list[Action]:
    m, arm = view.map, view.armies
    t_all = range(m.n_territories)
    k = d.kind
    if k is DecisionKind.PLACE_INITIAL:
        return [Place(t, n) for t in t_all for n in (1, 2)]
    if k is DecisionKind.REINFORCE:
        return [Place(t, n) for t in t_all for n in (0, 1, d.armies, d.armies + 1)]
    if k is DecisionKind.TRADE:
        hand = list(view.hand)
        foreign = next(c for c in range(len(view.full_state().cards)) if c not in hand)
        out: list[Action] = [END_TRADE, *(Trade(t) for t in combinations(hand, 3))]
        out += [Trade((*p, foreign)) for p in combinations(hand, 2)]
        return out
    if k is DecisionKind.ATTACK:
        return [STOP, *(Attack(a, int(b), dice) for a in t_all
                        for b in view.neighbours(a) for dice in range(5))]
    if k is DecisionKind.MOVE_IN:
        return [MoveIn(n) for n in range(d.lo - 1, d.hi + 2)]
    return [SKIP, *(Fortify(a, b, n) for a in view.mine().tolist() for b in t_all if a != b
                    for n in (0, 1, int(arm[a]) - 1, int(arm[a])))]


class Checker(RandomBot):
    """A random player that first compares both verdicts on every candidate answer."""

    def __init__(self, counts: dict[str, int]) -> None:
        super().__init__()
        self.counts = counts

    def act(self, view: GameView, decision: Decision) -> Any:
        """Check, then answer at random."""
        req = {"armies": decision.armies, "compulsory": decision.compulsory,
               "lo": decision.lo, "hi": decision.hi}
        ask = decision.kind.value
        verdicts = Verdicts(view.map, view.full_state(), view.rules_vector)
        for act in _candidates(view, decision):
            assert legal(view, ask, act, req) == verdicts.accepts(*act.encode()), (ask, act)
        self.counts[ask] = self.counts.get(ask, 0) + 1
        return super().act(view, decision)


@pytest.mark.parametrize("rules", [Rules(cap=8), Rules(cap=8, path_fortify=True, trade_at=4),
                                   Rules(cap=8, missions=True, bonus_every_set=True)], ids=str)
def test_server_legality_is_the_kernels(rules: Rules) -> None:
    counts: dict[str, int] = {}
    play_game([Checker(counts) for _ in range(3)], seed=5, rules=rules)
    assert set(counts) == {k.value for k in DecisionKind}, counts
