"""Make a planning champion from a greedy one: its value fitted, then checked in-house.

The search (`features.search`) needs a value of positions. This fits it the way Monte Carlo
value learning does (TD(1), as Carr 2020 fits its value by TD(lambda)): play seeded games of
the bot against a mix of opponents (a copy of itself with probability `self_share`, else a
gauntlet bot), record the value terms of the bot's positions at the end of each of its attack
phases (or at each of its turns' starts, for the `round` horizon), label each with whether the
bot went on to win, and fit a logistic regression (Newton's method, a small L2 penalty) of the
win on the terms. A run fits once against a mix (a copy with probability 0.25) and once in
self-play, and its check keeps the better: on 10,000 games neither won for every champion
against Domination's `hard` (docs/experiments/2026-11-28-planner-4.md).

`check` then plays the planning bot and the greedy one in the same seeded games against 3x each
gauntlet bot (compiled); a run keeps the best (fit, margin) and the planning champion only
when it wins more (`plan_champion`). `python -m evolve plan` (`evolve.plan.plan_cmd`) is the
command; `evolve run` calls it at its end.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["Check", "check", "fit_logistic", "fitted_values", "plan_champion",
           "plan_run", "plan_weights", "positions", "rates", "run_seed"]

MAX_GAMES = 20_000
MAX_REFITS = 5
SELF_SHARE = 0.25  # a seat's chance of a copy of the bot rather than a gauntlet bot
MARGIN = 0.1  # another plan replaces the greedy choice when valued this much higher
RUN_FIT = -1  # the fit index (and self share) under which the run's own value is checked
NET_KEY = 0x4E4554  # spawn_key of a fit's net generator, under the fit's seed
CHUNK = 1_000  # games played at once: their plan rows stay near 50 MiB


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


def positions(weights: np.ndarray, games: int, seed: int, horizon: str,
              self_share: float = SELF_SHARE, rules: Any = None, board: Any = None,
              plan: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """(value terms f64[n, NV], won f64[n]) of the bot's positions in `games` seeded games
    (game i by SeedSequence(seed, (i,))): the bot in a seat drawn per game, every other seat a
    copy of it with probability self_share, else a gauntlet bot drawn uniformly. The bot plays
    greedily, or planning with `plan` (PlanSettings) when given. Compiled games, replayed to
    record (`features.record`)."""
    from features.record import record_games
    from features.search.value import NV
    from game.bots import COMPILED_BOTS, GAUNTLET

    pol = np.zeros((games, 4), np.int32)
    for g in range(games):
        draw = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(g, 1)))
        seats = [0]
        for _ in range(3):
            if draw.random() < self_share:
                seats.append(0)
            else:
                seats.append(COMPILED_BOTS[GAUNTLET[int(draw.integers(len(GAUNTLET)))]])
        pol[g] = [seats[i] for i in draw.permutation(4)]
    seeds = [np.random.SeedSequence(seed, spawn_key=(g,)) for g in range(games)]
    row = plan.vector() if plan is not None and plan.kind == "plan" else None
    xs, ys = [np.zeros((0, NV))], [np.zeros(0)]
    for part, w, plans in _chunks(weights, pol, row):
        pc = pol[part]
        p = record_games(w, pc, seeds[part], pc == 0, rules, board, plans, horizon)
        xs.append(p.x)
        ys.append(p.won)
    return np.concatenate(xs), np.concatenate(ys)


def _chunks(weights: np.ndarray, pol: np.ndarray, plan: np.ndarray | None
            ) -> Iterator[tuple[slice, np.ndarray, np.ndarray | None]]:
    """The games of policies `pol` int32[games, players] CHUNK at a time (a plan row per seat is
    13 KiB): (their slice, the bot's weights in every seat, `plan` f64[N_PLAN] in the bot's
    seats (policy 0) or None)."""
    for lo in range(0, len(pol), CHUNK):
        pc = pol[lo:lo + CHUNK]
        w = np.repeat(np.stack([weights] * pc.shape[1])[None], len(pc), 0)
        plans = None
        if plan is not None:
            plans = np.zeros((*pc.shape, len(plan)))
            plans[pc == 0] = plan
        yield slice(lo, lo + len(pc)), w, plans


def fitted_values(weights: np.ndarray, games: int, seed: int, horizon: str,
                  self_share: float = SELF_SHARE, rules: Any = None, board: Any = None,
                  plan: Any = None, units: int = 0
                  ) -> tuple[dict[str, float], int, tuple[tuple[float, ...], ...]]:
    """The value weights fitted on `positions` (every term but `value.won`; the bot greedy, or
    planning with `plan`), the sample size, and with `units` the net fitted with them
    (`evolve.plan.netfit`, its generator derived from seed), else ()."""
    from evolve.plan.netfit import fit_net
    from features.search.value import NAMES, TERMS

    x, y = positions(weights, games, seed, horizon, self_share, rules, board, plan)
    keep = [i for i, t in enumerate(TERMS) if t.name != "won"]
    if units and len(y):
        fit = fit_net(x, y, units, np.random.default_rng(np.random.SeedSequence(
            seed, spawn_key=(NET_KEY,))))
        return {NAMES[i]: fit.value[i] for i in keep}, len(y), fit.net
    b = fit_logistic(x[:, keep], y)
    return {NAMES[i]: float(b[1 + j]) for j, i in enumerate(keep)}, len(y), ()


@dataclass(frozen=True)
class Check:
    """Win rates of the greedy and the planning bot, in the same games, per gauntlet bot, and
    the gauntlet mean of every (fit, self share, margin) tried (fit 0 on greedy games, fit i on
    the planning games of fit i - 1's best; the planning bot's is the best)."""

    games: int  # per bot
    greedy: dict[str, float]
    plan: dict[str, float]
    margins: dict[tuple[int, float, float], float] = field(default_factory=dict)

    @property
    def greedy_mean(self) -> float:
        return float(np.mean(list(self.greedy.values())))

    @property
    def plan_mean(self) -> float:
        return float(np.mean(list(self.plan.values())))

    @property
    def better(self) -> bool:
        """The planning bot won more of the games than the greedy one."""
        return self.plan_mean > self.greedy_mean

    def words(self) -> str:
        tried = ""
        if len(self.margins) > 1:
            groups = sorted({(f, s) for f, s, _m in self.margins})
            shares = len({s for f, s in groups if f != RUN_FIT}) > 1
            tried = "; " + "; ".join(
                ("margins" if f == 0 else "the run's value:" if f == RUN_FIT else f"refit {f}:")
                + (f" (self share {s:g})" if shares and f != RUN_FIT else "") + " "
                + ", ".join(f"{m:g}: {v:.3f}" for (g, t, m), v in self.margins.items()
                            if (g, t) == (f, s))
                for f, s in groups)
        return (f"gauntlet mean {self.plan_mean:.3f} planning, {self.greedy_mean:.3f} greedy "
                f"({self.games} games per bot, the same seeds{tried})")


def rates(weights: np.ndarray, plan: np.ndarray | None, games: int, seed: int,
          rules: Any = None, board: Any = None) -> dict[str, float]:
    """The bot's win rate against 3x each gauntlet bot, greedy (plan None) or planning
    (settings f64[N_PLAN]), in `games` compiled games per bot (game i by SeedSequence(seed,
    (i,)), the bot in seat i mod 4)."""
    from features.compiled import play_mixed_games
    from game.bots import COMPILED_BOTS, GAUNTLET

    seeds = [np.random.SeedSequence(seed, spawn_key=(i,)) for i in range(games)]
    seat = np.arange(games) % 4
    out: dict[str, float] = {}
    for name in GAUNTLET:
        pol = np.full((games, 4), COMPILED_BOTS[name], np.int32)
        pol[np.arange(games), seat] = 0
        won = 0
        for part, w, plans in _chunks(weights, pol, plan):
            place, _r, _c = play_mixed_games(w, pol[part], seeds[part], rules, board, plans=plans)
            won += int((place[np.arange(len(place)), seat[part]] == 1).sum())
        out[name] = won / games if games else float("nan")
    return out


def check(weights: np.ndarray, plan: np.ndarray, games: int, seed: int, rules: Any = None,
          board: Any = None) -> Check:
    """The bot greedy and planning (settings `plan`) in the same games (`rates`)."""
    return Check(games, rates(weights, None, games, seed, rules, board),
                 rates(weights, plan, games, seed, rules, board))


def plan_champion(weights: np.ndarray, meta: dict[str, Any], source: str, *, games: int,
                  check_games: int, seed: int, horizon: str = "attack", rollouts: int = 8,
                  top_k: int = 3, margins: Sequence[float] = (MARGIN,), refits: int = 0,
                  self_shares: Sequence[float] = (SELF_SHARE,), rules: Any = None,
                  board: Any = None, run_value: dict[str, float] | None = None, units: int = 0,
                  value_from: str = "both") -> tuple[dict[str, Any], dict[str, Any], Check]:
    """(plan object, meta, check) of the bot `weights` planning with a fitted value and the
    (self share, margin) of `self_shares` x `margins` that won most in the check (the first of
    equals): one fit per self share, on the same game seeds. With `refits`, the value is fitted
    again (the best's share) on the games of the best planning bot so far (the planning player's own
    positions: policy iteration), each fit's margins checked in the same games. Meta records
    the fits and the check (seeds derive from `seed`). `run_value` (the run's value learned as
    it went, `evolve.plan.valuefit`) is checked too, at each margin, as fit -1, as
    `value_from` (the config's `plan.value_from`) says: "both", "fits" (the fits alone) or
    "run" (it alone; the fits only when there is none). With `units`, every fit is a value
    with that many units (`evolve.plan.netfit`), not a weighted sum."""
    from features.search.player import PlanSettings

    fit_seed, check_seed, *refit_seeds = (
        int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(2 + refits))
    greedy = rates(weights, None, check_games, check_seed, rules, board)
    best: tuple[float, PlanSettings, dict[str, float], int, float] | None = None
    tried: dict[tuple[int, float, float], float] = {}
    positions_of: dict[tuple[int, float], int] = {}
    rounds = [(0, fit_seed, list(self_shares))]
    rounds += [(i + 1, s, []) for i, s in enumerate(refit_seeds)]
    if value_from == "fits":
        run_value = None
    elif run_value and value_from == "run":
        rounds = []

    def check_margins(values: dict[str, float], fit: int, share: float,
                      net: tuple[tuple[float, ...], ...] = ()) -> None:
        nonlocal best
        for margin in margins:
            plan = PlanSettings(rollouts=rollouts, top_k=top_k, horizon=horizon,
                                margin=margin, net=net).as_dict()
            plan["value"].update(values)
            settings = PlanSettings.from_dict(plan)
            won = rates(weights, settings.vector(), check_games, check_seed, rules, board)
            tried[(fit, share, float(margin))] = mean = float(np.mean(list(won.values())))
            if best is None or mean > best[0]:
                best = (mean, settings, won, fit, share)

    for fit, fseed, shares in rounds:
        for share in shares or [best[4] if best else SELF_SHARE]:
            values, positions_of[(fit, share)], net = fitted_values(
                weights, games, fseed, horizon, share, rules, board,
                plan=None if best is None or fit == 0 else best[1], units=units)
            check_margins(values, fit, float(share), net)
    fitted_share = best[4] if best else SELF_SHARE  # the fits' best share (their rows in meta)
    made = bool(rounds)
    if run_value:
        positions_of[(RUN_FIT, RUN_FIT)] = 0
        check_margins(run_value, RUN_FIT, RUN_FIT)
    assert best is not None, "margins and self_shares must not be empty"
    _mean, settings, won, chosen, share = best
    result = Check(check_games, greedy, won, tried)
    learned = chosen == RUN_FIT

    def row(f: int, s: float) -> dict[str, float]:
        return {f"{m:g}": v for (g, t, m), v in tried.items() if (g, t) == (f, s)}

    meta = dict(meta)
    meta["plan_fit"] = {"from": source, "games": games if made else 0, "seed": seed,
                        "positions": positions_of[(chosen, share)],
                        "self_share": None if learned else share,
                        "refits": refits, "fit": chosen, "units": 0 if learned else units,
                        "value": "the run's, learned as it went" if learned
                        else "fitted at the end",
                        "method": "logistic regression of the win on the value terms (with "
                        "units: through that many rectified units, evolve.plan.netfit), games "
                        "against a copy of itself (a seat's chance: self_share) or a gauntlet "
                        "bot (evolve.plan.planfit); refit i on the games of refit i - 1's best "
                        "planning bot",
                        "check": {"games_per_bot": check_games, "greedy": result.greedy,
                                  "plan": result.plan, "margins": row(0, fitted_share),
                                  "self_shares": {f"{s:g}": row(0, float(s))
                                                  for s in self_shares} if made else {},
                                  "refits": [row(i, fitted_share)
                                             for i in range(1, refits + 1)] if made else [],
                                  "run_value": row(RUN_FIT, RUN_FIT)}}
    return settings.as_dict(), meta, result


def as_played(plan: dict[str, Any], cfg: Any, meta: dict[str, Any]) -> Any:
    """The checked `plan` object as the written file plays it: with the config's
    `plan.play_rollouts` x `plan.play_top_k` search (0: as checked) and `plan.play_place`
    placements weighed; meta's plan_fit notes the search the check ran."""
    from features.search.player import PlanSettings

    p = cfg.plan
    played = dict(plan)
    if p.play_rollouts:
        played["rollouts"] = p.play_rollouts
    if p.play_top_k:
        played["top_k"] = p.play_top_k
    played["place"] = p.play_place
    if played != plan and isinstance(meta.get("plan_fit"), dict):
        meta["plan_fit"]["checked_at"] = {"rollouts": plan["rollouts"], "top_k": plan["top_k"],
                                          "place": plan.get("place", 0)}
    return PlanSettings.from_dict(played)


def run_seed(cfg: Any, generation: int) -> int:
    """The seed of a run's planning step at `generation` (fits and check derive from it)."""
    return int(np.random.SeedSequence(cfg.run.seed, spawn_key=(0x504C414E, generation))
               .generate_state(1)[0])


def plan_run(champion: Path, out: Path, cfg: Any, generation: int, rules: Any = None,
             board: Any = None) -> str:
    """Make `out` (runs/<name>/champion-plan.json) from a run's champion.json with the run's
    `plan` settings (cfg: `evolve.config.Config`); the line to print. Seeds derive from the run
    seed and the generation, so a run makes the same file whatever its workers."""
    from features.botfile import BotFile

    bot = BotFile.read(champion)
    return plan_weights(bot.weights, bot.meta, f"{champion.name} of generation {generation}",
                        out, cfg, generation, rules, board)


def plan_weights(weights: np.ndarray, meta: dict[str, Any], source: str, out: Path, cfg: Any,
                 generation: int, rules: Any = None, board: Any = None,
                 run_value: dict[str, float] | None = None) -> str:
    """`plan_run` of a champion's weights and meta (`source`: where they come from; `run_value`:
    the run's learned value, checked beside the fits)."""
    from features.botfile import BotFile

    p = cfg.plan
    plan, meta, result = plan_champion(
        weights, meta, source, games=p.games,
        check_games=p.check_games, seed=run_seed(cfg, generation), horizon=p.horizon,
        rollouts=p.rollouts, top_k=p.top_k, margins=p.margins, refits=p.refits,
        self_shares=p.self_share, rules=rules, board=board, run_value=run_value, units=p.net,
        value_from=p.value_from)
    if not result.better:
        out.unlink(missing_ok=True)  # an older planning champion is not this champion's
        return (f"planning champion: not kept ({result.words()}); {source} plays greedy")
    BotFile(weights, meta, as_played(plan, cfg, meta)).write(out)
    return f"planning champion: {out} ({result.words()})"
