"""One process per folder: an flock on the folder itself, its holder named in a file inside.

An evolve run folder and `arena web`'s saves folder are each written by one process at a
time. The lock is an flock on the folder (not on a file in it, which could be deleted while
held and let a second process in), so the kernel drops it when its process dies: a killed
process never blocks its successor. The holder file only names the process for the message.
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

from game.atomic import check_replaceable, read_limited

__all__ = ["FolderLockedError", "lock_folder"]


class FolderLockedError(OSError):
    """Another live process holds the folder's lock; `holder` is its pid as recorded ('?')."""

    def __init__(self, folder: Path, holder: str) -> None:
        super().__init__(errno.EWOULDBLOCK, f"in use by process {holder}", str(folder))
        self.holder = holder


def lock_folder(folder: Path, holder_file: Path) -> int:
    """Take `folder`'s lock and write this process's id to `holder_file`; the open descriptor
    holds the lock (closing it releases it). FolderLockedError if another process holds it,
    another OSError if the folder cannot be opened or the holder file written."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        os.close(fd)
        if e.errno not in (errno.EWOULDBLOCK, errno.EACCES):
            raise
        try:
            holder = read_limited(holder_file, 64, "a lock's holder file").decode(
                "ascii", "replace").strip()
        except OSError:
            holder = ""
        raise FolderLockedError(folder, holder or "?") from None
    try:
        check_replaceable(holder_file)
        with open(holder_file, "w", encoding="ascii") as f:
            f.write(f"{os.getpid()}\n")
    except OSError:
        os.close(fd)
        raise
    return fd
