"""Continent: takes the cheapest continent within reach, holds its entries, then expands."""

from __future__ import annotations

from game.actions import Attack, Place
from game.bots.common import BaselineBot, Snapshot
from game.dice import conquest_probability, conquest_rows
from game.view import GameView

TAKE = 0.5  # exact P(conquest) enough to attack into the target continent
EXPAND = 0.7  # ... elsewhere


def owned_continents(s: Snapshot) -> set[int]:
    """Continents the seat owns whole."""
    mine = s.mine_set
    return {c for c, ts in enumerate(s.board.member_sets) if ts <= mine}


def target_continent(s: Snapshot, owned: set[int]) -> int:
    """The unowned continent within reach costing fewest enemy armies (ties: bigger bonus)."""
    b, armies, mine = s.board, s.armies, s.mine_set
    best, best_key = -1, (0.0, 0, 0)
    for c, ts in enumerate(b.member_sets):
        # Within reach: an own territory in the continent or next to one of its members.
        if c in owned or mine.isdisjoint(b.hoods[c]):
            continue
        enemy = ts - mine
        cost = sum(map(armies.__getitem__, enemy)) + len(enemy)
        key = (-float(cost), b.bonus[c], -c)
        if best < 0 or key > best_key:
            best, best_key = c, key
    return best


def guard(s: Snapshot, t: int, owned: set[int], skip: int = -1) -> int:
    """Armies t keeps back: the biggest adjacent enemy stack if t is in an owned continent."""
    if s.board.continent_of[t] not in owned:
        return 0
    o, owner, a = s.owner[t], s.owner, s.armies
    return max((a[n] for n in s.board.nbrs[t] if owner[n] != o and n != skip), default=0)


class ContinentBot(BaselineBot):
    """Takes and holds the cheapest continent within reach, then expands to the next one.

    Cheapest = fewest enemy armies in it; entries of owned continents keep a guard as big as the
    biggest adjacent enemy stack.
    """

    name = "continent"

    def reinforce(self, view: GameView, armies: int) -> Place:
        """Up to half on a weak owned-continent entry, else all on the target's attack base."""
        s = self.snap(view)
        a, owner, me = s.armies, s.owner, s.me
        owned = owned_continents(s)
        front = s.borders()
        if not front:
            return Place(s.mine()[0], armies)
        if owned:
            gaps = [(guard(s, t, owned) + 1 - a[t], -t) for t in front]
            gap, t = max(gaps)
            if gap > 0:
                return Place(-t, max(1, min(gap, armies // 2)))
        c = target_continent(s, owned)
        members = s.board.members[c] if c >= 0 else ()
        bases = [t for t in front if any(owner[n] != me for n in s.board.nbrs[t] if n in members)]
        base = max(bases or front, key=lambda t: (a[t], -t))
        return Place(base, armies)

    def attack(self, view: GameView) -> Attack | None:
        """Into the target continent at p >= 0.5, elsewhere at p >= 0.7, beyond entry guards."""
        s = self.snap(view)
        a = s.armies
        owned = owned_continents(s)
        c = target_continent(s, owned)
        cont, owner, nbrs, me = s.board.continent_of, s.owner, s.board.nbrs, s.me
        rows = conquest_rows()
        top = len(rows) - 1
        best, best_key = None, (0, 0.0, 0)
        for src in s.own:  # the legal attacks in `Snapshot.attacks` order
            if a[src] < 2:
                continue
            guarded = cont[src] in owned
            for dst in nbrs[src]:
                if owner[dst] == me:
                    continue
                spare = a[src] - guard(s, src, owned, dst) if guarded else a[src]
                d = a[dst]
                # The table itself when both stacks are in it (conquest_probability's own case).
                p = rows[spare][d] if 1 < spare <= top and 0 < d <= top else conquest_probability(
                    spare, d)
                into = int(cont[dst] == c)
                if p < (TAKE if into else EXPAND):
                    continue
                key = (into, p, -dst)
                if best is None or key > best_key:
                    best, best_key = (src, dst), key
        return None if best is None else Attack(*best)

    def move_in(self, view: GameView, lo: int, hi: int) -> int:
        """All but an entry's guard (all when the source is safe)."""
        src, dst = view.occupy
        s = self.snap(view)
        if not s.enemies_of(src):
            return hi
        return max(lo, hi - guard(s, src, owned_continents(s)))
