"""What a player is asked: one `Decision` per question, answered through `Player.act`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.view import GameView


class DecisionKind(Enum):
    """The six questions of the game; the value is the `BasePlayer` method answering it."""

    PLACE_INITIAL = "place_initial"  # answer: own territory (int) for one initial army
    REINFORCE = "reinforce"  # answer: Place(territory, 1..armies)
    TRADE = "trade"  # answer: Trade(cards) or None to stop (not when compulsory)
    ATTACK = "attack"  # answer: Attack(src, dst, dice) for one roll, or None to stop
    MOVE_IN = "move_in"  # answer: armies lo..hi into the territory just conquered
    FORTIFY = "fortify"  # answer: Fortify(src, dst, armies) or None to skip


@dataclass(frozen=True)
class Decision:
    """One question to the seat to move, with what the rules fix about the answer."""

    kind: DecisionKind
    armies: int = 0  # REINFORCE: armies still to place
    compulsory: bool = False  # TRADE: stopping is not allowed
    lo: int = 0  # MOVE_IN: least armies to move in (the dice rolled)
    hi: int = 0  # MOVE_IN: most (armies in the source - 1)

    def text(self) -> str:
        """Readable form, e.g. 'reinforce 5', 'trade compulsory', 'move_in 3..7'."""
        k = self.kind
        if k is DecisionKind.REINFORCE:
            return f"reinforce {self.armies}"
        if k is DecisionKind.TRADE:
            return "trade compulsory" if self.compulsory else "trade"
        if k is DecisionKind.MOVE_IN:
            return f"move_in {self.lo}..{self.hi}"
        return k.value


def answer_named(player: Any, view: GameView, decision: Decision) -> Any:
    """Answer `decision` with the player's method of the same name (the six-method form)."""
    k = decision.kind
    if k is DecisionKind.PLACE_INITIAL:
        return player.place_initial(view)
    if k is DecisionKind.REINFORCE:
        return player.reinforce(view, decision.armies)
    if k is DecisionKind.TRADE:
        return player.trade(view, decision.compulsory)
    if k is DecisionKind.ATTACK:
        return player.attack(view)
    if k is DecisionKind.MOVE_IN:
        return player.move_in(view, decision.lo, decision.hi)
    return player.fortify(view)


def ask(player: Any, view: GameView, decision: Decision) -> Any:
    """`player.act(view, decision)`; a player with only the six named methods (an older bot)
    is asked through them."""
    act = getattr(player, "act", None)
    return act(view, decision) if act is not None else answer_named(player, view, decision)


__all__ = ["Decision", "DecisionKind", "answer_named", "ask"]
