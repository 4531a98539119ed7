"""Baseline bots: sparring partners and yardsticks, honest players of the protocol."""

from __future__ import annotations

from game.bots.aggressive import AggressiveBot
from game.bots.border_patrol import BorderPatrolBot
from game.bots.loader import make_player
from game.bots.random_bot import RandomBot
from game.bots.registry import BOTS, GAUNTLET
from game.bots.sparring import (
    COMPILED_BOTS,
    BullyBot,
    ContinentBot,
    DistributorBot,
    HunterBot,
    PlannerBot,
    StrategistBot,
)
from game.bots.wanderer import WandererBot

__all__ = [
    "BOTS",
    "COMPILED_BOTS",
    "GAUNTLET",
    "AggressiveBot",
    "BorderPatrolBot",
    "BullyBot",
    "ContinentBot",
    "DistributorBot",
    "HunterBot",
    "PlannerBot",
    "RandomBot",
    "StrategistBot",
    "WandererBot",
    "make_player",
]
