"""Perft- and playthrough-style tests: the options a view lists are exactly what the rules accept.

At every attack, fortify and trade decision of seeded games, `kernel.step` on a copy of the state
is tried with every candidate (every directed pair of neighbours, or of own territories under
path fortify, every three cards of the hand and some with a card that is not the seat's); it must
accept exactly the candidates `GameView.attack_options`, `fortify_options` and `sets` list.

The playthrough file records, per decision of a seeded game, what the seat sees (own
territories, armies, cards, the pool) and how many legal options it had, like OpenSpiel's
playthroughs; regenerate it after an intended change and review the diff:

    .venv/bin/python -m tests.test_perft --regen
"""

from __future__ import annotations

import difflib
import os
import sys
import tempfile
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from game.actions import Attack, Fortify, Trade
from game.bots import RandomBot
from game.engine import play_game
from game.map import classic_map
from game.rules import layout as L
from game.state import Rules
from game.view import GameView
from tests.helpers.positions import Verdicts

M = classic_map()
PLAYTHROUGH = Path(__file__).parents[1] / "data" / "playthrough_4p.txt"
SEED, RULES = 20241124, Rules(cap=20)


class Perft(RandomBot):
    """A random player that checks the option lists against the rules before each answer."""

    def __init__(self, counts: dict[str, int]) -> None:
        super().__init__()
        self.counts = counts

    def attack(self, view: GameView) -> Attack | None:
        """Every neighbour pair: legal exactly when listed."""
        listed = set(view.attack_options())
        verdicts = Verdicts(M, view.full_state(), view.rules_vector)
        for a in range(M.n_territories):
            for b in view.neighbours(a).tolist():
                assert verdicts.accepts(L.A_ATTACK, a, b, 0) == ((a, b) in listed), (a, b)
        self.counts["attack"] += 1
        return super().attack(view)

    def fortify(self, view: GameView) -> Fortify | None:
        """Every own pair (path rule) or neighbour pair: legal exactly when listed."""
        listed = set(view.fortify_options())
        verdicts = Verdicts(M, view.full_state(), view.rules_vector)
        mine = view.mine().tolist()
        for a in mine:
            for b in (mine if view.rules.path_fortify else view.neighbours(a).tolist()):
                if a != b:
                    assert verdicts.accepts(L.A_FORTIFY, a, b, 1) == ((a, b) in listed), (a, b)
        self.counts["fortify"] += 1
        return super().fortify(view)

    def trade(self, view: GameView, compulsory: bool) -> Trade | None:
        """Every three cards of the hand, and the hand's pairs with a card not held."""
        listed = {tuple(sorted(t)) for t in view.sets()}
        verdicts = Verdicts(M, view.full_state(), view.rules_vector)
        hand = list(view.hand)
        for t in combinations(hand, 3):
            assert verdicts.accepts(L.A_TRADE, *t) == (tuple(sorted(t)) in listed), t
        foreign = next(c for c in range(len(view.full_state().cards)) if c not in hand)
        for p in combinations(hand, 2):
            assert not verdicts.accepts(L.A_TRADE, *p, foreign)
        self.counts["trade"] += 1
        return super().trade(view, compulsory)


def _perft(rules: Rules, seeds: range) -> dict[str, int]:
    counts = {"attack": 0, "fortify": 0, "trade": 0}
    for seed in seeds:
        play_game([Perft(counts) for _ in range(4)], seed=seed, rules=rules)
    return counts


@pytest.mark.parametrize("rules", [Rules(cap=12), Rules(cap=12, path_fortify=True)], ids=str)
def test_options_are_exactly_the_legal_actions(rules: Rules) -> None:
    counts = _perft(rules, range(1))
    assert min(counts.values()) >= 10, counts  # every kind of decision was checked


@pytest.mark.slow
@pytest.mark.parametrize("rules", [Rules(cap=60), Rules(cap=60, path_fortify=True),
                                   Rules(cap=60, missions=True, fixed_cards=True)], ids=str)
def test_options_are_exactly_the_legal_actions_many_games(rules: Rules) -> None:
    counts = _perft(rules, range(1, 5))
    assert min(counts.values()) >= 100, counts


class _Playthrough(RandomBot):
    """Logs per decision what the seat sees and how many options it had."""

    def __init__(self, log: list[str]) -> None:
        super().__init__()
        self.log = log

    def _see(self, view: GameView, what: str, options: int | str) -> None:
        mine = view.mine()
        self.log.append(
            f"r{view.round} s{view.seat} {what}: own {len(mine)} armies "
            f"{int(view.armies[mine].sum())} cards {len(view.hand)} hands "
            f"{'/'.join(str(int(n)) for n in view.hand_sizes)} options {options}")

    def place_initial(self, view: GameView) -> int:
        """Logged, then random."""
        self._see(view, "place_initial", len(view.mine()))
        return super().place_initial(view)

    def reinforce(self, view: GameView, armies: int) -> Any:
        """Logged, then random."""
        self._see(view, f"reinforce {armies}", f"{len(view.mine())}x{armies}")
        return super().reinforce(view, armies)

    def trade(self, view: GameView, compulsory: bool) -> Any:
        """Logged, then random."""
        self._see(view, "trade" + (" compulsory" if compulsory else ""), len(view.sets()))
        return super().trade(view, compulsory)

    def attack(self, view: GameView) -> Any:
        """Logged, then random."""
        self._see(view, "attack", len(view.attack_options()))
        return super().attack(view)

    def move_in(self, view: GameView, lo: int, hi: int) -> int:
        """Logged, then random."""
        self._see(view, f"move_in {lo}..{hi}", hi - lo + 1)
        return super().move_in(view, lo, hi)

    def fortify(self, view: GameView) -> Any:
        """Logged, then random."""
        self._see(view, "fortify", len(view.fortify_options()))
        return super().fortify(view)


def playthrough() -> list[str]:
    """The playthrough lines of the seeded game."""
    log: list[str] = [f"riskevo-playthrough 1 seed {SEED} cap {RULES.cap}"]
    out = play_game([_Playthrough(log) for _ in range(4)], seed=SEED, rules=RULES)
    log.append(f"end rounds={out.rounds} winner={out.winner} capped={int(out.capped)}")
    return log


def test_playthrough() -> None:
    expected = PLAYTHROUGH.read_text(encoding="utf-8").splitlines()
    got = playthrough()
    if got != expected:
        diff = "\n".join(list(difflib.unified_diff(expected, got, "file", "now",
                                                   lineterm=""))[:40])
        raise AssertionError(f"playthrough differs from {PLAYTHROUGH.name} (regenerate with: "
                             f"python -m tests.test_perft --regen):\n{diff}")


def _regen() -> None:
    text = "\n".join(playthrough()) + "\n"
    fd, tmp = tempfile.mkstemp(dir=PLAYTHROUGH.parent, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, PLAYTHROUGH)
    print(f"wrote {PLAYTHROUGH}")


if __name__ == "__main__" and "--regen" in sys.argv:
    _regen()
