"""The one bot table: a row per bundled bot, from which every list of bots derives.

`ROWS` names each bot with its kind, and whether it stands in the gauntlet and on the web page;
`BOTS` (name -> class, what `make_player` seats), `COMPILED_BOTS` (name -> policy code),
`GAUNTLET`, `WEB_BOTS` and `BOT_FILES` are read off it. A row's kind is one of:

- `python`: a `BasePlayer` class that decides in Python (`RandomBot`);
- `compiled`: a class answering through `compiled_decide` with its policy code (0 is the linear
  player), so compiled games (`features.compiled.play_mixed_games`: league seats, evaluation,
  tournaments) seat it by code and its Python class plays the same moves;
- `file`: a bot file (a linear player's JSON) shipped in the package under `game/bots/files/`,
  found with `importlib.resources` (`bot_file`); `arena`'s bot specs load it by its name.

Adding a compiled bot touches its kernel module and this file only: a code, its branch in
`compiled_decide` (numba calls a kernel by name, so the branch sits beside the row), its
class (`compiled_bot`) and a row. CONTRIBUTING.md has the recipe.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Literal

import numpy as np

from game.bots import bully, continent, distributor, hunter, planner, strategist
from game.bots.aggressive import AggressiveBot
from game.bots.baseline_kernels import move_in_split, trade_best
from game.bots.border_patrol import BorderPatrolBot
from game.bots.front import march_to_front
from game.bots.kernels import BotWork, best_set, make_bot_work, move_in_garrisoned
from game.bots.random_bot import RandomBot
from game.bots.wanderer import WandererBot
from game.protocol import Action4, BasePlayer, KernelPlayer
from game.rules import layout as L
from game.rules.jit import bind, rule_kernel
from game.rules.layout import MapArrays, StateArrays
from game.view import GameView

# Policy codes (0 is the linear player in compiled games).
PLANNER, HUNTER, CONTINENT, DISTRIBUTOR, BULLY, STRATEGIST = 1, 2, 3, 4, 5, 6


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
    """The action of planning bot `code` (planner, hunter, strategist) for the seat to move:
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
def compiled_decide(code: int, m: MapArrays, s: StateArrays, rules: np.ndarray,
                    w: BotWork) -> Action4:
    """The action of compiled bot `code` for the seat to move ((-1, 0, 0, 0) if unknown)."""
    if code == PLANNER or code == HUNTER or code == STRATEGIST:
        return planning_decide(code, m, s, rules, w)
    if code == CONTINENT or code == DISTRIBUTOR or code == BULLY:
        return baseline_decide(code, m, s, rules, w)
    return (-1, 0, 0, 0)


class CompiledBot(KernelPlayer):
    """A protocol player answering with `compiled_decide` for its code."""

    code = 0

    def bind_kernel(self, view: GameView) -> Callable[[], Action4]:
        """The bot's kernel bound to this game's arrays (and scratch)."""
        m = view.map.kernel
        # The code as the compiled game loop passes it (int32), so the kernel compiles once.
        return bind(compiled_decide, np.int32(self.code), m, view.kernel_state().kernel,
                    view.rules_vector, make_bot_work(m))


def compiled_bot(name: str, code: int, doc: str) -> type[CompiledBot]:
    """The protocol player of the compiled bot `code`: a class of this module (it pickles by
    its name here, as the compiled rows' classes below)."""
    cls_name = name.title().replace("_", "") + "Bot"
    return type(cls_name, (CompiledBot,), {"name": name, "code": code, "__doc__": doc,
                                           "__module__": __name__, "__qualname__": cls_name})


PlannerBot = compiled_bot("planner", PLANNER, "Continent planner with garrisons "
                          "(see game.bots.planner).")
HunterBot = compiled_bot("hunter", HUNTER, "Gangs up on the leader, harvests weak players' "
                         "cards (see game.bots.hunter).")
ContinentBot = compiled_bot("continent", CONTINENT, "Takes and holds the cheapest continent "
                            "within reach (see game.bots.continent).")
StrategistBot = compiled_bot("strategist", STRATEGIST, "Plans, garrisons, breaks the leader "
                             "and harvests cards (see game.bots.strategist).")
DistributorBot = compiled_bot("distributor", DISTRIBUTOR, "Spreads armies evenly over its "
                              "borders, attacks at odds >= 0.6 (see game.bots.distributor).")
BullyBot = compiled_bot("bully", BULLY, "Attacks only at odds >= 0.7, the weakest stacks first "
                        "(see game.bots.bully).")


Kind = Literal["python", "compiled", "file"]


@dataclass(frozen=True)
class BotRow:
    """One bundled bot. `player` is its class (python, compiled), `file` its file name under
    game/bots/files/ (file); `gauntlet` and `web` are its place in the gauntlet's line-up and
    in the web page's list, 1 first, 0 when absent (the gauntlet's order seats its seeded games)."""

    name: str
    kind: Kind
    player: type[BasePlayer] | None = None
    file: str = ""
    gauntlet: int = 0
    web: int = 0

    def __post_init__(self) -> None:
        fits = {"python": self.player is not None and not self.file,
                "compiled": self.player is not None and issubclass(self.player, CompiledBot),
                "file": self.player is None and bool(self.file)}
        if not fits.get(self.kind, False):
            raise ValueError(f"bot row {self.name!r} of kind {self.kind!r} needs "
                             f"{_NEEDS.get(self.kind, 'a kind of python, compiled, file')}")


_NEEDS = {"python": "a player class and no file", "compiled": "a CompiledBot class",
          "file": "a file name and no player class"}


ROWS: tuple[BotRow, ...] = (
    BotRow("random", "python", RandomBot, web=9),
    BotRow("aggressive", "python", AggressiveBot, web=8),
    BotRow("bully", "compiled", BullyBot, gauntlet=5, web=7),
    BotRow("border_patrol", "python", BorderPatrolBot),
    BotRow("distributor", "compiled", DistributorBot, gauntlet=4, web=6),
    BotRow("wanderer", "python", WandererBot),
    BotRow("continent", "compiled", ContinentBot, gauntlet=1, web=3),
    BotRow("planner", "compiled", PlannerBot, gauntlet=2, web=4),
    BotRow("hunter", "compiled", HunterBot, gauntlet=3, web=5),
    BotRow("strategist", "compiled", StrategistBot, gauntlet=6, web=2),
    # The strongest champion the project has made (provenance in its meta; docs/champion.md).
    BotRow("champion", "file", file="champion.json", web=1),
)


def _ranked(place: Callable[[BotRow], int]) -> tuple[str, ...]:
    return tuple(r.name for r in sorted((r for r in ROWS if place(r)), key=place))


BOTS: dict[str, type[BasePlayer]] = {r.name: r.player for r in ROWS if r.player is not None}
COMPILED_BOTS: dict[str, int] = {r.name: r.player.code for r in ROWS
                                 if r.player is not None and issubclass(r.player, CompiledBot)}
BOT_FILES: dict[str, str] = {r.name: r.file for r in ROWS if r.kind == "file"}
# The gauntlet: the six strongest bots, six strategies, all compiled; also the in-run
# evaluation's and the champion playoffs' opponents. A champion is judged against all six so
# that it is not crowned for one style of play (docs/experiments/2026-11-24-league-anchors.md);
# the strategist, the strongest, still tells strong champions apart
# (docs/experiments/2026-11-25-strategist.md).
GAUNTLET: tuple[str, ...] = _ranked(lambda r: r.gauntlet)
WEB_BOTS: tuple[str, ...] = _ranked(lambda r: r.web)  # offered on the web page, in this order


def bot_file(name: str) -> Path:
    """The path of the packaged bot file of a `file` row (ValueError naming the known ones)."""
    if name not in BOT_FILES:
        raise ValueError(f"unknown packaged bot file {name!r} (allowed: "
                         f"{', '.join(BOT_FILES) or 'none'})")
    # riskevo installs as plain files (no zip), so the resource is a path on disk.
    path = Path(str(resources.files("game.bots").joinpath("files", BOT_FILES[name])))
    if not path.is_file():
        raise ValueError(f"packaged bot file {name!r}: {path.name} is missing from game/bots/files")
    return path


__all__ = [
    "BOTS", "BOT_FILES", "COMPILED_BOTS", "GAUNTLET", "ROWS", "WEB_BOTS", "BotRow",
    "BullyBot", "CompiledBot", "ContinentBot", "DistributorBot", "HunterBot", "PlannerBot",
    "StrategistBot", "bot_file", "compiled_bot", "compiled_decide",
]
