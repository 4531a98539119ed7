"""The game as a Gymnasium `Env` for one learning seat against players (bots, champions).

The learner is player `learner` among `len(opponents) + 1` players (seats are drawn as in
`play_game`); the opponents are `game.protocol.Player` objects answered exactly as
`play_game` answers them, or a callable making fresh ones for each game. Observations are the
seat's float32 vector (`game.env.observe`); the mask of the legal actions is
`info["action_mask"]` and `action_masks()` (what sb3-contrib's MaskablePPO calls). Reward:
`placement_reward` of the learner's place once it is out or the game ends (0 before).
An illegal index is replaced by the first legal pass (stop, skip, end of trading) or else the
lowest legal index, `info["illegal_action"]` is True and `illegal_penalty` is added.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from game.env.codec import ActionCodec
from game.env.observe import Observer
from game.env.render import render_text
from game.env.reward import placement_reward
from game.env.seeding import GameSeeds
from game.map import Map, classic_map
from game.protocol import Player
from game.session import Session, label_of
from game.state import Rules

Opponents = Sequence[Player] | Callable[[], Sequence[Player]]


class RiskSeatEnv(gymnasium.Env):
    """One seat of a Risk game; the other seats are played by `opponents`."""

    # The base class declares an instance attribute: a ClassVar would not type-check.
    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"]}  # noqa: RUF012

    def __init__(self, opponents: Opponents, *, learner: int = 0, map: Map | None = None,
                 rules: Rules | None = None, full_access: Sequence[bool] | None = None,
                 illegal_penalty: float = 0.0, render_mode: str | None = None,
                 transcript: bool = False) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self._make = opponents if callable(opponents) else None
        self._fixed = None if callable(opponents) else list(opponents)
        k = len(self._opponents()) + 1
        if not 0 <= learner < k:
            raise ValueError(f"learner must be a player index 0..{k - 1}, got {learner}")
        self.learner = learner
        m = map if map is not None else classic_map()
        rules = rules if rules is not None else Rules()
        # The opponents' doors follow full_access (given per opponent); the learner needs none.
        access = [True] * (k - 1) if full_access is None else list(full_access)
        access.insert(learner, False)
        self.session = Session(m, rules, k, transcript=transcript, full_access=access)
        self.codec = ActionCodec(m, rules)
        self.observer = Observer(m, rules, k)
        self.observation_space = spaces.Box(0.0, 1.0, (self.observer.size,), np.float32)
        self.action_space = spaces.Discrete(self.codec.n)
        penalty = float(illegal_penalty)
        if not math.isfinite(penalty):  # a NaN or infinite reward poisons every return
            raise ValueError(f"illegal_penalty must be a finite number, got {illegal_penalty!r}")
        self.illegal_penalty = penalty
        self._seeds = GameSeeds()
        self._mask = np.zeros(self.codec.n, np.int8)
        self._done = True

    def _opponents(self) -> list[Player]:
        return list(self._make()) if self._make is not None else list(self._fixed or [])

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new game (reset(seed=s) deals what `play_game(..., seed=s)` deals) and play
        the opponents up to the learner's first decision."""
        super().reset(seed=seed)
        game_seed = self._seeds.next(seed)
        s = self.session
        s.reset(game_seed)
        self.observer.bind(s.state)
        players: list[Player | None] = list(self._opponents())
        players.insert(self.learner, None)  # the learner's seat is answered through step()
        s.seat(players, labels=[label_of(p) if p is not None else "learner" for p in players])
        self._done = False
        self._advance()
        return self._observation(), self._info()

    def _advance(self) -> None:
        """Let the opponents play until the learner must decide, is out, or the game ends."""
        s = self.session
        s.run(until=lambda: not s.alive(self.learner))
        self._done = s.over or not s.alive(self.learner)
        if self._done:
            self._mask[:] = 0
        else:
            self.codec.mask(s.views[self.learner], s.decision(), self._mask)

    def _observation(self) -> np.ndarray:
        s = self.session
        d = None if self._done else s.decision()
        return self.observer.observe(s.seat_of[self.learner],
                                     bool(d is not None and d.compulsory))

    def _info(self, **extra: Any) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask.copy(), **extra}
        if self._done:
            info["place"] = self._place()
        return info

    def _place(self) -> int:
        s = self.session
        if not s.alive(self.learner):
            return s.place_of(self.learner)
        return int(s.placements()[self.learner])

    def action_masks(self) -> np.ndarray:
        """Bool mask of the legal actions now (sb3-contrib's MaskablePPO asks for it)."""
        return self._mask.astype(bool)

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        s = self.session
        index = int(action)
        reward = 0.0
        illegal = not (0 <= index < self.codec.n and self._mask[index])
        if illegal:
            index = self._fallback()
            reward += self.illegal_penalty
        s.apply(self.codec.decode(index, s.views[self.learner], s.decision()))
        self._advance()
        terminated = truncated = False
        if self._done:
            reward += placement_reward(self._place(), s.n_players)
            truncated = s.over and s.capped and s.alive(self.learner)
            terminated = not truncated
        return self._observation(), reward, terminated, truncated, self._info(
            illegal_action=illegal)

    def _fallback(self) -> int:
        c = self.codec
        for i in (c.stop, c.skip, c.end_trade):
            if self._mask[i]:
                return i
        return int(np.flatnonzero(self._mask)[0])

    def render(self) -> str | None:
        """The position as text ("ansi": returned; "human": printed)."""
        return render_text(self.session, self.render_mode)

    def transcript(self) -> tuple[str, ...]:
        """The game's transcript (made with transcript=True)."""
        return self.session.transcript()


__all__ = ["Opponents", "RiskSeatEnv"]
