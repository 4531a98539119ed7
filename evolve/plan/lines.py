"""A run's lines of descent and the best player of each, planned: the planning step of a run
with restarts.

`run.restart_after` draws a fresh population when a line stops crowning, and the playoff keeps
a new line's player only when it beats the old champion at greedy play. But players of
different lines plan unlike their greedy strength: four one-hour champions planned made
0.4355 to 0.4855 of 2,000 games against Domination's `hard` (docs/experiments/
2026-11-28-planner-4.md), and the in-house check ranks planning players at Spearman +0.80 on
that yardstick. So a run that restarted plans the best player of every line, each in the same
fit and check games, and keeps the one its check ranks first (`plan_lines`): the later hours of
a night buy more lines to choose from. The check tells good planning players from broken ones;
it could not rank four champions of one run 0.06 apart, so the gain of the pick is not measured
(docs/experiments/2026-11-28-lines.md). A run without restarts plans its champion alone, as
`evolve.plan.planfit.plan_run` always did.

A line's best player is its last crowned champion, else (a line that never crowned) the
candidate that came closest to the champion in its playoffs (paired games: the largest
candidate-minus-incumbent difference). Its genes come from genes/gen_NNNNN.npz of that playoff's
generation: the index the playoff recorded (older logs: `champion.candidate_index`, which
picks the candidate there as the playoff did).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from evolve.rating.champion import candidate_index
from evolve.rating.crownings import playoff_words
from evolve.runfolder import RunFolder, RunFolderError

__all__ = ["DEFAULT_PLUGIN", "Line", "LineBest", "champion_at", "line_bests", "lines",
           "plan_folder", "plan_lines"]

DEFAULT_PLUGIN = "evolve.plugin:default_plugin"  # the planning player plays this plug-in's games


@dataclass(frozen=True)
class Line:
    """Generations first..last (inclusive) of one population's line of descent."""

    index: int  # 0 for the run's first line
    first: int
    last: int


@dataclass(frozen=True)
class LineBest:
    """The best player of a line: the playoff generation it was the candidate in."""

    line: Line
    generation: int
    genes: np.ndarray
    mu: float
    sigma: float
    crowned: bool
    how: str  # in words, for the run's output and the bot file's meta

    def label(self) -> str:
        return f"line {self.line.index + 1} (generations {self.line.first}-{self.line.last})"


def lines(log: Sequence[dict[str, Any]], upto: int) -> list[Line]:
    """The lines of descent in generations 0..upto of a run's log (a line starts after each
    generation logged with `restart: true`)."""
    starts = [0, *sorted(int(r["generation"]) + 1 for r in log
                         if r.get("restart") and int(r["generation"]) < upto)]
    ends = [*(s - 1 for s in starts[1:]), upto]
    return [Line(i, a, b) for i, (a, b) in enumerate(zip(starts, ends, strict=True))]


def _playoff(r: dict[str, Any]) -> dict[str, Any] | None:
    """A log record's playoff when it is whole (a damaged one is left out, not a crash)."""
    po = r.get("playoff")
    if not isinstance(po, dict) or not isinstance(po.get("crowned"), bool):
        return None
    if not all(type(po.get(k)) is int for k in ("candidate_wins", "incumbent_wins", "games")):
        return None
    return po


def line_bests(folder: RunFolder, log: Sequence[dict[str, Any]], upto: int,
               max_sigma: float) -> tuple[list[LineBest], list[str]]:
    """(the best player of every line up to generation `upto` that played a playoff, notes on
    the lines left out: no playoff, or no population file of its playoffs)."""
    out: list[LineBest] = []
    notes: list[str] = []
    for line in lines(log, upto):
        played = [r for r in log if line.first <= int(r["generation"]) <= line.last
                  and _playoff(r)]
        crowned = [r for r in played if r["playoff"]["crowned"]]
        # the last crowned, else the closest; the next when its population file is gone
        picks = crowned[::-1] + sorted(
            (r for r in played if not r["playoff"]["crowned"]),
            key=lambda r: r["playoff"]["incumbent_wins"] - r["playoff"]["candidate_wins"])
        found = None
        for pick in picks:
            found = _candidate(folder, pick, max_sigma)
            if found is not None:
                break
        if found is None:
            notes.append(f"line {line.index + 1}: "
                         + ("no playoff" if not picks else "no population file of its playoffs"))
            continue
        genes, mu, sigma = found
        g = int(pick["generation"])
        won = bool(pick["playoff"]["crowned"])
        how = ("its last crowned champion" if won else
               f"its closest candidate ({playoff_words(pick['playoff'])})")
        out.append(LineBest(line, g, genes, mu, sigma, won, f"{how}, generation {g}"))
    return out, notes


def _candidate(folder: RunFolder, r: dict[str, Any], max_sigma: float
               ) -> tuple[np.ndarray, float, float] | None:
    """(genes, mu, sigma) of the candidate a logged playoff played, from genes/ (None when the
    file is gone or unusable): the index the playoff recorded, else `candidate_index` as the
    playoff chose it (older logs, which do not record it)."""
    try:
        pop = folder.read_genes(int(r["generation"]))
    except RunFolderError:
        return None
    i = r["playoff"].get("candidate")
    if type(i) is not int or not 0 <= i < len(pop.genes):
        i = candidate_index(pop.mu, pop.sigma, max_sigma)
    if i < 0:
        return None
    return pop.genes[i].copy(), float(pop.mu[i]), float(pop.sigma[i])


def _read_champion(path: Path) -> tuple[np.ndarray, dict[str, Any]]:
    """(weights, meta) of a run's champion.json."""
    from features.botfile import BotFile

    bot = BotFile.read(path)
    return bot.weights, bot.meta


def champion_at(folder: RunFolder, log: Sequence[dict[str, Any]], bests: Sequence[LineBest],
                generation: int) -> tuple[np.ndarray, dict[str, Any], str]:
    """(weights, meta, source) of the champion at `generation`: champion.json when it was
    saved then (a run's end), else the last champion crowned by then (a run planned as if it
    had stopped earlier; RunFolderError when none was, or its population file is gone)."""
    weights, meta = _read_champion(folder.champion)
    if int(meta.get("generation", -1)) == generation:
        return weights, meta, folder.champion.name
    crowned = [int(r["generation"]) for r in log if _playoff(r) and r["playoff"]["crowned"]]
    if not crowned:
        raise RunFolderError(f"{folder.root}: no champion crowned by generation {generation} "
                             "(plan it at a later generation)")
    b = next((b for b in bests if b.crowned and b.generation == crowned[-1]), None)
    if b is None:
        raise RunFolderError(f"{folder.root}: generation {crowned[-1]}'s champion is not in "
                             "genes/ (its population file is gone)")
    meta = {"run": folder.root.name, "proven": True, "crowned_generation": b.generation,
            "mu": b.mu, "sigma": b.sigma}
    return b.genes, meta, f"the champion crowned in generation {b.generation}"


def plan_lines(folder: RunFolder, cfg: Any, generation: int, rules: Any = None,
               board: Any = None, out: Path | None = None) -> str:
    """Make runs/<name>/champion-plan.json (or `out`) from the best planning player among the
    lines of generations 0..`generation` (the run's last saved one, or an earlier one to plan
    the run as if it had stopped there); the line to print. With one line this is `plan_run`
    of the champion. Seeds derive from the run seed and `generation`: every line's player is
    fitted and checked in the same games. The run's own file is marked while it is made
    (`evolve.plan.planmark`: a stop midway is finished on resume)."""
    from evolve.plan import planmark

    if out is not None and out != folder.champion_plan:
        return _plan_lines(folder, cfg, generation, rules, board, out)
    aside = planmark.begin(folder, generation)
    said = _plan_lines(folder, cfg, generation, rules, board, folder.champion_plan)
    planmark.finish(folder)
    return said + aside


def _plan_lines(folder: RunFolder, cfg: Any, generation: int, rules: Any, board: Any,
                out: Path) -> str:
    from evolve.plan.planfit import as_played, plan_champion, plan_weights, run_seed
    from evolve.plan.valuefit import run_value
    from features.botfile import BotFile

    log = [r for r in folder.read_log(warn=None) if int(r["generation"]) <= generation]
    bests, notes = line_bests(folder, log, generation, cfg.champion.max_sigma)
    weights, champion_meta, source = champion_at(folder, log, bests, generation)
    champion_meta = {**champion_meta, "generation": generation}
    skipped = f"; left out: {'; '.join(notes)}" if notes else ""
    if not any(np.array_equal(b.genes, weights) for b in bests):  # its population file gone
        born = int(champion_meta.get("crowned_generation", generation))
        line = next((ln for ln in lines(log, generation) if ln.first <= born <= ln.last),
                    lines(log, generation)[-1])
        bests.append(LineBest(line, born, weights, float(champion_meta.get("mu", 0.0)),
                              float(champion_meta.get("sigma", 0.0)), True,
                              f"the proven champion, generation {born}"))
    learned = run_value(folder.checkpoints, generation)
    if len(bests) < 2:
        return plan_weights(weights, champion_meta, f"{source} of generation {generation}", out,
                            cfg, generation, rules, board, learned) + skipped
    p = cfg.plan
    seed = run_seed(cfg, generation)
    results = []
    for b in bests:
        is_champion = bool(np.array_equal(b.genes, weights))
        meta = dict(champion_meta) if is_champion else {
            "run": folder.root.name, "generation": generation, "seed": cfg.run.seed,
            "proven": False, "candidate_generation": b.generation, "mu": b.mu, "sigma": b.sigma}
        meta["line"] = {"index": b.line.index, "first": b.line.first, "last": b.line.last,
                        "player": b.how, "lines": len(bests)}
        plan, meta, result = plan_champion(
            b.genes, meta, f"{b.label()}: {b.how}", games=p.games, check_games=p.check_games,
            seed=seed, horizon=p.horizon, rollouts=p.rollouts, top_k=p.top_k,
            margins=p.margins, refits=p.refits, self_shares=p.self_share, rules=rules,
            board=board, run_value=learned, units=p.net, value_from=p.value_from)
        results.append((result.plan_mean, b, plan, meta, result, is_champion))
        print(f"  {b.label()}, {b.how}: {result.words()}", flush=True)
    _mean, best, plan, meta, result, _ = max(results, key=lambda t: t[0])
    greedy = next(r.greedy_mean for *_x, r, champ in results if champ)
    meta["line"]["checks"] = [round(t[0], 4) for t in results]
    if result.plan_mean <= greedy:
        out.unlink(missing_ok=True)
        return (f"planning champion: not kept (the best of {len(bests)} lines, {best.label()}, "
                f"{result.plan_mean:.3f} planning, the champion {greedy:.3f} greedy)"
                f"{skipped}; {source} plays greedy")
    BotFile(best.genes, meta, as_played(plan, cfg, meta)).write(out)
    return (f"planning champion: {out}, the best of {len(bests)} lines: {best.label()}, "
            f"{best.how} ({result.words()}){skipped}")


def plan_folder(path: Path, upto: int | None, out: Path | None) -> str:
    """`evolve plan RUNFOLDER`: the run's planning step again, with its own settings, at its
    newest checkpoint's generation or at `upto` (as if the run had stopped there); the line to
    print (ValueError, OSError: a run folder that cannot be planned)."""
    from evolve.checkpoint import list_checkpoints
    from evolve.config import load_config
    from evolve.plugin import load_plugin

    folder = RunFolder(path)
    if not folder.champion.is_file():
        raise RunFolderError(f"{folder.root}: no champion.json (not a run folder, or a run "
                             "stopped before its first generation was saved)")
    cfg = load_config(run_file=folder.config)
    if not cfg.plan.games:
        raise RunFolderError(f"{folder.config}: plan.games is 0 (the run makes no planning "
                             "champion); set it to 1.. in the file to plan the run")
    if cfg.run.group_size != 4 or cfg.game.plugin != DEFAULT_PLUGIN:
        raise RunFolderError(f"{folder.config}: the planning player plays four-seat games of "
                             f"{DEFAULT_PLUGIN}; this run plays run.group_size "
                             f"{cfg.run.group_size} of {cfg.game.plugin}")
    plugin = load_plugin(cfg)
    saved = list_checkpoints(folder.checkpoints)
    if not saved:
        raise RunFolderError(f"{folder.root}: no checkpoint (no generation saved)")
    last = saved[-1][0]
    if upto is not None and not 0 <= upto <= last:
        raise RunFolderError(f"--upto must be 0..{last} (the run's saved generations), "
                             f"got {upto}")
    folder.read_log()  # says on stderr which lines it leaves out, if any
    return plan_lines(folder, cfg, last if upto is None else upto, plugin.rules, plugin.map,
                      out=out)
