"""The compiled bots as players: one kernel each, called from Python or from compiled games.

`COMPILED_BOTS` (the one table of them) names the bots with a compiled implementation and
their policy codes (0 is the linear player): the sparring bots (planner, hunter, strategist)
and the strongest baselines (continent, distributor, bully). Compiled games
(`features.compiled.play_mixed_games`: league seats, evaluation, tournaments) seat them by code
through `sparring_decide`, and the Python classes below answer the protocol by calling the same
kernel, so both play the same moves in the same position.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from game import layout as L
from game.bots import bully, continent, distributor, hunter, planner, strategist
from game.bots.baseline_kernels import move_in_split, trade_best
from game.bots.front import march_to_front
from game.bots.sparring_kernels import Action4, BotWork, best_set, make_bot_work, move_in_garrisoned
from game.jit import bind, rule_kernel
from game.layout import MapArrays, StateArrays
from game.protocol import KernelPlayer
from game.view import GameView

# Policy codes (0 is the linear player in compiled games).
PLANNER, HUNTER, CONTINENT, DISTRIBUTOR, BULLY, STRATEGIST = 1, 2, 3, 4, 5, 6
COMPILED_BOTS: dict[str, int] = {"planner": PLANNER, "hunter": HUNTER, "continent": CONTINENT,
                            "distributor": DISTRIBUTOR, "bully": BULLY,
                            "strategist": STRATEGIST}


@rule_kernel
def baseline_decide(code: int, m: MapArrays, s: StateArrays, rules: np.ndarray,
                    w: BotWork) -> Action4:
    """The action of baseline `code` (continent, distributor, bully) for the seat to move:
    each places and attacks its own way; they trade alike, and differ in one of move-in and
    fortify at most."""
    ph = s.sc[L.S_PHASE]
    seat = s.sc[L.S_CURRENT]
    if ph == L.PH_SETUP or ph == L.PH_REINFORCE:
        pool = 1 if ph == L.PH_SETUP else s.sc[L.S_POOL]
        if code == CONTINENT:
            return continent.place(m, s, seat, w, pool)
        if code == DISTRIBUTOR:
            return distributor.place(m, s, seat, pool)
        return bully.place(m, s, seat, w, pool)
    if ph == L.PH_TRADE:
        return trade_best(m, s, rules, seat)
    if ph == L.PH_ATTACK:
        if code == CONTINENT:
            return continent.attack(m, s, seat, w)
        if code == DISTRIBUTOR:
            return distributor.attack(m, s, seat, w)
        return bully.attack(m, s, seat, w)
    if ph == L.PH_OCCUPY:
        return continent.move_in(m, s, seat, w) if code == CONTINENT else move_in_split(m, s)
    if ph == L.PH_FORTIFY:
        if code == DISTRIBUTOR:
            return distributor.fortify(m, s, rules, seat, w)
        return march_to_front(m, s, rules, seat, w, True)
    return (-1, 0, 0, 0)


@rule_kernel
def planning_decide(code: int, m: MapArrays, s: StateArrays, rules: np.ndarray,
                    w: BotWork) -> Action4:
    """The action of sparring bot `code` (planner, hunter, strategist) for the seat to move:
    each places and attacks its own way; they march interior stacks to the front
    alike, and the planner trades every set at once."""
    ph = s.sc[L.S_PHASE]
    seat = s.sc[L.S_CURRENT]
    if ph == L.PH_SETUP or ph == L.PH_REINFORCE:
        pool = 1 if ph == L.PH_SETUP else s.sc[L.S_POOL]
        if code == PLANNER:
            return planner.place(m, s, seat, w, pool)
        if code == HUNTER:
            return hunter.place(m, s, seat, w, pool)
        return strategist.place(m, s, seat, w, pool)
    if ph == L.PH_TRADE:
        if code == PLANNER:
            return best_set(m, s, rules, seat)
        if code == HUNTER:
            return hunter.trade(m, s, rules, seat)
        return strategist.trade(m, s, rules, seat, w)
    if ph == L.PH_ATTACK:
        if code == PLANNER:
            return planner.attack(m, s, seat, w)
        if code == HUNTER:
            return hunter.attack(m, s, seat, w)
        return strategist.attack(m, s, seat, w)
    if ph == L.PH_OCCUPY:
        if code == HUNTER:
            return hunter.move_in(m, s, seat, w)
        # The planner keeps half the adjacent threat; the strategist all of it outside its
        # target continent.
        if code == PLANNER:
            return move_in_garrisoned(m, s, seat, w, planner.ENTRY_WEIGHT, True)
        return move_in_garrisoned(m, s, seat, w, strategist.ENTRY_WEIGHT, False)
    if ph == L.PH_FORTIFY:
        if code == STRATEGIST:
            return strategist.fortify(m, s, rules, seat, w)
        return march_to_front(m, s, rules, seat, w, False)
    return (-1, 0, 0, 0)


@rule_kernel
def sparring_decide(code: int, m: MapArrays, s: StateArrays, rules: np.ndarray,
                    w: BotWork) -> Action4:
    """The action of compiled bot `code` for the seat to move ((-1, 0, 0, 0) if unknown)."""
    if code == PLANNER or code == HUNTER or code == STRATEGIST:
        return planning_decide(code, m, s, rules, w)
    if code == CONTINENT or code == DISTRIBUTOR or code == BULLY:
        return baseline_decide(code, m, s, rules, w)
    return (-1, 0, 0, 0)


class CompiledBot(KernelPlayer):
    """A protocol player answering with `sparring_decide` for its code."""

    code = 0

    def bind_kernel(self, view: GameView) -> Callable[[], Action4]:
        """The bot's kernel bound to this game's arrays (and scratch)."""
        m = view.map.kernel
        # The code as the compiled game loop passes it (int32), so the kernel compiles once.
        return bind(sparring_decide, np.int32(self.code), m, view.kernel_state().kernel,
                    view.rules_vector, make_bot_work(m))


class PlannerBot(CompiledBot):
    """Continent planner with garrisons (see game.bots.planner)."""

    name = "planner"
    code = PLANNER


class HunterBot(CompiledBot):
    """Gangs up on the leader, harvests weak players' cards (see game.bots.hunter)."""

    name = "hunter"
    code = HUNTER


class ContinentBot(CompiledBot):
    """Takes and holds the cheapest continent within reach (see game.bots.continent)."""

    name = "continent"
    code = CONTINENT


class StrategistBot(CompiledBot):
    """Plans, garrisons, breaks the leader and harvests cards (see game.bots.strategist)."""

    name = "strategist"
    code = STRATEGIST


class DistributorBot(CompiledBot):
    """Spreads armies evenly over its borders, attacks at odds >= 0.6 (game.bots.distributor)."""

    name = "distributor"
    code = DISTRIBUTOR


class BullyBot(CompiledBot):
    """Attacks only at odds >= 0.7, the weakest stacks first (see game.bots.bully)."""

    name = "bully"
    code = BULLY


__all__ = [
    "COMPILED_BOTS",
    "BullyBot",
    "CompiledBot",
    "ContinentBot",
    "DistributorBot",
    "HunterBot",
    "PlannerBot",
    "StrategistBot",
    "sparring_decide",
]
