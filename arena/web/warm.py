"""The first game's numba kernels compiled before the person presses Start.

Ahead: the set-up step that builds the virtual environment (`make venv`, which `make play`
depends on) runs `python -m arena.warmup`, which compiles the kernels of the page's first
game (`default_bots`, `first_game`) into numba's on-disk cache beside those of a run, so a
fresh clone's first Start loads them.

Fallback, in the background: `arena web` compiles the same kernels on a thread as it starts
(`Engine`), for a cache that is missing or stale (a venv made before this step, an edited
kernel), so the page opens at once; the page asks `/api/config` how far it is
(`Engine.json`) and a Start waits for it. With the cache warm this only loads it.

numba compiles on one thread, so each bot's kernels compile in a process of their own at once
(`python -m arena.web.warm SPEC`); a game with a person's seat, every default bot and the
page's rules then loads them and compiles what the person's side adds."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any

from arena.bots import make_bot, make_rules, trusted
from arena.play import labels_for
from arena.web.champ import default_bots
from arena.web.live import LiveGame, Seat
from game.actions import END_TRADE, SKIP, STOP, MoveIn, Place, Trade
from game.map import Map, classic_map
from game.rules import layout as L
from game.state import Rules

WARM_TIMEOUT_S = 1800  # a compiling process is waited for at most this long


class Engine:
    """Whether the kernels are compiled: ready from the start unless `warm` runs."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.finished: float | None = self.started
        self.error = ""
        self.procs: list[subprocess.Popen[bytes]] = []
        self.done = threading.Event()
        self.done.set()

    def warm(self, m: Map, rules: Rules, specs: Sequence[str]) -> threading.Thread:
        """Compile the first game of the trusted `specs` on a thread (`compile_game`)."""
        self.started, self.finished = time.monotonic(), None
        self.done.clear()
        t = threading.Thread(target=self._run, args=(m, rules, list(specs)), daemon=True,
                             name="riskevo-warm")
        t.start()
        return t

    def _run(self, m: Map, rules: Rules, specs: list[str]) -> None:
        try:
            compile_game(m, rules, specs, self.procs)
        except Exception as e:  # noqa: BLE001 - a failed warm-up only means a slower first game
            self.error = f"{type(e).__name__}: {e}"
        finally:
            self.finished = time.monotonic()
            self.done.set()

    def wait(self) -> None:
        """Until the warm-up is over: a game started meanwhile would compile the same kernels
        again beside it, on the same cores."""
        self.done.wait(WARM_TIMEOUT_S)

    def stop(self) -> None:
        """End the compiling processes (the server is stopping)."""
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait()

    def json(self) -> dict[str, Any]:
        """{ready, seconds spent so far or in all, error} for the page."""
        end = self.finished if self.finished is not None else time.monotonic()
        return {"ready": self.finished is not None, "seconds": round(end - self.started),
                "error": self.error}


def compile_game(m: Map, rules: Rules, specs: Sequence[str],
                 procs: list[subprocess.Popen[bytes]] | None = None) -> None:
    """Each trusted bot of `specs` warmed in a process of its own at once (`warm_one`), then a
    throwaway two-round game of them all and a person's seat here; `procs` (if given)
    collects the processes, so that a stopping server can end them. RuntimeError naming the
    bot whose process failed."""
    mine = [s for s in specs if trusted(s)] or ["random"]
    started = [(spec, subprocess.Popen([sys.executable, "-m", "arena.web.warm", spec],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
               for spec in dict.fromkeys(mine)]
    if procs is not None:
        procs.extend(p for _, p in started)
    failed = []
    for spec, p in started:
        _, err = p.communicate(timeout=WARM_TIMEOUT_S)
        if p.returncode:
            lines = err.decode(errors="replace").strip().splitlines()
            failed.append(f"{spec}: {lines[-1] if lines else f'exit {p.returncode}'}")
    if failed:
        raise RuntimeError("warming " + "; ".join(failed))
    first_game(m, rules, mine)


def first_game(m: Map, rules: Rules, specs: Sequence[str]) -> None:
    """A throwaway two-round game of a person's seat and the trusted bots of `specs`, here."""
    mine = [s for s in specs if trusted(s)] or ["random"]
    players = [Seat("you", None),
               *(Seat(lab, make_bot(s), True, s) for lab, s in zip(labels_for(mine), mine,
                                                                     strict=True))]
    play_through(LiveGame(m, dataclasses.replace(rules, cap=2), players, 1, human_seat=0))


def play_through(game: LiveGame) -> None:
    """Play `game` to its end, its person (if any) passing wherever the rules let them and
    reading the page's view at each decision, as the page would."""
    game.public()
    while not game.over:
        game.advance(100_000)
        if game.waiting_for_human():
            game.public()
            game.act(_passing(game))
    game.public()
    game.close()


def _passing(game: LiveGame) -> Any:
    """The person's plainest legal answer: all armies on their first territory, no trade
    unless it must, no attack, the least move-in, no fortify."""
    st, d, me = game.state, game.decision(), game.human
    assert d is not None and me is not None
    if st.phase in (L.PH_SETUP, L.PH_REINFORCE):
        mine = next(t for t in range(game.m.n_territories) if st.owner[t] == me)
        return Place(mine, d.armies or 1)
    if st.phase == L.PH_TRADE:
        return Trade(game.views[me].sets()[0]) if d.compulsory else END_TRADE
    if st.phase == L.PH_OCCUPY:
        return MoveIn(d.lo)
    return STOP if st.phase == L.PH_ATTACK else SKIP


def warm_one(spec: str) -> None:
    """A throwaway two-round game of bot `spec` against `random`: its kernels compiled."""
    players = [Seat(spec, make_bot(spec), True, spec), Seat("random", make_bot("random"), True)]
    play_through(LiveGame(classic_map(), Rules(cap=2), players, 1))


def main(argv: list[str]) -> int:
    """`python -m arena.web.warm`: compile the page's first game ahead (the page's default bots
    and rules); `python -m arena.web.warm SPEC`: one bot's kernels."""
    if argv:
        warm_one(argv[0])
        return 0
    t0 = time.monotonic()
    specs = default_bots()
    try:
        compile_game(classic_map(), make_rules(None), specs)
    except Exception as e:  # noqa: BLE001 - the page compiles in the background instead
        print(f"riskevo: the web page's kernels were not compiled ahead ({type(e).__name__}: "
              f"{e}); `arena web` compiles them as it starts", file=sys.stderr)
        return 1
    print(f"riskevo: the web page's first game compiled ({', '.join(specs)}) in "
          f"{time.monotonic() - t0:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


__all__ = ["Engine", "compile_game", "first_game", "main", "play_through", "warm_one"]
