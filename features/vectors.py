"""Whole feature vectors of one option (allocating wrappers of the `features.kernels` fillers),
for tests and inspection; the decision kernels fill scratch arrays instead."""

from __future__ import annotations

import numpy as np

from features import registry as F
from features.kernels import (
    FeatureContext,
    attack_elim,
    attack_plan,
    feature_context,
    fortify_into,
    garrison,
    holds,
    hostile,
    need,
    pair_into,
    place_pool,
    plan_of,
    reinforce_into,
    source_guard,
    target_into,
    vantage,
)
from features.players import Players, make_players, stagers, summarize
from game.rules.layout import MapArrays, StateArrays


def _summary(m: MapArrays, s: StateArrays, rules: np.ndarray, seat: int) -> Players:
    pl = make_players(m, s.pl.shape[0])
    summarize(m, s, rules, seat, pl)
    stagers(m, s, seat, pl)
    return pl


def reinforce_features(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
                       seat: int, t: int) -> np.ndarray:
    """Reinforce feature vector of own territory t (registry order)."""
    pl = _summary(m, s, rules, seat)
    out = np.zeros(F.NR)
    a_t = int(s.armies[t])
    pool = place_pool(s)
    plan_b, plan_k = plan_of(fx.bonus_norm, t, a_t, pool, pl.cost, pl.stager)
    elim_b, elim_k = plan_of(pl.evalue, t, a_t, pool, pl.ecost, pl.estager)
    reinforce_into(m, fx, s, rules, seat, t, a_t, pl.cnt, pl.strength, int(pl.scalars[0]),
                   plan_b, plan_k, elim_b, elim_k, out)
    return out


def attack_features(m: MapArrays, fx: FeatureContext, s: StateArrays, rules: np.ndarray,
                    seat: int, src: int, dst: int) -> np.ndarray:
    """Attack feature vector of src -> dst (registry order)."""
    pl = _summary(m, s, rules, seat)
    out = np.zeros(F.NA)
    target_into(m, fx, s, rules, seat, dst, pl.cnt, pl.holder, pl.nown, pl.hand, pl.strength,
                int(pl.scalars[0]), out)
    h_s = hostile(m, s.owner, s.armies, seat, src)[1]
    pair_into(fx, int(s.armies[src]), int(s.armies[dst]), h_s, out)
    out[F.AF_SOURCE_GUARD] = source_guard(m, fx, pl.cnt, src)
    out[F.AF_PLAN] = attack_plan(m, fx, pl.cost, int(s.armies[src]), dst)
    out[F.AF_ELIM_PLAN] = attack_elim(pl.ecost, pl.evalue, int(s.armies[src]), int(s.owner[dst]))
    return out


def fortify_features(m: MapArrays, s: StateArrays, seat: int, a: int, b: int) -> np.ndarray:
    """Fortify feature vector of moving armies from a to b (registry order)."""
    out = np.zeros(F.NF)
    ba = hostile(m, s.owner, s.armies, seat, a)[0] > 0
    nh_b, _h, big_b = hostile(m, s.owner, s.armies, seat, b)
    c = int(m.continent_of[b])
    guard = feature_context(m).bonus_norm[c] if holds(m, s.owner, seat, c) else 0.0
    fortify_into(int(s.armies[a]), int(s.armies[b]), vantage(m, s, seat, a),
                 vantage(m, s, seat, b), ba, nh_b > 0,
                 need(garrison(nh_b, big_b), int(s.armies[b])), guard, out)
    return out
