"""playoffs.py LOG FIRST LAST: a run's playoffs between generations FIRST and LAST (log.jsonl).

Prints the playoffs' count, the candidates' and incumbents' pooled win rates (each played the
same 1,000 games a playoff against the bundled bots), the crownings in the run's own words
(margin and noise, `evolve.rating.crownings`; "beyond" when the margin clears it), and the
proven champion's rating when it sits in the league (the newest anchor; meaningful only when
anchors play) against the population's ratings: its mu less the population's mean, in the
population's standard deviations."""

import json
import sys

from evolve.rating.crownings import beyond_noise, playoff_words


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
            crowned.append(f"{g} {playoff_words(p)}{' beyond' if beyond_noise(p) else ''}")
    print(f"{path}: generations {first}-{last}: {n} playoffs, candidates {cw / max(games, 1):.3f},"
          f" incumbents {iw / max(games, 1):.3f}; crowned: {', '.join(crowned) or 'none'}")
    if ranks:
        ranks.sort()
        print(f"  newest anchor's mu, population z-score: median {ranks[len(ranks) // 2]:+.2f}"
              f" over {len(ranks)} generations")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
