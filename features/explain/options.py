"""Every option of a decision with the score the linear player gave it, term by term.

`explain` ranks the options of the decision to move with the decision's own kernels
(`place_options`, `attack_options`, `fortify_options`, `trade_options`: what `decide` calls
for its best one or two) asking for all of them, so each option's action and score are the
very ones the decision compared, read from its option buffers (`features.work.Work.opt_*`),
best first in the decision's order. Each option's terms, gene weight x feature value, come from
the public feature kernels (`reinforce_into`, `target_into`, `pair_into`, `fortify_into`, ...)
with what the ranking left in the scratch; they sum to the score up to rounding. The threshold
a decision must clear (attack, fortify, an optional trade) comes with its own terms. The answer
is then checked against `decide` itself in the same position: an explanation that disagrees
with what the player plays is an `ExplainError`, never shown.
"""

from __future__ import annotations

from math import comb

import numpy as np

from features import registry as F
from features.decide import (
    attack_options,
    decide,
    mission_18,
    place_action,
    place_options,
    place_score,
)
from features.explain.model import Bar, ExplainError, Explanation, Option, Term
from features.genome import LAYOUT
from features.kernels import (
    FeatureContext,
    attack_elim,
    attack_plan,
    fortify_into,
    holds,
    hostile,
    pair_into,
    place_pool,
    reinforce_into,
    source_guard,
    target_into,
    thin_share,
)
from features.moves import fortify_count, fortify_options
from features.players import (
    PT_ELIM_B,
    PT_ELIM_K,
    PT_PLAN_B,
    PT_PLAN_K,
    SC_HAND,
    SC_LEADER,
    continent_term,
    pressure,
    summarize,
)
from features.trade import set_armies, trade_bar, trade_options
from features.work import Action4, Work, make_work
from game.rules import layout as L
from game.rules.kernel import trade_compulsory
from game.rules.layout import MapArrays, StateArrays

_KIND_OF_PHASE = {L.PH_SETUP: "placement", L.PH_REINFORCE: "reinforcement",
                  L.PH_TRADE: "trade", L.PH_ATTACK: "attack", L.PH_OCCUPY: "move-in",
                  L.PH_FORTIFY: "fortify"}


def _names(off: int, n: int) -> tuple[str, ...]:
    return LAYOUT.names[off:off + n]


def _terms(w: np.ndarray, off: int, values: np.ndarray | list[float]) -> tuple[Term, ...]:
    return tuple(Term(g, float(w[off + i]), float(values[i]))
                 for i, g in enumerate(_names(off, len(values))))


def _every_option(m: MapArrays, s: StateArrays) -> Work:
    """Scratch whose option buffers hold every option of the decision to move: at most one
    per pair of territories (placements, attacks, fortifies) or per set of the hand."""
    n_terr = len(m.continent_of)
    held = int(np.count_nonzero(s.cards == s.sc[L.S_CURRENT]))
    return make_work(m, s.pl.shape[0], options=n_terr * n_terr + comb(held, 3))


def _ranked(work: Work, n: int) -> list[tuple[int, int, int, float]]:
    """The n options the decision's kernel ranked into work: (a, b, c, score), best first."""
    return [(int(work.opt_a[i]), int(work.opt_b[i]), int(work.opt_c[i]), float(work.opt_v[i]))
            for i in range(n)]


def _place(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray, w: np.ndarray,
           seat: int, work: Work) -> tuple[Action4, list[Option], str]:
    """`features.decide.place_options`, every own territory, and `place_action`'s count."""
    n = place_options(m, fx, s, rules, w, work, len(work.opt_a))
    pl, armies = work.players, s.armies
    pt, leader = pl.place, int(pl.scalars[SC_LEADER])
    options: list[Option] = []
    for t, _b, _c, v in _ranked(work, n):
        f = np.zeros(F.NR)
        reinforce_into(m, fx, s, rules, seat, t, armies[t], pl.cnt, pl.strength, leader,
                       pt[t, PT_PLAN_B], pt[t, PT_PLAN_K], pt[t, PT_ELIM_B], pt[t, PT_ELIM_K], f)
        options.append(Option((L.A_PLACE, t, 1, 0), v, _terms(w, F.G_REINFORCE, f)))
    if n == 0:
        return (-1, 0, 0, 0), options, "no territory to place on"
    action = place_action(s, rules, w, work, n)
    _k, t_best, count, _c = (int(x) for x in action)
    note = "one army at a time in the initial placement"
    if s.sc[L.S_PHASE] == L.PH_REINFORCE:
        pool = place_pool(s)
        note = f"places all {pool}: no other territory to place on"
        if n > 1:
            note = (f"places {count} of {pool}: the score rescored with each army placed stays "
                    f"above the runner-up's {options[1].score:.4f}")
        if count < pool and n > 1:
            v = place_score(w, pt, t_best, armies[t_best] + count, mission_18(s, rules))
            note += f"; one more army would score {v:.4f}"
    options[0] = Option((L.A_PLACE, t_best, count, 0), options[0].score, options[0].terms)
    return options[0].action, options, note


def _attack(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray, w: np.ndarray,
            seat: int, work: Work) -> tuple[Action4, list[Option], Bar]:
    """`features.decide.attack_options`, every pair, and the threshold `attack_action`
    weighs the best against (`attack_threshold`)."""
    owner, armies = s.owner, s.armies
    n = attack_options(m, fx, s, rules, w, work, len(work.opt_a))
    pl = work.players
    leader = int(pl.scalars[SC_LEADER])
    options: list[Option] = []
    for a, t, _c, v in _ranked(work, n):
        f = np.zeros(F.NA)
        target_into(m, fx, s, rules, seat, t, pl.cnt, pl.holder, pl.nown, pl.hand, pl.strength,
                    leader, f)
        nh, h_a, _big = hostile(m, owner, armies, seat, a)
        pair_into(fx, armies[a], armies[t], h_a, f)
        f[F.AF_SOURCE_GUARD] = source_guard(m, fx, pl.cnt, a) if nh > 0 else 0.0
        f[F.AF_PLAN] = attack_plan(m, fx, pl.cost, armies[a], t)
        f[F.AF_ELIM_PLAN] = attack_elim(pl.ecost, pl.evalue, armies[a], owner[t])
        options.append(Option((L.A_ATTACK, a, t, 0), v, _terms(w, F.G_ATTACK, f)))
    # The threshold in the decision's order (`features.decide.attack_threshold`); the thin
    # term always (the decision skips it only where it cannot change the answer).
    th = F.G_THRESHOLD_TERMS
    press = pressure(m, s, seat, pl) if n > 0 else 0.0
    conq = 1.0 if s.sc[L.S_CONQUERED] != 0 else 0.0
    thin = thin_share(m, owner, armies, seat)
    thr = w[F.G_ATTACK_THRESHOLD]
    if w[th + F.TH_PRESSURE] != 0.0 and n > 0:
        thr += w[th + F.TH_PRESSURE] * press
    thr += w[th + F.TH_CARDS] * pl.scalars[SC_HAND]
    if conq:
        thr += w[th + F.TH_CONQUERED]
    thr += w[th + F.TH_THIN] * thin
    terms = (Term("attack.threshold", float(w[F.G_ATTACK_THRESHOLD]), 1.0),
             *_terms(w, th, [press, pl.scalars[SC_HAND], conq, thin]))
    go = n > 0 and options[0].score > thr
    bar = Bar(terms, float(thr), bool(go))
    return (options[0].action if go else (L.A_STOP, 0, 0, 0)), options, bar


def _occupy(m: MapArrays, fx: FeatureContext, s: StateArrays, w: np.ndarray,
            seat: int) -> tuple[Action4, list[Option], str]:
    """`features.moves.decide_occupy`: the move-in fraction and its terms."""
    owner, armies, sc = s.owner, s.armies, s.sc
    src, dst = sc[L.S_SRC], sc[L.S_DST]
    lo, hi = int(sc[L.S_MIN_MOVE]), int(armies[src] - 1)
    nh_s, _h, big_s = hostile(m, owner, armies, seat, src)
    hs = nh_s / m.degree[src]
    hd = hostile(m, owner, armies, seat, dst)[0] / m.degree[dst]
    guard = big_s / (big_s + armies[src])
    c = m.continent_of[src]
    cguard = fx.bonus_norm[c] if nh_s > 0 and holds(m, owner, seat, c) else 0.0
    frac = w[F.G_OCCUPY_SHARE] + w[F.G_OCCUPY_THREAT] * (hd - hs)
    if w[F.G_OCCUPY_GUARD] != 0.0:
        frac += w[F.G_OCCUPY_GUARD] * guard
    if w[F.G_OCCUPY_CONT_GUARD] != 0.0 and cguard != 0.0:
        frac += w[F.G_OCCUPY_CONT_GUARD] * cguard
    share = min(1.0, max(0.0, frac))
    n = int(min(hi, max(lo, lo + int(share * (hi - lo) + 0.5))))
    terms = (Term("occupy.share", float(w[F.G_OCCUPY_SHARE]), 1.0),
             Term("occupy.threat", float(w[F.G_OCCUPY_THREAT]), float(hd - hs)),
             Term("occupy.guard", float(w[F.G_OCCUPY_GUARD]), float(guard)),
             Term("occupy.continent_guard", float(w[F.G_OCCUPY_CONT_GUARD]), float(cguard)))
    note = (f"moves {lo} + round({share:.4f} x ({hi} - {lo})) = {n} of {lo}..{hi}: the share is "
            f"the terms' sum {frac:.4f} clipped to 0..1")
    return (L.A_MOVE, n, 0, 0), [Option((L.A_MOVE, n, 0, 0), float(frac), terms)], note


def _fortify(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
             w: np.ndarray, work: Work) -> tuple[Action4, list[Option], Bar, str]:
    """`features.moves.fortify_options`, every move, and the threshold `fortify_action` weighs
    the best against."""
    armies = s.armies
    n = fortify_options(m, fx, s, rules, w, work, len(work.opt_a))
    vant, border, need_t, guard_t = work.score, work.flags, work.need, work.guard
    options: list[Option] = []
    for a, b, _c, v in _ranked(work, n):
        f = np.zeros(F.NF)
        fortify_into(armies[a], armies[b], vant[a], vant[b], border[a] != 0, border[b] != 0,
                     need_t[b], guard_t[b], f)
        options.append(Option((L.A_FORTIFY, a, b, 0), v, _terms(w, F.G_FORTIFY, f)))
    thr = w[F.G_FORTIFY_THRESHOLD]
    go = n > 0 and options[0].score > thr
    bar = Bar((Term("fortify.threshold", float(thr), 1.0),), float(thr), bool(go))
    if not go:
        return (L.A_SKIP, 0, 0, 0), options, bar, "does not fortify"
    _k, a, b, _c = options[0].action
    movable = int(armies[a] - 1)
    count = int(fortify_count(w, movable, border[a] != 0))
    note = (f"moves {count} of {movable} movable armies: fortify.share "
            f"{w[F.G_FORTIFY_SHARE]:.4f} of them, the source facing enemies" if border[a] != 0
            else f"moves all {movable} movable armies: the source has no hostile neighbour")
    options[0] = Option((L.A_FORTIFY, a, b, count), options[0].score, options[0].terms)
    return options[0].action, options, bar, note


def _trade(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray, w: np.ndarray,
           seat: int, work: Work) -> tuple[Action4, list[Option], Bar | None, str]:
    """`features.trade.trade_options`, every set (shown by its armies), and the bar
    `trade_action` holds an optional one to (`trade_bar`)."""
    n = trade_options(m, s, rules, work, len(work.opt_a))
    options: list[Option] = []
    for a, b, c, rank in _ranked(work, n):
        armies = float(set_armies(m, rank, a, b, c))
        options.append(Option((L.A_TRADE, a, b, c), armies,
                              (Term("set value + bonus", 1.0, armies),)))
    if n == 0:
        return (L.A_END_TRADE, 0, 0, 0), options, None, "no set in hand"
    if trade_compulsory(s, rules):
        return options[0].action, options, None, "trading is compulsory"
    pl, bv = work.players, int(options[0].score)
    bar_v = trade_bar(m, fx, s, rules, w, pl, seat, bv)
    x = [bv / (bv + pl.inc[seat]), pressure(m, s, seat, pl),
         continent_term(m, fx, s, seat, pl.cnt, bv),
         1.0 if pl.hand[seat] >= rules[L.R_TRADE_AT] - 1 else 0.0]
    terms = (Term("cards.trade_at", float(w[F.G_TRADE_AT]), F.TRADE_SCALE),
             *_terms(w, F.G_TRADE_TERMS, [-F.TRADE_SCALE * v for v in x]))
    go = not bv < bar_v
    bar = Bar(terms, float(bar_v), bool(go))
    action = options[0].action if go else (L.A_END_TRADE, 0, 0, 0)
    note = (f"an optional set is traded when worth at least {F.TRADE_SCALE:g} x (cards.trade_at"
            " - the trade terms) armies")
    return action, options, bar, note


def kind_of(s: StateArrays) -> str | None:
    """The kind of decision (one of KINDS) the seat to move faces in s; None when over."""
    return _KIND_OF_PHASE.get(int(s.sc[L.S_PHASE]))


def explain(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
            w: np.ndarray) -> Explanation:
    """The decision of the seat to move in s, option by option (ExplainError if there is none
    or if the explanation does not reproduce `decide`'s answer)."""
    phase = int(s.sc[L.S_PHASE])
    kind = _KIND_OF_PHASE.get(phase)
    if kind is None:
        raise ExplainError(f"no decision to explain in phase {phase} (the game is over)")
    seat = int(s.sc[L.S_CURRENT])
    w = np.ascontiguousarray(w, dtype=np.float64)
    work = _every_option(m, s)
    summarize(m, s, rules, seat, work.players)
    bar: Bar | None = None
    if kind in ("placement", "reinforcement"):
        action, options, note = _place(m, fx, s, rules, w, seat, work)
    elif kind == "attack":
        action, options, bar = _attack(m, fx, s, rules, w, seat, work)
        note = "attacks while the best option's score is above the threshold"
    elif kind == "move-in":
        action, options, note = _occupy(m, fx, s, w, seat)
    elif kind == "fortify":
        action, options, bar, note = _fortify(m, fx, s, rules, w, work)
    else:
        action, options, bar, note = _trade(m, fx, s, rules, w, seat, work)
    played = tuple(int(x) for x in decide(m, fx, s, rules, w, make_work(m, s.pl.shape[0])))
    action = tuple(int(x) for x in action)  # type: ignore[assignment]
    if played != action:
        raise ExplainError(f"the explanation of a {kind} decision gives {action}, the player "
                           f"plays {played}: the explanation is out of step with features.decide")
    return Explanation(kind, seat, action, tuple(options), bar, note)


__all__ = ["explain", "kind_of"]
