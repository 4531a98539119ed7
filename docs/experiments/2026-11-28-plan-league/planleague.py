"""A GA phase whose league games are played by planning players, with the value evolved.

Issue 52's untried lever: after the greedy GA has converged, continue the run where every seat
of every league game plans its attacks (`features.search.plan`), and the genome carries the
value's weights and the margin beside the linear genes, so selection acts on the weights as the
planner uses them. It is a game plug-in (`plan_plugin`) for the project's own `Evolution`: the
same DEAP operators, TrueSkill league, playoffs and checkpoints. League games plan with
PLANLEAGUE_ROLLOUTS (default 2) rollouts per option, playoffs and the saved bots with 8.

usage: planleague.py START_GENES_NPZ START_BOT RUNS_DIR NAME MINUTES [section.field=value ...]

START_GENES_NPZ: a greedy run's genes/gen_G.npz (the population to continue); START_BOT: that
run's planning champion (its fitted value and margin seed every individual's, jittered by one
mutation step; the bot itself joins the population unjittered and is the incumbent the first
playoff's candidate must beat). Stops after MINUTES of wall
time; run again with the same arguments to resume.
"""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from evolve.champion import Proven
from evolve.config import load_config, to_toml
from evolve.evolution import Evolution
from evolve.ga import individuals
from evolve.parallel import Runner
from evolve.plugin import Plugin, _bundled_weights, default_plugin, load_plugin
from evolve.runfolder import RunFolder
from features.compiled import play_mixed_game, play_mixed_games
from features.genome import save_genome
from features.registry import N_GENES
from features.search.plan import N_PLAN, PS_MARGIN, PS_ROLLOUTS, PS_TOP_K, PS_VALUE
from features.search.player import PlanSettings, read_bot
from features.search.value import NAMES, NV
from game.bots import BOT_FILES, COMPILED_BOTS

LEAGUE_ROLLOUTS = int(os.environ.get("PLANLEAGUE_ROLLOUTS", "2"))
PLAY_ROLLOUTS = 8
TOP_K = 3
G = N_GENES + NV + 1  # linear genes, value weights, margin
VALUE_SIGMA, MARGIN_SIGMA = 0.2, 0.05


def plans_of(w: np.ndarray, rollouts: int) -> tuple[np.ndarray, np.ndarray]:
    """(linear genes f64[..., N_GENES], plan settings f64[..., N_PLAN]) of genomes f64[..., G]."""
    p = np.zeros((*w.shape[:-1], N_PLAN))
    p[..., PS_ROLLOUTS], p[..., PS_TOP_K] = rollouts, TOP_K
    p[..., PS_MARGIN] = np.maximum(w[..., N_GENES + NV], 0.0)
    p[..., PS_VALUE:] = w[..., N_GENES:N_GENES + NV]
    return np.ascontiguousarray(w[..., :N_GENES]), p


def play_games(weights: np.ndarray, seeds: list[Any], rules: Any, board: Any
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """League games: every seat plans with its own genome."""
    lin, plans = plans_of(weights, LEAGUE_ROLLOUTS)
    pol = np.zeros(weights.shape[:2], dtype=np.int32)
    return play_mixed_games(lin, pol, seeds, rules, board, plans=plans)


def play_mixed(weights: np.ndarray, policies: np.ndarray, seeds: list[Any], rules: Any,
               board: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """League games with anchors seated: bots by their code, every genome row plans."""
    lin, plans = plans_of(weights, LEAGUE_ROLLOUTS)
    plans[policies > 0] = 0.0
    return play_mixed_games(lin, policies, seeds, rules, board, plans=plans)


def play_eval(weights: np.ndarray, opponents: list[tuple[str, ...]], seeds: list[Any],
              rules: Any, board: Any) -> np.ndarray:
    """Playoff games: the genome plans (8 rollouts) as player 0 against compiled bots."""
    lin, plan = plans_of(weights, PLAY_ROLLOUTS)
    out = np.full(len(seeds), -1, dtype=np.int32)
    for i, (names, seed) in enumerate(zip(opponents, seeds, strict=True)):
        w = np.zeros((1 + len(names), N_GENES))
        w[0] = lin
        for j, n in enumerate(names):
            if n in BOT_FILES:
                w[1 + j] = _bundled_weights(n)
        pol = np.array([0, *(COMPILED_BOTS.get(n, 0) for n in names)], dtype=np.int32)
        pl = np.zeros((len(w), N_PLAN))
        pl[0] = plan
        out[i] = play_mixed_game(w, pol, seed, rules, board, plans=pl).winner
    return out


def settings(values: np.ndarray) -> PlanSettings:
    """A genome's planning settings as a bot file holds them."""
    return PlanSettings(rollouts=PLAY_ROLLOUTS, top_k=TOP_K,
                        margin=float(max(values[N_GENES + NV], 0.0)),
                        value=tuple(float(x) for x in values[N_GENES:N_GENES + NV]))


def _save(path: Path, values: np.ndarray, meta: dict[str, Any]) -> None:
    save_genome(path, values[:N_GENES], {**meta, "plan_league": {
        "league_rollouts": LEAGUE_ROLLOUTS}}, plan=settings(values).as_dict())


def plan_plugin(cfg: Any) -> Plugin:
    """The real game with planning seats and the value and margin as genes."""
    base = default_plugin(cfg)
    for n in base.strong:
        if n not in COMPILED_BOTS and n not in BOT_FILES:
            raise SystemExit(f"playoff bot {n} has no compiled implementation")
    extra = NV + 1
    return Plugin(
        names=(*base.names, *NAMES, "plan.margin"),
        low=np.r_[base.low, np.full(NV, -5.0), 0.0],
        high=np.r_[base.high, np.full(NV, 5.0), 0.4],
        sigma=np.r_[base.sigma, np.full(NV, VALUE_SIGMA), MARGIN_SIGMA],
        scale=np.r_[base.scale, np.zeros(extra, dtype=np.bool_)],
        play_games=play_games, play_eval=play_eval, save_genome=_save, rules=base.rules,
        map=base.map, bots=base.bots, strong=base.strong, play_mixed=play_mixed,
        compiled_bots=base.compiled_bots)


def seeded(genes_npz: str, bot: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """The greedy population's n best-rated with the bot's value and margin, jittered; the bot
    itself in the place of the lowest-rated of them."""
    z = np.load(genes_npz)
    keep = np.argsort(-(z["mu"] - 3 * z["sigma"]), kind="stable")[:n]
    lin = z["genes"][keep]
    w, _meta, plan = read_bot(bot)
    pop = np.zeros((len(lin), G))
    pop[:, :N_GENES] = lin
    jitter = rng.normal(0, VALUE_SIGMA, (len(lin), NV))
    pop[:, N_GENES:N_GENES + NV] = np.asarray(plan.value) + jitter
    pop[:, -1] = np.maximum(plan.margin + rng.normal(0, MARGIN_SIGMA, len(lin)), 0.0)
    worst = n - 1
    pop[worst, :N_GENES] = w
    pop[worst, N_GENES:N_GENES + NV] = plan.value
    pop[worst, -1] = plan.margin
    return pop


def main(argv: list[str]) -> int:
    genes_npz, bot, runs_dir, name, minutes, *sets = argv
    overrides: dict[str, Any] = {
        "game.plugin": "planleague:plan_plugin", "eval.every": 0, "plan.games": 0,
        "run.generations": 1_000_000, "output.runs_dir": runs_dir, "output.plot_every": 0}
    for s in sets:
        k, _, v = s.partition("=")
        overrides[k] = _parse(v)
    cfg = load_config(overrides=overrides)
    plugin = load_plugin(cfg)
    folder = RunFolder(Path(runs_dir) / name)
    evo = Evolution(cfg, plugin, folder, name)
    folder.lock()
    resumed = evo.resume()
    if not resumed:
        pop = seeded(genes_npz, bot, cfg.run.population, np.random.default_rng(cfg.run.seed))
        evo.pop = individuals(pop)
        # The start bot is the incumbent: a candidate is crowned only when it beats it
        # (PLANLEAGUE_INCUMBENT=0: no incumbent, the first playoff crowns; variant A).
        if os.environ.get("PLANLEAGUE_INCUMBENT", "1") != "0":
            evo.proven = Proven(genes=pop[-1].copy(), born=-1, mu=cfg.rating.mu,
                                sigma=cfg.rating.sigma)
        folder.create()
        folder.reset_log([])
    folder.write_config(to_toml(cfg))
    end = time.monotonic() + float(minutes) * 60
    with Runner(cfg.parallel) as runner:
        while time.monotonic() < end:
            gen = evo.step(runner)
            evo.save(gen)
            r = gen.record
            po = r["playoff"]
            print(f"gen {r['generation']} {r['wall_s']:.1f}s rounds {r['mean_rounds']:.1f} "
                  f"champ mu {r['champion_mu']:.2f} proven {r['proven_generation']}"
                  + (f" playoff crowned={po['crowned']} {po.get('wins')}" if po else ""),
                  flush=True)
    folder.unlock()
    return 0


def _parse(v: str) -> Any:
    try:
        return json.loads(v)
    except ValueError:
        return v


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
