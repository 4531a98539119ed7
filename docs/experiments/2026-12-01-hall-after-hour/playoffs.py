"""playoffs.py LOG FIRST LAST: a run's playoffs between generations FIRST and LAST (log.jsonl).

Prints the playoffs' count, the candidates' and incumbents' pooled win rates (each played the
same 1,000 games a playoff against the bundled bots), the crownings with their margins and the
noise (twice the root of the discordant games), the proven champion's rating when it sits in
the league (the newest anchor; meaningful only when anchors play) against the population's
ratings: its mu less the population's mean, in the population's standard deviations."""

import json
import math
import sys


def main(path: str, first: int, last: int) -> None:
    n = cw = iw = games = 0
    crowned, ranks = [], []
    with open(path, encoding="utf-8") as f:
        records = [json.loads(line) for line in f]
    for r in records:
        g = r["generation"]
        if not first <= g <= last:
            continue
        anchors = r.get("anchors") or []
        if anchors and r.get("mu_std"):
            ranks.append((anchors[-1][1] - r["mu_mean"]) / r["mu_std"])
        p = r.get("playoff")
        if not p or p["incumbent_wins"] < 0:
            continue
        n += 1
        games += p["games"]
        cw += p["candidate_wins"]
        iw += p["incumbent_wins"]
        if p["crowned"]:
            d = p["candidate_wins"] - p["incumbent_wins"]
            crowned.append(f"{g} ({d:+d} of ±{2 * math.sqrt(max(p['discordant'], 1)):.0f})")
    print(f"{path}: generations {first}-{last}: {n} playoffs, candidates {cw / max(games, 1):.3f},"
          f" incumbents {iw / max(games, 1):.3f}; crowned: {', '.join(crowned) or 'none'}")
    if ranks:
        ranks.sort()
        print(f"  newest anchor's mu, population z-score: median {ranks[len(ranks) // 2]:+.2f}"
              f" over {len(ranks)} generations")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
