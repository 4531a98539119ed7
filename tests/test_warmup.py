"""The numba warm-up before `make test`'s workers seats every compiled bot."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from game.bots import COMPILED_BOTS
from tests.helpers import warmup


def test_warm_up_lineups_seat_every_compiled_bot_in_at_most_six_seats() -> None:
    seated = {name for lineup in warmup.LINEUPS for name in lineup}
    assert seated == set(COMPILED_BOTS)
    assert all(len(lineup) + 1 <= 6 for lineup in warmup.LINEUPS)  # + the linear bot file



def test_the_stages_run_every_part_once_in_at_most_two_lanes() -> None:
    staged = [part for stage in warmup.stages() for lane in stage for part in lane]
    assert sorted(staged) == sorted(warmup._parts()) and len(staged) == len(set(staged))
    assert all(1 <= len(stage) <= 2 for stage in warmup.stages())


def test_run_as_a_script_it_imports_the_checkouts_game() -> None:
    # `python tests/helpers/warmup.py` starts with tests/helpers/ first on the path.
    helpers = Path(__file__).resolve().parent / "helpers"
    code = ("import runpy, sys; sys.path.insert(0, sys.argv[1]); "
            "runpy.run_path(sys.argv[1] + '/warmup.py', run_name='warm'); "
            "import game, importlib.resources as r; "
            "print(game.__file__, (r.files('game') / 'maps' / 'classic.json').is_file())")
    out = subprocess.run([sys.executable, "-c", code, str(helpers)], capture_output=True,
                         text=True, check=True, cwd=helpers).stdout.split()
    assert out == [str(helpers.parents[1] / "game" / "__init__.py"), "True"]
