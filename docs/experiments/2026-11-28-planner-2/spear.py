"""Spearman of in-house measures (m56.out lines) against the yardstick (yard-results lines)."""
import sys, json, re, collections
import numpy as np
def spearmanr(a, b):
    ra = np.argsort(np.argsort(a)); rb = np.argsort(np.argsort(b))
    class R: pass
    r = R(); r.statistic = float(np.corrcoef(ra, rb)[0, 1]); return r
yard = collections.defaultdict(lambda: [0, 0])
for f in sys.argv[2:]:
    for line in open(f):
        m = re.search(r"bot=(\S+) .*games=(\d+) wins=(\d+)", line)
        if m: yard[m[1]][0] += int(m[3]); yard[m[1]][1] += int(m[2])
meas = {}
for line in open(sys.argv[1]):
    p, rest = line.split(" ", 1)
    meas[p] = json.loads(rest[:rest.rindex("}") + 1])
players = [p for p in meas if p in yard]
ys = [yard[p][0] / yard[p][1] for p in players]
for p, y in sorted(zip(players, ys), key=lambda t: t[1]):
    print(f"{p.split('/')[-1]:22s} yard {y:.3f} ({yard[p][1]})", " ".join(f"{k} {v:.3f}" for k, v in meas[p].items()))
for k in meas[players[0]]:
    r = spearmanr(ys, [meas[p][k] for p in players])
    print(f"{k}: Spearman {r.statistic:+.2f} over {len(players)}")
