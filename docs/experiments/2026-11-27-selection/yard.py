"""Shared by the scripts here: the yardstick results per player, and Spearman's rho."""
from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "2026-11-26-night"))
from corr import spearman  # noqa: E402  (the night runs' helper)

__all__ = ["read_yard", "spearman"]


def read_yard(results: Path) -> dict[str, list[int]]:
    """{label: [wins, games]} summed over the yardstick queue's result lines."""
    yard: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for line in results.read_text().splitlines():
        m = re.match(r"(\S+) .*games=(\d+) wins=(\d+)", line)
        if m:
            yard[m[1]][0] += int(m[3])
            yard[m[1]][1] += int(m[2])
    return yard
