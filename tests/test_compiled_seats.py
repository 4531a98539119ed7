"""Tournaments and the in-run evaluation take the compiled loop when every seat has one, and it
plays the same games as the Python engine."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from arena.tournament import _play_python, _play_specs, compiled_lineup
from evolve.plugin import eval_games
from features.genome import LAYOUT, hand_set_genome, random_genomes, save_genome
from game.bots import COMPILED_BOTS
from game.state import Rules


def test_registry_names_the_sparring_bots() -> None:
    assert COMPILED_BOTS == COMPILED_BOTS
    assert set(COMPILED_BOTS) >= {"planner", "hunter"}
    assert 0 not in COMPILED_BOTS.values()  # 0 is the linear player


def test_tournament_games_compiled_equal_python(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    save_genome(a, hand_set_genome())
    save_genome(b, random_genomes(LAYOUT, 1, np.random.default_rng(4))[0])
    lineups = [(str(a), "planner", "hunter", str(b)), ("hunter", str(a), "planner"),
               ("planner", "hunter"), (str(a), "continent", "distributor", "bully")]
    for i, specs in enumerate(lineups):
        assert compiled_lineup(specs) is not None
        for rules in (None, "missions,path_fortify"):
            got = _play_specs(specs, 50 + i, rules, 60)
            assert got == _play_python(specs, 50 + i, rules, 60), (specs, rules)
    assert compiled_lineup(("planner", "border_patrol")) is None  # a Python-only bot: engine path


def test_eval_games_compiled_equal_python() -> None:
    w = hand_set_genome()
    opponents = [("planner", "hunter", "planner"), ("hunter", "hunter"), ("planner",) * 3]
    seeds = np.random.SeedSequence(11).spawn(len(opponents))
    rules = Rules(cap=60)
    fast = eval_games(w, opponents, seeds, rules, None)
    slow = eval_games(w, opponents, seeds, rules, None, compiled=False)
    np.testing.assert_array_equal(fast, slow)
