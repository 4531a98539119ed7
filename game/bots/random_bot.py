"""Random: each decision drawn at random from the player's own generator (see each method)."""

from __future__ import annotations

from game.actions import Attack, Fortify, Place, Trade
from game.protocol import BasePlayer
from game.view import GameView


class RandomBot(BasePlayer):
    """Random legal decisions: a random territory, set, attack, count or move, with fixed odds
    of passing (optional trades half the time, attacks stop with probability 0.1 per roll,
    fortify skipped with probability 0.3)."""

    name = "random"

    def place_initial(self, view: GameView) -> int:
        """A random own territory."""
        return int(self.rng.choice(view.mine()))

    def reinforce(self, view: GameView, armies: int) -> Place:
        """A random share (1..all) of the armies left on a random own territory."""
        return Place(int(self.rng.choice(view.mine())), int(self.rng.integers(1, armies + 1)))

    def trade(self, view: GameView, compulsory: bool) -> Trade | None:
        """A random set; optional sets half the time."""
        sets = view.sets()
        if not compulsory and self.rng.random() < 0.5:
            return None
        return Trade(sets[int(self.rng.integers(len(sets)))])

    def attack(self, view: GameView) -> Attack | None:
        """A random legal attack with random dice, or stop with probability 0.1."""
        options = view.attack_options()
        if self.rng.random() < 0.1:
            return None
        src, dst = options[int(self.rng.integers(len(options)))]
        dice = int(self.rng.integers(1, min(3, int(view.armies[src]) - 1) + 1))
        return Attack(src, dst, dice)

    def move_in(self, view: GameView, lo: int, hi: int) -> int:
        """A random count in the legal range."""
        return int(self.rng.integers(lo, hi + 1))

    def fortify(self, view: GameView) -> Fortify | None:
        """A random legal move of a random size, or skip with probability 0.3."""
        options = view.fortify_options()
        if not options or self.rng.random() < 0.3:
            return None
        src, dst = options[int(self.rng.integers(len(options)))]
        return Fortify(src, dst, int(self.rng.integers(1, int(view.armies[src]))))
