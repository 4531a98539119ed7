"""Every option of a decision with the score the linear player gave it, term by term.

`explain` walks the options of the decision to move in the order `features.decide` scans them,
fills each option's features with the decision's own kernels (`reinforce_into`, `target_into`,
`pair_into`, `fortify_into`, ...) and scores it with the decision's own expressions in the same
order, so each score is the very float the decision compared. Each option carries its terms,
gene weight x feature value, which sum to the score up to rounding. The threshold a decision
must clear (attack, fortify, an optional trade) comes with its own terms. The answer is then
checked against `decide` itself in the same position: an explanation that disagrees with what
the player plays is an `ExplainError`, never shown.
"""

from __future__ import annotations

import numpy as np

from features import registry as F
from features.decide import _army_terms, _varies, decide, place_run
from features.explain.model import Bar, ExplainError, Explanation, Option, Term
from features.genome import LAYOUT
from features.kernels import (
    FeatureContext,
    attack_elim,
    attack_plan,
    dot,
    fortify_into,
    garrison,
    holds,
    hostile,
    pair_into,
    place_pool,
    plan_of,
    reinforce_into,
    source_guard,
    target_into,
    thin_share,
)
from features.moves import _components, fortify_count, fortify_marks, fortify_pair
from features.players import SC_HAND, SC_LEADER, Players, continent_term, make_players, pressure
from features.players import stagers as fill_stagers
from features.players import summarize as fill_summary
from features.trade import _trade_bar
from features.work import Action4, make_work
from game.rules import layout as L
from game.rules.cards import set_value
from game.rules.kernel import trade_compulsory
from game.rules.layout import MapArrays, StateArrays
from game.rules.queries import bonus_open

_KIND_OF_PHASE = {L.PH_SETUP: "placement", L.PH_REINFORCE: "reinforcement",
                  L.PH_TRADE: "trade", L.PH_ATTACK: "attack", L.PH_OCCUPY: "move-in",
                  L.PH_FORTIFY: "fortify"}


def _names(off: int, n: int) -> tuple[str, ...]:
    return LAYOUT.names[off:off + n]


def _terms(w: np.ndarray, off: int, values: np.ndarray | list[float]) -> tuple[Term, ...]:
    return tuple(Term(g, float(w[off + i]), float(values[i]))
                 for i, g in enumerate(_names(off, len(values))))


def _ranked(options: list[Option], first: int) -> tuple[Option, ...]:
    """The decision's pick first, then the others by score (scan order on ties)."""
    rest = sorted((o for i, o in enumerate(options) if i != first), key=lambda o: -o.score)
    return (options[first], *rest) if first >= 0 else tuple(rest)


def _place(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray, w: np.ndarray,
           seat: int, pl: Players) -> tuple[Action4, list[Option], int, str]:
    """`features.decide.decide_place`, option by option."""
    owner, armies = s.owner, s.armies
    g0 = F.G_REINFORCE
    plans, elims = w[g0 + F.RF_PLAN_NEED] != 0.0, w[g0 + F.RF_ELIM_NEED] != 0.0
    if plans or elims:
        fill_stagers(m, s, seat, pl)
    leader = int(pl.scalars[SC_LEADER])
    m18 = bool(rules[L.R_MISSIONS] != 0 and s.pl[seat, L.P_MISSION] == L.M_18_TWO)
    pool = place_pool(s)
    options: list[Option] = []
    parts: list[tuple[float, int, int, float, int, float, float, float, float, float]] = []
    best, second, bs, ss = -1, -1, -np.inf, -np.inf
    for t in range(owner.shape[0]):
        if owner[t] != seat:
            continue
        pb = pk = eb = ek = 0.0
        if plans:
            pb, pk = plan_of(fx.bonus_norm, t, armies[t], pool, pl.cost, pl.stager)
        if elims:
            eb, ek = plan_of(pl.evalue, t, armies[t], pool, pl.ecost, pl.estager)
        f = np.zeros(F.NR)
        reinforce_into(m, fx, s, rules, seat, t, armies[t], pl.cnt, pl.strength, leader, pb, pk,
                       eb, ek, f)
        fixed = 0.0
        for i in range(F.NR):
            if not _varies(i):
                fixed += w[g0 + i] * f[i]
        nh, h, big = hostile(m, owner, armies, seat, t)
        c = m.continent_of[t]
        guard = fx.bonus_norm[c] if pl.cnt[c] == m.continent_size[c] else 0.0
        g = garrison(nh, big)
        v = fixed + _army_terms(w, h, big, armies[t], m18, f[F.RF_MISSION], g, guard, pb, pk,
                                eb, ek)
        if v > bs:
            second, ss, best, bs = best, bs, len(options), v
        elif v > ss:
            second, ss = len(options), v
        options.append(Option((L.A_PLACE, t, 1, 0), float(v), _terms(w, g0, f)))
        parts.append((fixed, h, big, f[F.RF_MISSION], g, guard, pb, pk, eb, ek))
    if best < 0:
        return (-1, 0, 0, 0), options, -1, "no territory to place on"
    t_best = options[best].action[1]
    count, note = 1, "one army at a time in the initial placement"
    if s.sc[L.S_PHASE] == L.PH_REINFORCE:
        fixed, h, big, mval, g, guard, pb, pk, eb, ek = parts[best]
        a0, t2 = armies[t_best], (options[second].action[1] if second >= 0 else -1)
        count = place_run(w, t_best, a0, pool, t2, ss, fixed, h, big, m18, mval, g, guard, pb,
                          pk, eb, ek)
        note = (f"places {count} of {pool}: the score rescored with each army placed stays "
                f"above the runner-up's {ss:.4f}" if second >= 0 else
                f"places all {pool}: no other territory to place on")
        if count < pool and second >= 0:
            v = fixed + _army_terms(w, h, big, a0 + count, m18, mval, g, guard, pb, pk, eb, ek)
            note += f"; one more army would score {v:.4f}"
    options[best] = Option((L.A_PLACE, t_best, count, 0), options[best].score,
                           options[best].terms)
    return (L.A_PLACE, t_best, count, 0), options, best, note


def _attack(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray, w: np.ndarray,
            seat: int, pl: Players) -> tuple[Action4, list[Option], int, Bar]:
    """`features.decide.decide_attack`, pair by pair, and its threshold."""
    owner, armies = s.owner, s.armies
    g0 = F.G_ATTACK
    leader = int(pl.scalars[SC_LEADER])
    w_win, w_ratio, w_left = w[g0 + F.AF_WIN], w[g0 + F.AF_RATIO], w[g0 + F.AF_LEFT_BEHIND]
    w_guard, w_plan, w_elim = (w[g0 + F.AF_SOURCE_GUARD], w[g0 + F.AF_PLAN],
                               w[g0 + F.AF_ELIM_PLAN])
    options: list[Option] = []
    best, bs = -1, -np.inf
    for a in range(owner.shape[0]):
        if owner[a] != seat or armies[a] < 2:
            continue
        nh, h_a, _big = hostile(m, owner, armies, seat, a)
        guard = source_guard(m, fx, pl.cnt, a) if nh > 0 else 0.0
        src = w_guard * guard if nh > 0 else 0.0
        for k in range(m.degree[a]):
            t = m.neighbours[a, k]
            if owner[t] == seat:
                continue
            f = np.zeros(F.NA)
            target_into(m, fx, s, rules, seat, t, pl.cnt, pl.holder, pl.nown, pl.hand,
                        pl.strength, leader, f)
            tscore = dot(w, g0, f, F.NA)  # pair and source slots are 0 here, as in decide
            pair_into(fx, armies[a], armies[t], h_a, f)
            v = tscore + src + w_win * f[F.AF_WIN] + w_ratio * f[F.AF_RATIO] + w_left * f[
                F.AF_LEFT_BEHIND]
            plan = attack_plan(m, fx, pl.cost, armies[a], t)
            elim = attack_elim(pl.ecost, pl.evalue, armies[a], owner[t])
            if w_plan != 0.0:
                v += w_plan * plan
            if w_elim != 0.0:
                v += w_elim * elim
            f[F.AF_SOURCE_GUARD], f[F.AF_PLAN], f[F.AF_ELIM_PLAN] = guard, plan, elim
            if v > bs:
                best, bs = len(options), v
            options.append(Option((L.A_ATTACK, a, int(t), 0), float(v), _terms(w, g0, f)))
    # The threshold in the decision's order; the thin term always (the decision skips it only
    # where it cannot change the answer).
    th = F.G_THRESHOLD_TERMS
    press = pressure(m, s, seat, pl) if best >= 0 else 0.0
    conq = 1.0 if s.sc[L.S_CONQUERED] != 0 else 0.0
    thin = thin_share(m, owner, armies, seat)
    thr = w[F.G_ATTACK_THRESHOLD]
    if w[th + F.TH_PRESSURE] != 0.0 and best >= 0:
        thr += w[th + F.TH_PRESSURE] * press
    thr += w[th + F.TH_CARDS] * pl.scalars[SC_HAND]
    if conq:
        thr += w[th + F.TH_CONQUERED]
    thr += w[th + F.TH_THIN] * thin
    terms = (Term("attack.threshold", float(w[F.G_ATTACK_THRESHOLD]), 1.0),
             *_terms(w, th, [press, pl.scalars[SC_HAND], conq, thin]))
    go = best >= 0 and bs > thr
    bar = Bar(terms, float(thr), bool(go))
    action = options[best].action if go else (L.A_STOP, 0, 0, 0)
    return action, options, best, bar


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
             w: np.ndarray, seat: int, pl: Players) -> tuple[Action4, list[Option], int, Bar, str]:
    """`features.moves.decide_fortify`, move by move, and its threshold."""
    owner, armies = s.owner, s.armies
    n_terr = owner.shape[0]
    g0 = F.G_FORTIFY
    w_dguard = w[g0 + F.FF_DEST_GUARD]
    garrisons = w[g0 + F.FF_DEST_NEED] != 0.0 or w_dguard != 0.0
    vant, border = np.zeros(n_terr), np.zeros(n_terr, dtype=np.int32)
    need_t, guard_t = np.zeros(n_terr), np.zeros(n_terr)
    fortify_marks(m, fx, owner, armies, seat, pl.cnt, garrisons, w_dguard != 0.0, vant, border,
                  need_t, guard_t)
    path = rules[L.R_PATH_FORTIFY] != 0
    comp = np.zeros(n_terr, dtype=np.int32)
    if path:
        _components(m, owner, seat, comp, np.zeros(n_terr, dtype=np.int32))
    options: list[Option] = []
    best, bs = -1, -np.inf
    for a in range(n_terr):
        if owner[a] != seat or armies[a] < 2:
            continue
        for b in range(n_terr):
            if not fortify_pair(owner, m.adjacency, comp, path, seat, a, b):
                continue
            f = np.zeros(F.NF)
            fortify_into(armies[a], armies[b], vant[a], vant[b], border[a] != 0, border[b] != 0,
                         need_t[b], guard_t[b], f)
            v = dot(w, g0, f, F.NF)
            if v > bs:
                best, bs = len(options), v
            options.append(Option((L.A_FORTIFY, a, b, 0), float(v), _terms(w, g0, f)))
    thr = w[F.G_FORTIFY_THRESHOLD]
    go = best >= 0 and bs > thr
    bar = Bar((Term("fortify.threshold", float(thr), 1.0),), float(thr), bool(go))
    if not go:
        return (L.A_SKIP, 0, 0, 0), options, best, bar, "does not fortify"
    _k, a, b, _c = options[best].action
    n = int(armies[a] - 1)
    count = int(fortify_count(w, n, border[a] != 0))
    note = (f"moves {count} of {n} movable armies: fortify.share {w[F.G_FORTIFY_SHARE]:.4f} "
            "of them, the source facing enemies" if border[a] != 0 else
            f"moves all {n} movable armies: the source has no hostile neighbour")
    options[best] = Option((L.A_FORTIFY, a, b, count), options[best].score, options[best].terms)
    return options[best].action, options, best, bar, note


def _trade(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray, w: np.ndarray,
           seat: int, pl: Players) -> tuple[Action4, list[Option], int, Bar | None, str]:
    """`features.trade.decide_trade`: every set by its armies, and the bar an optional one
    must reach."""
    owner, cards, kinds = s.owner, s.cards, m.card_kind
    n_terr = owner.shape[0]
    hand = [int(c) for c in np.flatnonzero(cards == seat)]
    open_ = bonus_open(s, rules)
    options: list[Option] = []
    best, bv, bw = -1, -1, 0
    for i, ci in enumerate(hand):
        for j in range(i + 1, len(hand)):
            for k in range(j + 1, len(hand)):
                cj, ck = hand[j], hand[k]
                ks = (kinds[ci], kinds[cj], kinds[ck])
                wilds = sum(x == L.WILD for x in ks)
                if wilds == 0 and len(set(ks)) == 2:
                    continue
                v = int(set_value(rules, s.sc[L.S_TRADES], *ks))
                bonus = open_ and any(c < n_terr and owner[c] == seat for c in (ci, cj, ck))
                v += L.CARD_BONUS if bonus else 0
                if v > bv or (v == bv and wilds < bw):
                    best, bv, bw = len(options), v, wilds
                options.append(Option((L.A_TRADE, ci, cj, ck), float(v),
                                      (Term("set value + bonus", 1.0, float(v)),)))
    if best < 0:
        return (L.A_END_TRADE, 0, 0, 0), options, -1, None, "no set in hand"
    if trade_compulsory(s, rules):
        return options[best].action, options, best, None, "trading is compulsory"
    bar_v = _trade_bar(m, fx, s, rules, w, pl, seat, bv)
    g = F.G_TRADE_TERMS
    x = [bv / (bv + pl.inc[seat]), pressure(m, s, seat, pl),
         continent_term(m, fx, s, seat, pl.cnt, bv),
         1.0 if pl.hand[seat] >= rules[L.R_TRADE_AT] - 1 else 0.0]
    terms = (Term("cards.trade_at", float(w[F.G_TRADE_AT]), F.TRADE_SCALE),
             *_terms(w, g, [-F.TRADE_SCALE * v for v in x]))
    go = not bv < bar_v
    bar = Bar(terms, float(bar_v), bool(go))
    action = options[best].action if go else (L.A_END_TRADE, 0, 0, 0)
    note = (f"an optional set is traded when worth at least {F.TRADE_SCALE:g} x (cards.trade_at"
            " - the trade terms) armies")
    return action, options, best, bar, note


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
    pl = make_players(m, s.pl.shape[0])
    fill_summary(m, s, rules, seat, pl)
    bar: Bar | None = None
    if kind in ("placement", "reinforcement"):
        action, options, first, note = _place(m, fx, s, rules, w, seat, pl)
    elif kind == "attack":
        action, options, first, bar = _attack(m, fx, s, rules, w, seat, pl)
        note = "attacks while the best option's score is above the threshold"
    elif kind == "move-in":
        action, options, note = _occupy(m, fx, s, w, seat)
        first = 0
    elif kind == "fortify":
        action, options, first, bar, note = _fortify(m, fx, s, rules, w, seat, pl)
    else:
        action, options, first, bar, note = _trade(m, fx, s, rules, w, seat, pl)
    played = tuple(int(x) for x in decide(m, fx, s, rules, w, make_work(m, s.pl.shape[0])))
    action = tuple(int(x) for x in action)  # type: ignore[assignment]
    if played != action:
        raise ExplainError(f"the explanation of a {kind} decision gives {action}, the player "
                           f"plays {played}: the explanation is out of step with features.decide")
    return Explanation(kind, seat, action, _ranked(options, first), bar, note)


__all__ = ["explain", "kind_of"]
