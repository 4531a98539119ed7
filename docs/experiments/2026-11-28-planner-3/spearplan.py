"""Spearman of the in-house measure of planning players (prate.py lines) against the yardstick
(yardq.sh results files), players with the same genes and plan counted as one.
usage: spearplan.py MEASURE_FILE YARD_FILE..."""
import sys, json, collections
from evolve.yardstick import read_yard, spearman

def key(p):
    d = json.load(open(p))
    return json.dumps([d["genes"], d.get("plan")], sort_keys=True)

meas, name = {}, {}
for line in open(sys.argv[1]):
    if line.startswith("/"):
        p, rest = line.split(" ", 1)
        meas[key(p)], name[key(p)] = json.loads(rest)["plan"], p
yard = collections.defaultdict(lambda: [0, 0])
for f in sys.argv[2:]:
    for label, (w, g) in read_yard(f).items():
        p = label.removeprefix("bot=")
        if "/game/bots/files/" in p:  # a packaged file whose content changed since
            continue
        try:
            k = key(p)
        except OSError:
            continue
        yard[k][0] += w; yard[k][1] += g
ks = [k for k in meas if k in yard]
ys = [yard[k][0] / yard[k][1] for k in ks]
for k, y in sorted(zip(ks, ys), key=lambda t: t[1]):
    print(f"| {name[k].rsplit('/', 2)[-2]}/{name[k].rsplit('/', 1)[-1]} | {y:.3f} | {yard[k][1]} | {meas[k]:.3f} |")
print(f"Spearman {spearman(ys, [meas[k] for k in ks]):+.2f} over {len(ks)} planning players")
