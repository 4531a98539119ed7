"""`python -m evolve SUBCOMMAND ...`: dispatch to the subcommand's `main(argv) -> int`.

To add a subcommand, add one line to SUBCOMMANDS: name -> "module:function", where the function
takes the remaining arguments (list[str]) and returns an exit code. Modules load lazily, so a
subcommand's heavy imports cost nothing to the others.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable

SUBCOMMANDS: dict[str, str] = {
    "run": "evolve.run_cmd:main",
    "bench": "evolve.bench:main",
    "plot": "evolve.plots:main",
    "report": "evolve.report:main",
    "export": "evolve.export:main",
    "play": "evolve.play:main",
    "tournament": "evolve.tournament:main",
    "serve": "evolve.serve:main",
    "watch": "evolve.watch:main",
}

HELP = {
    "run": "start or resume an evolution run in runs/<name>/",
    "bench": "games/s, generation wall time (games / rating / overhead) and memory",
    "plot": "draw a run's weight-distribution and progress plots",
    "report": "write a run's self-contained report.html",
    "export": "export a run's champion (or any individual) as a bot file",
    "play": "play one game between bots and print the outcome",
    "tournament": "many seeded games among bots: a table with 95% intervals",
    "serve": "speak the JSON-lines bot protocol on stdin/stdout",
    "watch": "render a game as PNG frames and an animated GIF",
}


def _usage() -> str:
    lines = ["usage: python -m evolve SUBCOMMAND [options]   (SUBCOMMAND --help for options)", ""]
    lines += [f"  {name:<12} {HELP.get(name, '')}" for name in SUBCOMMANDS]
    return "\n".join(lines)


def resolve(name: str) -> Callable[[list[str]], int]:
    """The main function of a subcommand (SystemExit with a one-line message if unknown)."""
    spec = SUBCOMMANDS.get(name)
    if spec is None:
        raise SystemExit(f"unknown subcommand {name!r} (allowed: {', '.join(SUBCOMMANDS)})")
    mod, _, fn = spec.partition(":")
    return getattr(importlib.import_module(mod), fn)  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m evolve`."""
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print(_usage())
        return 0 if args else 2
    return resolve(args[0])(args[1:])
