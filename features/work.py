"""The linear player's decision scratch (`Work`), shared by the decision kernels
(`features.decide`, `features.moves`, `features.trade`), the compiled loop and the explanations.

Each decision that ranks options (placements, attacks, fortifies, trades) ranks them into the
option buffers `opt_*` with `keep_option`: deciding asks for the best one or two, the search
for its top k, and the explanation for all of them (`make_work(..., options=...)`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from features import registry as F
from features.players import Players, make_players
from game.protocol import Action4
from game.rules.jit import inline_rule_kernel, rule_kernel
from game.rules.layout import MapArrays

MAX_OPTIONS = 8  # most options a decision or a search ranks (top-k move ordering)
NO_ACTION = (-1, 0, 0, 0)  # (kind, a, b, c) as game.rules.kernel.step takes it: none


class Work(NamedTuple):
    """Scratch arrays of `decide`, allocated once per game (`make_work`) and reused."""

    feat: np.ndarray  # float64: one feature vector
    score: np.ndarray  # float64[T]: per-territory partial score or vantage
    flags: np.ndarray  # int32[T]: per-territory flags
    comp: np.ndarray  # int32[T]: component labels of own territories
    stack: np.ndarray  # int32: search stack, or the hand's card ids
    need: np.ndarray  # float64[T]: need(t) of own territories (fortify)
    guard: np.ndarray  # float64[T]: B(c(t))/Bmax if p holds c(t), else 0 (fortify)
    opt_a: np.ndarray  # int64[options]: the best options' first argument, best first
    opt_b: np.ndarray  # int64[options]: their second argument
    opt_c: np.ndarray  # int64[options]: their third argument (a trade's third card)
    opt_v: np.ndarray  # float64[options]: their scores, as the decision compared them
    players: Players  # player-level summaries, filled once per decision


def make_work(m: MapArrays, n_players: int, options: int = MAX_OPTIONS) -> Work:
    """Scratch arrays for `decide` sized for a board and a seat count; `options` bounds the
    option buffers (an explanation asks for every option of a decision)."""
    n_terr = len(m.continent_of)
    return Work(
        feat=np.zeros(max(F.NR, F.NA, F.NF), dtype=np.float64),
        score=np.zeros(n_terr, dtype=np.float64),
        flags=np.zeros(n_terr, dtype=np.int32),
        comp=np.zeros(n_terr, dtype=np.int32),
        stack=np.zeros(max(n_terr, len(m.card_kind)), dtype=np.int32),
        need=np.zeros(n_terr, dtype=np.float64),
        guard=np.zeros(n_terr, dtype=np.float64),
        opt_a=np.zeros(options, dtype=np.int64),
        opt_b=np.zeros(options, dtype=np.int64),
        opt_c=np.zeros(options, dtype=np.int64),
        opt_v=np.zeros(options, dtype=np.float64),
        players=make_players(m, n_players),
    )


@inline_rule_kernel
def keep_option(work: Work, n: int, k: int, a: int, b: int, c: int, v: float) -> int:
    """Rank the option (a, b, c) scoring v among the n kept in work.opt_*, best first, at most
    k (<= the buffers' length); returns how many are kept.

    It goes after every kept option scoring at least v, so equal scores keep the scan order:
    the first option kept is the one a strict `v > best` scan picks, and a full ranking is the
    decision's tie-break.
    """
    if n == k and not v > work.opt_v[k - 1]:
        return n
    # The insertion is a call, not inlined: a copy in each of decide's four rankings made the
    # compiled loop's cold compile some 3% longer. One signature, so one compile.
    i64 = np.int64
    return _insert(work.opt_a, work.opt_b, work.opt_c, work.opt_v, i64(n), i64(k), i64(a),
                   i64(b), i64(c), np.float64(v))


@rule_kernel
def _insert(opt_a: np.ndarray, opt_b: np.ndarray, opt_c: np.ndarray, opt_v: np.ndarray, n: int,
            k: int, a: int, b: int, c: int, v: float) -> int:
    """`keep_option` past its quick test: v goes in after every kept option scoring at least v."""
    i = n if n < k else k - 1
    while i > 0 and v > opt_v[i - 1]:
        opt_a[i] = opt_a[i - 1]
        opt_b[i] = opt_b[i - 1]
        opt_c[i] = opt_c[i - 1]
        opt_v[i] = opt_v[i - 1]
        i -= 1
    opt_a[i] = a
    opt_b[i] = b
    opt_c[i] = c
    opt_v[i] = v
    return n + 1 if n < k else n


__all__ = ["MAX_OPTIONS", "NO_ACTION", "Action4", "Work", "keep_option", "make_work"]
