"""Evolution of linear Risk players: DEAP operators, TrueSkill leagues, joblib, resumable runs."""

from evolve.stats import wilson_interval

__all__ = ["wilson_interval"]
