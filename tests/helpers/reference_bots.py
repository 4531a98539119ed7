"""The baseline bots continent, distributor and bully as they were first written, in Python.

The oracle of tests/game/test_baseline_kernels.py: the bots in game.bots now decide with compiled
kernels, and must play the very moves these readable versions play.
"""

from __future__ import annotations

from game.actions import Attack, Fortify, Place
from game.bots.common import BaselineBot, Snapshot, fortify_to_front
from game.rules.dice import conquest_probability, conquest_rows
from game.view import GameView

CONTINENT_TAKE = 0.5  # exact P(conquest) enough to attack into the target continent
CONTINENT_EXPAND = 0.7  # ... elsewhere


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


class RefContinent(BaselineBot):
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
                if p < (CONTINENT_TAKE if into else CONTINENT_EXPAND):
                    continue
                key = (into, p, -dst)
                if best is None or key > best_key:
                    best, best_key = (src, dst), key
        return None if best is None else Attack(*best)

    def move_in(self, view: GameView, lo: int, hi: int) -> int:
        """All but an entry's guard (all when the source is safe)."""
        src, _dst = view.occupy
        s = self.snap(view)
        if not s.enemies_of(src):
            return hi
        return max(lo, hi - guard(s, src, owned_continents(s)))


DISTRIBUTOR_THRESHOLD = 0.6  # exact P(conquest) needed to attack


class RefDistributor(BaselineBot):
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
        return Attack(src, -dst) if p >= DISTRIBUTOR_THRESHOLD else None

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


BULLY_THRESHOLD = 0.7  # exact P(conquest) needed to start or continue an attack


class RefBully(BaselineBot):
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
        return Attack(src, -dst) if p >= BULLY_THRESHOLD else None


REFERENCE: dict[str, type[BaselineBot]] = {
    "continent": RefContinent, "distributor": RefDistributor, "bully": RefBully}
