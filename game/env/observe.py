"""What one seat sees, as a flat float32 vector in [0, 1] (docs/env.md has the layout).

Seats are relative to the observer: "seat r" is r places after it in turn order (r = 0 itself),
so the same vector means the same thing for every agent. Only what that seat may see is read:
its own hand and mission, everyone's hand sizes, the board; never an opponent's cards or
mission (tests/game/test_env.py changes those and checks that the observation does not move).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from game.map import Map
from game.rules import kernel
from game.rules import layout as L
from game.rules.jit import bind
from game.state import Rules, State

SQUASH_AT = 1000.0  # squash(x) = log(1 + x) / log(1 + SQUASH_AT), clipped to 1
_LOG = float(np.log1p(SQUASH_AT))
HAND_SCALE = 10  # hand sizes are min(cards, 10) / 10
PER_SEAT = ("alive", "hand", "territories", "income", "to_move", "setup_left")
SCALARS = ("pool", "compulsory", "conquered", "bonus_used", "in_attack", "trades", "round",
           "move_lo", "move_hi")


def squash(x: np.ndarray | float) -> np.ndarray:
    """log(1 + x) / log(1 + SQUASH_AT), clipped to [0, 1]: army counts of any size."""
    return np.minimum(np.log1p(np.maximum(x, 0)) / _LOG, 1.0)


def _sq(x: int) -> float:
    """squash of one count (math, not numpy: scalars are much faster so)."""
    return min(math.log1p(max(x, 0)) / _LOG, 1.0)


class Observer:
    """Builds the observation vector of one seat for a board, rules and seat count."""

    def __init__(self, m: Map, rules: Rules, n_players: int) -> None:
        self.map, self.rules, self.n = m, rules, n_players
        t, k = m.n_territories, m.n_territories + L.N_WILDS
        parts = [("owner", t * n_players), ("armies", t), ("hand", k),
                 ("seats", n_players * len(PER_SEAT)), ("phase", len(L.PHASE_NAMES)),
                 ("scalars", len(SCALARS)), ("occupy_src", t), ("occupy_dst", t),
                 ("mission", L.N_MISSIONS), ("target", n_players)]
        self.slices: dict[str, slice] = {}
        at = 0
        for name, size in parts:
            self.slices[name] = slice(at, at + size)
            at += size
        self.size = at
        self._income: Callable[..., int] | None = None
        self._state: State | None = None

    def bind(self, state: State) -> None:
        """Attach to a new game's state (binds the income kernel once)."""
        self._state = state
        self._income = bind(kernel.reinforcements, self.map.kernel, state.kernel, rest=(0,))

    def observe(self, seat: int, compulsory: bool = False) -> np.ndarray:
        """The vector of `seat` (compulsory: the trade decision to move is compulsory)."""
        st, income = self._state, self._income
        assert st is not None and income is not None, "call bind(state) first"
        n, t, sl = self.n, self.map.n_territories, self.slices
        out = np.zeros(self.size, np.float32)
        rel_owner = (st.owner - seat) % n
        owner = out[sl["owner"]].reshape(t, n)
        owner[np.arange(t), rel_owner] = 1
        out[sl["armies"]] = squash(st.armies)
        out[sl["hand"]] = st.cards == seat
        seats = out[sl["seats"]].reshape(n, len(PER_SEAT))
        cur = int(st.sc[L.S_CURRENT])
        over = int(st.sc[L.S_PHASE]) == L.PH_OVER
        order = (seat + np.arange(n)) % n  # seat r places after the observer
        held = np.bincount(st.owner, minlength=n)[order]
        cards = st.cards[st.cards >= 0]
        hands = np.bincount(cards, minlength=n)[order]
        seats[:, 0] = st.pl[order, L.P_ALIVE]
        seats[:, 1] = np.minimum(hands, HAND_SCALE) / HAND_SCALE
        seats[:, 2] = held / t
        seats[:, 3] = [_sq(income(int(q))) if h else 0.0 for q, h in zip(order, held, strict=True)]
        if not over:
            seats[(cur - seat) % n, 4] = 1
        seats[:, 5] = squash(st.pl[order, L.P_SETUP_LEFT])
        out[sl["phase"].start + st.phase] = 1
        sc = st.sc
        occupy = st.phase == L.PH_OCCUPY
        lo = int(sc[L.S_MIN_MOVE]) if occupy else 0
        hi = int(st.armies[sc[L.S_SRC]]) - 1 if occupy else 0
        out[sl["scalars"]] = (_sq(int(sc[L.S_POOL])), float(compulsory), sc[L.S_CONQUERED] != 0,
                              sc[L.S_BONUS_USED] != 0, sc[L.S_IN_ATTACK] != 0,
                              _sq(int(sc[L.S_TRADES])), min(1.0, st.round / self.rules.cap),
                              _sq(lo), _sq(hi))
        if occupy:
            out[sl["occupy_src"].start + int(sc[L.S_SRC])] = 1
            out[sl["occupy_dst"].start + int(sc[L.S_DST])] = 1
        mission, target = int(st.pl[seat, L.P_MISSION]), int(st.pl[seat, L.P_TARGET])
        if mission >= 0:
            out[sl["mission"].start + mission] = 1
        if target >= 0:
            out[sl["target"].start + (target - seat) % n] = 1
        return out


__all__ = ["HAND_SCALE", "PER_SEAT", "SCALARS", "SQUASH_AT", "Observer", "squash"]
