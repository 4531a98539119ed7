"""Search with the linear player's weights: a value of positions, rollouts, and the search of the
attack phase (docs/search.md); hidden information is sampled by `game.rules.determinize`."""
