"""A map's size is bounded before anything is allocated (issue 65, T1): one 1 MiB `start_game`
line with a 33,000-territory chain map cost `arena serve --tcp` 1.6 GB and 9 s (an n x n
adjacency; the server's side: tests/arena/test_serve_bounds.py). Each bound is a one-line
error naming the field and what is allowed."""

from __future__ import annotations

from typing import Any

import pytest

from game.map import (
    MAX_BONUS,
    MAX_BORDERS,
    MAX_CONTINENTS,
    MAX_NAME,
    MAX_TERRITORIES,
    MapError,
    build_map,
)


def chain(n: int, continents: int = 1, name_len: int = 0) -> dict[str, Any]:
    """n territories in a line, spread over `continents` continents."""
    names = [f"t{i}".ljust(name_len, "x") for i in range(n)]
    per = -(-n // continents)
    return {"continents": [{"name": f"c{c}", "bonus": 1,
                            "territories": names[c * per:(c + 1) * per]}
                           for c in range(continents)],
            "borders": [[names[i], names[i + 1]] for i in range(n - 1)]}


def test_a_map_at_every_bound_loads() -> None:
    m = build_map(chain(MAX_TERRITORIES, MAX_CONTINENTS, MAX_NAME))
    assert m.n_territories == MAX_TERRITORIES and m.n_continents == MAX_CONTINENTS


@pytest.mark.parametrize(("data", "says"), [
    (chain(MAX_TERRITORIES + 1),
     f"'continents': {MAX_TERRITORIES + 1} territories, at most {MAX_TERRITORIES} allowed"),
    (chain(MAX_CONTINENTS + 1, MAX_CONTINENTS + 1),
     f"'continents': {MAX_CONTINENTS + 1} continents, at most {MAX_CONTINENTS} allowed"),
    (chain(3, 1, MAX_NAME + 1), f"{MAX_NAME + 1} characters, at most {MAX_NAME} allowed"),
    ({**chain(3), "name": "m" * (MAX_NAME + 1)},
     f"'name': {MAX_NAME + 1} characters, at most {MAX_NAME} allowed"),
    ({**chain(3), "borders": [["t0", "t1"]] * (MAX_BORDERS + 1)},
     f"'borders' and 'neighbours': {MAX_BORDERS + 1} entries, at most {MAX_BORDERS} allowed"),
    ({"continents": [{"name": "c", "bonus": 2**40, "territories": ["a", "b"]}],
      "borders": [["a", "b"]]}, f"'bonus' must be an integer 0..{MAX_BONUS}"),
])
def test_a_map_over_a_bound_is_a_one_line_error(data: dict[str, Any], says: str) -> None:
    with pytest.raises(MapError) as e:
        build_map(data, "start_game.map")
    assert "\n" not in str(e.value) and str(e.value).startswith("start_game.map: ")
    assert says in str(e.value)
