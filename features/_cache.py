"""Clear the features package's numba caches when any engine or features source changed."""

from __future__ import annotations

from pathlib import Path

from game.numba_cache import clear_stale_caches as _clear
from game.numba_cache import game_sources

HERE = Path(__file__).resolve().parent


def cache_packages() -> list[Path]:
    """features/ and each of its subpackages: each keeps numba files in its own __pycache__
    (features/search among them: the compiled loop inlines the search)."""
    return [HERE, *sorted(p.parent for p in HERE.glob("*/__init__.py"))]


def features_sources() -> list[Path]:
    """What a features kernel may depend on: the engine's sources and every features source."""
    return [*game_sources(), *sorted(HERE.rglob("*.py"))]


def clear_stale_caches() -> bool:
    """Drop the numba files of every package in `cache_packages` if any of
    `features_sources` changed since the last import."""
    sources = features_sources()
    cleared = False
    for pkg in cache_packages():
        cleared = _clear(pkg, sources) or cleared
    return cleared
