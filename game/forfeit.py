"""Forfeits: a player that fails a decision loses the game, and the game goes on without it.

A player forfeits when it raises (a bot process that timed out, crashed or broke the protocol
raises too), answers with the wrong type, or answers an illegal action. From then on its seat
is played by `StandIn`, a passive player that answers every decision with the first legal
answer of the protocol's fallback order (docs/protocol.md): all reinforcements on its first
territory, no trade unless compulsory, no attack, the least move-in, no fortify. The others
play the game out as usual; at the end every forfeiter is placed after every other player
(the earlier forfeit the worse place), the others keep their order, and a forfeiter cannot be
the winner.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from game.actions import Place, Trade
from game.decision import Decision, DecisionKind
from game.view import GameView

__all__ = ["StandIn", "forfeit_placements", "reason_of"]

_REASON_CHARS = 200


class StandIn:
    """The passive player that takes over a forfeited seat (deterministic, draws nothing)."""

    name = "stand-in"

    def start_game(self, view: GameView, rng: np.random.Generator) -> None:
        """Nothing to keep."""

    def act(self, view: GameView, decision: Decision) -> Any:
        """The first legal answer of the fallback order."""
        k = decision.kind
        if k is DecisionKind.PLACE_INITIAL:
            return int(view.mine()[0])
        if k is DecisionKind.REINFORCE:
            return Place(int(view.mine()[0]), decision.armies)
        if k is DecisionKind.TRADE:
            sets = view.sets() if decision.compulsory else []
            return Trade(max(sets, key=view.set_value)) if sets else None
        if k is DecisionKind.MOVE_IN:
            return decision.lo
        return None  # attack: stop; fortify: skip

    def __repr__(self) -> str:
        return "StandIn()"


def reason_of(e: BaseException) -> str:
    """A forfeit reason as one short line: the error's type and message."""
    text = " ".join(str(e).split())
    name = type(e).__name__
    line = f"{name}: {text}" if text else name
    return line if len(line) <= _REASON_CHARS else line[:_REASON_CHARS - 3] + "..."


def forfeit_placements(placements: Sequence[int], forfeited: Sequence[int]
                       ) -> tuple[int, ...]:
    """Placements per player with the forfeiters (player indices, in forfeit order) last.

    The others keep their order and ties (1 = best); the last forfeiter is placed just after
    them, the first forfeiter last of all.
    """
    n = len(placements)
    gone = set(forfeited)
    out = [0] * n
    for q in range(n):
        if q not in gone:
            out[q] = 1 + sum(1 for r in range(n) if r not in gone and placements[r] < placements[q])
    for k, q in enumerate(forfeited):
        out[q] = n - k
    return tuple(out)
