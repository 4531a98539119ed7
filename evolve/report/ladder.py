"""The ladder of ancestral champions (a CIAO plot): is a long run improving or cycling?

TrueSkill is relative to the population of the day, so a flat or rising mu says nothing about
whether generation 900 beats generation 300. The ladder plays the champion of each stored
generation (best mu - 3 sigma in `genes/gen_NNNNN.npz`) against 3 copies of the champion of
every other stored generation, with the run's own game, rules and board, and draws the outright
win rates as a generation x generation heat map (par = 1 / players). Below the diagonal: a
champion against its ancestors; a run that improves is warm there, a run that cycles is not.

Results are cached per (row generation, column generation) in `plots/ladder.npz`, so a refresh
plays only the pairs it has not played yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from evolve.breeding import ga
from evolve.checkpoint import load_npz
from evolve.runfolder import RunFolder, RunFolderError
from game.atomic import MiB, atomic_write_bytes

MAX_CACHE_BYTES = 64 * MiB  # the ladder's cache of played pairs

__all__ = ["LADDER_KEY", "Ladder", "build_ladder", "ladder_generations"]

LADDER_KEY = 0x1ADD  # first spawn_key entry of ladder game seeds (apart from league and eval)
CACHE_NAME = "ladder.npz"


@dataclass(frozen=True)
class Ladder:
    """win[i, j]: outright win rate of generation gens[i]'s champion against players - 1
    copies of generation gens[j]'s (NaN on the diagonal), from `games` games per pair."""

    generations: np.ndarray  # int[n]
    win: np.ndarray  # f64[n, n]
    games: int
    players: int

    def ancestors_mean(self) -> np.ndarray:
        """Per row: mean win rate against all earlier generations (NaN for the first)."""
        out = np.full(len(self.generations), np.nan)
        for i in range(1, len(self.generations)):
            out[i] = float(np.mean(self.win[i, :i]))
        return out


def ladder_generations(stored: list[int], most: int) -> list[int]:
    """At most `most` stored generations spread evenly over the run, the first and the last.

    The picks lie on a grid of generations whose step doubles as the run grows (the first
    stored generation at or after each grid point), so the picks of a longer run keep most of
    a shorter run's and the cache keeps serving.
    """
    if len(stored) <= most:
        return list(stored)
    first, last = stored[0], stored[-1]
    step = 1
    while (last - first) // step > most - 2:
        step *= 2
    picks: list[int] = []
    i = 0
    for point in range(first, last, step):
        while stored[i] < point:
            i += 1
        if stored[i] != last and (not picks or stored[i] != picks[-1]):
            picks.append(stored[i])
    return [*picks, last]


def _champion(folder: RunFolder, generation: int) -> np.ndarray:
    pop = folder.read_genes(generation)
    return pop.genes[ga.champion_index(pop.mu, pop.sigma)]


def _load_cache(path: Path, games: int, players: int) -> dict[tuple[int, int], float]:
    try:
        z = load_npz(path, MAX_CACHE_BYTES, "the ladder's cache")
        if int(z["games"]) != games or int(z["players"]) != players:
            return {}
        return {(int(a), int(b)): float(w) for (a, b), w in zip(z["pairs"], z["win"],
                                                                strict=True)}
    except (OSError, KeyError, ValueError, TypeError):  # NpzError is a ValueError
        return {}  # a cache: anything unusable is simply played again


def _save_cache(path: Path, cache: dict[tuple[int, int], float], games: int,
                players: int) -> None:
    import io

    pairs = np.array(sorted(cache), dtype=np.int64).reshape(-1, 2)
    win = np.array([cache[(int(a), int(b))] for a, b in pairs], dtype=np.float64)
    buf = io.BytesIO()
    np.savez(buf, pairs=pairs, win=win, games=np.int64(games), players=np.int64(players))
    atomic_write_bytes(path, buf.getvalue())


def build_ladder(run_path: str | Path, *, most: int = 12, games: int = 100) -> Ladder:
    """Play (or read from the cache) the ladder of a run folder (RunFolderError if the run's
    config or genes cannot be played with the installed game)."""
    from evolve.config import ConfigError, load_config
    from evolve.plugin import load_plugin

    folder = RunFolder(Path(run_path))
    try:
        cfg = load_config([folder.config])
        plugin = load_plugin(cfg)
    except ConfigError as e:
        raise RunFolderError(f"{folder.config}: cannot rebuild the run's game ({e})") from None
    gens = ladder_generations([g for g, _ in folder.genes_files(required=True)], most)
    names = folder.read_genes(gens[0]).names
    if names != plugin.names:
        raise RunFolderError(f"{folder.root}: its genes are not those of the installed feature "
                             "set (a run of another version); no ladder")
    k = cfg.run.group_size
    cache_path = folder.plots / CACHE_NAME
    cache = _load_cache(cache_path, games, k)
    todo = [(a, b) for a in gens for b in gens if a != b and (a, b) not in cache]
    champs = {g: _champion(folder, g) for g in {g for pair in todo for g in pair}}
    for a, b in todo:
        weights = np.stack([champs[a]] + [champs[b]] * (k - 1))
        seeds = [np.random.SeedSequence(cfg.run.seed, spawn_key=(LADDER_KEY, a, b, i))
                 for i in range(games)]
        placements, _rounds, capped = plugin.play_games(
            np.broadcast_to(weights, (games, *weights.shape)).copy(), seeds, plugin.rules,
            plugin.map)
        alone = (placements == 1).sum(axis=1) == 1
        cache[(a, b)] = float(np.mean((placements[:, 0] == 1) & alone & ~capped))
    if todo:
        folder.plots.mkdir(parents=True, exist_ok=True)
        _save_cache(cache_path, cache, games, k)
    win = np.full((len(gens), len(gens)), np.nan)
    for i, a in enumerate(gens):
        for j, b in enumerate(gens):
            if a != b:
                win[i, j] = cache[(a, b)]
    return Ladder(np.array(gens), win, games, k)
