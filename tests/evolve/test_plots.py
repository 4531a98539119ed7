"""Plots of a small synthetic run folder: every PNG is written, non-empty and a real image."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from evolve.report.plots import (
    RunFolderError,
    load_run,
    main,
    make_plots,
    plot_gene_density,
    plot_progress,
    save_figure,
)
from features.genome import LAYOUT
from tests.helpers.synthetic_run import NAMES, SOME, make_synthetic_run


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_synthetic_run(tmp_path_factory.mktemp("run") / "synthetic")


def test_load_run_reads_all_generations(run_dir: Path) -> None:
    run = load_run(run_dir)
    assert list(run.generations) == list(range(12))
    assert run.names == NAMES
    assert run.genes[0].shape == (30, len(NAMES))
    assert len(run.log) == 12


def test_make_plots_writes_valid_pngs(run_dir: Path) -> None:
    files = make_plots(run_dir, list(SOME))
    # progress + all genes + (density + histograms) per gene
    assert len(files) == 2 + 2 * len(SOME)
    for f in files:
        assert f.parent == run_dir / "plots"
        with Image.open(f) as im:
            assert im.format == "PNG"
            w, h = im.size
            assert w > 300 and h > 200
            # a blank canvas has one colour; a plot has many
            assert len(im.convert("RGB").getcolors(maxcolors=1 << 20) or []) > 10
    assert not list((run_dir / "plots").glob(".*"))  # no temp files left behind
    from evolve.report.plots import _written

    # `make plot` said each of 113 paths; one line now, the per-gene plots counted
    assert _written(files) == (f"{len(files)} plots in {run_dir / 'plots'}: progress.png, "
                               f"all_genes.png and {2 * len(SOME)} per gene (density_*, hist_*)")


def test_density_marks_median_of_each_generation(run_dir: Path) -> None:
    run = load_run(run_dir)
    fig = plot_gene_density(run, 2)
    ax = fig.axes[0]
    median = ax.lines[0].get_ydata()
    expected = [np.median(g[:, 2]) for g in run.genes]
    np.testing.assert_allclose(median, expected)
    assert NAMES[2] in ax.get_ylabel()
    assert LAYOUT.docs[2].split()[0] in ax.get_title()  # the gene's meaning is shown
    save_figure(fig, run_dir / "scratch" / "d.png")


def test_torn_last_log_line_is_ignored(tmp_path: Path) -> None:
    run = make_synthetic_run(tmp_path / "r", generations=3)
    with open(run / "log.jsonl", "a") as f:
        f.write('{"generation": 3, "wal')
    assert len(load_run(run).log) == 3


def test_missing_genes_is_a_named_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(RunFolderError, match="gen_NNNNN"):
        load_run(tmp_path / "empty")


def test_main_unknown_gene(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(run_dir), "--gene", "nope"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: unknown gene 'nope'") and err.count("\n") == 1


def test_long_runs_are_thinned_but_keep_key_generations(tmp_path: Path) -> None:
    # 60 gene files, at most 12 loaded: 0, 1, 10 and the last must survive the thinning.
    run = make_synthetic_run(tmp_path / "long", generations=60, n=5)
    data = load_run(run, max_generations=12)
    gens = data.generations.tolist()
    assert len(gens) <= 12 and gens == sorted(gens)
    assert {0, 1, 10, 59} <= set(gens)


def test_density_columns_sit_at_their_generations(tmp_path: Path) -> None:
    # Sparse gene files (0..10 then every 10th) must not be drawn as evenly spaced columns.
    run = make_synthetic_run(tmp_path / "sparse", generations=41, n=5)
    for f in (run / "genes").glob("gen_*.npz"):
        g = int(f.stem.split("_")[1])
        if g > 10 and g % 10:
            f.unlink()
    data = load_run(run)
    mesh = plot_gene_density(data, 1).axes[0].collections[0]
    x_edges = mesh.get_coordinates()[0, :, 0]
    assert x_edges[0] == -0.5 and x_edges[-1] == 40.5
    assert x_edges[10] == 9.5 and x_edges[11] == 15.0  # halfway between 9|10 and 10|20
    assert x_edges[12] == 25.0  # halfway between 20 and 30


def test_progress_marks_each_restart(run_dir: Path) -> None:
    log = load_run(run_dir).log
    marked = [{**r, "restart": r["generation"] in (4, 8)} for r in log]
    fig = plot_progress(marked)
    dashed = [ln for ln in fig.axes[0].lines if ln.get_linestyle() == "--"]
    assert sorted(float(ln.get_xdata()[0]) for ln in dashed) == [4.5, 8.5]
    assert not [ln for ln in plot_progress(log).axes[0].lines if ln.get_linestyle() == "--"]


def test_progress_draws_each_islands_best(run_dir: Path) -> None:
    log = load_run(run_dir).log
    islands = [{**r, "island_mu_max": [r["mu_max"] - i for i in range(3)]} for r in log]
    islands[1]["island_mu_max"] = [1.0]  # a line of another island count is left out
    drawn = [ln for ln in plot_progress(islands).axes[1].lines
             if ln.get_color() == "darkorange" and len(ln.get_xdata())]
    assert len(drawn) == 3 and all(len(ln.get_xdata()) == len(log) - 1 for ln in drawn)
    assert not [ln for ln in plot_progress(log).axes[1].lines if ln.get_color() == "darkorange"]
