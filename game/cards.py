"""Card kernels: kinds, sets and set values (escalating or fixed)."""

from __future__ import annotations

import numpy as np

from game.jit import rule_kernel
from game.layout import ESCALATING, FIXED_VALUES, R_FIXED_CARDS, WILD

_ONE_OF_EACH = FIXED_VALUES[3]


@rule_kernel
def card_kind(card: int, n_territories: int) -> int:
    """Kind of a card: territory card i has kind i % 3, the cards past the territories are wild."""
    if card >= n_territories:
        return WILD
    return card % 3


@rule_kernel
def is_set(k1: int, k2: int, k3: int) -> bool:
    """Three of a kind or one of each; any wild completes either."""
    if k1 == WILD or k2 == WILD or k3 == WILD:
        return True
    return (k1 == k2 and k2 == k3) or (k1 != k2 and k2 != k3 and k1 != k3)


@rule_kernel
def escalating_value(trades: int) -> int:
    """Armies for the (trades+1)-th set traded in the game: 4, 6, 8, 10, 12, 15, then +5 each."""
    if trades < 6:
        return ESCALATING[trades]
    return 15 + 5 * (trades - 5)


@rule_kernel
def set_value(rules: np.ndarray, trades: int, k1: int, k2: int, k3: int) -> int:
    """Armies a set is worth; with fixed values a wild takes the reading worth most."""
    if rules[R_FIXED_CARDS] == 0:
        return escalating_value(trades)
    wilds = (k1 == WILD) + (k2 == WILD) + (k3 == WILD)
    if wilds >= 2:
        return _ONE_OF_EACH
    if wilds == 1:
        a, b = (k2, k3) if k1 == WILD else ((k1, k3) if k2 == WILD else (k1, k2))
        if a == b:
            return FIXED_VALUES[a]
        return _ONE_OF_EACH
    if k1 == k2 and k2 == k3:
        return FIXED_VALUES[k1]
    return _ONE_OF_EACH


@rule_kernel
def hand_kind_counts(cards: np.ndarray, seat: int, n_territories: int) -> tuple[int, int, int, int]:
    """Counts of (infantry, cavalry, artillery, wild) in a seat's hand."""
    c0 = 0
    c1 = 0
    c2 = 0
    c3 = 0
    for c in range(cards.shape[0]):
        if cards[c] == seat:
            k = card_kind(c, n_territories)
            if k == 0:
                c0 += 1
            elif k == 1:
                c1 += 1
            elif k == 2:
                c2 += 1
            else:
                c3 += 1
    return c0, c1, c2, c3


@rule_kernel
def has_set(cards: np.ndarray, seat: int, n_territories: int) -> bool:
    """True when the seat's hand holds at least one tradable set."""
    c0, c1, c2, c3 = hand_kind_counts(cards, seat, n_territories)
    n = c0 + c1 + c2 + c3
    if n < 3:
        return False
    if c3 >= 1:
        return True
    return c0 >= 3 or c1 >= 3 or c2 >= 3 or (c0 >= 1 and c1 >= 1 and c2 >= 1)


@rule_kernel
def hand_size(cards: np.ndarray, seat: int) -> int:
    """Number of cards a seat holds."""
    n = 0
    for c in range(cards.shape[0]):
        if cards[c] == seat:
            n += 1
    return n
