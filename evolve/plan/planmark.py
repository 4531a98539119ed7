"""What a run's planning step left behind: a step stopped before it finished, and a planning
champion made at an earlier length of the run (issue 65, K8).

`plan_lines` marks the step in `champion-plan.pending` (the generation it plans) before it
starts and removes the mark when it is done, kept or not; a resume that finds the mark
finishes the step (`evolve run` on a finished run) or says it will. A `champion-plan.json`
made at another generation than the one being planned is set aside as
`champion-plan-gen<G>.json` first, so it never stands beside a newer `champion.json` as if it
were that champion's.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from evolve.runfolder import RunFolder
from features.botfile import BotFile
from features.genome import GenomeError
from game.atomic import atomic_write_bytes, read_limited

__all__ = ["PENDING", "begin", "finish", "plan_generation", "unfinished"]

PENDING = "champion-plan.pending"


def plan_generation(path: Path) -> int | None:
    """The generation a planning bot file was made at (its meta's), None if it has none."""
    try:
        meta = BotFile.read_meta(path)
    except GenomeError:
        return None
    g = meta.get("generation")
    return g if isinstance(g, int) and not isinstance(g, bool) else None


def unfinished(folder: RunFolder) -> int | None:
    """The generation whose planning step was stopped before it finished, None if none."""
    try:
        text = read_limited(folder.root / PENDING, 32, PENDING)
    except OSError:
        return None
    try:
        return int(text.strip())
    except ValueError:
        return -1  # a mark cut short: a step was stopped all the same


def begin(folder: RunFolder, generation: int) -> str:
    """Mark the planning step of `generation` as started, setting aside a planning champion of
    another generation; the words that say so ("" if nothing was set aside)."""
    plan = folder.champion_plan
    said = ""
    if plan.is_file():
        made = plan_generation(plan)
        if made != generation:
            aside = plan.with_name(f"champion-plan-gen{'unknown' if made is None else made}.json")
            os.replace(plan, aside)
            said = (f"; the planning champion of generation {made} (an earlier length of the "
                    f"run) is now {aside.name}")
    atomic_write_bytes(folder.root / PENDING, f"{generation}\n".encode())
    return said


def finish(folder: RunFolder) -> None:
    """The planning step is done (its champion kept or not)."""
    with contextlib.suppress(FileNotFoundError):
        (folder.root / PENDING).unlink()
