"""The bench's fixed reference: a pinned commit's compiled game timed beside HEAD's.

A ratio against the previous bench drifts with every change and every machine; a ratio against
one fixed commit, timed in the same bench run and interleaved with HEAD, does not. The pinned
tree is extracted with `git archive` under runs/ (kept, with its numba cache, for the next
bench); HEAD and the reference each run in a subprocess with their own tree first on sys.path
and play the same batches (each tree's own random genomes, hand-set genome and layout) on
request, timed in CPU time, so both see the same load.
"""

from __future__ import annotations

import io
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

REFERENCE_COMMIT = "4435639"  # feature set 1, before the named kernel tuples
ROOT = Path(__file__).resolve().parents[2]  # the checkout HEAD runs from (a git work tree)
BATCHES = ("random", "hand_set")

# Runs in the subprocess with only the tree's own packages: every name it uses exists in the
# reference commit too (features.genome and features.compiled.play_linear_games).
WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import numpy as np
from features.compiled import play_linear_games
from features.genome import LAYOUT, hand_set_genome, random_genomes
n, seed = int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(seed)
batches = {"random": random_genomes(LAYOUT, 4 * n, rng).reshape(n, 4, -1),
           "hand_set": np.broadcast_to(hand_set_genome(), (n, 4, LAYOUT.size)).copy()}
seeds = np.random.SeedSequence(seed).spawn(n)
for w in batches.values():
    play_linear_games(w[:1], seeds[:1])
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    w = batches[line.strip()]
    t0 = time.process_time()
    _, rounds, capped = play_linear_games(w, seeds)
    cpu = time.process_time() - t0
    print(json.dumps({"cpu_s": cpu, "rounds": int(rounds.sum()), "games": n}), flush=True)
"""


class Worker:
    """One tree's compiled game in a subprocess, playing a named batch per request."""

    def __init__(self, tree: Path, games: int, seed: int) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(tree), str(games), str(seed)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=tree)
        self._read()  # compiled, or loaded from its cache

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"bench worker exited with code {self.proc.wait()}")
        return json.loads(line)

    def play(self, batch: str) -> dict[str, Any]:
        """CPU seconds and rounds of one pass over `batch` ("random" or "hand_set")."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(batch + "\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        """End the subprocess."""
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def extract(commit: str, repo: Path, dest: Path) -> str | None:
    """The tree of `commit` in `dest` (kept if already there); None, else why not."""
    if (dest / "features" / "compiled.py").exists():
        return None
    try:
        tar = subprocess.run(["git", "-C", str(repo), "archive", commit], capture_output=True,
                             check=False)
    except OSError as exc:
        return f"git is not available ({exc})"
    if tar.returncode != 0:
        err = tar.stderr.decode(errors="replace").strip().splitlines()
        return f"git cannot archive commit {commit} (shallow clone?): {err[-1] if err else ''}"
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=dest.parent, prefix=f"{dest.name}."))
    with tarfile.open(fileobj=io.BytesIO(tar.stdout)) as tf:
        tf.extractall(tmp, filter="data")
    tmp.rename(dest)  # whole or not at all: a killed bench leaves no half tree under dest
    return None


def rates(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Median rounds/s (CPU time) of timed passes, with the rounds per game."""
    per = [r["rounds"] / r["cpu_s"] for r in rows]
    return {"rounds_per_s": statistics.median(per), "min": min(per), "max": max(per),
            "mean_rounds": rows[0]["rounds"] / rows[0]["games"], "repeats": len(rows)}


def compare(head: Path, ref: Path, games: int, repeats: int, seed: int) -> dict[str, Any]:
    """HEAD's and the reference's rounds/s per batch, timed A/B/A/B."""
    workers = {"head": Worker(head, games, seed), "reference": Worker(ref, games, seed)}
    rows: dict[str, dict[str, list[dict[str, Any]]]] = {k: {b: [] for b in BATCHES}
                                                       for k in workers}
    try:
        for _ in range(repeats):
            for batch in BATCHES:
                for name, w in workers.items():
                    rows[name][batch].append(w.play(batch))
    finally:
        for w in workers.values():
            w.close()
    out: dict[str, Any] = {"games": games, "repeats": repeats}
    for batch in BATCHES:
        h, r = rates(rows["head"][batch]), rates(rows["reference"][batch])
        out[batch] = {"head": h, "reference": r,
                      "ratio": h["rounds_per_s"] / r["rounds_per_s"]}
    return out


def bench_reference(games: int, repeats: int, seed: int, commit: str = REFERENCE_COMMIT,
                    repo: Path = ROOT) -> dict[str, Any] | None:
    """The reference section of `make bench`, printed; None (said in one line) without git."""
    tree = repo / "runs" / f"ref-{commit}"
    why = extract(commit, repo, tree)
    if why is not None:
        print(f"reference {commit}: skipped, {why}", flush=True)
        return None
    res = compare(repo, tree, games, repeats, seed)
    res["commit"] = commit
    report(res)
    return res


def report(res: dict[str, Any]) -> None:
    """The HEAD / reference table of `compare`."""
    print(f"compiled loop against the reference {res['commit']} (interleaved, CPU time, median "
          f"of {res['repeats']} x {res['games']} games, 4 players, rounds/s):", flush=True)
    for batch in BATCHES:
        b = res[batch]
        print(f"  {batch:9s} HEAD {b['head']['rounds_per_s']:8.0f} ({b['head']['mean_rounds']:.1f}"
              f" rounds/game)  reference {b['reference']['rounds_per_s']:8.0f} "
              f"({b['reference']['mean_rounds']:.1f})  x{b['ratio']:.2f}", flush=True)
