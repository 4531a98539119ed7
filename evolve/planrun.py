"""A run's planning champion: its last proven champions made planning bots, the best kept.

When a run ends, `plan_run` makes a planning version (`evolve.planfit.plan_champion`) of the
proven champion and of up to `plan.candidates - 1` champions crowned before it, checks them all
in the same seeded games against 3x each gauntlet bot, and keeps the one that won most as
`runs/<name>/champion-plan.json`, when it won more than the champion played greedily. A later
champion is not always the better planner: seed 43's one-hour champion planned to 0.415 of
2,000 against 3x Domination `hard`, its final one no better than greedy
(docs/experiments/2026-11-28-planner-3.md); the check ranks planning players as `hard` does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from evolve.planfit import Check, plan_champion
from evolve.runfolder import RunFolder, RunFolderError

__all__ = ["SALT", "crowned", "plan_run"]

SALT = 0x504C414E  # "PLAN": the planning champion's seeds, apart from the run's other draws


def crowned(folder: RunFolder) -> list[int]:
    """The generations whose champions were crowned (the log's proven generations), most
    recent first, each with its genes stored."""
    try:
        log = folder.read_log(warn=None)
    except (RunFolderError, OSError):
        return []
    stored = {g for g, _ in folder.genes_files()}
    seen: list[int] = []
    for r in log:
        g = r.get("proven_generation")
        if isinstance(g, int) and g in stored and g not in seen:
            seen.append(g)
    return seen[::-1]


def _seed(run_seed: int, generation: int) -> int:
    return int(np.random.SeedSequence(run_seed, spawn_key=(SALT, generation))
               .generate_state(1)[0])


def plan_run(folder: RunFolder, cfg: Any, generation: int, rules: Any = None,
             board: Any = None) -> str:
    """Make folder.champion_plan from the run's champion.json (crowned by `generation`) and
    its earlier crowned champions, with the run's `plan` settings (cfg: `evolve.config.Config`);
    the line to print. Seeds derive from the run seed and the generations (the check's from
    `generation`'s), so a run makes the same file whatever its workers."""
    from evolve.export import ExportError, bot_of_generation
    from features.genome import save_genome
    from features.search.player import read_bot

    p = cfg.plan
    weights, meta, _ = read_bot(folder.champion)
    check_seed = int(np.random.SeedSequence(_seed(cfg.run.seed, generation)).spawn(2)[1]
                     .generate_state(1)[0])
    bots: list[tuple[str, int, np.ndarray, dict[str, Any]]] = [
        (f"{folder.champion.name} of generation {generation}", generation, weights, meta)]
    for g in crowned(folder):
        if len(bots) >= p.candidates:
            break
        try:
            w, m = bot_of_generation(folder, g)
        except (ExportError, RunFolderError, OSError, ValueError):
            continue
        if not any(np.array_equal(w, b[2]) for b in bots):
            bots.append((f"the champion crowned at generation {g}", g, w, m))
    made: list[tuple[Check, np.ndarray, dict[str, Any], dict[str, Any], int]] = []
    for source, g, w, m in bots:
        plan, m2, result = plan_champion(
            w, m, source, games=p.games, check_games=p.check_games,
            seed=_seed(cfg.run.seed, g), horizon=p.horizon, rollouts=p.rollouts, top_k=p.top_k,
            margins=p.margins, refits=p.refits, self_share=p.self_share, rules=rules,
            board=board, check_seed=check_seed)
        made.append((result, w, plan, m2, g))
    greedy = made[0][0]  # the champion as it plays without a plan
    best = max(made, key=lambda t: t[0].plan_mean)  # the first of equals: the latest
    result, w, plan, m2, g = best
    tried = ""
    if len(made) > 1:
        tried = "; candidates " + ", ".join(f"generation {c[4]}: {c[0].plan_mean:.3f}"
                                            for c in made)
    if not result.plan_mean > greedy.greedy_mean:
        folder.champion_plan.unlink(missing_ok=True)  # an older planning champion is not this run's
        return (f"planning champion: not kept ({greedy.words()}{tried}); {folder.champion} "
                "plays greedy")
    save_genome(folder.champion_plan, w, m2, plan=plan)
    return (f"planning champion: {folder.champion_plan}, from generation {g} "
            f"({result.words()}{tried})")
