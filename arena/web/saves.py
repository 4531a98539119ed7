"""Live games on disk, so that a restarted `arena web` plays them on (`--games DIR`).

After every move a game's file holds the page's request that started it (bots, seat, seed,
rules), the seed it was dealt from and its transcript so far, written atomically and readable
by its owner only (0600, in a 0700 folder): it names every mission and card. A game with the
same dealt seed and bots repeats itself, so resuming is starting that game again and giving
the person's recorded moves back in turn; the bots repeat theirs. The dealt seed is saved
because a game with an isolated bot is dealt from a secret of the server process that started
it (`arena.bots.game_seed`), which a restarted server no longer holds. The result must
reproduce the saved transcript line for line, or the file is left alone and named in the
warning. One server at a time uses a folder (`game.folderlock`); a game's file moves to
`DIR/old/` once the game expires or is found over, so a restart brings back only the games
played within the idle limit, with the time they had left.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any

from arena.web.httpd import RequestError
from arena.web.live import ActionError, LiveGame
from game.actions import parse_action
from game.atomic import atomic_write_bytes, read_regular
from game.env.seeding import SEED_BOUND
from game.folderlock import FolderLockedError, lock_folder
from game.record.transcript import MAX_TRANSCRIPT_BYTES
from game.untrusted import UntrustedJSONError, parse_json

MAX_ADVANCE = 100_000  # bot decisions between two of the person's moves, far more than a turn
MAX_SAVE_BYTES = 2 * MAX_TRANSCRIPT_BYTES  # a saved game: its transcript and its request
SAVE_PERMS = 0o600  # a save names every mission and card: its owner's only
OLD = "old"  # DIR/old/: games that expired or ended, never played on
_GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")  # secrets.token_urlsafe's alphabet


class SaveError(ValueError):
    """A saved game that cannot be resumed, or a saves folder that cannot be used."""


@dataclass
class Saved:
    """One saved game as read from its file."""

    gid: str
    path: Path
    request: dict[str, Any]
    lines: list[str]
    dealt: int | None  # the seed it was dealt from (None: saved before it was recorded)
    age: float  # seconds since it was last saved

    @property
    def over(self) -> bool:
        return bool(self.lines) and self.lines[-1].startswith("end ")


def open_folder(folder: Path, bot_files: Sequence[str] = ()) -> int:
    """Make `folder` (0700) the saves folder of this process: created if missing, checked
    writable and not holding any of `bot_files`, locked (the returned descriptor holds the
    lock). SaveError naming --games."""
    what = f"--games {folder}"
    if folder.exists() and not folder.is_dir():
        raise SaveError(f"{what}: must be a writable folder (it is a file)")
    if held := [b for b in bot_files if folder.resolve() in Path(b).resolve().parents]:
        raise SaveError(f"{what}: holds the bot file {held[0]}; name a folder no bot is loaded "
                        "from (a saved game names every mission and card)")
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as e:
        raise SaveError(f"{what}: must be a writable folder ({e.strerror or e})") from None
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".probe.", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise SaveError(f"{what}: must be a writable folder (cannot write in it: "
                        f"{e.strerror or e})") from None
    try:
        lock = lock_folder(folder, folder / ".lock")
    except FolderLockedError as e:
        raise SaveError(f"{what}: in use by process {e.holder} (another arena web); stop it "
                        "or name another folder with --games") from None
    except OSError as e:
        raise SaveError(f"{what}: cannot lock ({e.strerror or e})") from None
    with contextlib.suppress(OSError):
        os.chmod(folder, 0o700)  # a folder of an older version was 0755
    for p in folder.glob(".*.json.*.tmp"):  # writes cut short by a kill or a full disk
        with contextlib.suppress(OSError):
            p.unlink()
    return lock


def save(folder: Path, gid: str, request: dict[str, Any], game: LiveGame) -> None:
    """Write game `gid` (its starting request, dealt seed and transcript) to `folder/gid.json`,
    owner-only; OSError when it cannot be written (the old file then stays as it was)."""
    doc = {"request": request, "dealt": game.seed, "transcript": list(game.transcript())}
    atomic_write_bytes(folder / f"{gid}.json", json.dumps(doc).encode("utf-8"), SAVE_PERMS)


def put_aside(folder: Path, gid: str) -> None:
    """Move game `gid`'s file to `folder/old/` (its game expired or ended); OSError if not."""
    old = folder / OLD
    old.mkdir(mode=0o700, exist_ok=True)
    os.replace(folder / f"{gid}.json", old / f"{gid}.json")


def saved(folder: Path, idle_seconds: float, warn: Callable[[str], None]) -> Iterator[Saved]:
    """Every game file in `folder` played within `idle_seconds`, newest first; an older one
    is put aside, and a file that is not a saved game is skipped with `warn` naming it."""
    now = time.time()
    found: list[tuple[float, str]] = []
    with os.scandir(folder) as it:
        for entry in it:
            if entry.name.endswith(".json") and not entry.name.startswith("."):
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue  # gone since the listing
                found.append((st.st_mtime if stat.S_ISREG(st.st_mode) else now, entry.name))
    for mtime, name in sorted(found, reverse=True):
        path = folder / name
        if now - mtime > idle_seconds:
            try:
                put_aside(folder, name.removesuffix(".json"))
            except OSError as e:
                warn(f"{path}: expired, but cannot be moved to {OLD}/ ({e.strerror or e})")
            continue
        try:
            yield _read(path, now - mtime)
        except SaveError as e:
            warn(f"{path}: not resumed: {e}")


def _read(path: Path, age: float) -> Saved:
    """The saved game in `path` (SaveError saying why it is not one)."""
    if not _GAME_ID.match(path.stem):
        raise SaveError("not a game id (letters, digits, '-', '_')")
    try:
        doc = parse_json(read_regular(path, MAX_SAVE_BYTES, "a saved game"), "the file")
    except OSError as e:
        raise SaveError(e.strerror or str(e)) from None
    except UntrustedJSONError as e:
        raise SaveError(f"not a saved game ({e})") from None
    request = doc.get("request") if isinstance(doc, dict) else None
    lines = doc.get("transcript") if isinstance(doc, dict) else None
    dealt = doc.get("dealt") if isinstance(doc, dict) else None
    if (not isinstance(request, dict) or not isinstance(lines, list)
            or not all(isinstance(x, str) for x in lines)):
        raise SaveError("not a saved game (a JSON object with 'request' and 'transcript')")
    if dealt is not None and (type(dealt) is not int or not 0 <= dealt < SEED_BOUND):
        raise SaveError(f"'dealt' must be a whole number 0..2^63-1, got {str(dealt)[:30]}")
    return Saved(path.stem, path, request, lines, dealt, age)


def warn(text: str) -> None:
    """A one-line warning on the server's terminal (one write: threads' lines never run
    together)."""
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"riskevo web: {text}\n")
        sys.stderr.flush()


_fd_warned = [-1e9]  # when out_of_descriptors last warned (time.monotonic)
FD_WARN_EVERY_S = 30.0


def out_of_descriptors(e: OSError) -> None:
    """Say once a burst (at most every FD_WARN_EVERY_S) that the server ran out of file
    descriptors (issue 65, W14: before, one run-together line per failed request)."""
    now = time.monotonic()
    if now - _fd_warned[0] < FD_WARN_EVERY_S:
        return
    _fd_warned[0] = now
    warn(f"out of file descriptors ({e.strerror or e}): requests get 503 until some close; "
         "raise the limit (ulimit -n) or play fewer games with package.module:Class bots")


class Saves:
    """A server's saves folder (locked while the server runs) and the games it stopped."""

    def __init__(self, folder: Path, bot_files: Sequence[str] = ()) -> None:
        self.lock_fd: int | None = open_folder(folder, bot_files)
        self.folder = folder
        self.stopped: dict[str, str] = {}  # game id -> why (its save failed)
        self.resumed = 0  # games played on after the restart (`resume_all`)

    def close(self) -> None:
        """Release the folder's lock (the server stops)."""
        if self.lock_fd is not None:
            os.close(self.lock_fd)
            self.lock_fd = None

    def keep(self, gid: str, request: dict[str, Any], game: LiveGame) -> None:
        """Save game `gid`. A move is applied before it is saved, so a failed save is not the
        move's failure: the game stops there (`stopped`, its bots released), so that no retry
        applies a move twice, and its file keeps the last position saved."""
        if gid in self.stopped:
            return
        try:
            save(self.folder, gid, request, game)
        except OSError as e:
            why = (f"this game stopped: it could not be saved ({e.strerror or e}); a restarted "
                   "server plays it on from its last saved move")
            warn(f"{self.folder / gid}.json: {why}")
            self.stopped[gid] = why
            game.close()

    def check_playing(self, gid: str) -> None:
        """RequestError (409) if game `gid` was stopped: its moves could not be saved."""
        if gid in self.stopped:
            raise RequestError(self.stopped[gid], HTTPStatus.CONFLICT)

    def expired(self, gid: str) -> None:
        """Game `gid` expired: its file goes to `old/`, so a restart does not bring it back."""
        self.stopped.pop(gid, None)
        try:
            put_aside(self.folder, gid)
        except FileNotFoundError:
            pass  # never saved (no move yet)
        except OSError as e:
            warn(f"{self.folder / gid}.json: expired, but cannot be moved to {OLD}/ "
                 f"({e.strerror or e})")

    def finished(self, gid: str) -> Saved | None:
        """Game `gid`'s file if it holds a finished game, here or in `old/` (a finished game
        is never played on, but its page may be reopened by its id to be read)."""
        if not _GAME_ID.match(gid):
            return None
        for path in (self.folder / f"{gid}.json", self.folder / OLD / f"{gid}.json"):
            try:
                item = _read(path, 0.0)
            except SaveError:
                continue
            if item.over:
                return item
        return None

    def resume_all(self, idle_seconds: float, max_games: int,
                   start: Callable[[Saved], LiveGame], drop: Callable[[str], None],
                   done: Callable[[str], None] = lambda gid: None) -> None:
        """Play on every unfinished game saved within `idle_seconds`, newest first, at most
        `max_games`: `start` starts one (ValueError if it cannot), `drop` ends one that does
        not repeat its file, `done` is told of every game tried, resumed or not. Each file
        that cannot be resumed is named in a warning."""
        for item in saved(self.folder, idle_seconds, warn):
            try:
                self._resume_one(item, max_games, start, drop)
            finally:
                done(item.gid)

    def _resume_one(self, item: Saved, max_games: int, start: Callable[[Saved], LiveGame],
                    drop: Callable[[str], None]) -> None:
        where = f"{item.path}: not resumed"
        if item.over:
            self.expired(item.gid)
            return
        if self.resumed >= max_games:
            warn(f"{where}: {max_games} games were resumed already, the most a server "
                 "plays (it moves aside once idle)")
            return
        try:
            game = start(item)
        except ValueError as e:
            warn(f"{where}: {e}")
            return
        try:
            resume(game, item.lines)
        except SaveError as e:
            warn(f"{where}: {e}")
            drop(item.gid)
            return
        game.touched = time.monotonic() - item.age  # the time it had left, not a fresh one
        self.resumed += 1


def resume(game: LiveGame, lines: list[str]) -> None:
    """Give the fresh `game` its people's moves of `lines`; SaveError unless it repeats them."""
    people = {f"s{s}" for s in game.people}
    moves = [x.split(" ", 2)[2] for x in lines
             if x.startswith("r") and len(x.split(" ", 2)) == 3 and x.split(" ", 2)[1] in people
             and x.split()[2] not in ("card", "eliminates")]
    try:
        for move in moves:
            game.advance(MAX_ADVANCE)
            game.act(parse_action(move.partition(" = ")[0], game.m))
        while len(game.transcript()) < len(lines) and game.advance(1):
            pass  # the bots' moves after the person's last one, as far as they were saved
    except (ActionError, ValueError) as e:
        raise SaveError(f"the game went otherwise ({e})") from None
    done = game.transcript()
    if list(done[:len(lines)]) != lines[:len(done)]:
        raise SaveError("the game went otherwise (the bots or the engine changed)")


__all__ = ["MAX_SAVE_BYTES", "OLD", "SAVE_PERMS", "SaveError", "Saved", "Saves", "open_folder",
           "out_of_descriptors",
           "put_aside", "resume", "save", "saved", "warn"]
