"""`make bench`'s planning section: the bundled champion greedy and planning, games/s in the
compiled loop and the planning player's time per decision in the Python engine (median and 99th
percentile, one core), the figures issue 52 holds the search to (at most 100 ms at p99)."""

from __future__ import annotations

import statistics
import time
from typing import Any

import numpy as np

__all__ = ["bench_planning"]


def _champion() -> tuple[np.ndarray, Any]:
    from features.botfile import BotFile
    from features.search.player import PlanSettings
    from game.bots import bot_file

    bot = BotFile.read(bot_file("champion"))
    return bot.weights, bot.plan if bot.settings.kind == "plan" else PlanSettings()


def _games_per_s(weights: np.ndarray, plan_row: np.ndarray | None, games: int,
                 seed: int) -> float:
    from features.compiled import play_mixed_games
    from features.search.plan import N_PLAN

    w = np.broadcast_to(weights, (games, 4, weights.size)).copy()
    pol = np.zeros((games, 4), dtype=np.int32)
    plans = None
    if plan_row is not None:
        plans = np.zeros((games, 4, N_PLAN))
        plans[:, 0] = plan_row
    seeds = np.random.SeedSequence(seed).spawn(games)
    play_mixed_games(w[:1], pol[:1], seeds[:1], plans=None if plans is None else plans[:1])
    t0 = time.process_time()
    play_mixed_games(w, pol, seeds, plans=plans)
    return games / (time.process_time() - t0)


def _decision_ms(weights: np.ndarray, plan: Any, games: int, seed: int) -> list[float]:
    """Milliseconds of CPU per attack decision of the planning seat in Python-engine games."""
    from features.linear import LinearPlayer
    from features.search.player import PlanPlayer
    from game.decision import DecisionKind
    from game.engine import play_game

    times: list[float] = []

    class Timed(PlanPlayer):
        def act(self, view: Any, decision: Any) -> Any:
            t0 = time.process_time()
            out = super().act(view, decision)
            if decision.kind is DecisionKind.ATTACK:
                times.append((time.process_time() - t0) * 1000)
            return out

    for g in range(games):
        play_game([Timed(weights, plan), LinearPlayer(weights), LinearPlayer(weights),
                   LinearPlayer(weights)], seed=seed + g)
    return times


def bench_planning(games: int, seed: int) -> dict[str, Any]:
    """The section's figures (CPU time, so the other core's load matters less)."""
    weights, plan = _champion()
    greedy = _games_per_s(weights, None, games, seed)
    planning = _games_per_s(weights, plan.vector(), games, seed)
    ms = sorted(_decision_ms(weights, plan, max(2, games // 20), seed))
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))] if ms else float("nan")
    res = {"greedy_games_per_s": greedy, "planning_games_per_s": planning,
           "decisions": len(ms), "decision_ms_median": statistics.median(ms) if ms else 0.0,
           "decision_ms_p99": p99, "plan": plan.as_dict()}
    print(f"bundled champion, compiled, 1 seat of 4 (CPU s): greedy {greedy:.0f} games/s, "
          f"planning ({plan.rollouts} rollouts x top {plan.top_k}, {plan.horizon}) "
          f"{planning:.0f} games/s (x{planning / greedy:.3f})", flush=True)
    print(f"planning champion's attack decisions in the Python engine: median "
          f"{res['decision_ms_median']:.2f} ms, 99th percentile {p99:.2f} ms of {len(ms)}",
          flush=True)
    return res
