"""The classic board against the reference listing, and every way a map file can be invalid."""

from __future__ import annotations

import json
from collections import deque
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from game.map import MapError, build_map, classic_map, load_map

# The neighbour listing of the rules reference, copied here (tests never read RULES.md).
# A line starting with spaces continues the previous one.
_BOARD = """\
North America 5
Alaska: Alberta, Kamchatka, Northwest Territory
Northwest Territory: Alaska, Alberta, Greenland, Ontario
Greenland: Iceland, Northwest Territory, Ontario, Quebec
Alberta: Alaska, Northwest Territory, Ontario, Western United States
Ontario: Alberta, Eastern United States, Greenland, Northwest Territory, Quebec,
    Western United States
Quebec: Eastern United States, Greenland, Ontario
Western United States: Alberta, Central America, Eastern United States, Ontario
Eastern United States: Central America, Ontario, Quebec, Western United States
Central America: Eastern United States, Venezuela, Western United States
South America 2
Venezuela: Brazil, Central America, Peru
Peru: Argentina, Brazil, Venezuela
Brazil: Argentina, North Africa, Peru, Venezuela
Argentina: Brazil, Peru
Europe 5
Iceland: Great Britain, Greenland, Scandinavia
Scandinavia: Great Britain, Iceland, Northern Europe, Ukraine
Ukraine: Afghanistan, Middle East, Northern Europe, Scandinavia, Southern Europe, Ural
Great Britain: Iceland, Northern Europe, Scandinavia, Western Europe
Northern Europe: Great Britain, Scandinavia, Southern Europe, Ukraine, Western Europe
Western Europe: Great Britain, North Africa, Northern Europe, Southern Europe
Southern Europe: Egypt, Middle East, North Africa, Northern Europe, Ukraine, Western Europe
Africa 3
North Africa: Brazil, Congo, East Africa, Egypt, Southern Europe, Western Europe
Egypt: East Africa, Middle East, North Africa, Southern Europe
Congo: East Africa, North Africa, South Africa
East Africa: Congo, Egypt, Madagascar, Middle East, North Africa, South Africa
South Africa: Congo, East Africa, Madagascar
Madagascar: East Africa, South Africa
Asia 7
Siberia: China, Irkutsk, Mongolia, Ural, Yakutsk
Ural: Afghanistan, China, Siberia, Ukraine
China: Afghanistan, India, Mongolia, Siam, Siberia, Ural
Afghanistan: China, India, Middle East, Ukraine, Ural
Middle East: Afghanistan, East Africa, Egypt, India, Southern Europe, Ukraine
India: Afghanistan, China, Middle East, Siam
Siam: China, India, Indonesia
Yakutsk: Irkutsk, Kamchatka, Siberia
Irkutsk: Kamchatka, Mongolia, Siberia, Yakutsk
Mongolia: China, Irkutsk, Japan, Kamchatka, Siberia
Japan: Kamchatka, Mongolia
Kamchatka: Alaska, Irkutsk, Japan, Mongolia, Yakutsk
Australia 2
Indonesia: New Guinea, Siam, Western Australia
New Guinea: Eastern Australia, Indonesia, Western Australia
Western Australia: Eastern Australia, Indonesia, New Guinea
Eastern Australia: New Guinea, Western Australia
"""


def _reference() -> tuple[dict[str, set[str]], dict[str, str], dict[str, int]]:
    """(neighbours, continent of each territory, bonus of each continent) from _BOARD."""
    lines: list[str] = []
    for raw in _BOARD.splitlines():
        if raw.startswith(" "):
            lines[-1] += " " + raw.strip()
        else:
            lines.append(raw)
    nbrs: dict[str, set[str]] = {}
    cont: dict[str, str] = {}
    bonus: dict[str, int] = {}
    current = ""
    for line in lines:
        if ":" in line:
            name, rest = line.split(":")
            nbrs[name] = {x.strip() for x in rest.split(",")}
            cont[name] = current
        else:
            current, b = line.rsplit(" ", 1)
            bonus[current] = int(b)
    return nbrs, cont, bonus


REF_NBRS, REF_CONT, REF_BONUS = _reference()


def test_reference_listing_is_consistent() -> None:
    # Guards the copy above: 42 names, symmetric, 83 borders.
    assert len(REF_NBRS) == 42
    assert all(a in REF_NBRS[b] for a in REF_NBRS for b in REF_NBRS[a])
    assert sum(len(v) for v in REF_NBRS.values()) == 2 * 83


def test_classic_matches_the_reference() -> None:
    m = classic_map()
    assert m.n_territories == 42 and len(set(m.territories)) == 42
    assert m.n_borders == 83
    assert set(m.territories) == set(REF_NBRS)
    for t in m.territories:
        i = m.territory(t)
        assert {m.territories[j] for j in np.flatnonzero(m.adjacency[i])} == REF_NBRS[t], t
        assert m.continents[m.continent_of[i]] == REF_CONT[t], t
    assert {c: int(m.bonus[i]) for i, c in enumerate(m.continents)} == REF_BONUS
    assert sorted(m.bonus.tolist(), reverse=True) == [7, 5, 5, 3, 2, 2]
    sizes = {c: int(m.continent_size[i]) for i, c in enumerate(m.continents)}
    assert sizes == {"North America": 9, "South America": 4, "Europe": 7, "Africa": 6,
                     "Asia": 12, "Australia": 4}


@pytest.mark.parametrize("a,b", [
    ("North Africa", "Southern Europe"), ("East Africa", "Middle East"),
    ("Iceland", "Scandinavia"), ("Great Britain", "Scandinavia"),
])
def test_often_dropped_borders_present(a: str, b: str) -> None:
    m = classic_map()
    assert m.adjacency[m.territory(a), m.territory(b)]
    assert m.adjacency[m.territory(b), m.territory(a)]


def test_classic_arrays_symmetric_connected_and_frozen() -> None:
    m = classic_map()
    adj = m.adjacency
    assert (adj == adj.T).all() and not adj.diagonal().any()
    assert m.degree.min() == 2 and m.degree.max() == 6
    assert (m.degree == adj.sum(axis=1)).all()
    for t in range(m.n_territories):
        row = m.neighbours[t]
        assert sorted(row[: m.degree[t]].tolist()) == np.flatnonzero(adj[t]).tolist()
        assert (row[m.degree[t]:] == -1).all()
    seen = {0}
    queue = deque([0])
    while queue:
        u = queue.popleft()
        for v in np.flatnonzero(adj[u]):
            if int(v) not in seen:
                seen.add(int(v))
                queue.append(int(v))
    assert len(seen) == 42
    for a in m.kernel:
        assert not a.flags.writeable
        with pytest.raises(ValueError):
            a.flat[0] = a.flat[0]
    assert m.has_mission_continents and (m.mission_continents >= 0).all()


def test_load_by_path_equals_classic(tmp_path: Path) -> None:
    text = (resources.files("game") / "maps" / "classic.json").read_text(encoding="utf-8")
    p = tmp_path / "copy.json"
    p.write_text(text, encoding="utf-8")
    m, c = load_map(p), classic_map()
    assert m.territories == c.territories
    for a, b in zip(m.kernel, c.kernel, strict=True):
        assert np.array_equal(a, b)
    assert classic_map() is c  # cached


def _tiny() -> dict[str, Any]:
    """A valid three-territory map (a path A - B - C) to break in one place per test."""
    return {"name": "tiny",
            "continents": [{"name": "X", "bonus": 1, "territories": ["A", "B"]},
                           {"name": "Y", "bonus": 2, "territories": ["C"]}],
            "borders": [["A", "B"], ["B", "C"]]}


def test_tiny_map_is_valid(tmp_path: Path) -> None:
    p = tmp_path / "tiny.json"
    p.write_text(json.dumps(_tiny()), encoding="utf-8")
    m = load_map(p)
    assert m.n_territories == 3 and m.n_borders == 2
    assert not m.has_mission_continents


def _broken(kind: str) -> dict[str, Any]:
    d = _tiny()
    if kind == "asymmetric":
        d["neighbours"] = {"A": ["B"], "B": ["C"], "C": ["B"]}
    elif kind == "self border":
        d["borders"].append(["C", "C"])
    elif kind == "self neighbour":
        d["neighbours"] = {"A": ["A"]}
    elif kind == "unknown name":
        d["borders"].append(["A", "Atlantis"])
    elif kind == "in no continent":
        d["borders"].append(["C", "D"])  # D only appears in a border
    elif kind == "in two continents":
        d["continents"][1]["territories"].append("A")
    elif kind == "disconnected":
        d["continents"][1]["territories"].append("D")
        d["borders"] = [["A", "B"], ["C", "D"]]
    elif kind == "duplicate":
        d["continents"][0]["territories"].append("A")
    elif kind == "no borders":
        d["borders"] = [["A", "B"]]
    elif kind == "duplicate continent":
        d["continents"][1]["name"] = "X"
    elif kind == "bad bonus":
        d["continents"][0]["bonus"] = -1
    return d


@pytest.mark.parametrize("kind,pattern", [
    ("asymmetric", r"asymmetric border: 'B' lists 'C' but not the reverse|asymmetric.*'A'"),
    ("self border", r"self border on 'C'"),
    ("self neighbour", r"self border on 'A'"),
    ("unknown name", r"unknown territory 'Atlantis'"),
    ("in no continent", r"unknown territory 'D'.*exactly one continent"),
    ("in two continents", r"'A' is in two continents \('X' and 'Y'\)"),
    ("disconnected", r"disconnected.*'C'"),
    ("duplicate", r"duplicate territory name 'A'"),
    ("no borders", r"'C' has no borders"),
    ("duplicate continent", r"duplicate continent name 'X'"),
    ("bad bonus", r"'X'.*bonus"),
])
def test_invalid_map_rejected(tmp_path: Path, kind: str, pattern: str) -> None:
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(_broken(kind)), encoding="utf-8")
    with pytest.raises(MapError, match=pattern) as e:
        load_map(p)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(str(p))


_GOOD_POS = {"A": [0, 0], "B": [0.5, 0.5], "C": [1, 1]}
_KINDS = r"'card_kinds' must give every territory one of infantry, cavalry, artillery"


MALFORMED_OPTIONAL: list[tuple[str, str, Any, str]] = [
    ("neighbours a string", "neighbours", {"A": "B"}, r"'neighbours' of 'A' must be a list"),
    ("neighbours a number", "neighbours", {"A": 5}, r"'neighbours' of 'A' must be a list"),
    ("neighbour a number", "neighbours", {"A": [5]}, r"'neighbours' of 'A' must be a list"),
    ("neighbours a list", "neighbours", ["A", "B"], r"'neighbours' must map"),
    ("position strings", "positions", {**_GOOD_POS, "A": ["x", "y"]}, r"'positions'"),
    ("position of 3", "positions", {**_GOOD_POS, "A": [0, 0, 0]}, r"'positions'"),
    ("position null", "positions", {**_GOOD_POS, "A": None}, r"'positions'"),
    ("position a number", "positions", {**_GOOD_POS, "A": 7}, r"'positions'"),
    ("position NaN", "positions", {**_GOOD_POS, "A": [float("nan"), 0]}, r"'positions'"),
    ("positions missing", "positions", {"A": [0, 0]}, r"'positions'"),
    ("card kinds a list", "card_kinds", ["infantry"] * 3, _KINDS),
    ("card kinds missing", "card_kinds", {"A": "infantry", "B": "cavalry"}, _KINDS),
    ("card kind wild", "card_kinds", {"A": "infantry", "B": "cavalry", "C": "wild"}, _KINDS),
    ("card kind a number", "card_kinds", {"A": 0, "B": 1, "C": 2}, _KINDS),
    ("card kind unknown territory", "card_kinds",
     {"A": "infantry", "B": "cavalry", "C": "artillery", "D": "infantry"}, _KINDS),
]


@pytest.mark.parametrize("label,field,value,pattern", MALFORMED_OPTIONAL,
                         ids=[r[0] for r in MALFORMED_OPTIONAL])
def test_malformed_optional_field(tmp_path: Path, label: str, field: str, value: Any,
                                  pattern: str) -> None:
    d = _tiny()
    d[field] = value
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(MapError, match=pattern) as e:
        load_map(p)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(str(p))


def test_card_kinds_loaded() -> None:
    d = _tiny()
    d["card_kinds"] = {"A": "artillery", "B": "artillery", "C": "infantry"}
    assert build_map(d, "m").card_kind.tolist() == [2, 2, 0, 3, 3]  # two wilds after them
    assert build_map(_tiny(), "m").card_kind.tolist() == [0, 1, 2, 3, 3]


def test_positions_loaded() -> None:
    d = _tiny()
    d["positions"] = _GOOD_POS
    m = build_map(d, "m")
    assert m.positions is not None and not m.positions.flags.writeable
    assert m.positions.tolist() == [[0, 0], [0.5, 0.5], [1, 1]]
    assert build_map(_tiny(), "m").positions is None


def test_asymmetric_neighbours_named(tmp_path: Path) -> None:
    d = _tiny()
    d["neighbours"] = {"A": ["B"], "B": ["A", "C"]}  # B lists C, C lists nobody
    with pytest.raises(MapError, match=r"asymmetric border: 'B' lists 'C'"):
        build_map(d, "m")


def test_not_json_and_missing_file(tmp_path: Path) -> None:
    p = tmp_path / "bad.json"
    p.write_text("{ not json", encoding="utf-8")
    with pytest.raises(MapError, match=r"not valid JSON \(line 1") as e:
        load_map(p)
    assert "\n" not in str(e.value)
    with pytest.raises(MapError, match=r"nope\.json: cannot read map file") as e:
        load_map(tmp_path / "nope.json")
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("data,pattern", [
    ([], r"top level must be an object"),
    ({"continents": [], "borders": []}, r"'continents' must be a non-empty list"),
    ({"continents": [{"name": "X", "bonus": 1, "territories": ["A"]}]}, r"'borders' must"),
    ({"continents": [{"bonus": 1, "territories": ["A"]}], "borders": []}, r"needs a 'name'"),
])
def test_malformed_structure(data: Any, pattern: str) -> None:
    with pytest.raises(MapError, match=pattern):
        build_map(data, "m")
