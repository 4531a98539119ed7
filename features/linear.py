"""LinearPlayer: the engine's player protocol answered by the compiled `decide` kernel."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from features.decide import decide
from features.kernels import FeatureContext, feature_context
from features.registry import N_GENES
from features.why import Why
from features.work import Action4, make_work
from game.map import Map
from game.protocol import KernelPlayer
from game.rules.jit import bind
from game.state import State
from game.view import GameView


@lru_cache(maxsize=8)
def map_context(m: Map) -> FeatureContext:
    """Static feature context of a board (cached per Map object, which is immutable)."""
    return feature_context(m.kernel)


class LinearPlayer(KernelPlayer):
    """Scores options as weighted feature sums (see features.registry) and takes the best."""

    name = "linear"
    # Called with each decision's record (`Why`: the position it saw, what it played, its
    # plan) as it decides, when set (the web game keeps them per log line); None: no record.
    on_why: Callable[[Why], None] | None = None

    def __init__(self, weights: np.ndarray, name: str | None = None) -> None:
        super().__init__()
        w = np.ascontiguousarray(weights, dtype=np.float64)
        if w.shape != (N_GENES,):
            raise ValueError(f"weights must have shape ({N_GENES},), got {w.shape}")
        if not np.isfinite(w).all():
            bad = int(np.flatnonzero(~np.isfinite(w))[0])
            raise ValueError(f"weights must be finite (gene {bad} is {w[bad]})")
        self.weights = w
        if name is not None:
            self.name = name

    def bind_kernel(self, view: GameView) -> Callable[[], Action4]:
        """`decide` bound to this game's view (scratch arrays and static context included)."""
        work = make_work(view.map.kernel, view.n_players)
        return bind(decide, view.map.kernel, map_context(view.map), view.kernel_state().kernel,
                    view.rules_vector, self.weights, work)

    def kernel_action(self, view: GameView) -> Action4:
        """The kernel's answer; with `on_why` set, its record goes there first."""
        hook = self.on_why
        if hook is None:
            return super().kernel_action(view)
        seen = view.kernel_state().copy()
        action = super().kernel_action(view)
        hook(self.why_of(seen, action))
        return action

    def why_of(self, seen: State, action: Action4) -> Why:
        """The record of the decision just made in position `seen` (a copy)."""
        return Why(seen, action)

    def __repr__(self) -> str:
        return f"LinearPlayer(name={self.name!r})"
