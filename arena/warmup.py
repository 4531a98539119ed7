"""Compile ahead what a fresh machine's first `make evolve` and first web game use.

`make venv` runs `python -m arena.warmup`: numba compiles each kernel family into its on-disk
cache in a process of its own (numba compiles on one thread), in two lanes side by side, each
family after those whose kernels it calls, so that it loads them from the cache instead of
compiling them again (docs/performance.md, "The cold start"). `python -m arena.warmup
PART...` runs parts in this process; `--cold` times each family from an empty cache (`make
bench`).

A family missed here is compiled where it is first used: slower, never wrong.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np

SEED = 0


def engine() -> None:
    """The Python engine's rule kernels and the linear player's `decide`, in a short game."""
    from features.genome import hand_set_genome
    from features.linear import LinearPlayer
    from game.bots import RandomBot
    from game.engine import play_game
    from game.state import Rules

    play_game([LinearPlayer(hand_set_genome()), RandomBot(), RandomBot()], seed=SEED,
              rules=Rules(cap=3))


def bots() -> None:
    """The compiled bots (`game.bots.table.compiled_decide`) as both loops call them."""
    from game.bots.kernels import make_bot_work
    from game.bots.table import CONTINENT, compiled_decide
    from game.map import classic_map
    from game.rules.jit import bind
    from game.state import Rules, State

    m = classic_map()
    bind(compiled_decide, np.int32(CONTINENT), m.kernel, State.empty(m, 4).kernel,
         Rules().vector(), make_bot_work(m.kernel))


def loop() -> None:
    """What a default run's first generation plays: league games in the compiled loop, the
    champion against the gauntlet's compiled bots, the rating kernel and the value's recorded
    games (their replay)."""
    from evolve.config import load_config
    from evolve.plan.valuefit import record_task
    from evolve.plugin import default_plugin, warm_up
    from evolve.rating.rater import Rater
    from features.genome import hand_set_genome
    from game.bots import GAUNTLET

    cfg = load_config()
    plugin = default_plugin(cfg)
    warm_up(plugin, cfg.run.group_size, GAUNTLET)
    Rater(cfg.rating, 2).warm_up()
    record_task(hand_set_genome(), np.zeros((1, cfg.run.group_size), np.int32),
                [np.random.SeedSequence(SEED)], plugin.rules, plugin.map)


def plan() -> None:
    """The bundled champion's attack search in the Python engine (the web page's first
    opponent)."""
    from arena.web.warm import warm_one

    warm_one("champion")


def plan_loop() -> None:
    """The compiled loop with a planning seat: what a run plays when it ends (its planning
    champion's fit and check)."""
    from features.botfile import BotFile
    from features.compiled import play_mixed_game
    from game.bots import bot_file

    champ = BotFile.read(bot_file("champion"))
    w = np.tile(champ.weights, (4, 1))
    plans = np.zeros((4, len(champ.settings.vector())))
    plans[0] = champ.settings.vector()
    play_mixed_game(w, np.zeros(4, dtype=np.int32), SEED, plans=plans)


def web() -> None:
    """The web page's first game: a person's seat beside the page's default bots."""
    from arena.bots import make_rules
    from arena.web.champ import default_bots
    from arena.web.warm import first_game
    from game.map import classic_map

    first_game(classic_map(), make_rules(None), default_bots())


PARTS: dict[str, Callable[[], None]] = {
    "engine": engine, "bots": bots, "loop": loop, "plan": plan, "plan_loop": plan_loop,
    "web": web,
}
Lane = tuple[str, ...]  # parts run one after another in one process each
Stage = tuple[Lane, ...]  # lanes run side by side; the next stage starts when all have ended
# A part comes after those whose kernels it calls: the loop after the compiled bots, the
# search after `decide` (engine), the loop with the search after both; the web game then loads
# all it needs but the person's side. Two lanes: numba compiles on one thread, 2 cores.
STAGES: tuple[Stage, ...] = ((("bots", "loop"), ("engine", "plan", "plan_loop")), (("web",),))


@dataclass(frozen=True)
class Compiled:
    """One part's process: its wall and CPU seconds and exit code."""

    part: str
    wall: float
    cpu: float
    code: int


def _lane(lane: Lane, cmd: list[str], env: dict[str, str] | None, out: list[Compiled],
          say: TextIO | None) -> None:
    for part in lane:
        t0 = time.monotonic()
        proc = subprocess.Popen([*cmd, part], env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        done = Compiled(part, time.monotonic() - t0, usage.ru_utime + usage.ru_stime,
                        proc.returncode)
        out.append(done)
        if say is not None:  # progress: one line a part, as it ends
            what = (PARTS[part].__doc__ or part).split(":")[0].split("(")[0].strip().rstrip(".")
            state = "ready" if done.code == 0 else f"failed (exit {done.code})"
            say.write(f"riskevo:   {part}: {state} in {done.wall:.0f} s ({what})\n")
            say.flush()


def run_stages(stages: Sequence[Stage], command: Sequence[str] = (),
               env: dict[str, str] | None = None, say: TextIO | None = None
               ) -> list[Compiled]:
    """Each stage's lanes side by side, each part in `command PART` (default `python -m
    arena.warmup`); returns every part's times (CPU from the child's own usage); `say`
    gets a line as each part ends."""
    cmd = list(command) or [sys.executable, "-m", "arena.warmup"]
    out: list[Compiled] = []
    for stage in stages:
        lanes = [threading.Thread(target=_lane, args=(lane, cmd, env, out, say))
                 for lane in stage]
        for t in lanes:
            t.start()
        for t in lanes:
            t.join()
    return out


def report(done: Sequence[Compiled], total: float) -> str:
    """One line: each part's CPU seconds and the wall time of all."""
    parts = ", ".join(f"{c.part} {c.cpu:.0f} s" + ("" if c.code == 0 else " (failed)")
                      for c in done)
    return f"compiled ahead in {total:.0f} s (CPU per part: {parts})"


# The families `--cold` times, each from an empty cache: (label, stages).
FAMILIES: tuple[tuple[str, tuple[Stage, ...]], ...] = (
    ("the compiled bots", ((("bots",),),)),
    ("a run's first generation (greedy loop, bots, rating)", ((("loop",),),)),
    ("a run's end (the loop with a planner)", ((("plan_loop",),),)),
    ("the web page's first game", ((("bots",), ("engine", "plan")), (("web",),))),
    ("all that make venv compiles", STAGES),
)


def cold(out: TextIO = sys.stdout) -> list[dict[str, Any]]:
    """Each family compiled from an empty cache (a temporary NUMBA_CACHE_DIR), then loaded
    from it once more: CPU and wall seconds, printed as a table and returned."""
    rows = []
    print(f"{'cold compile, empty cache':<55} {'CPU s':>7} {'wall s':>7} {'load s':>7}", file=out)
    for label, stages in FAMILIES:
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            t0 = time.monotonic()
            done = run_stages(stages, env=env)
            wall = time.monotonic() - t0
            t0 = time.monotonic()
            again = run_stages(stages, env=env)
            load = time.monotonic() - t0
        failed = [c.part for c in (*done, *again) if c.code]
        row = {"family": label, "cpu_s": sum(c.cpu for c in done), "wall_s": wall,
               "load_s": load, "failed": failed}
        rows.append(row)
        print(f"{label:<55} {row['cpu_s']:7.0f} {wall:7.0f} {load:7.1f}"
              + (f"  (failed: {', '.join(failed)})" if failed else ""), file=out, flush=True)
    return rows


def main(argv: list[str]) -> int:
    """Run the parts named in argv here, or every stage, two processes at a time; `--cold`
    times each family from an empty cache (`make bench`)."""
    if argv == ["--cold"]:
        return 1 if any(r["failed"] for r in cold()) else 0
    if argv:
        unknown = [a for a in argv if a not in PARTS]
        if unknown:
            print(f"arena.warmup: unknown part {unknown[0]!r} (allowed: {', '.join(PARTS)})",
                  file=sys.stderr)
            return 2
        for part in argv:
            PARTS[part]()
        return 0
    t0 = time.monotonic()
    print("riskevo: compiling the game for this machine (once; a few minutes on 2 cores)",
          file=sys.stderr, flush=True)
    done = run_stages(STAGES, say=sys.stderr)
    print(f"riskevo: {report(done, time.monotonic() - t0)}", file=sys.stderr)
    return max(c.code for c in done)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
