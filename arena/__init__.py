"""Tools that play bots against each other: one game, tournaments, a viewer, the bot server.

Layering: arena uses game, features and a few evolve helpers (CLI dispatch, plots, Wilson
interval); game, features and evolve never import arena (tests/test_layers.py checks it).
"""

__all__: list[str] = []
