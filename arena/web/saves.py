"""Live games on disk, so that a restarted `arena web` plays them on (`--games DIR`).

After every move a game's file holds the page's request that started it (bots, seat, seed,
rules) and its transcript so far, written atomically. A seeded game with the same bots repeats
itself, so resuming is starting that game again and giving the person's recorded moves back in
turn; the bots repeat theirs. The result must reproduce the saved transcript line for line, or
the file is left alone and named in the warning.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from arena.web.live import ActionError, LiveGame
from game.actions import parse_action
from game.atomic import atomic_write_bytes
from game.replay import MAX_TRANSCRIPT_BYTES

MAX_ADVANCE = 100_000  # bot decisions between two of the person's moves, far more than a turn


class SaveError(ValueError):
    """A saved game that cannot be resumed; the message names the file."""


def save(folder: Path, gid: str, request: dict[str, Any], game: LiveGame) -> None:
    """Write game `gid` (its starting request and transcript) to `folder/gid.json`."""
    doc = {"request": request, "transcript": list(game.transcript())}
    atomic_write_bytes(folder / f"{gid}.json", json.dumps(doc).encode("utf-8"))


def saved(folder: Path) -> Iterator[tuple[str, dict[str, Any], list[str]]]:
    """(game id, request, transcript) of every game file in `folder`; SaveError for a bad one."""
    for path in sorted(folder.glob("*.json")):
        if path.stat().st_size > 2 * MAX_TRANSCRIPT_BYTES:
            raise SaveError(f"{path}: larger than {2 * MAX_TRANSCRIPT_BYTES} bytes")
        try:
            doc = json.loads(path.read_text("utf-8"))
            request, lines = doc["request"], doc["transcript"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise SaveError(f"{path}: not a saved game ({e})") from None
        if not isinstance(request, dict) or not all(isinstance(x, str) for x in lines):
            raise SaveError(f"{path}: not a saved game")
        yield path.stem, request, lines


def resume(game: LiveGame, lines: list[str], where: str) -> None:
    """Give the fresh `game` the person's moves of `lines`; SaveError unless it repeats them."""
    me = f"s{game.human}"
    moves = [x.split(" ", 2)[2] for x in lines
             if x.startswith("r") and x.split(" ", 2)[1] == me
             and x.split()[2] not in ("card", "eliminates")]
    try:
        for move in moves:
            game.advance(MAX_ADVANCE)
            game.act(parse_action(move.partition(" = ")[0], game.m))
        while len(game.transcript()) < len(lines) and game.advance(1):
            pass  # the bots' moves after the person's last one, as far as they were saved
    except (ActionError, ValueError) as e:
        raise SaveError(f"{where}: the game went otherwise ({e})") from None
    done = game.transcript()
    if list(done[:len(lines)]) != lines[:len(done)]:
        raise SaveError(f"{where}: the game went otherwise (the bots or the engine changed)")


__all__ = ["SaveError", "resume", "save", "saved"]
