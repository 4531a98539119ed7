"""The only module that touches DEAP's global `creator`: fitness and individual types."""

from __future__ import annotations

from typing import Any

from deap import base, creator

# creator.create registers classes globally and warns when called twice, so guard it: the
# module can be imported by several workers/tests in one process.
if not hasattr(creator, "FitnessMu"):
    creator.create("FitnessMu", base.Fitness, weights=(1.0,))
if not hasattr(creator, "Individual"):
    # A list of floats (DEAP operators' native type) carrying its TrueSkill rating.
    creator.create("Individual", list, fitness=creator.FitnessMu, rating=None)

FitnessMu: Any = creator.FitnessMu
Individual: Any = creator.Individual

__all__ = ["FitnessMu", "Individual"]
