"""Clear the features package's numba caches when any engine or features source changed."""

from __future__ import annotations

from pathlib import Path

from game.numba_cache import clear_stale_caches as _clear
from game.numba_cache import game_sources


def clear_stale_caches() -> bool:
    """Drop features/__pycache__ numba files if game/*.py or features/*.py changed."""
    here = Path(__file__).resolve().parent
    return _clear(here, [*game_sources(), *here.glob("*.py")])
