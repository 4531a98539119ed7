"""The linear player's army moves: the fortify decision and the move-in after a conquest.

Apart from `features.decide` (the dispatch, placements and attacks) along the seam between the
ranks that choose where to fight and the decisions that move armies already on the board.
"""

from __future__ import annotations

import numpy as np

from features import registry as F
from features.kernels import (
    FeatureContext,
    dot,
    fortify_into,
    garrison,
    holds,
    hostile,
    need,
)
from features.work import Action4, Work, keep_option
from game.rules import layout as L
from game.rules.jit import inline_rule_kernel
from game.rules.layout import MapArrays, StateArrays
from game.rules.queries import census_into


@inline_rule_kernel
def _components(m: MapArrays, owner: np.ndarray, seat: int, comp: np.ndarray,
                stack: np.ndarray) -> None:
    """Label the connected groups of seat's territories (comp = -1 elsewhere)."""
    neighbours, degree = m.neighbours, m.degree
    comp[:] = -1
    label = 0
    for r in range(owner.shape[0]):
        if owner[r] != seat or comp[r] >= 0:
            continue
        comp[r] = label
        stack[0] = r
        top = 1
        while top > 0:
            top -= 1
            u = stack[top]
            for k in range(degree[u]):
                v = neighbours[u, k]
                if owner[v] == seat and comp[v] < 0:
                    comp[v] = label
                    stack[top] = v
                    top += 1
        label += 1


@inline_rule_kernel
def fortify_marks(m: MapArrays, fx: FeatureContext, owner: np.ndarray, armies: np.ndarray,
                  seat: int, cnt: np.ndarray, garrisons: bool, guards: bool, vant: np.ndarray,
                  border: np.ndarray, need_t: np.ndarray, guard_t: np.ndarray) -> None:
    """What the fortify features read of each own territory: its hostile vantage, whether it
    borders an enemy, its garrison need and its held continent's guard (0 unless asked)."""
    for t in range(owner.shape[0]):
        if owner[t] == seat:
            nh, h, big = hostile(m, owner, armies, seat, t)
            vant[t] = h / (h + armies[t]) if h + armies[t] > 0 else 0.0
            border[t] = 1 if nh > 0 else 0
            need_t[t] = 0.0
            guard_t[t] = 0.0
            if garrisons:
                need_t[t] = need(garrison(nh, big), armies[t])
                if guards:
                    c = m.continent_of[t]
                    if cnt[c] == m.continent_size[c]:
                        guard_t[t] = fx.bonus_norm[c]


@inline_rule_kernel
def fortify_pair(owner: np.ndarray, adjacency: np.ndarray, comp: np.ndarray, path: bool,
                 seat: int, a: int, b: int) -> bool:
    """b can take armies from the own territory a: another own territory, adjacent (or, under
    path fortify, connected through own territories: the same `comp` label)."""
    if b == a or owner[b] != seat:
        return False
    return bool(comp[b] == comp[a]) if path else bool(adjacency[a, b])


@inline_rule_kernel
def fortify_options(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
                    w: np.ndarray, work: Work, k: int) -> int:
    """The k best (a, b) moves by fortify rank into work.opt_a, opt_b, opt_v, best first
    (`keep_option`); returns how many. What the features read of each own territory is left
    in work.score (vantage), flags (borders an enemy), need and guard (`fortify_marks`)."""
    adjacency = m.adjacency
    owner, armies = s.owner, s.armies
    seat = s.sc[L.S_CURRENT]
    f, vant, border, comp = work.feat, work.score, work.flags, work.comp
    need_t, guard_t = work.need, work.guard
    n_terr = owner.shape[0]
    # The garrison terms (version 6) are skipped when both weights are 0: they add exactly 0.
    w_need = w[F.G_FORTIFY + F.FF_DEST_NEED]
    w_dguard = w[F.G_FORTIFY + F.FF_DEST_GUARD]
    garrisons = w_need != 0.0 or w_dguard != 0.0
    cnt = work.players.cnt
    if w_dguard != 0.0:
        pl = work.players
        census_into(m, owner, seat, cnt, pl.holder, pl.nown)
    fortify_marks(m, fx, owner, armies, seat, cnt, garrisons, w_dguard != 0.0, vant, border,
                  need_t, guard_t)
    path = rules[L.R_PATH_FORTIFY] != 0
    if path:
        _components(m, owner, seat, comp, work.stack)
    n = 0
    for a in range(n_terr):
        if owner[a] != seat or armies[a] < 2:
            continue
        for b in range(n_terr):
            if not fortify_pair(owner, adjacency, comp, path, seat, a, b):
                continue
            fortify_into(armies[a], armies[b], vant[a], vant[b], border[a] != 0, border[b] != 0,
                         need_t[b], guard_t[b], f)
            n = keep_option(work, n, k, a, b, 0, dot(w, F.G_FORTIFY, f, F.NF))
    return n


@inline_rule_kernel
def fortify_action(s: StateArrays, w: np.ndarray, work: Work, n: int) -> Action4:
    """The best of the n moves `fortify_options` ranked into work if it clears
    fortify.threshold (`fortify_count` armies), else skip."""
    if n == 0 or not work.opt_v[0] > w[F.G_FORTIFY_THRESHOLD]:
        return (L.A_SKIP, 0, 0, 0)
    a, b = int(work.opt_a[0]), int(work.opt_b[0])
    count = fortify_count(w, s.armies[a] - 1, work.flags[a] != 0)
    return (L.A_FORTIFY, a, b, int(count))


@inline_rule_kernel
def fortify_count(w: np.ndarray, n: int, border: bool) -> int:
    """Armies a fortify moves of the n movable ones: all from an interior source; a source
    facing enemies keeps part of them, moving fortify.share of them (at least 1)."""
    if not border:
        return n
    return min(n, max(1, int(w[F.G_FORTIFY_SHARE] * n + 0.5)))


@inline_rule_kernel
def decide_occupy(m: MapArrays, fx: FeatureContext, s: StateArrays, w: np.ndarray) -> Action4:
    """Move in lo + round(frac * (hi - lo)), frac = clip(share + threat * (hd - hs) + guard
    terms, 0, 1).

    hd and hs are the shares of hostile neighbours of the conquered and the source territory;
    the guard terms (version 6) weigh what the source faces once the conquest is done: its
    largest hostile army against its stack, and the held continent it may guard.
    """
    degree = m.degree
    owner, armies, sc = s.owner, s.armies, s.sc
    seat = sc[L.S_CURRENT]
    src, dst = sc[L.S_SRC], sc[L.S_DST]
    lo, hi = sc[L.S_MIN_MOVE], armies[src] - 1
    nh_s, _h, big_s = hostile(m, owner, armies, seat, src)
    hs = nh_s / degree[src]
    hd = hostile(m, owner, armies, seat, dst)[0] / degree[dst]
    frac = w[F.G_OCCUPY_SHARE] + w[F.G_OCCUPY_THREAT] * (hd - hs)
    w_guard = w[F.G_OCCUPY_GUARD]
    if w_guard != 0.0:
        frac += w_guard * (big_s / (big_s + armies[src]))
    w_cguard = w[F.G_OCCUPY_CONT_GUARD]
    if w_cguard != 0.0 and nh_s > 0:
        c = m.continent_of[src]
        if holds(m, owner, seat, c):
            frac += w_cguard * fx.bonus_norm[c]
    frac = min(1.0, max(0.0, frac))
    n = lo + int(frac * (hi - lo) + 0.5)
    return (L.A_MOVE, int(min(hi, max(lo, n))), 0, 0)
