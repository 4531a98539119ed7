"""`serve --record DIR`: keep what a served bot saw and answered, one JSON-lines file per game.

A `Recorder` belongs to one serve run (shared by its TCP sessions); every `start_game` opens a
`GameRecord` file `game-<pid>-<n>.jsonl` in DIR. Line 1 is the game's header (`"record":
"start"`: map, rules, seat, players, protocol); then one line per decision request: the state as
the server decoded it for the bot (`decision_entry`) and the final answer it sent, or the error
reply; `end_game` writes a last `"record": "end"` line. `arena.serve.records` reads the files.

Recording never changes an answer: the entry is written after the reply is made, and a failed
write (disk full, folder gone) only stops recording, with one warning on stderr.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from game.map import Map
from game.rules import layout as L
from game.state import Rules
from game.view import GameView

__all__ = ["FORMAT", "MAX_BYTES", "MAX_GAMES", "RECORD_ENV", "GameRecord", "Recorder",
           "decision_entry", "header_entry"]

RECORD_ENV = "RISKEVO_RECORD"  # serve's default for --record
FORMAT = 1  # the record files' layout (in every header); arena.serve.records reads this one
MAX_GAMES = 10_000  # game files per serve run: ~1 day of bridge games at 0.1 s each
MAX_BYTES = 2**30  # bytes per serve run: a classic-map game is ~0.3 MB (about 3,000 runs' worth)


def _warn(text: str) -> None:
    print(f"serve --record: {text}", file=sys.stderr, flush=True)


class Recorder:
    """The record folder of one serve run and its caps (thread-safe: TCP sessions share it)."""

    def __init__(self, folder: str | Path, *, max_games: int = MAX_GAMES,
                 max_bytes: int = MAX_BYTES, warn: Callable[[str], None] = _warn) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)  # OSError here: the caller names DIR
        self.max_games, self.max_bytes, self._warn = max_games, max_bytes, warn
        self.games = 0
        self.bytes = 0
        self.stopped = False
        self._lock = threading.Lock()
        self._next = 0

    def stop(self, why: str) -> None:
        """Stop recording for the rest of the run, saying why once."""
        with self._lock:
            first, self.stopped = not self.stopped, True
        if first:
            self._warn(f"{why}; recording stops (the bot keeps answering)")

    def open_game(self, header: dict[str, Any]) -> GameRecord | None:
        """A new game file starting with `header`, or None once a cap is reached."""
        with self._lock:
            full = self.games >= self.max_games
            if not self.stopped and not full:
                self.games += 1
        if full:
            self.stop(f"{self.max_games} game files in {self.folder} (the cap per run)")
        if self.stopped:
            return None
        try:
            file, path = self._create()
        except OSError as e:
            self.stop(f"cannot create a file in {self.folder}: {e.strerror or e}")
            return None
        record = GameRecord(self, file, path)
        record.write(header)
        return record

    def _create(self) -> tuple[IO[str], Path]:
        # O_EXCL: two runs (or two recycled pids) never write into one file.
        while True:
            with self._lock:
                self._next += 1
                n = self._next
            path = self.folder / f"game-{os.getpid()}-{n}.jsonl"
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
            except FileExistsError:
                continue
            return os.fdopen(fd, "w", encoding="utf-8"), path

    def charge(self, n: int) -> bool:
        """Count n more bytes against the run's cap; False (and stop) when it would pass it."""
        with self._lock:
            ok = not self.stopped and self.bytes + n <= self.max_bytes
            if ok:
                self.bytes += n
        if not ok and not self.stopped:
            self.stop(f"{self.max_bytes} bytes written to {self.folder} (the cap per run)")
        return ok


class GameRecord:
    """One game's file: a line per entry, appended and flushed at once (a kill tears one line)."""

    def __init__(self, recorder: Recorder, file: IO[str], path: Path) -> None:
        self.recorder, self.file, self.path = recorder, file, path

    def write(self, entry: dict[str, Any]) -> None:
        """Append one entry; a failure stops recording, it never reaches the bot's answer."""
        if self.file is None:
            return
        line = json.dumps(entry, separators=(",", ":"), allow_nan=False, default=str) + "\n"
        if not self.recorder.charge(len(line.encode("utf-8"))):
            self.close()
            return
        try:
            self.file.write(line)
            self.file.flush()
        except (OSError, ValueError) as e:
            self.recorder.stop(f"cannot write {self.path}: {getattr(e, 'strerror', None) or e}")
            self.close()

    def close(self) -> None:
        """Close the file (idempotent)."""
        if self.file is not None:
            with contextlib.suppress(OSError):
                self.file.close()
            self.file = None  # type: ignore[assignment]


def header_entry(m: Map, rules: Rules, seat: int, n_players: int, protocol: str) -> dict[str, Any]:
    """Line 1 of a game file: what start_game set up (the board as riskevo's map JSON)."""
    from arena.wire.subprocess_player import map_json

    return {"record": "start", "format": FORMAT, "protocol": protocol, "map": map_json(m),
            "rules": dataclasses.asdict(rules), "seat": seat, "n_players": n_players}


def decision_entry(ask: str, rid: Any, view: GameView | None, extra: dict[str, Any],
                   reply: dict[str, Any]) -> dict[str, Any]:
    """One decision as the bot saw it (the decoded state, not the request's text) and the reply."""
    entry: dict[str, Any] = {"ask": ask, "id": rid}
    if view is not None:
        s = view.state
        entry.update({
            "round": int(s.round), "phase": L.PHASE_NAMES[s.phase],
            "owner": s.owner.tolist(), "armies": s.armies.tolist(),
            "hand": [[int(c), L.KIND_NAMES[view.card_kind(c)]] for c in view.hand],
            "hand_sizes": view.hand_sizes.tolist(), "alive": view.alive.astype(int).tolist(),
            "trades": int(s.sc[L.S_TRADES]), "turns": int(s.sc[L.S_TURNS]), "fields": extra})
    if "action" in reply:
        entry["action"] = reply["action"]
    else:
        entry["error"] = reply.get("error", "")
    return entry
