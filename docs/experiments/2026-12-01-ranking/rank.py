"""How each in-house measure of the ranking page orders the eleven planning files against the
yardstick (3x Domination `hard`). usage: NIGHT=... python rank.py (reads NIGHT/strat.txt,
c83.txt, c83b.txt and cg.txt, as in results/ beside this script; run from the checkout with
PYTHONPATH=.)"""
import itertools
import math
import os
from pathlib import Path

import numpy as np

from evolve.bench.yardstick import spearman

NIGHT = Path(os.environ["NIGHT"])
# (win rate, games) against 3x hard: the nights page, the hall-after-hour page
YARD = {"champ": (0.6634, 5000), "d91-4h": (0.6435, 2000), "f91-1h": (0.625, 2000),
        "d91-1h": (0.6195, 2000), "old": (0.6177, 3000), "d92-1h": (0.6165, 2000),
        "d92-05h": (0.6005, 2000), "d92-4h": (0.596, 2000), "d91-05h": (0.5925, 2000),
        "d92-2h": (0.5865, 2000), "d91-2h": (0.567, 2000)}
# the check each night's run made of its file (300 games a bot, 8 x 3): the nights page
CHECK = {"d91-05h": 0.807, "d91-1h": 0.821, "d91-2h": 0.796, "d91-4h": 0.837,
         "d92-05h": 0.823, "d92-1h": 0.824, "d92-2h": 0.831, "d92-4h": 0.837}


def perm_p(a: list[float], b: list[float], n: int = 20000) -> float:
    """One-sided permutation p of Spearman's rho (seeded)."""
    rng = np.random.default_rng(1)
    s = spearman(a, b)
    return float(np.mean([spearman(a, rng.permutation(b)) >= s - 1e-12 for _ in range(n)]))


def rows(name: str, only: str | None = None) -> dict[str, tuple[int, int]]:
    """{file: (wins, games)} summed over a measure's gauntlet rows."""
    out: dict[str, tuple[int, int]] = {}
    path = NIGHT / name
    for line in path.read_text().splitlines() if path.exists() else []:
        p = line.split()  # FILE 3x OPPONENT GAMES WINS ...
        if only is None or p[2] == only:
            w, g = out.get(p[0], (0, 0))
            out[p[0]] = (w + int(p[4]), g + int(p[3]))
    return out


def summary(m: dict) -> tuple[dict[str, float], list[str]]:
    """(the measure per file, its words: rho, its permutation p, pairs ordered unlike)."""
    keys = [k for k in YARD if k in m]
    val = {k: m[k][0] / m[k][1] if isinstance(m[k], tuple) else m[k] for k in keys}
    a, b = [YARD[k][0] for k in keys], [val[k] for k in keys]
    se = {k: math.sqrt(YARD[k][0] * (1 - YARD[k][0]) / YARD[k][1]) for k in keys}
    clear = [(i, j) for i, j in itertools.combinations(keys, 2)
             if abs(YARD[i][0] - YARD[j][0]) > 2 * math.hypot(se[i], se[j])]
    unlike = [f"{i}/{j}" for i, j in clear if (YARD[i][0] - YARD[j][0]) * (val[i] - val[j]) <= 0]
    words = [f"{spearman(a, b):+.2f}", f"{perm_p(a, b):.3f}", f"{len(unlike)} of {len(clear)}"]
    for run in ("d91", "d92"):
        ks = [k for k in keys if k.startswith(run)]
        words.append(f"{spearman([YARD[k][0] for k in ks], [val[k] for k in ks]):+.2f}"
                     if len(ks) >= 3 else "")
    print(f"{len(keys)} files; separated pairs ordered unlike the yardstick: {', '.join(unlike)}")
    return val, words


MEASURES = {"run's check (300 a bot)": CHECK, "check 8 x 3 (800 a bot)": rows("c83.txt"),
            "strategist 8 x 3": rows("c83.txt", "strategist"), "strategist": rows("strat.txt"),
            "greedy champion": rows("cg.txt")}
more = rows("c83b.txt")  # seed 92's hours: 2,000 more a bot (seed 901)
if more:
    first = rows("c83.txt")
    MEASURES["check 8 x 3 (2,800 a bot)"] = {
        k: (w + first[k][0], g + first[k][1]) for k, (w, g) in more.items()}
cols = {name: summary(m) for name, m in MEASURES.items() if len(m) >= 3}
se = {k: math.sqrt(YARD[k][0] * (1 - YARD[k][0]) / YARD[k][1]) for k in YARD}
print("pairs the yardstick separates:", ", ".join(
    f"{i}/{j}" for i, j in itertools.combinations(YARD, 2)
    if abs(YARD[i][0] - YARD[j][0]) > 2 * math.hypot(se[i], se[j])))
print("\n| file | 3x `hard` | " + " | ".join(cols) + " |")
print("|---|---|" + "---|" * len(cols))
for k in YARD:
    print(f"| {k} | {YARD[k][0]:.4f} | "
          + " | ".join(f"{v[0][k]:.4f}" if k in v[0] else "" for v in cols.values()) + " |")
for i, what in enumerate(["Spearman's rho", "its one-sided permutation p",
                          "separated pairs ordered unlike", "seed 91's four hours: rho",
                          "seed 92's four hours: rho"]):
    print(f"| {what} | | " + " | ".join(v[1][i] for v in cols.values()) + " |")

# A night that keeps its four hours' files and ships the one a measure ranks first: that file's
# yardstick figure against the hour's (the bar: +0.03 on both seeds).
print("\n| picked by | seed 91 | seed 92 |\n|---|---|---|")
for name, (val, _w) in {"the yardstick itself": ({k: v[0] for k, v in YARD.items()}, []),
                        **cols}.items():
    cells = []
    for run in ("d91", "d92"):
        hours = [k for k in val if k.startswith(run)]
        if len(hours) == 4:
            best = max(hours, key=lambda k: val[k])
            cells.append(f"{best[4:]}: {YARD[best][0] - YARD[run + '-1h'][0]:+.4f}")
        else:
            cells.append("")
    print(f"| {name} | " + " | ".join(cells) + " |")
