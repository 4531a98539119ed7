"""Search with the linear player's weights: a value of positions, hidden information sampled
from the seat's view, rollouts, and the attack-phase planner (docs/search.md)."""
