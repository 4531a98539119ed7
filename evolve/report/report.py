"""One self-contained HTML page per run: config, per-generation table, champion, plots."""

from __future__ import annotations

import base64
import csv
import html
from pathlib import Path
from typing import Any

import numpy as np

from evolve.cli import ArgumentParser, error
from evolve.config import MAX_CONFIG_BYTES
from evolve.rating.crownings import section_html
from evolve.report.plots import make_plots
from evolve.report.rundata import RunData, load_run
from evolve.runfolder import RunFolder, RunFolderError
from features.botfile import BotFile
from features.genome import LAYOUT, GenomeError
from game.atomic import MiB, atomic_write_text, read_limited

__all__ = ["SECTIONS", "build_report", "main", "read_champion", "write_report"]

# Section ids, in page order; tests check every one is present.
SECTIONS = ("config", "summary", "champion", "evaluation", "behaviour", "plots")
DIAGNOSE_DIR = "diagnose"  # `python -m arena diagnose ... --out RUN/diagnose` (make report)

_CSS = """
body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1200px;color:#222}
h1{margin-bottom:.2em} h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}
table{border-collapse:collapse;font-size:13px} td,th{border:1px solid #ddd;padding:2px 6px}
th{background:#f3f3f3;position:sticky;top:0}
td.n{text-align:right;font-variant-numeric:tabular-nums}
pre{background:#f7f7f7;padding:.8em;overflow:auto} img{max-width:100%;border:1px solid #eee}
.scroll{max-height:420px;overflow:auto} .muted{color:#777}
"""

_SUMMARY_COLS = (
    ("generation", "gen", "{:d}"),
    ("games", "games", "{:d}"),
    ("games_per_s", "games/s", "{:.1f}"),
    ("capped_fraction", "capped", "{:.3f}"),
    ("mean_rounds", "rounds", "{:.1f}"),
    ("mu_mean", "mu mean", "{:.2f}"),
    ("mu_std", "mu sd", "{:.2f}"),
    ("mu_min", "mu min", "{:.2f}"),
    ("mu_max", "mu max", "{:.2f}"),
    ("champion_index", "champ #", "{:d}"),
    ("champion_mu", "champ mu", "{:.2f}"),
    ("champion_sigma", "champ sigma", "{:.2f}"),
    ("wall_s", "wall s", "{:.1f}"),
)


def _fmt(v: Any, spec: str) -> str:
    if v is None:
        return ""
    try:
        return spec.format(int(v) if spec == "{:d}" else float(v))
    except (TypeError, ValueError):
        return html.escape(str(v))


def read_champion(run: RunData) -> tuple[tuple[str, ...], np.ndarray, dict[str, Any]]:
    """Names, values and metadata of the run's champion (champion.json, else the last log row)."""
    path = RunFolder(run.path).champion
    if path.exists():
        # An older feature set's file shows on this layout, the genes added since at 0.
        try:
            bot = BotFile.read(path)
        except GenomeError as e:
            raise RunFolderError(f"not a genome file: {e}") from None
        meta = dict(bot.meta)
        meta.setdefault("feature_set_version", bot.feature_set_version)
        return LAYOUT.names, bot.weights, meta
    if not run.log:
        raise RunFolderError(f"{run.path}: no champion.json and no log.jsonl")
    last = run.log[-1]
    hit = np.flatnonzero(run.generations == last["generation"])
    if not hit.size:
        raise RunFolderError(f"{run.path}: no champion.json and no genes file of generation "
                             f"{last['generation']}")
    values = run.genes[int(hit[-1])][int(last["champion_index"])]
    meta = {"generation": last["generation"], "mu": last.get("champion_mu"),
            "sigma": last.get("champion_sigma"), "eval": last.get("eval")}
    return run.names, values, meta


def _duration(seconds: float) -> str:
    """A wall time as h:mm:ss (hours may exceed 24)."""
    s = round(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


MAX_EMBED_BYTES = 16 * MiB  # a PNG or table the report embeds (a plot is about 0.1 MB)


def _img(path: Path, alt: str) -> str:
    try:
        raw = read_limited(path, MAX_EMBED_BYTES, "a report's image")
    except OSError as e:  # a file the run folder should not hold: said, not embedded
        return f'<p class="muted">{html.escape(str(path))}: {html.escape(_why(e))}</p>'
    data = base64.b64encode(raw).decode("ascii")
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def _why(e: OSError) -> str:
    return f"cannot read ({e.strerror or e})"


def _summary_table(log: list[dict[str, Any]]) -> str:
    head = "".join(f"<th>{h}</th>" for _, h, _ in _SUMMARY_COLS) + "<th>eval win rate [95%]</th>"
    rows = []
    for r in log:
        cells = "".join(f'<td class="n">{_fmt(r.get(k), s)}</td>' for k, _, s in _SUMMARY_COLS)
        ev = r.get("eval")
        evs = (f"{ev['win_rate']:.3f} [{ev['lo']:.3f}, {ev['hi']:.3f}] of {ev['games']}"
               if ev else "")
        rows.append(f"<tr>{cells}<td>{evs}</td></tr>")
    return f'<div class="scroll"><table><tr>{head}</tr>{"".join(rows)}</table></div>'


def _eval_block(ev: dict[str, Any] | None, source: str) -> str:
    if not ev:
        return '<p class="muted">No evaluation against the baseline bots was recorded.</p>'
    opp = ", ".join(html.escape(str(o)) for o in ev.get("opponents") or [])
    return (
        f"<p>{html.escape(source)}: <b>{ev['wins']}</b> wins in <b>{ev['games']}</b> games, "
        f"win rate <b>{ev['win_rate']:.3f}</b>, 95% Wilson interval "
        f"[{ev['lo']:.3f}, {ev['hi']:.3f}]; opponents: {opp or 'n/a'}.</p>"
    )


def _behaviour_block(run_path: Path) -> str:
    """The champion's behaviour table and plot written by `arena diagnose`, if there."""
    folder = run_path / DIAGNOSE_DIR
    table, png = folder / "diagnose.csv", folder / "diagnose.png"
    if not table.exists():
        return ('<p class="muted">No behaviour diagnosis: <code>make report</code> runs '
                f'<code>python -m arena diagnose {html.escape(str(run_path))}/champion.json '
                f'--out {html.escape(str(folder))}</code> first.</p>')
    try:
        text = read_limited(table, MAX_EMBED_BYTES, "a report's table").decode("utf-8")
        rows = list(csv.reader(text.splitlines()))
    except (OSError, UnicodeDecodeError, csv.Error):
        return f'<p class="muted">{html.escape(str(table))} is unreadable.</p>'
    if not rows:
        return f'<p class="muted">{html.escape(str(table))} is empty.</p>'
    head = "".join(f"<th>{html.escape(h)}</th>" for h in rows[0])
    body = "".join("<tr>" + "".join(
        f"<td{' class=n' if 0 < i < len(r) - 1 else ''}>{html.escape(c)}</td>"
        for i, c in enumerate(r)) + "</tr>" for r in rows[1:])
    img = _img(png, "behaviour") if png.exists() else ""
    return f"<table><tr>{head}</tr>{body}</table>{img}"


def build_report(run: RunData, plots: list[Path]) -> str:
    """The report page as one HTML string, with the given PNGs embedded."""
    name = html.escape(run.path.name)
    cfg_path = RunFolder(run.path).config
    try:
        cfg = read_limited(cfg_path, MAX_CONFIG_BYTES, "a config file").decode("utf-8", "replace")
    except FileNotFoundError:
        cfg = "(no config.toml)"
    except OSError as e:
        cfg = f"({cfg_path.name}: {_why(e)})"
    names, values, meta = read_champion(run)
    gene_rows = "".join(
        f"<tr><td>{html.escape(n)}</td><td class='n'>{v:+.4f}</td>"
        f"<td>{html.escape(run.meanings.get(n, ''))}</td></tr>"
        for n, v in zip(names, values, strict=True)
    )
    info = ", ".join(f"{k} = {html.escape(str(meta[k]))}"
                     for k in ("run", "generation", "mu", "sigma", "feature_set_version")
                     if meta.get(k) is not None)
    ev = meta.get("eval")
    source = "champion file"
    if not ev:
        evs = [r for r in run.log if r.get("eval")]
        ev, source = (evs[-1]["eval"], f"generation {evs[-1]['generation']}") if evs else (None, "")
    history = [r for r in run.log if r.get("eval")]
    hist_rows = "".join(
        f"<tr><td class='n'>{r['generation']}</td><td class='n'>{r['eval']['games']}</td>"
        f"<td class='n'>{r['eval']['wins']}</td><td class='n'>{r['eval']['win_rate']:.3f}</td>"
        f"<td class='n'>[{r['eval']['lo']:.3f}, {r['eval']['hi']:.3f}]</td></tr>"
        for r in history
    )
    hist = (f"<table><tr><th>gen</th><th>games</th><th>wins</th><th>win rate</th>"
            f"<th>95% interval</th></tr>{hist_rows}</table>" if history else "")
    figs = "\n".join(f"<h3>{html.escape(p.stem)}</h3>{_img(p, p.stem)}" for p in plots)
    last = run.log[-1] if run.log else {}
    total_wall = sum(float(r.get("wall_s") or 0.0) for r in run.log)
    total_games = sum(int(r.get("games") or 0) for r in run.log)
    untimed = sum(1 for r in run.log if r.get("wall_s") is None)
    note = f" ({untimed} generations without timings)" if untimed else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>riskevo run {name}</title>
<style>{_CSS}</style></head><body>
<h1>riskevo run <code>{name}</code></h1>
<p class="muted">{len(run.log)} generations logged (last: {last.get('generation', 'n/a')}),
genes stored for {len(run.generations)}; the run so far: <b>{total_games:,}</b> games in
<b>{_duration(total_wall)}</b> of generation wall time{note}.</p>
<h2 id="config">Config</h2><pre>{html.escape(cfg)}</pre>
<h2 id="summary">Summary per generation</h2>{_summary_table(run.log)}
<h2 id="champion">Champion genes</h2><p>{info}</p>
<table><tr><th>gene</th><th>weight</th><th>meaning</th></tr>{gene_rows}</table>
<h2 id="crownings">Crownings: is the run still finding stronger players?</h2>
{section_html(run.log)}
<h2 id="evaluation">Champion evaluation</h2>{_eval_block(ev, source)}{hist}
<h2 id="behaviour">Champion behaviour</h2>{_behaviour_block(run.path)}
<h2 id="plots">Plots</h2>{figs}
</body></html>
"""


def write_report(run_path: str | Path, refresh_plots: bool = True) -> Path:
    """Write `<run>/report.html` atomically, refreshing the plots first unless told not to."""
    run = load_run(run_path)
    if refresh_plots:
        make_plots(run.path)
    folder = RunFolder(run.path)
    plot_dir = folder.plots
    order = ["progress", "ladder", "all_genes"]
    pngs = sorted(plot_dir.glob("*.png")) if plot_dir.is_dir() else []
    pngs.sort(key=lambda p: (order.index(p.stem) if p.stem in order else len(order), p.name))
    text = build_report(run, pngs)
    out = folder.report
    atomic_write_text(out, text)
    return out


def main(argv: list[str]) -> int:
    """`python -m evolve report RUN [--no-plots]`: write RUN/report.html."""
    ap = ArgumentParser(prog="python -m evolve report", description=main.__doc__)
    ap.add_argument("run", help="run folder (runs/<name>)")
    ap.add_argument("--no-plots", action="store_true", help="embed the existing PNGs as they are")
    args = ap.parse_args(argv)
    try:
        out = write_report(args.run, refresh_plots=not args.no_plots)
    except (RunFolderError, KeyError) as e:
        return error(e)
    except OSError as e:
        return error(f"{args.run}: cannot write the report ({e.strerror or e})")
    print(out)
    return 0
