"""Plots of a run folder: per-gene weight distributions over generations and run progress."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # headless: runs write PNGs on servers without a display

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from evolve.cli import ArgumentParser, error
from evolve.report.ladder import Ladder, build_ladder
from evolve.report.rundata import RunData, load_run
from evolve.report.valueplot import HELD_GAMES, held_out, plot_value, value_rows
from evolve.runfolder import RunFolder, RunFolderError
from game.atomic import atomic_file

__all__ = [
    "RunData",
    "RunFolderError",
    "load_run",
    "main",
    "make_plots",
    "plot_all_genes",
    "plot_gene_density",
    "plot_gene_histograms",
    "plot_ladder",
    "plot_progress",
    "plt",
    "save_figure",
]

REFRESH_NICENESS = 10  # added to a run's background refresh's niceness
WRAP = 48  # characters per line of a gene's meaning under a title


def save_figure(fig: Figure, out: Path, close: bool = True) -> Path:
    """Write a figure as PNG atomically (temp file in the same folder, then rename)."""
    try:
        with atomic_file(out) as fh:
            fig.savefig(fh, format="png", dpi=100)
    finally:
        if close:
            plt.close(fig)
    return out


def _title(name: str, meaning: str) -> str:
    if not meaning:
        return name
    words, lines, cur = meaning.split(), [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > WRAP * 2:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}".strip()
    lines.append(cur)
    return f"{name}\n" + "\n".join(lines[:2])


def _margins(fig: Figure, top: float, bottom: float, left: float, right: float,
             hspace: float | None = None, wspace: float | None = None) -> None:
    """Fixed margins in inches: a run redraws every gene's plots, and a constrained layout
    draws each figure twice."""
    w, h = fig.get_size_inches()
    fig.subplots_adjust(left=left / w, right=1 - right / w, top=1 - top / h, bottom=bottom / h,
                        hspace=hspace, wspace=wspace)


def _hist(ax: Any, values: np.ndarray, edges: np.ndarray, **style: Any) -> None:
    """A histogram as one filled outline (bars are an artist each, slow to draw by the
    hundred)."""
    ax.stairs(np.histogram(values, bins=edges)[0], edges, fill=True, **style)


def _range(values: np.ndarray) -> tuple[float, float]:
    lo, hi = float(np.min(values)), float(np.max(values))
    if hi - lo < 1e-12:  # a constant gene still needs a visible band
        lo, hi = lo - 0.5, hi + 0.5
    pad = 0.02 * (hi - lo)
    return lo - pad, hi + pad


def plot_gene_density(run: RunData, gene: int, bins: int = 40) -> Figure:
    """Density map of one gene (generation on x, weight on y) with median and quartiles."""
    name = run.names[gene]
    cols = [g[:, gene] for g in run.genes]
    lo, hi = _range(np.concatenate(cols))
    edges = np.linspace(lo, hi, bins + 1)
    # Each column is the fraction of that generation's population in each weight bin.
    dens = np.stack([np.histogram(c, bins=edges)[0] / max(len(c), 1) for c in cols], axis=1)
    gx = run.generations.astype(float)
    fig, ax = plt.subplots(figsize=(9, 5))
    _margins(fig, top=0.85, bottom=0.55, left=0.75, right=0.15)
    # Column edges halfway between stored generations: they need not be evenly spaced.
    mids = (gx[1:] + gx[:-1]) / 2
    xe = np.concatenate([[gx[0] - 0.5], mids, [gx[-1] + 0.5]])
    im = ax.pcolormesh(xe, edges, dens, cmap="Blues", shading="flat")
    q = np.array([np.percentile(c, [25, 50, 75]) for c in cols])
    ax.plot(gx, q[:, 1], color="crimson", lw=2, label="median")
    ax.plot(gx, q[:, 0], color="darkorange", lw=1.2, ls="--", label="quartiles (25%, 75%)")
    ax.plot(gx, q[:, 2], color="darkorange", lw=1.2, ls="--")
    ax.set_xlabel("generation")
    ax.set_ylabel(f"weight of {name}")
    ax.set_title(_title(name, run.meanings.get(name, "")), fontsize=11)
    ax.legend(loc="upper left", fontsize=9, framealpha=0.85)
    fig.colorbar(im, ax=ax, label="fraction of population")
    return fig


def _pick_generations(gens: np.ndarray) -> list[int]:
    """Indices of generations 0, 1, 10 and the last that exist (no repeats)."""
    picks: list[int] = []
    for want in (0, 1, 10, int(gens[-1])):
        hit = np.flatnonzero(gens == want)
        if hit.size and int(hit[0]) not in picks:
            picks.append(int(hit[0]))
    return picks or [len(gens) - 1]


def plot_gene_histograms(run: RunData, gene: int, bins: int = 30) -> Figure:
    """Histograms of one gene at generations 0, 1, 10 and the last, on shared axes."""
    name = run.names[gene]
    picks = _pick_generations(run.generations)
    lo, hi = _range(np.concatenate([run.genes[i][:, gene] for i in picks]))
    edges = np.linspace(lo, hi, bins + 1)
    fig, axes = plt.subplots(1, len(picks), figsize=(3.2 * len(picks) + 1, 3.8), sharex=True,
                             sharey=True, squeeze=False)
    _margins(fig, top=1.05, bottom=0.5, left=0.7, right=0.15, wspace=0.08)
    for ax, i in zip(axes[0], picks, strict=True):
        _hist(ax, run.genes[i][:, gene], edges, color="steelblue")
        ax.set_title(f"generation {int(run.generations[i])}", fontsize=10)
        ax.set_xlabel(f"weight of {name}", fontsize=9)
    axes[0, 0].set_ylabel("individuals")
    fig.suptitle(_title(name, run.meanings.get(name, "")), fontsize=11)
    return fig


def plot_all_genes(run: RunData, bins: int = 20) -> Figure:
    """All genes at a glance: one small panel per gene, initial vs final generation."""
    g_n = len(run.names)
    ncol = min(6, g_n)
    nrow = -(-g_n // ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(2.6 * ncol, 2.1 * nrow + 0.8),
                             squeeze=False)
    _margins(fig, top=0.9, bottom=0.3, left=0.1, right=0.1, hspace=0.35, wspace=0.06)
    first, last = run.genes[0], run.genes[-1]
    for k, ax in enumerate(axes.flat):
        if k >= g_n:
            ax.axis("off")
            continue
        lo, hi = _range(np.concatenate([first[:, k], last[:, k]]))
        edges = np.linspace(lo, hi, bins + 1)
        _hist(ax, first[:, k], edges, color="grey", alpha=0.5, label="initial")
        _hist(ax, last[:, k], edges, color="crimson", alpha=0.6, label="final")
        name = run.names[k]
        ax.set_title(name if len(name) <= 30 else name[:28] + "…", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.set_yticks([])
    axes.flat[0].legend(fontsize=7, loc="upper right")
    fig.suptitle(f"gene weights: generation {int(run.generations[0])} (grey) vs "
                 f"{int(run.generations[-1])} (red); x = weight, height = individuals",
                 fontsize=11)
    return fig


def _series(log: list[dict[str, Any]], key: str) -> tuple[np.ndarray, np.ndarray]:
    rows = [(r["generation"], r[key]) for r in log if r.get(key) is not None]
    if not rows:
        return np.zeros(0), np.zeros(0)
    a = np.array(rows, dtype=float)
    return a[:, 0], a[:, 1]


def plot_progress(log: list[dict[str, Any]]) -> Figure:
    """Champion win rate (with interval), rating spread, capped fraction, length, speed."""
    fig, axes = plt.subplots(5, 1, figsize=(9, 13), sharex=True, layout="constrained")
    ax = axes[0]
    ev = [(r["generation"], r["eval"]) for r in log if r.get("eval")]
    if ev:
        g = np.array([e[0] for e in ev], dtype=float)
        wr = np.array([e[1]["win_rate"] for e in ev], dtype=float)
        lo = np.array([e[1]["lo"] for e in ev], dtype=float)
        hi = np.array([e[1]["hi"] for e in ev], dtype=float)
        pooled = [(e[0], e[1]) for e in ev if "pooled_win_rate" in e[1]]
        if pooled:
            # The proven champion's evaluations pooled since its crowning: the steady line.
            pg = np.array([p[0] for p in pooled], dtype=float)
            ax.fill_between(pg, [p[1]["pooled_lo"] for p in pooled],
                            [p[1]["pooled_hi"] for p in pooled], color="seagreen", alpha=0.25,
                            step="post", label="95% Wilson interval (pooled)")
            ax.step(pg, [p[1]["pooled_win_rate"] for p in pooled], where="post",
                    color="seagreen", lw=2, label="proven champion, evaluations pooled")
            ax.plot(g, wr, "o", color="grey", ms=3, label="each evaluation alone")
        else:
            ax.fill_between(g, lo, hi, color="seagreen", alpha=0.25,
                            label="95% Wilson interval")
            ax.plot(g, wr, "o-", color="seagreen", label="champion win rate")
        crowned = [r["generation"] for r in log if (r.get("playoff") or {}).get("crowned")]
        if crowned:
            ax.plot(crowned, [0.02] * len(crowned), "^", color="goldenrod", ms=7,
                    label="a new champion is crowned (won its playoff)")
        restarts = [r["generation"] for r in log if r.get("restart")]
        for i, gr in enumerate(restarts):  # run.restart_after: a fresh population after gr
            ax.axvline(gr + 0.5, color="grey", ls="--", lw=1,
                       label="restart: a fresh population" if i == 0 else None)
        # Par for one of k equal players; older logs lack "players": 4-player games then.
        k = int(ev[-1][1].get("players", 4))
        ax.axhline(1 / k, color="grey", ls=":", label=f"par for {k} equal players (1/{k})")
        ax.legend(fontsize=8, loc="upper left")
    else:
        ax.text(0.5, 0.5, "no evaluation yet", ha="center", va="center", transform=ax.transAxes)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate vs baselines")
    ax.set_title("champion against the fixed baseline bots")
    ax = axes[1]
    g, mean = _series(log, "mu_mean")
    if g.size:
        _, std = _series(log, "mu_std")
        _, mn = _series(log, "mu_min")
        _, mx = _series(log, "mu_max")
        ax.fill_between(g, mn, mx, color="slateblue", alpha=0.15, label="min..max")
        ax.fill_between(g, mean - std, mean + std, color="slateblue", alpha=0.35, label="mean ± sd")
        ax.plot(g, mean, color="slateblue", label="mean")
        gc, cm = _series(log, "champion_mu")
        ax.plot(gc, cm, color="crimson", lw=1, label="champion")
        isl = [(r["generation"], r["island_mu_max"]) for r in log if r.get("island_mu_max")]
        if isl:  # run.islands > 1: each island's best, thin (one island count a run)
            isl = [(gi, b) for gi, b in isl if len(b) == len(isl[-1][1])]
            best = np.array([b for _, b in isl], dtype=float)
            ax.plot([gi for gi, _ in isl], best, color="darkorange", lw=0.5, alpha=0.6)
            ax.plot([], [], color="darkorange", lw=0.5, label="each island's best")
        ax.legend(fontsize=8, loc="upper left", ncol=4)
    ax.set_ylabel("TrueSkill mu")
    ax.set_title("rating spread of the population")
    for ax, key, label, title in (
        (axes[2], "capped_fraction", "fraction of games", "games stopped by the round cap"),
        (axes[3], "mean_rounds", "rounds", "mean game length"),
        (axes[4], "games_per_s", "games / s", "simulation speed"),
    ):
        g, v = _series(log, key)
        ax.plot(g, v, "-", color="black", marker="." if g.size < 60 else None)
        ax.set_ylabel(label)
        ax.set_title(title)
    axes[2].set_ylim(0, 1)
    axes[-1].set_xlabel("generation")
    return fig


def plot_ladder(ladder: Ladder) -> Figure:
    """The CIAO heat map (champion of row generation vs copies of column generation) and each
    champion's mean win rate against its ancestors."""
    from matplotlib.colors import TwoSlopeNorm

    n = len(ladder.generations)
    par = 1 / ladder.players
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(14, 6.2), width_ratios=[1.15, 1],
                                 layout="constrained")
    top = min(1.0, 3 * par)  # beyond three times par it is all the same deep red
    im = ax.imshow(np.ma.masked_invalid(ladder.win), cmap="RdBu_r", origin="lower",
                   norm=TwoSlopeNorm(vcenter=par, vmin=0.0, vmax=top))
    if n <= 16:
        for (i, j), w in np.ndenumerate(ladder.win):
            if np.isfinite(w):
                ax.text(j, i, f"{w:.2f}", ha="center", va="center", fontsize=7)
    labels = [str(g) for g in ladder.generations]
    ax.set_xticks(range(n), labels, rotation=90, fontsize=7)
    ax.set_yticks(range(n), labels, fontsize=7)
    ax.set_xlabel(f"opponent: {ladder.players - 1} copies of the champion of generation")
    ax.set_ylabel("champion of generation")
    ax.set_title(f"ladder of ancestral champions: outright win rate ({ladder.games} games a cell)"
                 f"\nred = beats them (par {par:.2f}); below the diagonal = against ancestors")
    fig.colorbar(im, ax=ax, shrink=0.8, label="win rate", extend="max" if top < 1 else "neither")
    anc = ladder.ancestors_mean()
    bx.plot(ladder.generations[1:], anc[1:], "o-", color="crimson",
            label="mean win rate against all earlier champions")
    bx.axhline(par, color="grey", ls=":", label=f"par (1/{ladder.players})")
    bx.set_ylim(0, 1)
    bx.set_xlabel("generation")
    bx.set_ylabel("win rate")
    bx.set_title("does each champion beat its ancestors?")
    bx.legend(fontsize=8, loc="upper left")
    return fig


def make_plots(run_path: str | Path, genes: list[str] | None = None,
               ladder: bool = True) -> list[Path]:
    """Write every plot of a run into `<run>/plots/` and return the files written.

    The ladder plays games (cached in plots/ladder.npz); `ladder=False` skips it, as the
    in-run refresh does so that it never competes with the run's workers.
    """
    run = load_run(run_path)
    out = RunFolder(run.path).plots
    chosen = list(run.names) if genes is None else genes
    for g in chosen:
        if g not in run.names:
            raise RunFolderError(f"unknown gene {g!r}; the run has: {', '.join(run.names)}")
    written = [
        save_figure(plot_progress(run.log), out / "progress.png"),
        save_figure(plot_all_genes(run), out / "all_genes.png"),
    ]
    if len(value_rows(run.log)):
        held = held_out(run.path, run.log) if ladder else None
        written.append(save_figure(plot_value(run.log, held, HELD_GAMES), out / "value.png"))
    for g in chosen:
        k = run.names.index(g)
        safe = g.replace("/", "_").replace(" ", "_")
        written.append(save_figure(plot_gene_density(run, k), out / f"density_{safe}.png"))
        written.append(save_figure(plot_gene_histograms(run, k), out / f"hist_{safe}.png"))
    if ladder and len(run.generations) >= 2:
        try:
            written.append(save_figure(plot_ladder(build_ladder(run.path)), out / "ladder.png"))
        except RunFolderError as e:
            print(f"warning: no ladder plot: {e}", file=sys.stderr)
    if genes is None and len(run.generations):  # all drawn: a resume need not draw them again
        RunFolder(run.path).mark_drawn(int(run.generations[-1]))
    return written


def main(argv: list[str]) -> int:
    """`python -m evolve plot RUN [--gene NAME ...]`: refresh the PNGs in RUN/plots."""
    ap = ArgumentParser(prog="python -m evolve plot", description=main.__doc__)
    ap.add_argument("run", help="run folder (runs/<name>)")
    ap.add_argument("--gene", action="append", help="only this gene (repeatable)")
    ap.add_argument("--no-ladder", action="store_true",
                    help="skip the ladder of ancestral champions (it plays games)")
    ap.add_argument("--parent", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.parent is not None:  # a run's refresh: end with the run (its temp files go at
        from evolve.parallel import watch_parent  # the next resume)

        watch_parent(args.parent)
        if hasattr(os, "nice"):  # and yield the cores to the run's games: drawing can wait
            os.nice(REFRESH_NICENESS)
    try:
        files = make_plots(args.run, args.gene, ladder=not args.no_ladder)
    except RunFolderError as e:
        return error(e)
    except OSError as e:
        return error(f"{args.run}: cannot write the plots ({e.strerror or e})")
    print(_written(files))
    return 0


def _written(files: list[Path]) -> str:
    """What was drawn, in one line: the overview plots by name, the per-gene ones counted."""
    if not files:
        return "no plots drawn"
    per_gene = [f for f in files if f.name.startswith(("density_", "hist_"))]
    named = [f.name for f in files if f not in per_gene]
    return (f"{len(files)} plots in {files[0].parent}: {', '.join(named)}"
            + (f" and {len(per_gene)} per gene (density_*, hist_*)" if per_gene else ""))
