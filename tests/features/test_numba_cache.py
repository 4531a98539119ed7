"""The features package's numba caches are dropped when a source they may inline changes."""

from __future__ import annotations

from pathlib import Path

from features._cache import cache_packages, features_sources
from game.numba_cache import clear_stale_caches

FEATURES = Path(__file__).resolve().parents[2] / "features"


def test_the_planner_and_every_subpackage_are_covered() -> None:
    assert FEATURES / "search" / "plan.py" in features_sources()
    assert FEATURES / "compiled.py" in features_sources()
    assert FEATURES / "search" in cache_packages() and FEATURES in cache_packages()


def test_a_changed_source_clears_the_cache_and_an_unchanged_one_does_not(tmp_path: Path
                                                                          ) -> None:
    pkg, src = tmp_path / "pkg", tmp_path / "kernel.py"
    (pkg / "__pycache__").mkdir(parents=True)
    src.write_text("x = 1\n")
    clear_stale_caches(pkg, [src])
    stale = pkg / "__pycache__" / "k.nbi"
    stale.write_text("")
    assert not clear_stale_caches(pkg, [src]) and stale.exists()
    src.write_text("x = 2\n")
    assert clear_stale_caches(pkg, [src]) and not stale.exists()
