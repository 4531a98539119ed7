"""The board and replays as `arena web`'s page reads them."""

from __future__ import annotations

from typing import Any

from arena.explain import header_rules
from game.map import Map, board_positions
from game.replay import Replay


def map_json(m: Map) -> dict[str, Any]:
    """The board for drawing: names, positions, continents with bonuses, borders."""
    pos = board_positions(m)
    borders = [[a, b] for a in range(m.n_territories) for b in range(a + 1, m.n_territories)
               if m.adjacency[a, b]]
    return {"name": m.name, "territories": list(m.territories),
            "positions": [[round(float(x), 4), round(float(y), 4)] for x, y in pos],
            "continents": [{"name": c, "bonus": int(m.bonus[i]),
                            "members": [t for t in range(m.n_territories)
                                        if int(m.continent_of[t]) == i]}
                           for i, c in enumerate(m.continents)],
            "borders": borders, "card_kinds": [int(k) for k in m.card_kind]}


def replay_json(rep: Replay, name: str) -> dict[str, Any]:
    """A replay as the page reads it."""
    # By seat, as the transcript names its players (older transcripts name none).
    recorded = len(rep.labels) == len(rep.seats)
    labels = [rep.labels[p] if recorded else f"seat {s}" for s, p in enumerate(rep.seats)]
    try:  # in the live game's words ("trade at 5 cards"); an unknown header as it stands
        rules = header_rules("rules " + rep.rules).words()
    except ValueError:
        rules = rep.rules
    return {"name": name, "map": map_json(rep.map), "rules": rules, "result": rep.result,
            "missions": {str(k): v for k, v in rep.missions.items()}, "labels": labels,
            "frames": [f.to_json() for f in rep.frames]}


__all__ = ["map_json", "replay_json"]
