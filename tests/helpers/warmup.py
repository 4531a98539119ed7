"""Compile the numba kernels the tests use into the on-disk cache, before pytest's workers start.

Without it each xdist worker compiles the same kernels at once (minutes of one core each) on a
fresh clone. numba compiles on one thread, so the work runs in two processes at once, in two
stages. The Python engine hands each kernel the compiled loop's argument types, so the two
loops share each compiled kernel; a kernel a process finds in the cache is loaded, not compiled.
The compiled loop's own function (`features.compiled._turns`, with `decide` and `step` folded
in) is the longest single compile and needs the compiled bots' kernels first: the first stage
compiles those bots, split in two; the second compiles the compiled loop beside the Python
engine's kernels with every bot, the linear player's explanations and the rating kernel.
A kernel missed here is only compiled later by a worker: slower, never wrong.

`python tests/helpers/warmup.py` runs the stages; `... warmup.py PART...` runs parts here.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

# Run as a script, Python puts tests/helpers/ first on the path: the checkout goes before it, so
# its packages are the ones imported (and tests.helpers resolves).
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

# Every compiled bot at least once in 6-seat lineups, beside the linear player (a bot file).
LINEUPS = (("planner", "hunter", "strategist", "continent", "distributor"),
           ("bully", "planner", "hunter"))


def _bot_file(folder: Path) -> str:
    from features.botfile import save_genome
    from features.genome import hand_set_genome

    path = folder / "warm.json"
    save_genome(path, hand_set_genome())
    return str(path)


def _bind_bots(kernel_name: str, code: int) -> None:
    """Compile one half of `compiled_decide` for the compiled loop's argument types."""
    from game.bots import table
    from game.bots.kernels import make_bot_work
    from game.jit import bind
    from game.map import classic_map
    from game.state import Rules, State

    m = classic_map().kernel
    bind(getattr(table, kernel_name), np.int32(code), m, State.empty(classic_map(), 6).kernel,
         Rules().vector(), make_bot_work(m))


def planning(folder: Path) -> None:
    """The planning bots (planner, hunter, strategist)."""
    from game.bots.table import PLANNER

    _bind_bots("planning_decide", PLANNER)


def baseline(folder: Path) -> None:
    """The compiled baselines (continent, distributor, bully) and the rule kernels."""
    from game.bots import RandomBot
    from game.bots.table import CONTINENT
    from game.engine import play_game
    from game.state import Rules

    _bind_bots("baseline_decide", CONTINENT)
    play_game([RandomBot(), RandomBot(), RandomBot()], seed=0, rules=Rules(missions=True, cap=8))


def loop(folder: Path) -> None:
    """The compiled loop: mixed lineups, batches, traces (each a compiled specialization)."""
    from arena.measure.tournament import _play_specs
    from features.compiled import play_linear_games, trace_linear_game
    from features.genome import LAYOUT, random_genomes

    bot = _bot_file(folder)
    for i, names in enumerate(LINEUPS):
        _play_specs((bot, *names), i, "missions,path_fortify", 8)
    w = random_genomes(LAYOUT, 4, np.random.default_rng(0)).reshape(2, 2, -1)
    play_linear_games(w, [1, 2])
    trace_linear_game(w[0], 3, max_actions=100)


def engine(folder: Path) -> None:
    """The Python engine with every bot, the answers check, explanations and the rater."""
    from arena.explain import from_lines
    from arena.measure.tournament import _play_python
    from features.genome import hand_set_genome
    from features.linear import LinearPlayer
    from game.bots import make_player
    from game.engine import play_game
    from game.state import Rules

    bot = _bot_file(folder)
    for i, names in enumerate(LINEUPS):
        _play_python((bot, *names), i, "missions,path_fortify", 8)
    out = play_game([LinearPlayer(hand_set_genome()), make_player("continent"),
                     make_player("random")], seed=9, rules=Rules(cap=8, missions=True),
                    transcript=True)
    lines = list(out.transcript or ())
    seat = f"s{out.seats.index(0)}"
    for no, line in enumerate(lines, 1):
        parts = line.split(" ", 2)
        if (len(parts) == 3 and parts[1] == seat and parts[0].startswith("r")
                and not parts[2].startswith(("card", "eliminates"))):
            from_lines(bot, lines, no)
    _rate()


def _rate() -> None:
    import trueskill

    from evolve import trueskill_kernel as tk
    from evolve.rater import kernel_params

    tk.rate_games(np.zeros(2), np.ones(2), np.zeros(2, dtype=np.bool_), np.array([[0, 1]]),
                  np.array([[1, 2]], dtype=np.int32), kernel_params(trueskill.TrueSkill()))


PARTS = {"planning": planning, "baseline": baseline, "loop": loop, "engine": engine}
# Each stage's parts run in two processes at once; a stage starts when the one before ends.
STAGES = (("planning", "baseline"), ("loop", "engine"))


def main(argv: list[str]) -> int:
    """Run the parts named in argv in this process, or the stages, two processes at a time."""
    if argv:
        with tempfile.TemporaryDirectory() as tmp:
            for part in argv:
                PARTS[part](Path(tmp))
        return 0
    t0 = time.monotonic()
    codes = []
    for stage in STAGES:
        procs = [subprocess.Popen([sys.executable, __file__, part]) for part in stage]
        codes += [p.wait() for p in procs]
    print(f"numba warm-up: {time.monotonic() - t0:.0f} s", file=sys.stderr)
    return max(codes)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
