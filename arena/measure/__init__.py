"""Measuring bots against each other: tournaments, the gauntlet's strength table, and the
behaviour table of a seat (diagnose)."""
