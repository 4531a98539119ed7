"""Export the champion (or any individual) of a run as a bot file (a features.genome file)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from features.genome import LAYOUT, GenomeError, load_genome, save_genome

__all__ = ["ExportError", "export_bot", "load_bot", "main"]


class ExportError(ValueError):
    """The run folder cannot provide the requested individual."""


def _log_row(run: Path, gen: int) -> dict[str, Any]:
    path = run / "log.jsonl"
    if not path.exists():
        return {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue  # a torn last line of a killed run
        if row.get("generation") == gen:
            return dict(row)
    return {}


def _from_generation(run: Path, gen: int | None, index: int | None
                     ) -> tuple[np.ndarray, dict[str, Any]]:
    files = sorted((run / "genes").glob("gen_*.npz"))
    if not files:
        raise ExportError(f"{run}: no genes/gen_NNNNN.npz files")
    if gen is None:
        path = files[-1]
        gen = int(path.stem.split("_")[1])
    else:
        path = run / "genes" / f"gen_{gen:05d}.npz"
        if not path.exists():
            have = ", ".join(f.stem[4:].lstrip("0") or "0" for f in files[-5:])
            raise ExportError(f"{run}: no generation {gen} (last ones stored: {have})")
    with np.load(path, allow_pickle=False) as z:
        genes, mu, sigma = z["genes"], z["mu"], z["sigma"]
        names = tuple(str(n) for n in z["names"])
    if names != LAYOUT.names:
        extra = sorted(set(names) - set(LAYOUT.names))
        missing = sorted(set(LAYOUT.names) - set(names))
        raise ExportError(f"{path}: gene names differ from feature set version {LAYOUT.version} "
                          f"(run only: {extra[:3]}, build only: {missing[:3]})")
    row = _log_row(run, gen)
    if index is None:
        # The logged champion of that generation, else the highest rating.
        index = int(row.get("champion_index", int(np.argmax(mu))))
    if not 0 <= index < len(genes):
        raise ExportError(f"index must be 0..{len(genes) - 1} in generation {gen}, got {index}")
    meta = {"run": run.name, "generation": gen, "index": index, "mu": float(mu[index]),
            "sigma": float(sigma[index]), "eval": row.get("eval")
            if index == row.get("champion_index") else None}
    return np.asarray(genes[index], dtype=np.float64), meta


def export_bot(run_path: str | Path, out: str | Path, gen: int | None = None,
               index: int | None = None) -> Path:
    """Write a bot file for the run's champion (no gen/index) or the chosen individual."""
    run = Path(run_path)
    if not run.is_dir():
        raise ExportError(f"{run}: not a run folder")
    champ = run / "champion.json"
    if gen is None and index is None and champ.exists():
        values, meta = load_genome(champ)
        meta = {**meta, "run": meta.get("run", run.name), "source": "champion.json"}
    else:
        values, meta = _from_generation(run, gen, index)
        meta["source"] = f"genes/gen_{meta['generation']:05d}.npz"
    out_p = Path(out)
    out_p.parent.mkdir(parents=True, exist_ok=True)
    save_genome(out_p, values, meta)
    return out_p


def load_bot(path: str | Path) -> tuple[np.ndarray, dict[str, Any]]:
    """Read a bot file; a feature-set version mismatch is a GenomeError naming both versions."""
    values, meta = load_genome(path)
    return values, dict(meta)


def main(argv: list[str]) -> int:
    """`python -m evolve export RUN [--gen N] [--index I] --out FILE`: write a bot file."""
    ap = argparse.ArgumentParser(prog="python -m evolve export", description=main.__doc__)
    ap.add_argument("run", help="run folder (runs/<name>)")
    ap.add_argument("--gen", type=int, default=None, help="generation (default: the champion)")
    ap.add_argument("--index", type=int, default=None,
                    help="individual in that generation (default: its champion)")
    ap.add_argument("--out", required=True, help="bot file to write (.json)")
    args = ap.parse_args(argv)
    try:
        out = export_bot(args.run, args.out, args.gen, args.index)
        _, meta = load_bot(out)
    except (ExportError, GenomeError, KeyError) as e:
        print(f"error: {e}")
        return 2
    print(f"{out}: run {meta.get('run')}, generation {meta.get('generation')}, "
          f"mu {meta.get('mu')}, eval {meta.get('eval')}")
    return 0
