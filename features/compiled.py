"""The training path: whole games between linear players inside one compiled function.

`play_linear_game` runs `game.rules.kernel.setup`, then `decide -> game.rules.kernel.step` until
the game is over, all in `_play` (which also seats compiled bots by policy code);
`play_linear_games` calls it once per game with a fresh
`numpy.random.Generator(PCG64(seed))`. The moves equal `game.engine.play_game` with
`LinearPlayer` objects and the same seed, because both use the same `decide` and rule kernels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from features.decide import decide
from features.kernels import FeatureContext, feature_context
from features.players import carry
from features.registry import N_GENES
from features.search.plan import (
    N_PLAN,
    PS_NET,
    PS_PLACE,
    PS_ROLLOUTS,
    PS_TOP_K,
    PlanWork,
    decide_plan,
    make_plan_work,
    searches,
)
from features.search.value import MAX_HIDDEN
from features.work import Work, make_work
from game.bots.kernels import BotWork, make_bot_work
from game.bots.table import COMPILED_BOTS, compiled_decide
from game.map import Map, classic_map
from game.referee import game_rngs
from game.rules import layout as L
from game.rules.jit import allocating_kernel, inline_rule_kernel, rule_kernel
from game.rules.kernel import setup, step
from game.rules.layout import MapArrays, StateArrays
from game.rules.queries import standing
from game.state import Rules, State


class CompiledGameError(RuntimeError):
    """The compiled loop produced an action the rules reject (a bug, never bad input)."""


@dataclass(frozen=True)
class LinearOutcome:
    """Result of one compiled game; per-player arrays are in input (weights row) order."""

    placements: np.ndarray  # int32[k], 1 = best
    rounds: int
    capped: bool
    winner: int  # player index, -1 when capped
    seats: np.ndarray  # int64[k]: perm[seat] = player index
    actions: int  # decisions applied


# The loop's calls of `decide` and `step` are folded into it: numba passes a tuple argument as
# its flattened fields (7 words per array), so each call of a kernel taking the board, the state
# and the scratch copies some 130-260 words, more than many decisions cost.
_decide_inline = inline_rule_kernel(decide.py_func)
_step_inline = inline_rule_kernel(step.py_func)


@rule_kernel
def _turns(m: MapArrays, fx: FeatureContext, rules: np.ndarray, weights: np.ndarray,
           policies: np.ndarray, rng: np.random.Generator, s: StateArrays, work: Work,
           bot_work: BotWork, trace: np.ndarray, perm: np.ndarray, plans: np.ndarray,
           pwork: PlanWork | None, prng: np.random.Generator) -> tuple[int, int]:
    """Play the dealt game in s to its end; returns (actions, error); trace rows get (seat,
    kind, a, b, c).

    Player p decides with `decide` and its weights row when policies[p] == 0, else it is that
    compiled bot (game.bots.table); the branch costs nothing measurable per decision. A
    linear player whose plans[p] has rollouts plans its attacks (`decide_plan`, drawing from
    prng: the generator the Python engine would give that player).
    """
    sc, armies = s.sc, s.armies
    work.players.memo[:] = 0
    n = 0
    while sc[L.S_PHASE] != L.PH_OVER:
        seat = sc[L.S_CURRENT]
        phase = sc[L.S_PHASE]
        p = perm[seat]
        pre_a, pre_b, pre_q = 0, 0, 0
        if policies[p] == 0:
            # A game without planning players passes no pwork: numba prunes this branch at
            # compile time, so greedy games neither compile nor carry the search.
            if pwork is not None and searches(plans[p], phase):
                kind, a, b, c = decide_plan(m, fx, s, rules, weights[p], plans[p], work, pwork,
                                            prng)
            else:
                kind, a, b, c = _decide_inline(m, fx, s, rules, weights[p], work)
            if kind == L.A_ATTACK:
                pre_a, pre_b, pre_q = armies[a], armies[b], s.owner[b]
        else:
            kind, a, b, c = compiled_decide(policies[p], m, s, rules, bot_work)
        err = _step_inline(m, s, rules, rng, kind, a, b, c)
        # The decision's summaries, carried to the next decision where a step changes little.
        carry(m, s, seat, phase, kind if policies[p] == 0 else -1, a, b, pre_a, pre_b, pre_q,
              work.players)
        if n < trace.shape[0]:
            trace[n, 0] = seat
            trace[n, 1] = kind
            trace[n, 2] = a
            trace[n, 3] = b
            trace[n, 4] = c
        n += 1
        if err != L.E_OK:
            return n, err
    return n, 0


@allocating_kernel
def _play(m: MapArrays, fx: FeatureContext, rules: np.ndarray, weights: np.ndarray,
          policies: np.ndarray, rng: np.random.Generator, s: StateArrays, work: Work,
          bot_work: BotWork, trace: np.ndarray, plans: np.ndarray, pwork: PlanWork | None,
          prng: np.random.Generator) -> tuple[np.ndarray, int, int]:
    """Deal a game in s and play it (`_turns`); returns (perm, actions, error)."""
    perm = setup(m, s, rules, rng)
    n, err = _turns(m, fx, rules, weights, policies, rng, s, work, bot_work, trace, perm,
                    plans, pwork, prng)
    return perm, n, err


_NO_TRACE = np.zeros((0, 5), dtype=np.int64)


def _run(weights: np.ndarray, seed: np.random.SeedSequence | int, rules: Rules, mp: Map,
         fx: FeatureContext, trace: np.ndarray, policies: np.ndarray | None = None,
         bot_work: BotWork | None = None, plans: np.ndarray | None = None
         ) -> tuple[LinearOutcome, State]:
    k = weights.shape[0]
    state = State.empty(mp, k, one_buffer=False)
    pol = np.zeros(k, dtype=np.int32) if policies is None else policies
    bw = make_bot_work(mp.kernel) if bot_work is None else bot_work
    pl = np.zeros((k, N_PLAN)) if plans is None else plans
    planning = np.flatnonzero((pl[:, PS_ROLLOUTS] > 0) & (pol == 0))
    if planning.size:
        # The search draws from the generator the Python engine gives its player; several
        # planning players share the first one's (their games then differ from the Python
        # engine's, where each draws from its own: one generator keeps the loop's arguments
        # fixed).
        rng, children = game_rngs(seed, k)
        prng = children[int(planning[0])]
    else:
        rng = prng = np.random.Generator(np.random.PCG64(seed))
    pwork = make_plan_work(mp.kernel, state.kernel) if planning.size else None
    perm, n, err = _play(mp.kernel, fx, rules.vector(), weights, pol, rng, state.kernel,
                         make_work(mp.kernel, k), bw, trace, pl, pwork, prng)
    if err != L.E_OK:
        raise CompiledGameError(f"compiled loop: action {n} rejected with error code {err}")
    end = standing(state.kernel, perm, rules.cap)
    out = LinearOutcome(end.placements, end.rounds, end.capped, end.winner, perm.copy(), int(n))
    return out, state


def _args(weights: np.ndarray, rules: Rules | None, map: Map | None
          ) -> tuple[np.ndarray, Rules, Map]:
    """Validated (weights, rules, map): the kernels have no bounds checks."""
    mp = classic_map() if map is None else map
    rl = Rules() if rules is None else rules
    w = np.ascontiguousarray(weights, dtype=np.float64)
    if w.ndim < 2 or w.shape[-1] != N_GENES:
        raise ValueError(f"weights must end in the {N_GENES} genes of the layout, got shape "
                         f"{w.shape}")
    if not np.isfinite(w).all():
        raise ValueError("weights must be finite (found NaN or inf)")
    rl.check(mp, w.shape[-2])
    return w, rl, mp


def play_linear_game(weights: np.ndarray, seed: np.random.SeedSequence | int,
                     rules: Rules | None = None, map: Map | None = None) -> LinearOutcome:
    """One game between len(weights) linear players (weights f64[k, G]); rules/map default."""
    w, rl, mp = _args(weights, rules, map)
    if w.ndim != 2 or not 2 <= w.shape[0] <= 6:
        raise ValueError(f"weights must be f64[k, G] with 2 <= k <= 6, got shape {w.shape}")
    return _run(w, seed, rl, mp, feature_context(mp.kernel), _NO_TRACE)[0]


def play_linear_games(weights: np.ndarray, seeds: Sequence[np.random.SeedSequence | int],
                      rules: Rules | None = None, map: Map | None = None
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Many games: weights f64[n_games, k, G] -> (placements i32[n, k], rounds, capped)."""
    w = np.asarray(weights)
    return play_mixed_games(w, np.zeros(w.shape[:2], dtype=np.int32), seeds, rules, map)


def _policies(policies: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Validated policy codes int32 of `shape` (0 = linear, else a code of COMPILED_BOTS)."""
    pol = np.ascontiguousarray(policies, dtype=np.int32)
    if pol.shape != shape:
        raise ValueError(f"policies must have shape {shape}, got {pol.shape}")
    bad = ~np.isin(pol, [0, *COMPILED_BOTS.values()])
    if bad.any():
        raise ValueError(f"policy code {int(pol[bad][0])} is neither 0 (linear) nor a compiled "
                         f"bot ({', '.join(f'{n}={c}' for n, c in COMPILED_BOTS.items())})")
    return pol


def _plans(plans: np.ndarray | None, shape: tuple[int, ...]) -> np.ndarray | None:
    """Validated plan settings f64[..., k, N_PLAN] (`features.search.player.PlanSettings
    .vector`; rows of 0 rollouts play greedy)."""
    if plans is None:
        return None
    p = np.ascontiguousarray(plans, dtype=np.float64)
    if p.shape != (*shape, N_PLAN):
        raise ValueError(f"plans must have shape {(*shape, N_PLAN)}, got {p.shape}")
    if not np.isfinite(p).all():
        raise ValueError("plans must be finite (found NaN or inf)")
    counts = p[..., [PS_ROLLOUTS, PS_TOP_K, PS_PLACE, PS_NET]]
    bad = (counts < 0) | (counts != np.floor(counts))
    if bad.any():
        raise ValueError("plans' rollouts, top_k, place and unit count must be whole numbers "
                         f">= 0 (PlanSettings.vector), got {counts[bad][0]}")
    if (p[..., PS_NET] > MAX_HIDDEN).any():
        raise ValueError(f"plans' unit count must be at most {MAX_HIDDEN} (PlanSettings.vector)")
    return p


def play_mixed_game(weights: np.ndarray, policies: np.ndarray,
                    seed: np.random.SeedSequence | int, rules: Rules | None = None,
                    map: Map | None = None, plans: np.ndarray | None = None) -> LinearOutcome:
    """`play_linear_game` where policies int[k] > 0 seat a compiled bot (`COMPILED_BOTS`)
    instead of that player's weights row (then unused), and `plans` f64[k, N_PLAN] may make
    linear players plan their attacks (several share the first planning player's generator)."""
    w, rl, mp = _args(weights, rules, map)
    if w.ndim != 2 or not 2 <= w.shape[0] <= 6:
        raise ValueError(f"weights must be f64[k, G] with 2 <= k <= 6, got shape {w.shape}")
    pol = _policies(policies, w.shape[:1])
    pl = _plans(plans, w.shape[:1])
    return _run(w, seed, rl, mp, feature_context(mp.kernel), _NO_TRACE, pol, plans=pl)[0]


def play_mixed_games(weights: np.ndarray, policies: np.ndarray,
                     seeds: Sequence[np.random.SeedSequence | int], rules: Rules | None = None,
                     map: Map | None = None, plans: np.ndarray | None = None
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`play_linear_games` where policies int[n_games, k] > 0 seat a compiled bot instead of
    that player's weights row (which is then unused); plans f64[n_games, k, N_PLAN] as in
    `play_mixed_game`."""
    w, rl, mp = _args(weights, rules, map)
    if w.ndim != 3 or w.shape[0] != len(seeds):
        raise ValueError(f"weights must be f64[n_games, k, G] with n_games = len(seeds) "
                         f"= {len(seeds)}, got shape {w.shape}")
    pol = _policies(policies, w.shape[:2])
    pl = _plans(plans, w.shape[:2])
    fx = feature_context(mp.kernel)
    bot_work = make_bot_work(mp.kernel)  # scratch only: shared by every game of the batch
    n = w.shape[0]
    place = np.zeros((n, w.shape[1]), dtype=np.int32)
    rounds = np.zeros(n, dtype=np.int32)
    capped = np.zeros(n, dtype=np.bool_)
    for g in range(n):
        out, _ = _run(w[g], seeds[g], rl, mp, fx, _NO_TRACE, pol[g], bot_work,
                      None if pl is None else pl[g])
        place[g] = out.placements
        rounds[g] = out.rounds
        capped[g] = out.capped
    return place, rounds, capped


def trace_linear_game(weights: np.ndarray, seed: np.random.SeedSequence | int,
                      rules: Rules | None = None, map: Map | None = None,
                      max_actions: int = 200_000, policies: np.ndarray | None = None,
                      plans: np.ndarray | None = None) -> tuple[LinearOutcome, np.ndarray]:
    """Like `play_linear_game` (with optional compiled-bot `policies` int[k] and `plans`), also
    returning every decision as rows (seat, kind, a, b, c)."""
    w, rl, mp = _args(weights, rules, map)
    pol = None if policies is None else _policies(policies, w.shape[:1])
    trace = np.zeros((max_actions, 5), dtype=np.int64)
    out, _ = _run(w, seed, rl, mp, feature_context(mp.kernel), trace, pol,
                  plans=_plans(plans, w.shape[:1]))
    return out, trace[: min(out.actions, max_actions)]
