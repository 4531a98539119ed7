"""Atomic file writes: a temp file in the target's folder, flushed, then renamed over it.

A reader (or a resumed run) sees the old file or the new one, never a half-written one.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO


@contextmanager
def atomic_file(path: str | Path, mode: str = "wb") -> Iterator[IO]:  # type: ignore[type-arg]
    """Open a temp file to write; on success it replaces `path`, on error it is removed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        encoding = None if "b" in mode else "utf-8"
        with open(fd, mode, encoding=encoding) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; outputs are for sharing
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write bytes atomically."""
    with atomic_file(path, "wb") as fh:
        fh.write(data)


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write UTF-8 text atomically."""
    with atomic_file(path, "w") as fh:
        fh.write(text)


__all__ = ["atomic_file", "atomic_write_bytes", "atomic_write_text"]
