"""The game as standard environments (docs/env.md).

`game.env.aec.RiskAECEnv` (PettingZoo AEC, every seat an agent) and `game.env.single.RiskSeatEnv`
(Gymnasium, one learning seat against players) need the `env` extra (`pip install
'riskevo[env]'`); the codec, observer and session below need nothing beyond the engine.
"""

from __future__ import annotations

from game.env.codec import AMOUNTS, MOVES, ActionCodec
from game.env.observe import Observer
from game.env.reward import placement_reward
from game.session import Session

__all__ = ["AMOUNTS", "MOVES", "ActionCodec", "Observer", "Session", "placement_reward"]
