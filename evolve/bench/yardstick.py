"""Reading the yardstick's results and comparing measures by rank.

The yardstick (3x Domination's `hard` AI playing a riskevo bot over the JSON-lines protocol,
CONTRIBUTING.md) runs outside this repository and appends one line per batch of games:
`LABEL ... games=N wins=W ...`. `read_yard` sums them per label; `spearman` is the rank
correlation the experiments use to ask whether an in-house measure orders players as the
yardstick does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from game.atomic import MiB, read_limited

__all__ = ["MAX_RESULTS", "YardError", "ranks", "read_yard", "spearman", "yard_rate"]

MAX_RESULTS = 16 * MiB  # a results file's bytes (a line is ~100 bytes: 160,000 batches)
_LINE = re.compile(r"(\S+) .*games=(\d+) wins=(\d+)")


class YardError(ValueError):
    """A yardstick results file that cannot be read, or measures that cannot be compared."""


def read_yard(path: str | Path) -> dict[str, tuple[int, int]]:
    """{label: (wins, games)} summed over a results file's lines; other lines are skipped.
    YardError naming the file when it cannot be read, is too large, or wins exceed games."""
    try:
        text = read_limited(path, MAX_RESULTS, "yardstick results").decode("utf-8", "replace")
    except OSError as e:
        raise YardError(f"{path}: cannot read the yardstick results ({e.strerror or e})") from None
    out: dict[str, tuple[int, int]] = {}
    for line in text.splitlines():
        m = _LINE.match(line)
        if m is None:
            continue
        wins, games = out.get(m[1], (0, 0))
        out[m[1]] = (wins + int(m[3]), games + int(m[2]))
    for label, (wins, games) in out.items():
        if wins > games:
            raise YardError(f"{path}: {label} has {wins} wins in {games} games")
    return out


def yard_rate(yard: dict[str, tuple[int, int]], label: str) -> float:
    """A label's outright win rate against the yardstick (YardError when it played no game)."""
    wins, games = yard.get(label, (0, 0))
    if games == 0:
        raise YardError(f"{label}: no yardstick games")
    return wins / games


def ranks(x: Sequence[float] | np.ndarray) -> np.ndarray:
    """Ranks 0..n-1 of the values, tied values sharing their average rank."""
    v = np.asarray(x, dtype=np.float64)
    order = np.argsort(v, kind="stable")
    r = np.empty(len(v))
    r[order] = np.arange(len(v), dtype=np.float64)
    for value in np.unique(v):
        tied = v == value
        r[tied] = r[tied].mean()
    return r


def spearman(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> float:
    """Spearman's rank correlation of two measures of the same players (ties averaged);
    YardError unless both hold the same number (>= 2) of finite values, neither all equal."""
    ra, rb = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if ra.shape != rb.shape or ra.ndim != 1 or len(ra) < 2:
        raise YardError(f"spearman needs two measures of the same >= 2 players, got "
                        f"{ra.shape} and {rb.shape}")
    if not (np.isfinite(ra).all() and np.isfinite(rb).all()):
        raise YardError("spearman needs finite values")
    if np.ptp(ra) == 0 or np.ptp(rb) == 0:
        raise YardError("spearman is undefined when one measure is the same for every player")
    return float(np.corrcoef(ranks(ra), ranks(rb))[0, 1])
