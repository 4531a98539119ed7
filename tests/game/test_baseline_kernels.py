"""The compiled baseline bots (continent, distributor, bully) play the very moves of the Python
they were first written in (tests/helpers/reference_bots.py), in every rule variant and seat
count."""

from __future__ import annotations

import numpy as np
import pytest

from game.bots import BOTS
from game.engine import play_game
from game.protocol import BasePlayer
from game.state import Rules
from tests.helpers.reference_bots import REFERENCE

NAMES = sorted(REFERENCE)
VARIANTS = [Rules(cap=40), Rules(cap=40, missions=True), Rules(cap=40, path_fortify=True),
            Rules(cap=40, fixed_cards=True),
            Rules(cap=40, missions=True, fixed_cards=True, path_fortify=True)]
OTHERS = ["random", "aggressive", "planner", "hunter", "border_patrol", "wanderer"]


def _lineup(seed: int) -> list[str]:
    """2-6 seats: each compiled baseline at least once when there is room, plus others."""
    rng = np.random.default_rng(seed)
    k = 2 + seed % 5
    names = [NAMES[(seed + i) % 3] for i in range(min(k, 3))]
    names += [str(rng.choice(OTHERS + NAMES)) for _ in range(k - len(names))]
    rng.shuffle(names)
    return names


def _transcript(names: list[str], seed: int, rules: Rules, reference: bool) -> tuple[str, ...]:
    players: list[BasePlayer] = [REFERENCE[n]() if reference and n in REFERENCE else BOTS[n]()
                                 for n in names]
    out = play_game(players, seed=seed, rules=rules, transcript=True, labels=names)
    assert out.transcript is not None
    return out.transcript


def _same(seed: int) -> None:
    names, rules = _lineup(seed), VARIANTS[seed % len(VARIANTS)]
    want = _transcript(names, seed, rules, reference=True)
    got = _transcript(names, seed, rules, reference=False)
    first = next((i for i, (a, b) in enumerate(zip(want, got, strict=False)) if a != b), None)
    assert got == want, (names, seed, first, want[first or 0], got[first or 0])


@pytest.mark.parametrize("seed", range(10))
def test_compiled_baselines_play_the_reference_moves(seed: int) -> None:
    _same(seed)


@pytest.mark.slow
def test_compiled_baselines_play_the_reference_moves_many_seeds() -> None:
    for seed in range(10, 310):
        _same(seed)
