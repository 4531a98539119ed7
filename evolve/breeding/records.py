"""The record stage: per-generation statistics (DEAP Statistics and Logbook) and the hall of
fame of champions (DEAP HallOfFame), with their plain-array form for checkpoints.

The hall of fame keeps the best `run.hall_of_fame` champions of all generations, ranked by the
conservative rating mu - 3 sigma they had as champion (their fitness inside the hall); a champion
already in the hall is kept once, with its best rating. `hall_of_fame_arrays` is what a league
needs to seat them as fixed opponents: genes, mu, sigma and generation per member.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from deap import tools

from evolve.breeding.creator import Individual

HOF_KEYS = ("hof.genes", "hof.mu", "hof.sigma", "hof.generation")


def statistics() -> tools.MultiStatistics:
    """mu (fitness) mean/std/min/max and per-gene mean/std of a rated population."""
    mu = tools.Statistics(key=lambda ind: ind.fitness.values[0])
    for name, fn in (("mean", np.mean), ("std", np.std), ("min", np.min), ("max", np.max)):
        mu.register(name, fn)
    gene = tools.Statistics(key=list)
    gene.register("mean", np.mean, axis=0)
    gene.register("std", np.std, axis=0)
    return tools.MultiStatistics(mu=mu, gene=gene)


def flat_statistics(stats: tools.MultiStatistics, pop: Sequence[Any],
                    names: Sequence[str]) -> dict[str, Any]:
    """The log.jsonl fields of `statistics()`: mu_mean .. mu_max, gene_mean and gene_std."""
    rec = stats.compile(pop)
    out: dict[str, Any] = {f"mu_{k}": float(v) for k, v in rec["mu"].items()}
    for k in ("mean", "std"):
        out[f"gene_{k}"] = dict(zip(names, np.asarray(rec["gene"][k]).tolist(), strict=True))
    return out


CHAPTERS = ("eval", "playoff")  # record fields that are a dict or None: one chapter each


def log(book: tools.Logbook, record: dict[str, Any]) -> None:
    """Add one generation's record; its `eval` and `playoff` (a dict or None) go to chapters
    of those names.

    (Logbook.record files any dict value under a chapter of that name, and copies the other
    fields into it; the chapters here keep only the generation and their own fields.)
    """
    book.record(**{k: v for k, v in record.items() if k not in CHAPTERS})
    for ch in CHAPTERS:
        if record.get(ch) is not None:
            fields = {k: v for k, v in record[ch].items() if k != "generation"}
            book.chapters[ch].record(generation=record["generation"], **fields)


def logbook(records: Sequence[dict[str, Any]] = ()) -> tools.Logbook:
    """A Logbook of per-generation records (e.g. a checkpoint's `flat_records`)."""
    book = tools.Logbook()
    for r in records:
        log(book, r)
    return book


def flat_records(book: tools.Logbook) -> list[dict[str, Any]]:
    """The records as they were logged, `eval` and `playoff` back in each (None where none
    ran)."""
    found = {ch: {e["generation"]: {k: v for k, v in e.items() if k != "generation"}
                  for e in book.chapters[ch]} if ch in book.chapters else {}
             for ch in CHAPTERS}
    return [{**r, **{ch: found[ch].get(r["generation"]) for ch in CHAPTERS}} for r in book]


def hall_of_fame(size: int) -> tools.HallOfFame:
    """An empty hall of fame of `size` champions (one entry per distinct genome)."""
    return tools.HallOfFame(size)


def enter_champion(hof: tools.HallOfFame, champion: Sequence[float], mu: float, sigma: float,
                   generation: int) -> None:
    """Offer a generation's champion to the hall of fame (in place)."""
    entry = _entry(champion, mu, sigma, generation)
    for i, member in enumerate(hof):
        if list(member) == list(entry):
            if entry.fitness > member.fitness:
                hof.remove(i)
                hof.insert(entry)
            return
    hof.update([entry])


def _entry(genes: Sequence[float], mu: float, sigma: float, generation: int) -> Any:
    ind = Individual(genes)
    ind.rating = (mu, sigma)
    ind.generation = generation
    ind.fitness.values = (mu - 3.0 * sigma,)
    return ind


def hall_of_fame_arrays(hof: tools.HallOfFame, n_genes: int) -> dict[str, np.ndarray]:
    """Members best first: hof.genes f64[h, G], hof.mu, hof.sigma f64[h], hof.generation."""
    return {
        "hof.genes": np.array([list(m) for m in hof], dtype=np.float64).reshape(-1, n_genes),
        "hof.mu": np.array([m.rating[0] for m in hof], dtype=np.float64),
        "hof.sigma": np.array([m.rating[1] for m in hof], dtype=np.float64),
        "hof.generation": np.array([m.generation for m in hof], dtype=np.int64),
    }


def restore_hall_of_fame(hof: tools.HallOfFame, arrays: dict[str, np.ndarray]) -> None:
    """Refill an empty hall of fame from `hall_of_fame_arrays` (missing arrays: stays empty)."""
    if not all(k in arrays for k in HOF_KEYS):
        return
    genes, mu, sigma, gen = (arrays[k] for k in HOF_KEYS)
    if not (len(genes) == len(mu) == len(sigma) == len(gen)):
        raise ValueError("hall-of-fame arrays of different lengths")
    # Worst first: an insert goes before its equals, so this keeps the saved order of ties.
    for i in reversed(range(len(genes))):
        hof.insert(_entry(genes[i].tolist(), float(mu[i]), float(sigma[i]), int(gen[i])))
