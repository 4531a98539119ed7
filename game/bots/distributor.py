"""Distributor: spreads its armies evenly over the front and attacks where it is clearly ahead."""

from __future__ import annotations

from game.actions import Attack, Fortify, Place
from game.bots.common import BaselineBot, fortify_to_front
from game.view import GameView

THRESHOLD = 0.6  # exact P(conquest) needed to attack


class DistributorBot(BaselineBot):
    """Spreads armies evenly over its borders and attacks where its conquest odds are >= 0.6.

    Reinforces the thinnest border, splits conquests half and half, evens out adjacent stacks.
    """

    name = "distributor"

    def reinforce(self, view: GameView, armies: int) -> Place:
        """Raise the thinnest border to the level of the next thinnest."""
        s = self.snap(view)
        a = s.armies
        front = s.borders() or s.mine()
        levels = sorted((a[t], t) for t in front)
        low, t = levels[0]
        nxt = next((v for v, _ in levels[1:] if v > low), low + armies)
        return Place(t, max(1, min(armies, nxt - low)))

    def attack(self, view: GameView) -> Attack | None:
        """The likeliest conquest, if at least THRESHOLD."""
        s = self.snap(view)
        odds = [(s.odds(src, dst), -dst, src) for src, dst in s.attacks()]
        p, dst, src = max(odds, default=(0.0, 0, 0))
        return Attack(src, -dst) if p >= THRESHOLD else None

    def fortify(self, view: GameView) -> Fortify | None:
        """Idle stacks to the front first; otherwise even out the most unequal adjacent borders."""
        s = self.snap(view)
        move = fortify_to_front(view, s)
        if move is not None:
            return move
        a, owner, me = s.armies, s.owner, s.me
        best, gap = None, 2
        for t in s.borders():
            for n in s.board.nbrs[t]:
                if owner[n] == me and a[t] - a[n] >= gap:
                    best, gap = (t, n), a[t] - a[n]
        if best is None:
            return None
        return Fortify(best[0], best[1], gap // 2)
