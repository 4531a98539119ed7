"""Compile the numba kernels the tests use into the on-disk cache, before pytest's workers start.

Without it each xdist worker compiles the same kernels at once (minutes of one core each) on a
fresh clone. The stages are `make venv`'s (`arena.warmup`: after `make venv` they only load
the cache) and one more of what only the tests play: every compiled bot in 6-seat lineups of
both game loops, traces and the linear player's explanations, and beside them the search's
kernels that tests call from Python. A kernel missed here is only compiled later by a worker:
slower, never wrong.

`python tests/helpers/warmup.py` runs the stages; `... warmup.py PART...` runs parts here.
"""

from __future__ import annotations

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


def lineups() -> None:
    """Both loops with every compiled bot, batches and traces; the linear player's
    explanations of its own transcript lines."""
    from arena.explain import from_lines
    from arena.measure.tournament import _play_python, _play_specs
    from features.compiled import play_linear_games, trace_linear_game
    from features.genome import LAYOUT, hand_set_genome, random_genomes
    from features.linear import LinearPlayer
    from game.bots import make_player
    from game.engine import play_game
    from game.state import Rules

    with tempfile.TemporaryDirectory() as tmp:
        bot = _bot_file(Path(tmp))
        for i, names in enumerate(LINEUPS):
            _play_specs((bot, *names), i, "missions,path_fortify", 8)
            _play_python((bot, *names), i, "missions,path_fortify", 8)
        w = random_genomes(LAYOUT, 4, np.random.default_rng(0)).reshape(2, 2, -1)
        play_linear_games(w, [1, 2])
        trace_linear_game(w[0], 3, max_actions=100)
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


def kernels() -> None:
    """The search's kernels the tests call from Python, each a compile of its own (the games
    inline them): play_on, value_terms, weighted_value, determinize."""
    from features.genome import hand_set_genome
    from features.linear import map_context
    from features.search.player import PlanSettings
    from features.search.rollout import play_on
    from features.search.value import value_scratch, value_terms, weighted_value
    from features.work import make_work
    from game.map import classic_map
    from game.rules.determinize import determinize
    from game.session import Session
    from game.state import Rules

    m, rules = classic_map(), Rules()
    game = Session(m, rules, 4)
    game.reset(0)
    st = game.state
    out = value_scratch(m.kernel, 4)
    value_terms(m.kernel, st.kernel, rules.vector(), st.current, out)
    vw = PlanSettings().value_vector()
    weighted_value(vw, out[:len(vw)])
    ids = np.zeros(64, np.int32)
    determinize(st.copy().kernel, rules.vector(), 0, np.random.default_rng(1), ids, ids.copy())
    play_on(m.kernel, map_context(m), st.copy().kernel, rules.vector(),
            np.stack([hand_set_genome()] * 4), np.random.default_rng(2), make_work(m.kernel, 4),
            200_000)


def _parts() -> dict[str, object]:
    from arena import warmup

    return {**warmup.PARTS, "lineups": lineups, "kernels": kernels}


def stages() -> tuple[tuple[tuple[str, ...], ...], ...]:
    """`make venv`'s stages, then what only the tests play."""
    from arena import warmup

    return (*warmup.STAGES, (("lineups",), ("kernels",)))


def main(argv: list[str]) -> int:
    """Run the parts named in argv in this process, or the stages, two processes at a time."""
    parts = _parts()
    if argv:
        for part in argv:
            parts[part]()  # type: ignore[operator]
        return 0
    from arena.warmup import run_stages

    t0 = time.monotonic()
    done = run_stages(stages(), [sys.executable, __file__])
    cpu = ", ".join(f"{c.part} {c.cpu:.0f} s" for c in done)
    print(f"numba warm-up: {time.monotonic() - t0:.0f} s (CPU per part: {cpu})", file=sys.stderr)
    return max(c.code for c in done)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
