"""abstat.py VARIANT...: wall time a generation from ab.sh's stamped lines in $OUT/VARIANT."""
import itertools
import os
import re
import statistics
import sys

OUT = os.environ.get("OUT", "runs/ab")
for v in sys.argv[1:]:
    t: dict[int, tuple[float, float]] = {}
    with open(f"{OUT}/{v}/out.txt") as fh:
        for line in fh:
            ts, rest = line.split(" ", 1)
            m = re.match(r"gen\s+(\d+)/\d+ .*?(\d+\.\d+)s \(", rest)
            if m:
                t[int(m.group(1))] = (float(ts), float(m.group(2)))
    g = sorted(t)
    n = len(g) - 1
    span = t[g[-1]][0] - t[g[0]][0]
    inner = sum(t[x][1] for x in g[1:])
    gaps = [t[b][0] - t[a][0] for a, b in itertools.pairwise(g)]
    print(f"{v}: generations {g[0]}-{g[-1]}: median {statistics.median(gaps):.3f} s, mean "
          f"{span / n:.3f} s; in wall_s {inner / n:.3f} s; outside {(span - inner) / n:.3f} s")
