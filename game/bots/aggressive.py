"""Aggressive: attacks whenever it can, from its strongest border, and moves everything in."""

from __future__ import annotations

from game.actions import Attack, Place
from game.bots.common import BaselineBot
from game.view import GameView


class AggressiveBot(BaselineBot):
    """Attacks whenever it has at least as many spare armies as the defender, and moves all in."""

    name = "aggressive"

    def reinforce(self, view: GameView, armies: int) -> Place:
        """Everything on the border stack with the biggest edge over its weakest neighbour."""
        s = self.snap(view)
        a = s.armies
        front = s.borders() or s.mine()
        return Place(max(front, key=lambda t: (a[t] - min((a[n] for n in s.enemies_of(t)),
                                                           default=0), -t)), armies)

    def attack(self, view: GameView) -> Attack | None:
        """The best-odds attack while spare armies match the defender; stop otherwise."""
        s = self.snap(view)
        a = s.armies
        ok = [(src, dst) for src, dst in s.attacks() if a[src] - 1 >= a[dst]]
        if not ok:
            return None
        src, dst = max(ok, key=lambda sd: (s.odds(*sd), a[sd[0]], -sd[1]))
        return Attack(src, dst)

    def move_in(self, view: GameView, lo: int, hi: int) -> int:
        """Everything: the stack rolls on."""
        return hi
