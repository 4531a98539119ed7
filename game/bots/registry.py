"""The bundled bots by name, and the gauntlet's line-up: the registry `make_player` and the
commands look names up in (its own module, so that the loader needs no import of the package)."""

from __future__ import annotations

from game.bots.aggressive import AggressiveBot
from game.bots.border_patrol import BorderPatrolBot
from game.bots.random_bot import RandomBot
from game.bots.sparring import (
    BullyBot,
    ContinentBot,
    DistributorBot,
    HunterBot,
    PlannerBot,
    StrategistBot,
)
from game.bots.wanderer import WandererBot
from game.protocol import BasePlayer

BOTS: dict[str, type[BasePlayer]] = {
    "random": RandomBot,
    "aggressive": AggressiveBot,
    "bully": BullyBot,
    "border_patrol": BorderPatrolBot,
    "distributor": DistributorBot,
    "wanderer": WandererBot,
    "continent": ContinentBot,
    "planner": PlannerBot,
    "hunter": HunterBot,
    "strategist": StrategistBot,
}

# The six strongest bots, six strategies, all compiled: the gauntlet's default opponents and
# those of the in-run evaluation and of the champion's playoffs. A champion is judged against
# all six so that it is not crowned for one style of play (champions trained against three of
# them beat the other two less often: docs/experiments/2026-11-24-league-anchors.md); the
# strategist, the strongest, is the one evolved champions beat least, so it still tells strong
# champions apart (docs/experiments/2026-11-25-strategist.md).
GAUNTLET: tuple[str, ...] = ("continent", "planner", "hunter", "distributor", "bully",
                             "strategist")


__all__ = ["BOTS", "GAUNTLET"]
