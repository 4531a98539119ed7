"""`python -m arena SUBCOMMAND ...`: the entries of evolve's command table that live in arena."""

from __future__ import annotations

from evolve.cli import SUBCOMMANDS as ALL
from evolve.cli import dispatch

# One table for both entry points: `python -m evolve play` and `python -m arena play` agree.
SUBCOMMANDS = {name: entry for name, entry in ALL.items() if entry[0].startswith("arena.")}


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m arena`."""
    return dispatch("python -m arena", SUBCOMMANDS, argv)
