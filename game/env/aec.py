"""The game as a PettingZoo `AECEnv`: 2-6 agents `player_0..`, one decision per step.

Each agent observes `{"observation": float32[obs], "action_mask": int8[n_actions]}` (the mask
is all zeros for an agent not to move) and answers with one `Discrete(n_actions)` index
(`game.env.codec`). Rewards come once, by final place (`placement_reward`: +1 first, -1 last,
linear between): an eliminated agent gets its reward and `terminated` when it falls (its place
is fixed then), the others when the game ends (`terminated`, or `truncated` at the round
cap). An illegal index raises ValueError (PettingZoo's TerminateIllegalWrapper turns that
into a lost game if wanted).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from game.env.codec import ActionCodec
from game.env.observe import Observer
from game.env.render import render_text
from game.env.reward import placement_reward
from game.env.seeding import GameSeeds
from game.map import Map, classic_map
from game.session import Session
from game.state import Rules


class RiskAECEnv(AECEnv):  # type: ignore[misc]
    """Risk for 2-6 agents on any board and rules the engine plays."""

    # The base class declares an instance attribute: a ClassVar would not type-check.
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["human", "ansi"], "name": "risk_v0", "is_parallelizable": False}

    def __init__(self, n_players: int = 4, *, map: Map | None = None, rules: Rules | None = None,
                 render_mode: str | None = None, transcript: bool = False,
                 hand_slots: int | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        m = map if map is not None else classic_map()
        rules = rules if rules is not None else Rules()
        self.session = Session(m, rules, n_players, transcript=transcript)
        self.codec = (ActionCodec(m, rules) if hand_slots is None
                      else ActionCodec(m, rules, hand_slots))
        self.observer = Observer(m, rules, n_players)
        self.possible_agents = [f"player_{i}" for i in range(n_players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict({"observation": spaces.Box(0.0, 1.0, (self.observer.size,),
                                                      np.float32),
                            "action_mask": spaces.Box(0, 1, (self.codec.n,), np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.codec.n) for a in self.possible_agents}
        self._seeds = GameSeeds()
        self._mask: np.ndarray | None = None
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game; reset(seed=s) deals what `play_game(..., seed=s)` deals. Without a
        seed, the next game's seed is drawn from a generator seeded by the last seed given."""
        game_seed = self._seeds.next(seed)
        self.game_seed = game_seed
        self.session.reset(game_seed)
        self.session.seat([None] * self.session.n_players, labels=self.possible_agents)
        self.observer.bind(self.session.state)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._mask = None
        self.agent_selection = self.possible_agents[self.session.current]

    def _current_mask(self) -> np.ndarray:
        if self._mask is None:
            s = self.session
            self._mask = self.codec.mask(s.views[s.current], s.decision())
        return self._mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        s = self.session
        p = self._index[agent]
        to_move = not s.over and p == s.current
        d = s.decision() if to_move else None
        obs = self.observer.observe(s.seat_of[p], bool(d is not None and d.compulsory))
        mask = self._current_mask().copy() if to_move else np.zeros(self.codec.n, np.int8)
        return {"observation": obs, "action_mask": mask}

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """The mask of `agent` (default: the agent to move)."""
        return self.observe(agent or self.agent_selection)["action_mask"]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self.session
        if action is None:
            raise ValueError(f"{agent} is to move and must give an action, not None")
        index = int(action)
        if not (0 <= index < self.codec.n and self._current_mask()[index]):
            raise ValueError(f"{agent}: action {index} is not legal now "
                             f"({s.decision().text()})")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        p = self._index[agent]
        s.apply(self.codec.decode(index, s.views[p], s.decision()))
        self._mask = None
        n = s.n_players
        for a in self.agents:
            q = self._index[a]
            if not self.terminations[a] and not self.truncations[a] and not s.alive(q):
                self.rewards[a] = placement_reward(s.place_of(q), n)
                self.terminations[a] = True
                self.infos[a]["place"] = s.place_of(q)
        if s.over:
            places = s.placements()
            for a in self.agents:
                if not self.terminations[a]:
                    self.rewards[a] = placement_reward(int(places[self._index[a]]), n)
                    if s.capped:
                        self.truncations[a] = True
                    else:
                        self.terminations[a] = True
                self.infos[a]["place"] = int(places[self._index[a]])
        else:
            self.agent_selection = self.possible_agents[s.current]
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The position as text ("ansi": returned; "human": printed)."""
        return render_text(self.session, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""

    def transcript(self) -> tuple[str, ...]:
        """The game's transcript (made with transcript=True), as `play_game` writes it."""
        return self.session.transcript()


def raw_env(**kwargs: Any) -> RiskAECEnv:
    """The environment without wrappers."""
    return RiskAECEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The environment in PettingZoo's usual OrderEnforcingWrapper."""
    return wrappers.OrderEnforcingWrapper(RiskAECEnv(**kwargs))


__all__ = ["RiskAECEnv", "env", "raw_env"]
