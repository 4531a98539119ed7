"""Playing on from a position: the rollouts a search runs, with the greedy player as policy.

`copy_state` fills a scratch position from another (no allocation, so kernels may call it);
`finish_attack` plays one seat's greedy decisions until its attack phase is over,
`finish_round` every seat's until that seat's next turn and `play_on` every seat's to the
game's end, the way `features.compiled` plays them (the same `decide`, `step` and `carry`,
through `apply_greedy`).
"""

from __future__ import annotations

import numpy as np

from features.decide import decide
from features.kernels import FeatureContext
from features.players import carry
from features.work import Work
from game.rules import layout as L
from game.rules.jit import inline_rule_kernel
from game.rules.kernel import step
from game.rules.layout import MapArrays, StateArrays


@inline_rule_kernel
def copy_state(dst: StateArrays, src: StateArrays) -> None:
    """dst's arrays := src's (the same board and seat count), element by element: slice
    assignment would need numba's runtime, which rule kernels run without."""
    for t in range(src.owner.shape[0]):
        dst.owner[t] = src.owner[t]
        dst.armies[t] = src.armies[t]
    for c in range(src.cards.shape[0]):
        dst.cards[c] = src.cards[c]
    for q in range(src.pl.shape[0]):
        for j in range(src.pl.shape[1]):
            dst.pl[q, j] = src.pl[q, j]
    for j in range(src.sc.shape[0]):
        dst.sc[j] = src.sc[j]
    for j in range(src.ev.shape[0]):
        dst.ev[j] = src.ev[j]


@inline_rule_kernel
def apply_greedy(m: MapArrays, s: StateArrays, rules: np.ndarray, rng: np.random.Generator,
                 work: Work, kind: int, a: int, b: int, c: int) -> bool:
    """Apply the seat to move's greedy decision and carry its summaries to the next one, as
    the compiled loop does; False when the rules reject it."""
    seat, ph = s.sc[L.S_CURRENT], s.sc[L.S_PHASE]
    pre_a, pre_b, pre_q = 0, 0, 0
    if kind == L.A_ATTACK:
        pre_a, pre_b, pre_q = s.armies[a], s.armies[b], s.owner[b]
    if step(m, s, rules, rng, kind, a, b, c) != L.E_OK:
        return False
    carry(m, s, seat, ph, kind, a, b, pre_a, pre_b, pre_q, work.players)
    return True


@inline_rule_kernel
def finish_attack(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
                  w: np.ndarray, rng: np.random.Generator, work: Work, seat: int,
                  max_steps: int) -> int:
    """Play seat's greedy decisions (weights w) from s until it would stop attacking, its
    turn reaches fortify or passes, or the game ends; the stop itself is not applied, so the
    turn's conquest flag still shows. Returns the steps applied, -1 on a rejected action."""
    sc = s.sc
    work.players.memo[:] = 0
    n = 0
    while n < max_steps:
        ph = sc[L.S_PHASE]
        if ph == L.PH_OVER or ph == L.PH_FORTIFY or sc[L.S_CURRENT] != seat:
            break
        kind, a, b, c = decide(m, fx, s, rules, w, work)
        if kind == L.A_STOP or kind < 0:
            break
        if not apply_greedy(m, s, rules, rng, work, kind, a, b, c):
            return -1
        n += 1
    return n


@inline_rule_kernel
def finish_round(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
                 w: np.ndarray, rng: np.random.Generator, work: Work, seat: int,
                 max_steps: int) -> int:
    """From seat's turn in s, play every seat greedily with weights w (the seat's model of its
    rivals) until seat's next turn begins or the game ends. Returns the steps applied, -1 on a
    rejected action."""
    sc = s.sc
    turns = sc[L.S_TURNS]
    work.players.memo[:] = 0
    n = 0
    while n < max_steps:
        ph = sc[L.S_PHASE]
        cur = sc[L.S_CURRENT]
        if (ph == L.PH_OVER or s.pl[seat, L.P_ALIVE] == 0
                or (cur == seat and sc[L.S_TURNS] != turns)):
            break
        kind, a, b, c = decide(m, fx, s, rules, w, work)
        if not apply_greedy(m, s, rules, rng, work, kind, a, b, c):
            return -1
        n += 1
    return n


@inline_rule_kernel
def play_on(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
            w: np.ndarray, rng: np.random.Generator, work: Work, max_steps: int) -> int:
    """Play every seat greedily from s, seat q with weights w[q] (f64[P, G]), until the game
    ends or max_steps actions were applied: the whole-game rollout a search starts from any
    position (a determinized one, when the seat to move must not see the rest). Returns the
    steps applied, -1 on a rejected action."""
    sc = s.sc
    work.players.memo[:] = 0
    n = 0
    while n < max_steps and sc[L.S_PHASE] != L.PH_OVER:
        kind, a, b, c = decide(m, fx, s, rules, w[sc[L.S_CURRENT]], work)
        if not apply_greedy(m, s, rules, rng, work, kind, a, b, c):
            return -1
        n += 1
    return n


@inline_rule_kernel
def fight(m: MapArrays, s: StateArrays, rules: np.ndarray, rng: np.random.Generator, a: int,
          t: int) -> int:
    """Roll from a on t while the battle is worth going on (`worth_fighting`); returns the
    rolls made, -1 on a rejected action."""
    n = 0
    while s.sc[L.S_PHASE] == L.PH_ATTACK and worth_fighting(s, s.sc[L.S_CURRENT], a, t):
        if step(m, s, rules, rng, L.A_ATTACK, a, t, np.int64(0)) != L.E_OK:
            return -1
        n += 1
    return n


@inline_rule_kernel
def worth_fighting(s: StateArrays, seat: int, a: int, t: int) -> bool:
    """A battle a -> t goes on while t is still a rival's and a outnumbers it (a has more
    armies than t, so at least 2); when the odds have turned the search chooses again."""
    return s.owner[a] == seat and s.owner[t] != seat and s.armies[a] > s.armies[t] \
        and s.armies[a] >= 2


__all__ = ["apply_greedy", "copy_state", "fight", "finish_attack", "finish_round", "play_on",
           "worth_fighting"]
