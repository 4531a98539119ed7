"""Linear players for riskevo: territory features, the genome layout and the compiled game loop."""

from features._cache import clear_stale_caches
from features.registry import FEATURE_SET_VERSION, FEATURES, N_GENES, Feature

clear_stale_caches()

__all__ = ["FEATURES", "FEATURE_SET_VERSION", "N_GENES", "Feature", "clear_stale_caches"]
