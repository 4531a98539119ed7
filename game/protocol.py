"""The player protocol every bot implements, and the error for illegal decisions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from game.decision import Decision, answer_named

if TYPE_CHECKING:
    from game.actions import Attack, Fortify, Place, Trade
    from game.view import GameView


class IllegalActionError(ValueError):
    """A player's decision breaks a rule; the message names the rule. The state is unchanged."""


@runtime_checkable
class Player(Protocol):
    """A policy: given a read-only view of the game, answer the decision asked.

    `act` is asked only for the seat to move and only when a real choice exists; the answer's
    type depends on `decision.kind` (see game.decision.DecisionKind). A player without `act`
    but with the six methods of `BasePlayer` still plays (an older bot).
    """

    def start_game(self, view: GameView, rng: np.random.Generator) -> None:
        """Called once before the first placement with this player's own random generator."""

    def act(self, view: GameView, decision: Decision) -> Any:
        """The answer to `decision`."""
        ...


class BasePlayer:
    """Convenience base: keeps the per-game generator; `act` asks the method named by the
    decision, which subclasses fill in."""

    name = "player"

    def __init__(self) -> None:
        # Replaced by the game's own child generator in start_game before any decision.
        self.rng = np.random.default_rng(0)

    def start_game(self, view: GameView, rng: np.random.Generator) -> None:
        """Keep the per-game generator."""
        self.rng = rng

    def act(self, view: GameView, decision: Decision) -> Any:
        """The answer of the method named by the decision (one entry point to wrap)."""
        return answer_named(self, view, decision)

    def place_initial(self, view: GameView) -> int:
        """Territory (own) that gets one of the initial armies."""
        raise NotImplementedError

    def reinforce(self, view: GameView, armies: int) -> Place:
        """Where to put some (1..armies) of the reinforcements still to place."""
        raise NotImplementedError

    def trade(self, view: GameView, compulsory: bool) -> Trade | None:
        """A set to trade, or None to stop trading (not allowed when compulsory)."""
        raise NotImplementedError

    def attack(self, view: GameView) -> Attack | None:
        """One roll, or None to stop attacking this turn."""
        raise NotImplementedError

    def move_in(self, view: GameView, lo: int, hi: int) -> int:
        """Armies (lo..hi) to move into the territory just conquered."""
        raise NotImplementedError

    def fortify(self, view: GameView) -> Fortify | None:
        """One fortify move, or None to skip; the turn ends either way."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
