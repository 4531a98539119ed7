"""LinearPlayer: the engine's player protocol answered by the compiled `decide` kernel."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from features.decide import Action4, decide, make_work
from features.kernels import FeatureContext, feature_context
from features.registry import N_GENES
from game import layout as L
from game.actions import Attack, Fortify, Place, Trade
from game.jit import bind
from game.map import Map
from game.protocol import BasePlayer
from game.view import GameView


@lru_cache(maxsize=8)
def map_context(m: Map) -> FeatureContext:
    """Static feature context of a board (cached per Map object, which is immutable)."""
    return feature_context(m.kernel)


class LinearPlayer(BasePlayer):
    """Scores options as weighted feature sums (see features.registry) and takes the best."""

    name = "linear"

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
        self._bound: tuple[GameView, Callable[[], Action4]] | None = None

    def start_game(self, view: GameView, rng: np.random.Generator) -> None:
        """Bind `decide` to this game's view (scratch arrays and static context included)."""
        super().start_game(view, rng)
        self._bind(view)

    def _bind(self, view: GameView) -> Callable[[], Action4]:
        work = make_work(view.map.kernel, view.n_players)
        fn = bind(decide, view.map.kernel, map_context(view.map), view.full_state().kernel,
                  view.rules_vector, self.weights, work)
        self._bound = (view, fn)
        return fn

    def _decide(self, view: GameView, want: int) -> Action4:
        # The view of this game follows the position; a different view (another game, or a
        # protocol request) gets its own binding.
        fn = self._bound[1] if self._bound is not None and self._bound[0] is view else (
            self._bind(view))
        kind, a, b, c = fn()
        if kind != want and want >= 0:
            raise RuntimeError(f"linear player: decide gave action kind {kind} in phase "
                               f"{L.PHASE_NAMES[view.phase]}")
        return int(kind), int(a), int(b), int(c)

    def place_initial(self, view: GameView) -> int:
        """Own territory with the best reinforce rank."""
        return self._decide(view, L.A_PLACE)[1]

    def reinforce(self, view: GameView, armies: int) -> Place:
        """Best reinforce rank, with as many armies as it keeps winning one at a time."""
        _k, t, n, _c = self._decide(view, L.A_PLACE)
        return Place(t, n)

    def trade(self, view: GameView, compulsory: bool) -> Trade | None:
        """Best set; an optional one only when worth cards.trade_at * 20 armies."""
        kind, a, b, c = self._decide(view, -1)
        return Trade((a, b, c)) if kind == L.A_TRADE else None

    def attack(self, view: GameView) -> Attack | None:
        """Best attack rank if above attack.threshold."""
        kind, a, b, _c = self._decide(view, -1)
        return Attack(a, b, 0) if kind == L.A_ATTACK else None

    def move_in(self, view: GameView, lo: int, hi: int) -> int:
        """Armies moved in, from the occupy genes."""
        return self._decide(view, L.A_MOVE)[1]

    def fortify(self, view: GameView) -> Fortify | None:
        """Best fortify rank if above fortify.threshold."""
        kind, a, b, c = self._decide(view, -1)
        return Fortify(a, b, c) if kind == L.A_FORTIFY else None

    def __repr__(self) -> str:
        return f"LinearPlayer(name={self.name!r})"
