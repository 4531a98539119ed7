"""`python -m evolve plan BOT`: make a planning bot file from a greedy one.

The planner (`features.search`) needs a value of positions. This fits it the way Monte Carlo
value learning does (TD(1), as Carr 2020 fits its value by TD(lambda)): play seeded games of
four copies of the bot, record the value terms of every seat's position at the end of each of
its attack phases (or at each of its turns' starts, for the `round` horizon), label each with
whether that seat went on to win, and fit a logistic regression (Newton's method, a small L2
penalty) of the win on the terms. The weights are the fitted coefficients; `value.won` keeps its
default. The bot file written is the greedy bot's with a `plan` object and its provenance.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

from evolve.cli import error

__all__ = ["fit_logistic", "main", "positions"]

MAX_GAMES = 20_000


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, iters: int = 50
                 ) -> np.ndarray:
    """Coefficients (intercept first) of P(y = 1) = sigmoid(b0 + x @ b) by Newton's method."""
    xb = np.c_[np.ones(len(x)), x]
    b = np.zeros(xb.shape[1])
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(xb @ b, -30, 30)))
        hess = xb.T @ (xb * (p * (1 - p))[:, None]) + l2 * np.eye(xb.shape[1])
        step = np.linalg.solve(hess, xb.T @ (y - p) - l2 * b)
        b += step
        if np.abs(step).max() < 1e-9:
            break
    return b


def positions(weights: np.ndarray, games: int, seed: int, horizon: str
              ) -> tuple[np.ndarray, np.ndarray]:
    """(value terms f64[n, NV], won f64[n]) of every seat's positions in `games` self-play
    games of the greedy player `weights` (game i seeded by SeedSequence(seed, (i,)))."""
    from features.linear import LinearPlayer
    from features.search.value import NV, value_terms
    from game.decision import DecisionKind
    from game.engine import play_game
    from game.layout import S_TURNS
    from game.map import classic_map
    from game.state import Rules

    board, rules = classic_map(), Rules()
    rv = rules.vector()
    ask = DecisionKind.FORTIFY if horizon == "attack" else DecisionKind.REINFORCE

    class Recorder(LinearPlayer):
        def __init__(self) -> None:
            super().__init__(weights)
            self.rows: list[np.ndarray] = []
            self.turn = -1

        def act(self, view: Any, decision: Any) -> Any:
            st = view.kernel_state()
            turn = int(st.kernel.sc[S_TURNS])
            if decision.kind is ask and turn != self.turn:
                self.turn = turn
                buf = np.zeros(NV + len(board.kernel.bonus))
                value_terms(board.kernel, st.kernel, rv, st.current, buf)
                self.rows.append(buf[:NV].copy())
            return super().act(view, decision)

    xs: list[np.ndarray] = []
    ys: list[float] = []
    for g in range(games):
        seats = [Recorder() for _ in range(4)]
        out = play_game(seats, seed=np.random.SeedSequence(seed, spawn_key=(g,)), rules=rules,
                        map=board)
        for i, p in enumerate(seats):
            xs += p.rows
            ys += [1.0 if out.winner == i else 0.0] * len(p.rows)
    return np.array(xs), np.array(ys)


def fitted_values(weights: np.ndarray, games: int, seed: int, horizon: str
                  ) -> tuple[dict[str, float], int]:
    """The value weights fitted on self-play (every term but `value.won`), and the sample size."""
    from features.search.value import NAMES, TERMS

    x, y = positions(weights, games, seed, horizon)
    keep = [i for i, t in enumerate(TERMS) if t.name != "won"]
    b = fit_logistic(x[:, keep], y)
    return {NAMES[i]: float(b[1 + j]) for j, i in enumerate(keep)}, len(y)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="evolve plan", description=__doc__.split("\n\n")[0])
    ap.add_argument("bot", help="a greedy bot file (or a packaged name such as champion)")
    ap.add_argument("--games", type=int, default=800, help="self-play games (default 800)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--horizon", choices=("attack", "round"), default="attack")
    ap.add_argument("--rollouts", type=int, default=8)
    ap.add_argument("--top-k", type=int, default=3)
    ap.add_argument("--out", type=Path, required=True, help="the planning bot file to write")
    args = ap.parse_args(argv)
    from features.genome import GenomeError, save_genome
    from features.search.player import PlanSettings, PlanSettingsError, read_bot
    from game.bots import BOT_FILES, bot_file

    if not 1 <= args.games <= MAX_GAMES:
        return error(f"--games must be 1..{MAX_GAMES}, got {args.games}")
    if args.seed < 0:
        return error(f"--seed must be >= 0, got {args.seed}")
    if args.out.is_dir():
        return error(f"--out {args.out}: is a folder; give the bot file to write")
    try:
        path = bot_file(args.bot) if args.bot in BOT_FILES else Path(args.bot)
        weights, meta, _plan = read_bot(path)
        base = PlanSettings(rollouts=args.rollouts, top_k=args.top_k, horizon=args.horizon)
    except (GenomeError, PlanSettingsError, ValueError, OSError) as e:
        return error(e)
    values, n = fitted_values(weights, args.games, args.seed, args.horizon)
    plan = base.as_dict()
    plan["value"].update(values)
    meta = dict(meta)
    meta["plan_fit"] = {"from": str(args.bot), "games": args.games, "seed": args.seed,
                        "positions": n, "method": "logistic regression of the win on the "
                        "value terms, self-play of the greedy bot (evolve.planfit)"}
    save_genome(args.out, weights, meta, plan=PlanSettings.from_dict(plan).as_dict())
    print(f"{args.out}: planning {args.bot} (horizon {args.horizon}, {args.rollouts} rollouts "
          f"x top {args.top_k}), value fitted on {n} positions of {args.games} games")
    return 0
