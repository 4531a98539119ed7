"""The population and its breeding: DEAP types (`creator`), individuals (`ga`), the toolbox,
the ask/tell strategies, islands and the per-generation records."""
