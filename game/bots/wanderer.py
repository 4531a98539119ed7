"""Wanderer: one roaming horde that gets every reinforcement and carries all its armies along."""

from __future__ import annotations

from game.actions import Attack, Fortify, Place
from game.bots.common import BaselineBot, Snapshot
from game.rules import kernel
from game.rules.dice import conquest_probability
from game.view import GameView

THRESHOLD = 0.6  # exact P(conquest) the horde needs against its weakest neighbour


def horde(s: Snapshot) -> int:
    """The biggest own stack on the front (anywhere when there is no front)."""
    a = s.armies
    return max(s.borders() or s.mine(), key=lambda t: (a[t], -t))


class WandererBot(BaselineBot):
    """Moves as one roaming horde that takes every reinforcement and all its armies along.

    The horde (biggest border stack) attacks its weakest neighbour while its conquest odds are
    >= 0.6, moves everything in, and stragglers fortify after it.
    """

    name = "wanderer"

    def reinforce(self, view: GameView, armies: int) -> Place:
        """Everything on the horde."""
        return Place(horde(self.snap(view)), armies)

    def attack(self, view: GameView) -> Attack | None:
        """From the horde only, at its weakest neighbour, while the odds are >= THRESHOLD."""
        s = self.snap(view)
        h = horde(s)
        a = s.armies
        if a[h] < 2:
            return None
        targets = s.enemies_of(h)
        if not targets:
            return None
        dst = min(targets, key=lambda t: (a[t], t))
        return Attack(h, dst) if conquest_probability(a[h], a[dst]) >= THRESHOLD else None

    def move_in(self, view: GameView, lo: int, hi: int) -> int:
        """Everything: the horde moves on."""
        return hi

    def fortify(self, view: GameView) -> Fortify | None:
        """The biggest straggler joins the horde (or steps toward the front)."""
        s = self.snap(view)
        h = horde(s)
        a, owner, me = s.armies, s.owner, s.me
        dist = s.front_distance()
        if view.rules.path_fortify:
            marks = view.armies.copy()  # connected_own's scratch
            for t in sorted(s.mine(), key=lambda t: (-a[t], t)):
                if t != h and a[t] >= 2 and kernel.connected_own(
                        view.map.kernel, view.owner, marks, me, t, h):
                    return Fortify(t, h, a[t] - 1)
        best, best_key = None, (1, 0)
        for t in s.mine():
            if t == h or a[t] < 2:
                continue
            for n in s.board.nbrs[t]:
                if owner[n] != me:
                    continue
                joins = n == h
                closer = dist[n] < dist[t]
                if (joins or closer) and (a[t], int(joins)) > best_key:
                    best, best_key = (t, n), (a[t], int(joins))
        if best is None:
            return None
        return Fortify(best[0], best[1], a[best[0]] - 1)
