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

# The strongest bots, three different strategies: the gauntlet's default opponents and those of
# the in-run evaluation and of the champion's playoffs. (The hour run's champion beat 3 copies
# of distributor / bully in 0.91 / 0.84 of 1,000 games, of continent / planner / hunter in 0.50 /
# 0.42 / 0.37: the first two barely tell champions apart any more.)
GAUNTLET: tuple[str, ...] = ("continent", "planner", "hunter")

__all__ = [
    "BOTS", "GAUNTLET", "SPARRING", "AggressiveBot", "BorderPatrolBot", "BullyBot",
    "ContinentBot", "DistributorBot", "HunterBot", "PlannerBot", "RandomBot", "WandererBot",
    "make_player",
]
