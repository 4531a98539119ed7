"""`python -m evolve SUBCOMMAND ...`: dispatch to the subcommand's `main(argv) -> int`.

To add a subcommand, add one line to SUBCOMMANDS: name -> ("module:function", help), where the
function takes the remaining arguments (list[str]) and returns an exit code. Modules load lazily,
so a subcommand's heavy imports cost nothing to the others. The tools that play bots against
each other live in the `arena` package; they are listed here by name only (a string, not an
import), so evolve never imports arena, and `python -m arena` dispatches the same entries.
"""

from __future__ import annotations

import argparse
import importlib
import os
import shutil
import signal
import sys
from collections.abc import Callable, Mapping
from typing import NoReturn

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": ("evolve.run_cmd:main", "start or resume an evolution run in runs/<name>/"),
    "bench": ("evolve.bench.bench:main",
              "games/s, generation wall time (games / rating / overhead) and memory"),
    "plot": ("evolve.report.plots:main", "draw a run's weight-distribution and progress plots"),
    "report": ("evolve.report.report:main", "write a run's self-contained report.html"),
    "export": ("evolve.report.export:main",
               "export a run's champion (or any individual) as a bot file"),
    "plan": ("evolve.plan.plan_cmd:main",
             "a planning bot file from a greedy one, or a run's planning champion again"),
    "play": ("arena.play:main", "play one game between bots and print the outcome"),
    "tournament": ("arena.measure.tournament:main",
                   "many seeded games among bots: a table with 95% intervals"),
    "gauntlet": ("arena.measure.gauntlet:main",
                 "a bot against 3 copies of each strong baseline: win rates with 95% intervals"),
    "diagnose": ("arena.measure.diagnose:main",
                 "how a bot plays (reinforcement, continents, losses, cards...) beside opponents"),
    "serve": ("arena.serve.command:main", "speak the JSON-lines bot protocol on stdin/stdout"),
    "watch": ("arena.watch:main", "render a game as PNG frames and an animated GIF"),
    "web": ("arena.web.app:main", "play against bots, or replay a transcript, in a browser"),
    "explain": ("arena.explain:main",
                "why a bot file's player made a decision: its options' scores, term by term"),
}


class ArgumentParser(argparse.ArgumentParser):
    """argparse whose errors are one line: the message and where the options are listed, not
    the whole usage first (a run's is 16 lines)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {message} (`{self.prog} --help` lists the options)\n")


def evolve_command(args: str) -> str:
    """`python -m evolve ARGS` as a new shell runs it: `python` when this interpreter is the
    one on PATH (an active venv), else its path, relative to here when under it (`make` runs
    .venv/bin/python, and a new shell's `python` lacks the packages)."""
    exe = sys.executable
    on_path = shutil.which("python")
    if not exe or (on_path and os.path.abspath(on_path) == os.path.abspath(exe)):
        return f"python -m evolve {args}"
    rel = os.path.relpath(exe)
    return f"{exe if rel.startswith('..') else rel} -m evolve {args}"


def error(msg: object) -> int:
    """Print a one-line error to stderr; the exit code for bad input (2)."""
    print(f"error: {msg}", file=sys.stderr)
    return 2


def _usage(prog: str, table: Mapping[str, tuple[str, str]]) -> str:
    lines = [f"usage: {prog} SUBCOMMAND [options]   (SUBCOMMAND --help for options)", ""]
    lines += [f"  {name:<12} {help_}" for name, (_, help_) in table.items()]
    return "\n".join(lines)


def resolve(name: str, table: Mapping[str, tuple[str, str]] = SUBCOMMANDS
            ) -> Callable[[list[str]], int]:
    """The main function of a subcommand (KeyError if unknown: `dispatch` says so first)."""
    mod, _, fn = table[name][0].partition(":")
    return getattr(importlib.import_module(mod), fn)


def dispatch(prog: str, table: Mapping[str, tuple[str, str]], argv: list[str] | None) -> int:
    """Run `prog SUBCOMMAND ...` from `table` (usage on no argument or --help)."""
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print(_usage(prog, table))
        return 0 if args else 2
    if args[0] not in table:
        return error(f"unknown subcommand {args[0]!r} (allowed: {', '.join(table)})")
    pending: list[int] = []
    interrupted = False

    def defer(signum: int, frame: object) -> None:
        pending.append(signum)

    def on_sigint(signum: int, frame: object) -> None:
        nonlocal interrupted
        interrupted = True
        raise KeyboardInterrupt

    # A Ctrl-C while the subcommand's modules load is only noted, and honoured once they have
    # loaded (a second or two): an exception raised inside an import can leave half-made
    # modules behind, be swallowed by a library's clean-up (the run then went on), or, inside
    # the exec() of a namedtuple or a dataclass, make CPython 3.11 kill itself with SIGINT at
    # exit however the exception was handled (exit -2, not 130).
    previous = signal.signal(signal.SIGINT, defer)
    try:
        fn = resolve(args[0], table)
        if pending:
            print("interrupted", file=sys.stderr)
            return 130
        # Until the subcommand installs its own handler: a Ctrl-C that lands inside a lazy
        # import comes out as an ImportError, so the flag, not the exception type, says that
        # the user interrupted.
        signal.signal(signal.SIGINT, on_sigint)
        return fn(args[1:])
    except (KeyboardInterrupt, Exception):
        if not interrupted:
            raise
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGINT, previous)


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m evolve`."""
    return dispatch("python -m evolve", SUBCOMMANDS, argv)


def riskevo(argv: list[str] | None = None) -> int:
    """Entry point of the `riskevo` console script (pyproject.toml): every subcommand of
    `python -m evolve` and `python -m arena`, arena's named here only as strings."""
    return dispatch("riskevo", SUBCOMMANDS, argv)
