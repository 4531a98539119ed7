"""Speed of the environments (make bench-env): steps/s of the PettingZoo env with random masked
actions against the Python game loop (`play_game`) with random bots, and the overhead per step.

Both run the same kernel on the classic board with 4 players; an env step builds the action
mask and the observation, which the game loop does not. Prints one line per measure.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from evolve.cli import ArgumentParser
from game.bots import RandomBot, make_player
from game.engine import play_game


def bench_aec(games: int, seed: int, n_players: int = 4) -> tuple[int, float]:
    """(steps, seconds) of `games` AEC games with uniform random masked actions."""
    from game.env.aec import RiskAECEnv

    env = RiskAECEnv(n_players)
    rng = np.random.default_rng(seed)
    steps, t0 = 0, time.perf_counter()
    for g in range(games):
        env.reset(seed=seed + g)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps, time.perf_counter() - t0


def bench_loop(games: int, seed: int, n_players: int = 4) -> tuple[int, float]:
    """(actions, seconds) of `games` play_game games between random bots."""
    count = [0]

    def observer(*_: object) -> None:
        count[0] += 1

    t0 = time.perf_counter()
    for g in range(games):
        play_game([RandomBot() for _ in range(n_players)], seed=seed + g, observer=observer)
    return count[0], time.perf_counter() - t0


def bench_seat(games: int, seed: int, bot: str = "strategist") -> tuple[int, int, float]:
    """(learner steps, game actions, seconds) of the Gymnasium seat env: a random masked learner
    against 3 bots."""
    from game.env.single import RiskSeatEnv

    env = RiskSeatEnv(lambda: [make_player(bot) for _ in range(3)])
    rng = np.random.default_rng(seed)
    steps = actions = 0
    t0 = time.perf_counter()
    for g in range(games):
        _, info = env.reset(seed=seed + g)
        done = False
        while not done:
            a = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, term, trunc, info = env.step(a)
            steps += 1
            done = term or trunc
        actions += env.session.steps
    return steps, actions, time.perf_counter() - t0


def main(argv: Sequence[str] | None = None) -> int:
    ap = ArgumentParser(prog="python -m evolve.bench.benchenv", description=__doc__)
    ap.add_argument("--games", type=int, default=5, help="games per measure (default 5)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    bench_aec(1, 10_000)  # warm-up: numba caches, bindings
    bench_loop(1, 10_000)
    env_steps, env_s = bench_aec(args.games, args.seed)
    loop_steps, loop_s = bench_loop(5 * args.games, args.seed)  # shorter games: 5x as many
    env_rate, loop_rate = env_steps / env_s, loop_steps / loop_s
    overhead = 1e6 * (1 / env_rate - 1 / loop_rate)
    print(f"aec env, random masked actions: {env_rate:,.0f} steps/s "
          f"({env_steps} steps, {env_s:.1f} s, {1e6 / env_rate:.0f} us/step)")
    print(f"play_game, random bots:         {loop_rate:,.0f} steps/s "
          f"({loop_steps} steps, {loop_s:.1f} s, {1e6 / loop_rate:.0f} us/step)")
    print(f"env overhead per step:          {overhead:.0f} us "
          f"({env_rate / loop_rate:.2f}x the game loop's rate)")
    steps, actions, seat_s = bench_seat(args.games, args.seed)
    print(f"seat env vs 3x strategist:      {steps / seat_s:,.0f} learner steps/s, "
          f"{actions / seat_s:,.0f} game actions/s ({args.games} episodes, {seat_s:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
