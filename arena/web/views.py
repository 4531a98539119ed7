"""The board and replays as `arena web`'s page reads them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.web.mapshapes import shipped
from arena.web.story import second_person
from game.map import Map, board_positions
from game.record.position import header_rules
from game.record.replay import Replay

if TYPE_CHECKING:  # the page reads only its state
    from arena.web.warm import Engine


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
            "borders": borders, "card_kinds": [int(k) for k in m.card_kind],
            "shapes": shipped(m)}


def seat_labels(rep: Replay) -> list[str]:
    """The players by seat as the transcript names them ("seat N" when it names none)."""
    recorded = len(rep.labels) == len(rep.seats)
    return [rep.labels[p] if recorded else f"seat {s}" for s, p in enumerate(rep.seats)]


def replay_json(rep: Replay, name: str) -> dict[str, Any]:
    """A replay as the page reads it."""
    labels = seat_labels(rep)
    try:  # in the live game's words ("trade at 5 cards"); an unknown header as it stands
        rules = header_rules("rules " + rep.rules).words()
    except ValueError:
        rules = rep.rules
    return {"name": name, "map": map_json(rep.map), "rules": rules, "result": rep.result,
            "missions": {str(k): v for k, v in rep.missions.items()}, "labels": labels,
            "frames": [{**(j := f.to_json()), "text": second_person(str(j["text"]))}
                       for f in rep.frames]}


# The background warm-up (`Engine.warm`) runs at every start; with numba's cache warm it only
# loads the kernels, which took 7 s on a loaded two-core machine. Not ready for longer than
# this means it is really compiling, and only then does the page say so.
LOADING_SECONDS = 15


def engine_state(engine: Engine) -> dict[str, Any]:
    """`Engine.json` and `compiling`: not ready for longer than loading a warm cache takes."""
    e = engine.json()
    return {**e, "compiling": not e["ready"] and e["seconds"] >= LOADING_SECONDS}


__all__ = ["LOADING_SECONDS", "engine_state", "map_json", "replay_json", "seat_labels"]
