"""The in-run evaluation against a packaged bot file (issue 56): compiled and Python engines
play the same games, the progress line names what the champion was measured against."""

from __future__ import annotations

import numpy as np

from evolve.plugin import eval_games
from evolve.progress import against
from features.genome import hand_set_genome
from game.map import classic_map
from game.state import Rules


def test_the_bundled_champion_plays_the_same_evaluation_games_in_both_engines() -> None:
    seeds = [np.random.SeedSequence(5, spawn_key=(i,)) for i in range(4)]
    table = [("champion", "champion", "champion")] * 4
    w = hand_set_genome()
    fast = eval_games(w, table, seeds, Rules(), classic_map())
    slow = eval_games(w, table, seeds, Rules(), classic_map(), compiled=False)
    assert fast.tolist() == slow.tolist()
    assert set(fast.tolist()) <= {-1, 0, 1, 2, 3}


def test_the_progress_line_names_its_opponents() -> None:
    assert against({"opponents": ["champion"], "players": 4}) == "3x champion"
    assert against({"opponents": ["continent", "planner"], "players": 4}) == "bots"
