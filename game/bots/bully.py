"""Bully: attacks only with a high exact conquest probability, picking on the weakest stacks."""

from __future__ import annotations

from game.actions import Attack, Place
from game.bots.common import BaselineBot
from game.dice import conquest_probability
from game.view import GameView

THRESHOLD = 0.7  # exact P(conquest) needed to start or continue an attack


class BullyBot(BaselineBot):
    """Attacks only when its exact conquest probability is at least 0.7, weakest targets first."""

    name = "bully"

    def reinforce(self, view: GameView, armies: int) -> Place:
        """Everything where the odds against the weakest neighbour become best."""
        s = self.snap(view)
        a = s.armies
        front = s.borders()
        if not front:
            return Place(s.mine()[0], armies)

        def gain(t: int) -> tuple[float, int, int]:
            weakest = min(a[n] for n in s.enemies_of(t))
            return conquest_probability(a[t] + armies, weakest), a[t], -t

        return Place(max(front, key=gain), armies)

    def attack(self, view: GameView) -> Attack | None:
        """The likeliest conquest, if its exact probability is at least THRESHOLD."""
        s = self.snap(view)
        odds = [(s.odds(src, dst), -s.armies[dst], -dst, src) for src, dst in s.attacks()]
        p, _, dst, src = max(odds, default=(0.0, 0, 0, 0))
        return Attack(src, -dst) if p >= THRESHOLD else None
