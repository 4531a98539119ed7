"""One `Discrete` action space for every decision of the game, and its action mask.

Layout (T territories, E directed borders in the board's neighbour order, H hand slots, A = 7
amount buckets, M = 7 move-in buckets; docs/env.md has the table with the classic sizes):

    place     T * A       t * A + k: Place(t, AMOUNTS[k] armies); initial placement: any k that
                          gives 1 (the "1", "half" and "all" buckets)
    trade     C(H, 3)     the j-th combination (i < j < k, lexicographic) of hand slots, the
                          hand sorted by card id; + 1: stop trading
    attack    E * 3       e * 3 + d: one roll from edge e's source to its target with d + 1 dice;
                          + 1: stop attacking
    move-in   M           MOVES[k] armies into the territory just conquered
    fortify   F * A       f * A + k: pair f (the E borders, or every ordered pair of distinct
                          territories under path_fortify), AMOUNTS[k] armies; + 1: skip

An amount bucket is legal when the count it gives lies in the decision's range, so several
buckets can name the same action ("3" and "all" with 3 armies to place); "half" and "all" are
legal whenever the decision is. Legality comes from the kernel's own answers: the seat's
`GameView` lists (own territories, `sets()`, `attack_options()`, `fortify_options()`) and the
`Decision` bounds; tests/game/test_env.py checks every index of sampled positions against
`kernel.step` on a copy.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np

from game.actions import END_TRADE, SKIP, STOP, Action, Attack, Fortify, MoveIn, Place, Trade
from game.decision import Decision, DecisionKind
from game.map import Map
from game.rules import layout as L
from game.state import Rules
from game.view import GameView

AMOUNTS = ("1", "2", "3", "5", "10", "half", "all")
MOVES = ("lo", "lo+1", "lo+2", "half", "hi-2", "hi-1", "hi")
_LITERAL = {"1": 1, "2": 2, "3": 3, "5": 5, "10": 10}
HAND_SLOTS = 12
DICE = L.ATTACK_DICE


@lru_cache(maxsize=4096)
def amounts(most: int) -> np.ndarray:
    """The armies each AMOUNTS bucket gives when at most `most` may be placed or moved
    (read-only: shared between calls)."""
    a = np.array([_LITERAL.get(b, max(1, most // 2) if b == "half" else most)
                  for b in AMOUNTS], np.int64)
    a.flags.writeable = False
    return a


@lru_cache(maxsize=4096)
def moves(lo: int, hi: int) -> np.ndarray:
    """The armies each MOVES bucket moves in for a move-in of lo..hi (read-only)."""
    a = np.array([lo, lo + 1, lo + 2, lo + (hi - lo) // 2, hi - 2, hi - 1, hi], np.int64)
    a.flags.writeable = False
    return a


def _snap(counts: np.ndarray, n: int, lo: int, hi: int, prefer: tuple[int, ...]) -> int:
    """The bucket giving exactly n (first in `prefer` order), else the largest legal count
    below n, else the smallest legal one."""
    for k in prefer:
        if counts[k] == n and lo <= n <= hi:
            return k
    legal = [k for k in prefer if lo <= counts[k] <= hi]
    below = [k for k in legal if counts[k] < n]
    if below:
        return max(below, key=lambda k: int(counts[k]))
    return min(legal, key=lambda k: int(counts[k]))


class ActionCodec:
    """Index <-> Action for one board, rules and hand size, and the mask of a decision."""

    def __init__(self, m: Map, rules: Rules, hand_slots: int = HAND_SLOTS) -> None:
        if hand_slots < L.TRADE_COMPULSORY:
            raise ValueError(f"hand_slots must be at least {L.TRADE_COMPULSORY}")
        self.map, self.rules = m, rules
        t = m.n_territories
        self.n_territories = t
        src = np.repeat(np.arange(t), m.degree)
        dst = np.concatenate([m.neighbours[i, : m.degree[i]] for i in range(t)])
        self.edges = np.stack([src, dst], axis=1).astype(np.int64)
        self.edge_index = {(int(a), int(b)): e for e, (a, b) in enumerate(self.edges)}
        if rules.path_fortify:
            self.pairs = np.array([(a, b) for a in range(t) for b in range(t) if a != b],
                                  np.int64)
        else:
            self.pairs = self.edges
        self.pair_index = {(int(a), int(b)): f for f, (a, b) in enumerate(self.pairs)}
        self.hand_slots = hand_slots
        self.combos = list(combinations(range(hand_slots), 3))
        self.combo_index: dict[tuple[int, ...], int] = {c: j for j, c in enumerate(self.combos)}
        na, ne, nf = len(AMOUNTS), len(self.edges), len(self.pairs)
        self.place = 0
        self.trade = self.place + t * na
        self.end_trade = self.trade + len(self.combos)
        self.attack = self.end_trade + 1
        self.stop = self.attack + ne * DICE
        self.move = self.stop + 1
        self.fortify = self.move + len(MOVES)
        self.skip = self.fortify + nf * na
        self.n = self.skip + 1

    # -- index -> action -------------------------------------------------------------------

    def segment(self, index: int) -> str:
        """The name of the segment an index falls in (place, trade, ..., skip)."""
        for name, end in (("place", self.trade), ("trade", self.end_trade),
                          ("end_trade", self.attack), ("attack", self.stop),
                          ("stop", self.move), ("move", self.fortify),
                          ("fortify", self.skip), ("skip", self.n)):
            if index < end:
                return name
        raise ValueError(f"action {index} out of range 0..{self.n - 1}")

    def decode(self, index: int, view: GameView, d: Decision) -> Action:
        """The kernel action of an index for the seat of `view` facing `d` (any index: whether
        it is legal is the mask's business; the kernel rejects an illegal one)."""
        i = int(index)
        if not 0 <= i < self.n:
            raise ValueError(f"action {i} out of range 0..{self.n - 1}")
        na = len(AMOUNTS)
        if i < self.trade:
            t, k = divmod(i - self.place, na)
            most = 1 if d.kind is DecisionKind.PLACE_INITIAL else d.armies
            return Place(t, int(amounts(most)[k]))
        if i < self.end_trade:
            hand = view.hand
            slots = self.combos[i - self.trade]
            cards = tuple(hand[s] if s < len(hand) else -1 for s in slots)
            return Trade(cards)  # type: ignore[arg-type]
        if i == self.end_trade:
            return END_TRADE
        if i < self.stop:
            e, dd = divmod(i - self.attack, DICE)
            return Attack(int(self.edges[e, 0]), int(self.edges[e, 1]), dd + 1)
        if i == self.stop:
            return STOP
        if i < self.fortify:
            return MoveIn(int(moves(d.lo, d.hi)[i - self.move]))
        if i < self.skip:
            f, k = divmod(i - self.fortify, na)
            a, b = int(self.pairs[f, 0]), int(self.pairs[f, 1])
            return Fortify(a, b, int(amounts(int(view.armies[a]) - 1)[k]))
        return SKIP

    # -- the mask --------------------------------------------------------------------------

    def mask(self, view: GameView, d: Decision, out: np.ndarray | None = None) -> np.ndarray:
        """int8[n]: 1 for every legal index of the seat of `view` facing `d`."""
        mask = np.zeros(self.n, np.int8) if out is None else out
        if out is not None:
            mask[:] = 0
        k = d.kind
        na = len(AMOUNTS)
        if k is DecisionKind.PLACE_INITIAL or k is DecisionKind.REINFORCE:
            most = 1 if k is DecisionKind.PLACE_INITIAL else d.armies
            ok = np.flatnonzero(amounts(most) <= most)
            mine = view.mine()
            mask[(self.place + mine[:, None] * na + ok[None, :]).ravel()] = 1
        elif k is DecisionKind.TRADE:
            pos = {c: s for s, c in enumerate(view.hand)}
            for cards in view.sets():
                slots = tuple(sorted(pos[c] for c in cards))
                j = self.combo_index.get(slots)
                if j is not None:
                    mask[self.trade + j] = 1
            mask[self.end_trade] = 0 if d.compulsory else 1
        elif k is DecisionKind.ATTACK:
            armies = view.armies
            for a, b in view.attack_options():
                e = self.edge_index[(a, b)]
                most = min(DICE, int(armies[a]) - 1)
                mask[self.attack + e * DICE: self.attack + e * DICE + most] = 1
            mask[self.stop] = 1
        elif k is DecisionKind.MOVE_IN:
            counts = moves(d.lo, d.hi)
            mask[self.move: self.fortify] = (counts >= d.lo) & (counts <= d.hi)
        elif k is DecisionKind.FORTIFY:
            armies = view.armies
            for a, b in view.fortify_options():
                f = self.pair_index[(a, b)]
                most = int(armies[a]) - 1
                base = self.fortify + f * na
                mask[base: base + na] = amounts(most) <= most
            mask[self.skip] = 1
        return mask

    # -- action -> index (for bots answering through the env) ------------------------------

    def encode(self, answer: Any, view: GameView, d: Decision) -> int:
        """The index of a player's answer to `d` (its `act` result); an amount no bucket gives
        is snapped to the largest bucket below it (the smallest legal one if none is)."""
        k = d.kind
        na = len(AMOUNTS)
        prefer = (6, 5, 0, 1, 2, 3, 4)  # all, half, then the literal counts
        if k is DecisionKind.PLACE_INITIAL or k is DecisionKind.REINFORCE:
            t, n = (int(answer), 1) if not isinstance(answer, Place) else (answer.territory,
                                                                          answer.count)
            most = 1 if k is DecisionKind.PLACE_INITIAL else d.armies
            return self.place + t * na + _snap(amounts(most), n, 1, most, prefer)
        if k is DecisionKind.TRADE:
            if answer is None or answer == END_TRADE:
                return self.end_trade
            pos = {c: s for s, c in enumerate(view.hand)}
            slots = tuple(sorted(pos[c] for c in answer.cards))
            return self.trade + self.combo_index[slots]
        if k is DecisionKind.ATTACK:
            if answer is None or answer == STOP:
                return self.stop
            most = min(DICE, int(view.armies[answer.src]) - 1)
            dice = answer.dice if answer.dice else most
            return self.attack + self.edge_index[(answer.src, answer.dst)] * DICE + dice - 1
        if k is DecisionKind.MOVE_IN:
            n = answer.count if isinstance(answer, MoveIn) else int(answer)
            return self.move + _snap(moves(d.lo, d.hi), n, d.lo, d.hi, (6, 0, 1, 2, 3, 4, 5))
        if answer is None or answer == SKIP:
            return self.skip
        most = int(view.armies[answer.src]) - 1
        f = self.pair_index[(answer.src, answer.dst)]
        return self.fortify + f * na + _snap(amounts(most), answer.count, 1, most, prefer)

    def answer(self, index: int, view: GameView, d: Decision) -> Any:
        """The decoded index in the form `Player.act` answers (a territory for the initial
        placement, a count for a move-in, None for a pass)."""
        act = self.decode(index, view, d)
        if d.kind is DecisionKind.PLACE_INITIAL:
            return act.territory  # type: ignore[union-attr]
        if d.kind is DecisionKind.MOVE_IN:
            return act.count  # type: ignore[union-attr]
        return None if act in (END_TRADE, STOP, SKIP) else act


__all__ = ["AMOUNTS", "DICE", "HAND_SLOTS", "MOVES", "ActionCodec", "amounts", "moves"]
