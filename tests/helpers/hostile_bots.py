"""Hostile third-party bots (named `tests.helpers.hostile_bots:Class`): they hang, raise, cheat
or spy.

In the arena they play isolated (arena.isolation.sandbox) and forfeit (game.forfeit); see
docs/trust.md.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from game.bots import RandomBot
from game.decision import Decision, DecisionKind
from game.rules import layout as L


class Hang(RandomBot):
    """Plays at random until its first attack decision, then spins forever."""

    name = "hang"

    def act(self, view: Any, decision: Decision) -> Any:
        """Spin at the first attack."""
        if decision.kind is DecisionKind.ATTACK:
            while True:
                pass
        return super().act(view, decision)


class Raise(RandomBot):
    """Plays at random until its first attack decision, then divides by zero."""

    name = "raise"

    def act(self, view: Any, decision: Decision) -> Any:
        """Raise at the first attack."""
        if decision.kind is DecisionKind.ATTACK:
            return 1 // 0
        return super().act(view, decision)


class Cheat(RandomBot):
    """Rewrites the game through its view: every territory its own with 500 armies (in the
    same process as the engine this wins at once), then plays at random on what it sees."""

    name = "cheat"

    def act(self, view: Any, decision: Decision) -> Any:
        """Cheat at the first reinforcement, then play on."""
        if decision.kind is DecisionKind.REINFORCE:
            for arr in (view.owner, view.armies):
                arr.flags.writeable = True
            view.armies[:] = 500
            view.owner[: len(view.owner) // 2] = view.seat
        return super().act(view, decision)


class Spy(RandomBot):
    """Looks at the opponents' missions through the view's private state (play it with
    missions on); raises when it sees one. Isolated, the opponents' missions are -1 (and their
    cards are placeholders: hand sizes only)."""

    name = "spy"

    def act(self, view: Any, decision: Decision) -> Any:
        """Raise (so that a test sees it) when an opponent's mission shows."""
        missions = np.asarray(view._state.pl)[:, L.P_MISSION]  # noqa: SLF001 - the point
        others = int((missions[np.arange(len(missions)) != view.seat] >= 0).sum())
        if others:
            raise RuntimeError(f"saw {others} hidden missions")
        return super().act(view, decision)


def _dumpable() -> int:
    """PR_GET_DUMPABLE of this process (-1 off Linux)."""
    import ctypes
    import sys

    return int(ctypes.CDLL(None).prctl(3, 0, 0, 0, 0)) if sys.platform == "linux" else -1


class Thief(RandomBot):
    """Writes what it was given at start_game to the file named by $RISKEVO_TEST_THIEF: its
    generator's state, the board it was dealt and the engine's secret if it reached it (the
    seed-recovery attack starts from these)."""

    name = "thief"

    def start_game(self, view: Any, rng: np.random.Generator) -> None:
        """Keep the evidence, then play at random."""
        path = os.environ.get("RISKEVO_TEST_THIEF")
        if path:
            seen = {"rng": rng.bit_generator.state, "owner": np.asarray(view.owner).tolist(),
                    "secret": os.environ.get("RISKEVO_SECRET"),
                    "secret_file": os.environ.get("RISKEVO_SECRET_FILE"), "dumpable": _dumpable()}
            Path(path).write_text(json.dumps(seen))
        super().start_game(view, rng)


class Fork(RandomBot):
    """Forks a child that outlives the game (its pid in $RISKEVO_TEST_FORK) and floods its
    output (the engine passes on a bounded part); with $RISKEVO_TEST_FORK_SLEEP it then sleeps
    that many seconds at its first attack (an engine to kill meanwhile)."""

    name = "fork"

    def act(self, view: Any, decision: Decision) -> Any:
        """Sleep at the first attack if asked, then play at random."""
        nap = float(os.environ.get("RISKEVO_TEST_FORK_SLEEP", "0"))
        if nap and decision.kind is DecisionKind.ATTACK:
            os.environ["RISKEVO_TEST_FORK_SLEEP"] = "0"
            time.sleep(nap)
        return super().act(view, decision)

    def start_game(self, view: Any, rng: np.random.Generator) -> None:
        """Fork a sleeper, shout, then play at random."""
        child = os.fork()
        if child == 0:
            os.write(2, b"x" * (1 << 20))
            while True:
                time.sleep(1)
        path = os.environ.get("RISKEVO_TEST_FORK")
        if path:
            with open(path, "a", encoding="utf-8") as f:
                f.write(f"{child}\n")
        super().start_game(view, rng)


def _read(path: str, limit: int = 1 << 16) -> str | None:
    """The text of a file (its first `limit` bytes), None if this process cannot read it."""
    try:
        with open(path, "rb") as f:
            return f.read(limit).decode("utf-8", "replace")
    except OSError:
        return None


class Snoop(RandomBot):
    """At start_game reads every process's command line and environment it can (an ancestor's
    holds what a `timeout` or `make` was started with; of an environment it keeps the RISKEVO
    variables only) and the files named in
    $RISKEVO_TEST_SNOOP (os.pathsep between them; a folder is listed), and writes all it got
    to stderr as one line `SNOOP {json}` (stderr reaches the engine's even in the sandbox)."""

    name = "snoop"

    def start_game(self, view: Any, rng: np.random.Generator) -> None:
        """Snoop, report, then play at random."""
        procs = {}  # what it could read of riskevo's: the report must fit the 64 KiB passed on
        for pid in (p for p in os.listdir("/proc") if p.isdigit()):
            cmdline, environ = (_read(f"/proc/{pid}/{k}") for k in ("cmdline", "environ"))
            procs[pid] = {"cmdline": None if cmdline is None else cmdline[:300],
                          "environ": None if environ is None else
                          [v for v in environ.split("\0") if v.startswith("RISKEVO")]}
        files: dict[str, Any] = {}
        for path in filter(None, os.environ.get("RISKEVO_TEST_SNOOP", "").split(os.pathsep)):
            try:
                files[path] = sorted(os.listdir(path)) if os.path.isdir(path) else _read(path)
            except OSError:
                files[path] = None
        os.write(2, ("SNOOP " + json.dumps({"procs": procs, "files": files}) + "\n").encode())
        super().start_game(view, rng)
