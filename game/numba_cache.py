"""Guard against stale numba caches across source files.

numba keys each cached function on its own source file only, so a cached kernel that calls a
kernel from another file (`step` calls `turns._settle`; the compiled game loop calls `step`)
keeps running the old code after that other file changes. Each package clears its own cache
when any source it depends on differs from the last import.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from game.atomic import atomic_write_text


def clear_stale_caches(package_dir: Path, sources: Iterable[Path]) -> bool:
    """Delete package_dir/__pycache__/*.nbi|*.nbc if `sources` changed; True if cleared."""
    h = hashlib.sha256()
    try:
        for p in sorted(sources):
            h.update(p.name.encode())
            h.update(p.read_bytes())
        cache = package_dir / "__pycache__"
        stamp = cache / "riskevo-sources.sha256"
        digest = h.hexdigest()
        if stamp.is_file() and stamp.read_text() == digest:
            return False
        for f in [*cache.glob("*.nbi"), *cache.glob("*.nbc")]:
            f.unlink(missing_ok=True)
        atomic_write_text(stamp, digest)
        return True
    except OSError:
        # A read-only install cannot hold a cache written by a later edit: nothing to clear.
        return False


GAME_DIR = Path(__file__).resolve().parent


def game_sources() -> list[Path]:
    """The engine's kernel sources: the floor's, the rules' (game/rules) and the compiled
    bots' (game/bots)."""
    return sorted([*GAME_DIR.glob("*.py"), *(GAME_DIR / "rules").glob("*.py"),
                   *(GAME_DIR / "bots").glob("*.py")])
