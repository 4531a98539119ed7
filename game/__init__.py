"""The Risk engine: map, rules kernels, state, player protocol and the general game loop."""

from game.numba_cache import GAME_DIR, clear_stale_caches, game_sources

# Before any kernel loads its cache: kernels call kernels in other files (see numba_cache).
clear_stale_caches(GAME_DIR, game_sources())
clear_stale_caches(GAME_DIR / "rules", game_sources())  # the rules' kernels
clear_stale_caches(GAME_DIR / "bots", game_sources())  # the compiled bots' kernels

# ruff: noqa: E402
from game.actions import Attack, Fortify, MoveIn, Place, Trade, parse_action
from game.engine import EndReason, Outcome, PlayerStats, play_game
from game.map import Map, MapError, classic_map, load_map
from game.protocol import BasePlayer, IllegalActionError, Player
from game.state import Rules, RulesError, State
from game.view import GameView

__all__ = [
    "Attack", "BasePlayer", "EndReason", "Fortify", "GameView", "IllegalActionError", "Map",
    "MapError", "MoveIn", "Outcome", "Place", "Player", "PlayerStats", "Rules", "RulesError",
    "State", "Trade", "classic_map", "load_map", "parse_action", "play_game",
]
