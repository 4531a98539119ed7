"""Baseline bots: sparring partners and yardsticks, honest players of the protocol."""

from __future__ import annotations

from game.bots.random_bot import RandomBot
from game.protocol import BasePlayer

BOTS: dict[str, type[BasePlayer]] = {
    "random": RandomBot,
}

__all__ = ["BOTS", "RandomBot"]
