"""Baseline bots: sparring partners and yardsticks, honest players of the protocol."""

from __future__ import annotations

from game.bots.aggressive import AggressiveBot
from game.bots.border_patrol import BorderPatrolBot
from game.bots.loader import make_player
from game.bots.random_bot import RandomBot
from game.bots.sparring import (
    SPARRING,
    BullyBot,
    ContinentBot,
    DistributorBot,
    HunterBot,
    PlannerBot,
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
}

# The strongest baselines: the gauntlet's default opponents and the in-run evaluation's.
GAUNTLET: tuple[str, ...] = ("continent", "distributor", "bully")

__all__ = [
    "BOTS", "GAUNTLET", "SPARRING", "AggressiveBot", "BorderPatrolBot", "BullyBot",
    "ContinentBot", "DistributorBot", "HunterBot", "PlannerBot", "RandomBot", "WandererBot",
    "make_player",
]
