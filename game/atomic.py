"""Atomic file writes: a temp file in the target's folder, flushed, then renamed over it.

A reader (or a resumed run) sees the old file or the new one, never a half-written one.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO


def check_replaceable(path: Path) -> None:
    """FileExistsError when `path` exists and is not a regular file: a symlink, FIFO, device or
    socket is never replaced by the rename (as root that would replace /dev/full)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError:
        return  # the write itself will name the problem
    if not stat.S_ISREG(st.st_mode):
        raise FileExistsError(errno.EEXIST, "exists and is not a regular file (a link, FIFO, "
                              "device or folder): not replaced", str(path))


@contextmanager
def atomic_file(path: str | Path, mode: str = "wb",
                perms: int = 0o644) -> Iterator[IO]:  # type: ignore[type-arg]
    """Open a temp file to write; on success it replaces `path` with permission bits `perms`
    (0o600 for a file only its owner may read), on error it is removed."""
    path = Path(path)
    check_replaceable(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        encoding = None if "b" in mode else "utf-8"
        with open(fd, mode, encoding=encoding) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        if perms != 0o600:
            os.chmod(tmp, perms)  # mkstemp makes 0600; outputs are for sharing
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


MiB = 1 << 20


def read_limited(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of a file of at most `limit` bytes; OSError(EFBIG) naming the limit if it
    holds more (or never ends: /dev/zero), as every other read error is an OSError. Nothing
    blocks: the file is opened without waiting (a FIFO would wait for a writer, then for its
    data: it is refused), and a device with nothing to read is an error."""
    fd = _open_nonblocking(path)
    try:
        st = os.fstat(fd)
        if stat.S_ISFIFO(st.st_mode) or stat.S_ISSOCK(st.st_mode):
            raise OSError(errno.EINVAL, f"a FIFO ({what} must be a regular file)",
                          str(path))
        if stat.S_ISDIR(st.st_mode):
            raise OSError(errno.EISDIR, f"a folder ({what} must be a regular file)", str(path))
        chunks, got = [], 0
        while got <= limit:
            try:
                chunk = os.read(fd, limit + 1 - got)
            except BlockingIOError:
                raise OSError(errno.EAGAIN, f"nothing to read without waiting ({what} must be "
                              "a regular file)", str(path)) from None
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    finally:
        os.close(fd)
    if got > limit:
        raise OSError(errno.EFBIG, f"larger than {_size(limit)}, the limit for {what}", str(path))
    return b"".join(chunks)


def _open_nonblocking(path: str | Path) -> int:
    """A read-only descriptor of `path`, opened without waiting (a FIFO without a writer)."""
    return os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)


def read_regular(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of `path` if it is a regular file of at most `limit` bytes, else OSError
    naming why: a symbolic link is not followed, and a FIFO, device or folder is refused
    without a read, so nothing blocks or reads forever."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise OSError(errno.ELOOP, f"a symbolic link ({what} must be a regular file)",
                          str(path)) from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, f"not a regular file ({what} must be one)", str(path))
        if st.st_size > limit:
            raise OSError(errno.EFBIG, f"larger than {_size(limit)}, the limit for {what}",
                          str(path))
        chunks, got = [], 0
        while got <= limit and (chunk := os.read(fd, limit + 1 - got)):
            chunks.append(chunk)
            got += len(chunk)
    finally:
        os.close(fd)
    if got > limit:
        raise OSError(errno.EFBIG, f"larger than {_size(limit)}, the limit for {what}", str(path))
    return b"".join(chunks)


def check_size(path: str | Path, limit: int, what: str) -> None:
    """OSError naming the limit unless `path` is a readable regular file of at most `limit`
    bytes (for files handed to a reader that cannot be bounded, such as numpy.load); opened
    without waiting, so a FIFO is refused, not waited on."""
    fd = _open_nonblocking(path)  # readable, and never waits (a FIFO)
    try:
        st = os.fstat(fd)
    finally:
        os.close(fd)
    if not stat.S_ISREG(st.st_mode):
        raise OSError(errno.EINVAL, f"not a regular file ({what} must be one)", str(path))
    if st.st_size > limit:
        raise OSError(errno.EFBIG, f"larger than {_size(limit)}, the limit for {what}", str(path))


def _size(n: int) -> str:
    return f"{n // MiB} MiB" if n % MiB == 0 else f"{n} bytes"


def atomic_write_bytes(path: str | Path, data: bytes, perms: int = 0o644) -> None:
    """Write bytes atomically (permission bits `perms`)."""
    with atomic_file(path, "wb", perms) as fh:
        fh.write(data)


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write UTF-8 text atomically."""
    with atomic_file(path, "w") as fh:
        fh.write(text)


__all__ = ["MiB", "atomic_file", "atomic_write_bytes", "atomic_write_text", "check_replaceable",
           "check_size", "read_limited", "read_regular"]
