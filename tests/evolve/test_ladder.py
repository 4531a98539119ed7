"""Ladder of ancestral champions: generation picks, real games, the cache, the plot."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from evolve.config import load_config, to_toml
from evolve.report import ladder as ladder_mod
from evolve.report.ladder import build_ladder, ladder_generations
from evolve.report.plots import plot_ladder, save_figure
from evolve.runfolder import RunFolder, RunFolderError
from features.genome import LAYOUT, hand_set_genome, random_genomes


def test_generation_picks_bounded_spread_and_stable() -> None:
    short = list(range(11)) + list(range(20, 500, 10)) + [499]
    longer = list(range(11)) + list(range(20, 1000, 10)) + [999]
    for stored in (short, longer):
        picks = ladder_generations(stored, 12)
        assert len(picks) <= 12 and picks[0] == 0 and picks[-1] == stored[-1]
        assert picks == sorted(set(picks)) and set(picks) <= set(stored)
        assert max(np.diff(picks)) <= 2 * (stored[-1] / 8)  # evenly spread, not bunched early
    # Growing the run keeps most earlier picks: the cache keeps serving.
    a, b = ladder_generations(short, 12)[:-1], ladder_generations(longer, 12)
    assert len(set(a) & set(b)) >= len(b) // 2
    assert ladder_generations([0, 1, 2], 12) == [0, 1, 2]


def _run_folder(path: Path, strong_late: bool) -> Path:
    """A run folder of the real game: early champions random, later ones hand-set."""
    folder = RunFolder(path)
    folder.create()
    folder.write_config(to_toml(load_config((), {"run.population": 4, "run.elite": 1})))
    rng = np.random.default_rng(1)
    names = tuple(LAYOUT.names)
    for g in (0, 5, 10):
        genes = random_genomes(LAYOUT, 4, rng)
        if strong_late and g > 0:
            genes[2] = hand_set_genome()
        mu = np.array([20.0, 21.0, 30.0, 22.0])
        folder.write_genes(g, genes, mu, np.ones(4), names)
    return path


def test_ladder_real_games_and_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = _run_folder(tmp_path / "r", strong_late=True)
    lad = build_ladder(run, games=60)
    assert list(lad.generations) == [0, 5, 10] and lad.players == 4
    assert np.isnan(np.diag(lad.win)).all()
    off = lad.win[~np.eye(3, dtype=bool)]
    assert ((off >= 0) & (off <= 1)).all()
    # The hand-set champion (generations 5 and 10) against the random one of generation 0
    # wins far more often than the other way round: rows are the player, columns the copies.
    assert lad.win[1, 0] > lad.win[0, 1] + 0.1 and lad.win[2, 0] > lad.win[0, 2] + 0.1
    assert np.isnan(lad.ancestors_mean()[0]) and lad.ancestors_mean()[1] == lad.win[1, 0]
    # A second build reads every pair from plots/ladder.npz and plays nothing.
    monkeypatch.setattr(ladder_mod, "_champion", lambda *a: pytest.fail("played again"))
    again = build_ladder(run, games=60)
    np.testing.assert_array_equal(again.win, lad.win)
    fig = plot_ladder(lad)
    out = save_figure(fig, tmp_path / "ladder.png")
    assert Image.open(out).size[0] > 500


def test_ladder_refuses_genes_of_another_feature_set(tmp_path: Path) -> None:
    folder = RunFolder(tmp_path / "r")
    folder.create()
    folder.write_config(to_toml(load_config()))
    folder.write_genes(0, np.zeros((2, 3)), np.zeros(2), np.ones(2), ("a", "b", "c"))
    folder.write_genes(1, np.zeros((2, 3)), np.zeros(2), np.ones(2), ("a", "b", "c"))
    with pytest.raises(RunFolderError, match="feature set"):
        build_ladder(folder.root)
