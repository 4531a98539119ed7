"""TrueSkill for free-for-all games of one-player teams, compiled: the `trueskill` package's
factor graph, message schedule and arithmetic, operation for operation.

Every floating-point operation of `trueskill.TrueSkill.rate` (its pure-Python backend: the
package's own erfc, cdf and pdf) is repeated here in the same order, so the results are the same
numbers, not merely close ones (tests/evolve/test_rater.py compares them bit for bit). Two
details keep that true: powers go through `math.pow` with an exponent read at run time
(Python's `x ** 2` calls the C library's pow, which LLVM would otherwise turn into `x * x`
and round differently in rare cases), and a rating goes in and out as a `trueskill.Rating`
would (built from mu and sigma, read back through its `mu`/`sigma` properties).

The kernel lives alone in this file: numba caches a function by its own file only.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

# params f64[6] of `rate_games`
K_BETA2, K_DYN2, K_MARGIN, K_MIN_DELTA, K_TWO, K_MINUS_TWO = range(6)
N_PARAMS = 6
MAX_PLAYERS = 6
MAX_ITERATIONS = 10  # the package's schedule loop
SQRT2 = math.sqrt(2)
INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)
INF = math.inf

# Rows of the per-game scratch (columns: sorted seat 0..5). Variables: R rating, P performance,
# T team performance, D team difference (column j links teams j and j + 1). m* are the messages
# a variable holds from each factor: p prior, l likelihood, s team sum, dl/dr the difference
# factor on its left/right, d own difference factor, t truncation.
(R_PI, R_TAU, MRP_PI, MRP_TAU, MRL_PI, MRL_TAU, P_PI, P_TAU, MPL_PI, MPL_TAU, MPS_PI, MPS_TAU,
 T_PI, T_TAU, MTS_PI, MTS_TAU, MTDL_PI, MTDL_TAU, MTDR_PI, MTDR_TAU, D_PI, D_TAU, MDD_PI,
 MDD_TAU, MDT_PI, MDT_TAU) = range(26)
N_ROWS = 26


@njit(cache=True, inline="always")
def _mu(pi: float, tau: float) -> float:
    """Gaussian.mu: `pi and tau / pi`."""
    if pi == 0:
        return pi
    return tau / pi


@njit(cache=True, inline="always")
def _sigma(pi: float) -> float:
    """Gaussian.sigma: `sqrt(1 / pi) if pi else inf`."""
    if pi == 0:
        return INF
    return math.sqrt(1 / pi)


@njit(cache=True)
def _erfc(x: float) -> float:
    """trueskill.backends.erfc (Numerical Recipes' Chebyshev fit)."""
    z = abs(x)
    t = 1. / (1. + z / 2.)
    r = t * math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (
        0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (
            0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (
                -0.82215223 + t * 0.17087277
            )))
        )))
    )))
    return 2. - r if x < 0 else r


@njit(cache=True)
def _cdf(x: float) -> float:
    return 0.5 * _erfc(-x / SQRT2)


@njit(cache=True)
def _pdf(x: float, two: float) -> float:
    return INV_SQRT_2PI * math.exp(-(math.pow(x, two) / 2))


@njit(cache=True)
def _truncate(diff: float, margin: float, draw: bool, two: float) -> tuple[float, float, bool]:
    """(v, w, ok) of TrueSkill.v_win/w_win or v_draw/w_draw; not ok where the package raises."""
    if not draw:
        x = diff - margin
        denom = _cdf(x)
        v = (_pdf(x, two) / denom) if denom else -x
        w = v * (v + x)
        return v, w, 0 < w < 1
    abs_diff = abs(diff)
    a, b = margin - abs_diff, -margin - abs_diff
    denom = _cdf(a) - _cdf(b)
    if not denom:
        return 0.0, 0.0, False
    sign = -1.0 if diff < 0 else 1.0
    v = ((_pdf(b, two) - _pdf(a, two)) / denom) * sign
    # w_draw recomputes v from |diff|: the same numerator and denominator, sign +1.
    v_abs = (_pdf(b, two) - _pdf(a, two)) / denom
    w = math.pow(v_abs, two) + (a * _pdf(a, two) - b * _pdf(b, two)) / denom
    return v, w, True


@njit(cache=True, inline="always")
def _sum2(v0_pi: float, v0_tau: float, m0_pi: float, m0_tau: float, c0: float,
          v1_pi: float, v1_tau: float, m1_pi: float, m1_tau: float, c1: float,
          n: int) -> tuple[float, float]:
    """SumFactor.update over n (1 or 2) terms: the message (pi, tau) it sends."""
    pi_inv = 0.0
    mu = 0.0
    for k in range(n):
        if k == 0:
            d_pi, d_tau, c = v0_pi - m0_pi, v0_tau - m0_tau, c0
        else:
            d_pi, d_tau, c = v1_pi - m1_pi, v1_tau - m1_tau, c1
        mu += c * _mu(d_pi, d_tau)
        if pi_inv == INF:
            continue
        if d_pi == 0:
            pi_inv = INF  # the package catches ZeroDivisionError
        else:
            pi_inv += 1.0 / d_pi  # coeff ** 2 == 1 for every coefficient here
    pi = 1. / pi_inv
    return pi, pi * mu


@njit(cache=True, inline="always")
def _message(s: np.ndarray, var: int, msg: int, j: int, pi: float, tau: float) -> None:
    """Variable.update_message: replace the factor's message, fold it into the variable."""
    s[var, j] = s[var, j] - s[msg, j] + pi
    s[var + 1, j] = s[var + 1, j] - s[msg + 1, j] + tau
    s[msg, j] = pi
    s[msg + 1, j] = tau


@njit(cache=True, inline="always")
def _value(s: np.ndarray, var: int, msg: int, j: int, pi: float, tau: float) -> float:
    """Variable.update_value: set the variable, keep the message consistent; returns delta."""
    s[msg, j] = pi + s[msg, j] - s[var, j]
    s[msg + 1, j] = tau + s[msg + 1, j] - s[var + 1, j]
    pi_delta = abs(s[var, j] - pi)
    delta = 0.0 if pi_delta == INF else max(abs(s[var + 1, j] - tau), math.sqrt(pi_delta))
    s[var, j] = pi
    s[var + 1, j] = tau
    return delta


@njit(cache=True)
def _diff_down(s: np.ndarray, j: int) -> None:
    pi, tau = _sum2(s[T_PI, j], s[T_TAU, j], s[MTDR_PI, j], s[MTDR_TAU, j], 1.0,
                    s[T_PI, j + 1], s[T_TAU, j + 1], s[MTDL_PI, j + 1], s[MTDL_TAU, j + 1], -1.0,
                    2)
    _message(s, D_PI, MDD_PI, j, pi, tau)


@njit(cache=True)
def _diff_up(s: np.ndarray, j: int, index: int) -> None:
    """SumFactor.up of difference j towards team j (index 0) or team j + 1 (index 1)."""
    if index == 0:
        pi, tau = _sum2(s[D_PI, j], s[D_TAU, j], s[MDD_PI, j], s[MDD_TAU, j], 1.0,
                        s[T_PI, j + 1], s[T_TAU, j + 1], s[MTDL_PI, j + 1], s[MTDL_TAU, j + 1],
                        1.0, 2)
        _message(s, T_PI, MTDR_PI, j, pi, tau)
    else:
        pi, tau = _sum2(s[T_PI, j], s[T_TAU, j], s[MTDR_PI, j], s[MTDR_TAU, j], 1.0,
                        s[D_PI, j], s[D_TAU, j], s[MDD_PI, j], s[MDD_TAU, j], -1.0, 2)
        _message(s, T_PI, MTDL_PI, j + 1, pi, tau)


@njit(cache=True)
def _trunc_up(s: np.ndarray, j: int, margin: float, draw: bool, two: float) -> float:
    """TruncateFactor.up of difference j: its delta, or NaN where the package raises."""
    d_pi = s[D_PI, j] - s[MDT_PI, j]
    d_tau = s[D_TAU, j] - s[MDT_TAU, j]
    if d_pi <= 0:
        return math.nan  # sqrt of a negative, or a division by zero, in the package
    sqrt_pi = math.sqrt(d_pi)
    v, w, ok = _truncate(d_tau / sqrt_pi, margin * sqrt_pi, draw, two)
    if not ok:
        return math.nan
    denom = (1. - w)
    return _value(s, D_PI, MDT_PI, j, d_pi / denom, (d_tau + sqrt_pi * v) / denom)


@njit(cache=True)
def _rate_one(mu: np.ndarray, sigma: np.ndarray, fixed: np.ndarray, group: np.ndarray,
              ranks: np.ndarray, p: np.ndarray, s: np.ndarray, order: np.ndarray) -> bool:
    """One game: TrueSkill.rate of one-player teams by rank (ties allowed); False on failure."""
    n = len(group)
    two, minus_two = p[K_TWO], p[K_MINUS_TWO]
    for i in range(n):  # stable sort by rank, as `sorted(..., key=rank)`
        order[i] = i
        k = i
        while k > 0 and ranks[order[k - 1]] > ranks[order[k]]:
            order[k - 1], order[k] = order[k], order[k - 1]
            k -= 1
    s[:, :n] = 0.0
    for x in range(n):  # prior factors, down: Rating(mu, sigma), then tau dynamics
        pid = group[order[x]]
        pi0 = math.pow(sigma[pid], minus_two)
        tau0 = pi0 * mu[pid]
        sd = math.sqrt(math.pow(_sigma(pi0), two) + p[K_DYN2])
        pi = math.pow(sd, minus_two)
        _value(s, R_PI, MRP_PI, x, pi, pi * _mu(pi0, tau0))
    for x in range(n):  # likelihood factors, down
        m_pi, m_tau = s[R_PI, x] - s[MRL_PI, x], s[R_TAU, x] - s[MRL_TAU, x]
        a = 1. / (1. + p[K_BETA2] * m_pi)
        _message(s, P_PI, MPL_PI, x, a * m_pi, a * m_tau)
    for x in range(n):  # team sums, down
        pi, tau = _sum2(s[P_PI, x], s[P_TAU, x], s[MPS_PI, x], s[MPS_TAU, x], 1.0,
                        0.0, 0.0, 0.0, 0.0, 0.0, 1)
        _message(s, T_PI, MTS_PI, x, pi, tau)
    nd = n - 1
    margin = p[K_MARGIN]
    # Typed 0 and 1 (Any to mypy): a literal argument compiles a helper once more per value.
    zero: Any = np.int64(0)
    one: Any = np.int64(1)
    for _ in range(MAX_ITERATIONS):
        if nd == 1:
            _diff_down(s, zero)
            delta = _trunc_up(s, zero, margin, ranks[order[0]] == ranks[order[1]], two)
            if math.isnan(delta):
                return False
        else:
            # Left to right over differences 0..nd-2 (each then sends up to its right team),
            # then right to left over nd-1..1 (sending up to its left team).
            delta = 0.0
            for step in range(2 * (nd - 1)):
                x, up = (step, 1) if step < nd - 1 else (2 * (nd - 1) - step, 0)
                _diff_down(s, x)
                d = _trunc_up(s, x, margin, ranks[order[x]] == ranks[order[x + 1]], two)
                if math.isnan(d):
                    return False
                if d > delta:
                    delta = d
                _diff_up(s, x, up)
        if delta <= p[K_MIN_DELTA]:
            break
    _diff_up(s, zero, zero)
    _diff_up(s, nd - 1, one)
    for x in range(n):  # team sums, up
        pi, tau = _sum2(s[T_PI, x], s[T_TAU, x], s[MTS_PI, x], s[MTS_TAU, x], 1.0,
                        0.0, 0.0, 0.0, 0.0, 0.0, 1)
        _message(s, P_PI, MPS_PI, x, pi, tau)
    for x in range(n):  # likelihood factors, up
        m_pi, m_tau = s[P_PI, x] - s[MPL_PI, x], s[P_TAU, x] - s[MPL_TAU, x]
        a = 1. / (1. + p[K_BETA2] * m_pi)
        _message(s, R_PI, MRL_PI, x, a * m_pi, a * m_tau)
    for x in range(n):  # Rating(var.mu, var.sigma), read back through its properties
        pid = group[order[x]]
        if fixed[pid]:
            continue
        out_sigma = _sigma(s[R_PI, x])
        pi = math.pow(out_sigma, minus_two)
        tau = pi * _mu(s[R_PI, x], s[R_TAU, x])
        mu[pid] = _mu(pi, tau)
        sigma[pid] = _sigma(pi)
    return True


@njit(cache=True)
def rate_games(mu: np.ndarray, sigma: np.ndarray, fixed: np.ndarray, groups: np.ndarray,
               placements: np.ndarray, params: np.ndarray) -> int:
    """Rate games in order, updating mu/sigma f64[N] in place (entries marked `fixed` keep
    theirs); groups int64[g, k] index the arrays, placements i32[g, k] (1 = best, ties equal).

    Returns -1, or the index of the first game the reference would reject (FloatingPointError
    or a math domain error); the games before it are applied.
    """
    s = np.zeros((N_ROWS, MAX_PLAYERS))
    order = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for g in range(groups.shape[0]):
        if not _rate_one(mu, sigma, fixed, groups[g], placements[g], params, s, order):
            return g
    return -1
