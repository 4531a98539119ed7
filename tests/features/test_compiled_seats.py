"""Tournaments and the in-run evaluation take the compiled loop when every seat has one, and it
plays the same games as the Python engine."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
from numba import typeof
from numba.core import types

from arena.measure.lineup import compiled_lineup
from arena.measure.tournament import _play_python, _play_specs
from evolve.plugin import eval_games
from features.botfile import save_genome
from features.genome import LAYOUT, hand_set_genome, random_genomes
from features.linear import LinearPlayer
from game.bots import COMPILED_BOTS, make_player
from game.bots.table import CompiledBot
from game.engine import play_game
from game.map import classic_map
from game.protocol import KernelPlayer
from game.state import Rules, State
from game.view import GameView


def test_table_names_the_compiled_bots() -> None:
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


def test_python_engine_players_pass_the_compiled_loops_argument_types() -> None:
    # numba compiles a kernel once per argument types: with the compiled loop's types (a
    # writable state, an int32 bot code) each player kernel compiles once for both loops.
    players = [LinearPlayer(hand_set_genome()), make_player("continent"), make_player("hunter")]
    play_game(players, seed=0, rules=Rules(cap=2))
    loop_state = typeof(State.empty(classic_map(), len(players)).kernel)
    for p in players:
        assert isinstance(p, KernelPlayer)
        view, bound = p._bound or (None, None)  # noqa: SLF001 - the binding is the point
        assert isinstance(view, GameView) and isinstance(bound, partial)
        given = [typeof(a) for a in bound.args]
        assert loop_state in given, p
        if isinstance(p, CompiledBot):
            assert given[0] == types.int32
