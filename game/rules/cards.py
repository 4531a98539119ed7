"""Card kernels: the classic deck's kinds, sets and set values (escalating or fixed).

A card's kind comes from the board (`MapArrays.card_kind`), never from its id: a board may
describe its own deck. `classic_card_kinds` is the deck every board gets unless it says.
"""

from __future__ import annotations

import numpy as np

from game.rules import layout as L
from game.rules.jit import inline_rule_kernel, rule_kernel

_ONE_OF_EACH = L.FIXED_VALUES[3]


def classic_card_kinds(n_territories: int) -> np.ndarray:
    """The classic deck: card i < T has kind i % 3, the N_WILDS cards after them are wild."""
    kinds = np.full(n_territories + L.N_WILDS, L.WILD, dtype=np.int32)
    kinds[:n_territories] = np.arange(n_territories) % L.N_KINDS
    return kinds


@rule_kernel
def is_set(k1: int, k2: int, k3: int) -> bool:
    """Three of a kind or one of each; any wild completes either."""
    if k1 == L.WILD or k2 == L.WILD or k3 == L.WILD:
        return True
    return (k1 == k2 and k2 == k3) or (k1 != k2 and k2 != k3 and k1 != k3)


@rule_kernel
def escalating_value(trades: int) -> int:
    """Armies for the (trades+1)-th set traded in the game: 4, 6, 8, 10, 12, 15, then +5 each."""
    n = len(L.ESCALATING)
    if trades < n:
        return L.ESCALATING[trades]
    return L.ESCALATING[n - 1] + L.ESCALATING_STEP * (trades - n + 1)


@rule_kernel
def set_value(rules: np.ndarray, trades: int, k1: int, k2: int, k3: int) -> int:
    """Armies a set is worth; with fixed values a wild takes the reading worth most."""
    if rules[L.R_FIXED_CARDS] == 0:
        return escalating_value(trades)
    wilds = (k1 == L.WILD) + (k2 == L.WILD) + (k3 == L.WILD)
    if wilds >= 2:
        return _ONE_OF_EACH
    if wilds == 1:
        a, b = (k2, k3) if k1 == L.WILD else ((k1, k3) if k2 == L.WILD else (k1, k2))
        if a == b:
            return L.FIXED_VALUES[a]
        return _ONE_OF_EACH
    if k1 == k2 and k2 == k3:
        return L.FIXED_VALUES[k1]
    return _ONE_OF_EACH


@rule_kernel
def hand_kind_counts(kinds: np.ndarray, cards: np.ndarray, seat: int
                     ) -> tuple[int, int, int, int]:
    """Counts of (infantry, cavalry, artillery, wild) in a seat's hand (kinds: per card)."""
    c0 = 0
    c1 = 0
    c2 = 0
    c3 = 0
    for c in range(cards.shape[0]):
        if cards[c] == seat:
            k = kinds[c]
            if k == L.INFANTRY:
                c0 += 1
            elif k == L.CAVALRY:
                c1 += 1
            elif k == L.ARTILLERY:
                c2 += 1
            else:
                c3 += 1
    return c0, c1, c2, c3


@inline_rule_kernel
def has_set(kinds: np.ndarray, cards: np.ndarray, seat: int) -> bool:
    """True when the seat's hand holds at least one tradable set (kinds: per card)."""
    c0, c1, c2, c3 = hand_kind_counts(kinds, cards, seat)
    n = L.SET_SIZE
    if c0 + c1 + c2 + c3 < n:
        return False
    if c3 >= 1:
        return True
    return c0 >= n or c1 >= n or c2 >= n or (c0 >= 1 and c1 >= 1 and c2 >= 1)


@inline_rule_kernel
def hand_size(cards: np.ndarray, seat: int) -> int:
    """Number of cards a seat holds."""
    n = 0
    for c in range(cards.shape[0]):
        if cards[c] == seat:
            n += 1
    return n
