"""Bundled bots: baselines and yardsticks, honest players of the protocol (`game.bots.table`
lists them all)."""

from __future__ import annotations

from game.bots.aggressive import AggressiveBot
from game.bots.border_patrol import BorderPatrolBot
from game.bots.loader import make_player
from game.bots.random_bot import RandomBot
from game.bots.table import (
    BOT_FILES,
    BOTS,
    COMPILED_BOTS,
    GAUNTLET,
    ROWS,
    WEB_BOTS,
    BotRow,
    BullyBot,
    ContinentBot,
    DistributorBot,
    HunterBot,
    PlannerBot,
    StrategistBot,
    bot_file,
)
from game.bots.wanderer import WandererBot

__all__ = [
    "BOTS",
    "BOT_FILES",
    "COMPILED_BOTS",
    "GAUNTLET",
    "ROWS",
    "WEB_BOTS",
    "AggressiveBot",
    "BorderPatrolBot",
    "BotRow",
    "BullyBot",
    "ContinentBot",
    "DistributorBot",
    "HunterBot",
    "PlannerBot",
    "RandomBot",
    "StrategistBot",
    "WandererBot",
    "bot_file",
    "make_player",
]
