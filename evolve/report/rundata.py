"""A run folder as the plots and the report read it: its log and its gene files, thinned for
long runs (no matplotlib here: reading is not drawing)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from evolve.runfolder import RunFolder, RunFolderError

__all__ = ["RunData", "gene_meanings", "load_run"]


@dataclass(frozen=True)
class RunData:
    """What the plots and the report read from a run folder."""

    path: Path
    log: list[dict[str, Any]]
    generations: np.ndarray  # int[n_gen], the generation number of each genes file
    genes: list[np.ndarray]  # per generation f64[n, G] (population sizes may differ)
    names: tuple[str, ...]
    meanings: dict[str, str]  # gene name -> one-line meaning ("" when unknown)


def gene_meanings(names: tuple[str, ...]) -> dict[str, str]:
    """One-line meaning of each gene from the feature layout, or "" if it does not know it."""
    docs: dict[str, str] = {}
    try:
        from features.genome import LAYOUT

        raw = getattr(LAYOUT, "docs", None) or ()
        if isinstance(raw, dict):
            docs = {str(k): str(v) for k, v in raw.items()}
        else:
            docs = dict(zip(LAYOUT.names, (str(d) for d in raw), strict=False))
    except Exception:  # noqa: BLE001 - plots must work from a run folder alone
        docs = {}
    return {n: docs.get(n, "").strip().splitlines()[0] if docs.get(n) else "" for n in names}


def _spread(files: list[tuple[int, Path]], most: int) -> list[tuple[int, Path]]:
    """At most `most` files, evenly spread, always with generations 0, 1, 10 and the last.

    An overnight run writes thousands of gene files; plotting every one would cost gigabytes
    and minutes without changing what a density map shows.
    """
    if len(files) <= most:
        return files
    keep = set(np.linspace(0, len(files) - 1, most - 3).round().astype(int).tolist())
    keep |= {i for i, (gen, _) in enumerate(files) if gen in (0, 1, 10)}
    return [files[i] for i in sorted(keep)]


def load_run(path: str | Path, max_generations: int = 400) -> RunData:
    """Read log.jsonl and genes/gen_*.npz of a run folder (RunFolderError naming what is wrong).

    Long runs are thinned to `max_generations` gene files (see `_spread`).
    """
    folder = RunFolder(Path(path))
    if not folder.root.is_dir():
        raise RunFolderError(f"{folder.root}: not a run folder")
    log = folder.read_log()
    files = _spread(folder.genes_files(required=True), max_generations)
    pops = [folder.read_genes(gen) for gen, _ in files]
    names = pops[0].names
    for pop in pops[1:]:
        if pop.names != names:
            raise RunFolderError(f"{folder.genes_path(pop.generation)}: gene names differ from "
                                 f"{folder.genes_path(pops[0].generation)}")
    return RunData(folder.root, log, np.array([p.generation for p in pops]),
                   [p.genes for p in pops], names, gene_meanings(names))
