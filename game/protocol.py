"""The player protocol every bot implements, and the error for illegal decisions."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from game.decision import Decision, DecisionKind, answer_named
from game.rules import layout as L

if TYPE_CHECKING:
    from game.actions import Attack, Fortify, Place, Trade
    from game.view import GameView


class IllegalActionError(ValueError):
    """A player's decision breaks a rule; the message names the rule. The state is unchanged.

    `rule` is the rule kernel's own text when the kernel refused the action ("" otherwise)."""

    def __init__(self, message: str = "", rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


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


Action4 = tuple[int, int, int, int]


def kernel_answer(decision: Decision, kind: int, a: int, b: int, c: int) -> Any:
    """A compiled policy's (kind, a, b, c) as the answer to `decision` (the one decoding of the
    kernels' answers); RuntimeError when the kernel gave no action the question allows."""
    from game.actions import Attack, Fortify, Place, Trade

    k = decision.kind
    if k is DecisionKind.ATTACK:
        return Attack(a, b, 0) if kind == L.A_ATTACK else None
    if k is DecisionKind.REINFORCE and kind == L.A_PLACE:
        return Place(a, b)
    if k is DecisionKind.TRADE:
        return Trade((a, b, c)) if kind == L.A_TRADE else None
    if k is DecisionKind.FORTIFY:
        return Fortify(a, b, c) if kind == L.A_FORTIFY else None
    if (k is DecisionKind.PLACE_INITIAL and kind == L.A_PLACE) or (
            k is DecisionKind.MOVE_IN and kind == L.A_MOVE):
        return a
    raise RuntimeError(f"the kernel gave action kind {kind} for {decision.text()}")


class KernelPlayer(BasePlayer):
    """A player whose every answer is one compiled kernel call returning (kind, a, b, c): the
    linear player and the compiled bots. Subclasses bind their kernel to a view's
    `kernel_state()` in `bind_kernel`; each decision brings that copy up to date first."""

    def __init__(self) -> None:
        super().__init__()
        self._bound: tuple[GameView, Callable[[], Action4]] | None = None

    def bind_kernel(self, view: GameView) -> Callable[[], Action4]:
        """The kernel with this view's arrays (and scratch) fixed: called with no argument."""
        raise NotImplementedError

    def start_game(self, view: GameView, rng: np.random.Generator) -> None:
        """Keep the generator and bind the kernel to this game's view."""
        super().start_game(view, rng)
        self._bound = (view, self.bind_kernel(view))

    def kernel_action(self, view: GameView) -> Action4:
        """The kernel's (kind, a, b, c) for the position `view` follows."""
        # The view of this game follows the position; a different view (another game, or a
        # protocol request) gets its own binding.
        bound = self._bound
        if bound is None or bound[0] is not view:
            bound = self._bound = (view, self.bind_kernel(view))
        view.kernel_state()  # the bound copy now holds this decision's position
        kind, a, b, c = bound[1]()
        return int(kind), int(a), int(b), int(c)

    def act(self, view: GameView, decision: Decision) -> Any:
        """The kernel's answer, decoded for the question asked."""
        return kernel_answer(decision, *self.kernel_action(view))
