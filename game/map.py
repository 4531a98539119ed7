"""Frozen board description: territories, continents, bonuses and borders as numpy arrays."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from game.atomic import MiB, read_limited
from game.rules import layout as L
from game.rules.cards import classic_card_kinds
from game.untrusted import UntrustedJSONError, parse_json

MAX_MAP_BYTES = 4 * MiB  # a map file (the classic board is 5 KB)
# A board's size, checked before anything is allocated (issue 65, T1: a 33,000-territory map
# in one start_game line cost the bot server 1.6 GB, the adjacency being n x n). The classic
# board has 42 territories, 6 continents, 83 borders, names of at most 21 characters; at the
# bounds a map holds about 1 MB of adjacency and 4 MB of neighbour lists.
MAX_TERRITORIES = 1000
MAX_CONTINENTS = 100
MAX_BORDERS = 20_000  # entries of 'borders', and of all the 'neighbours' lists together
MAX_NAME = 100  # characters of a territory's or a continent's name
MAX_BONUS = 1000  # a continent's bonus


class MapError(ValueError):
    """A map file that cannot describe a playable board."""


@dataclass(frozen=True, eq=False)
class Map:
    """An immutable board; build it with `load_map` or `classic_map`.

    Arrays are read-only. `neighbours[t, :degree[t]]` lists t's neighbours in index order, the
    padding is -1; `adjacency[a, b]` is True for a border. `card_kind[c]` is the kind of card c
    (card c < T shows territory c; the last N_WILDS cards are wild).
    """

    name: str
    territories: tuple[str, ...]
    continents: tuple[str, ...]
    continent_of: np.ndarray  # int32[T]
    bonus: np.ndarray  # int32[C]
    adjacency: np.ndarray  # bool[T, T]
    neighbours: np.ndarray  # int32[T, max_degree], -1 padded
    degree: np.ndarray  # int32[T]
    continent_size: np.ndarray  # int32[C]
    mission_continents: np.ndarray  # int32[6, 2]: continents the missions name, -1 if absent
    card_kind: np.ndarray  # int32[T + N_WILDS]: each card's kind (game.rules.layout INFANTRY..WILD)
    positions: np.ndarray | None = None  # float64[T, 2] in [0, 1] for drawing, if the file has them
    index: dict[str, int] = field(default_factory=dict, repr=False)

    @cached_property
    def kernel(self) -> L.MapArrays:
        """The arrays every rule kernel takes (built once: the map is frozen)."""
        return L.MapArrays(self.continent_of, self.bonus, self.adjacency, self.neighbours,
                           self.degree, self.continent_size, self.mission_continents,
                           self.card_kind)

    @property
    def has_mission_continents(self) -> bool:
        """True when every continent named by a secret mission exists on this board."""
        return bool((self.mission_continents >= 0).all())

    @property
    def n_territories(self) -> int:
        """Number of territories."""
        return len(self.territories)

    @property
    def n_continents(self) -> int:
        """Number of continents."""
        return len(self.continents)

    @property
    def n_borders(self) -> int:
        """Number of undirected borders."""
        return int(self.adjacency.sum()) // 2

    def territory(self, name: str) -> int:
        """Index of a territory by name (MapError if unknown)."""
        try:
            return self.index[name]
        except KeyError:
            raise MapError(f"unknown territory {name!r}") from None


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    a.flags.writeable = False
    return a


def _check_size(data: dict[str, Any], conts: list[Any], borders: list[Any],
                fail: Callable[[str], MapError]) -> None:
    """The size bounds (MAX_TERRITORIES, ...), read from the lengths of the parsed lists."""
    if len(conts) > MAX_CONTINENTS:
        raise fail(f"'continents': {len(conts)} continents, at most {MAX_CONTINENTS} allowed")
    if isinstance(data.get("name"), str) and len(data["name"]) > MAX_NAME:
        raise fail(f"'name': {len(data['name'])} characters, at most {MAX_NAME} allowed")
    n = 0
    for c in conts:
        terrs = c.get("territories") if isinstance(c, dict) else None
        n += len(terrs) if isinstance(terrs, list) else 0
        named = [c.get("name")] if isinstance(c, dict) else []
        named += terrs if isinstance(terrs, list) else []
        for name in named:
            if isinstance(name, str) and len(name) > MAX_NAME:
                raise fail(f"name {name[:20]!r}...: {len(name)} characters, at most "
                           f"{MAX_NAME} allowed")
    if n > MAX_TERRITORIES:
        raise fail(f"'continents': {n} territories, at most {MAX_TERRITORIES} allowed")
    nb = data.get("neighbours")
    listed = len(borders) + (sum(len(v) for v in nb.values() if isinstance(v, list))
                             if isinstance(nb, dict) else 0)
    if listed > MAX_BORDERS:
        raise fail(f"'borders' and 'neighbours': {listed} entries, at most {MAX_BORDERS} "
                   "allowed")


def build_map(data: dict[str, Any], source: str = "<map>") -> Map:
    """Validate a map description (the JSON layout of `game/maps/classic.json`) and freeze it."""

    def fail(msg: str) -> MapError:
        return MapError(f"{source}: {msg}")

    if not isinstance(data, dict):
        raise fail("top level must be an object with 'continents' and 'borders'")
    conts = data.get("continents")
    borders = data.get("borders")
    if not isinstance(conts, list) or not conts:
        raise fail("'continents' must be a non-empty list")
    if not isinstance(borders, list):
        raise fail("'borders' must be a list of [territory, territory] pairs")
    _check_size(data, conts, borders, fail)
    names: list[str] = []
    cont_names: list[str] = []
    bonuses: list[int] = []
    cont_of: dict[str, int] = {}
    spelled: dict[str, str] = {}  # territory name as action texts read it -> name
    for ci, c in enumerate(conts):
        if not isinstance(c, dict) or not isinstance(c.get("name"), str):
            raise fail(f"continent #{ci} needs a 'name' string")
        cname = c["name"]
        if cname in cont_names:
            raise fail(f"duplicate continent name {cname!r}")
        bonus = c.get("bonus")
        if not isinstance(bonus, int) or isinstance(bonus, bool) or not 0 <= bonus <= MAX_BONUS:
            raise fail(f"continent {cname!r}: 'bonus' must be an integer 0..{MAX_BONUS}")
        terrs = c.get("territories")
        if not isinstance(terrs, list) or not terrs:
            raise fail(f"continent {cname!r}: 'territories' must be a non-empty list")
        for t in terrs:
            if not isinstance(t, str) or not t.strip():
                raise fail(f"continent {cname!r}: territory names must be non-empty strings")
            if any(ch.isspace() and ch != " " for ch in t):
                raise fail(f"territory name {t!r}: the only blank allowed is the space (action "
                           "texts are split on blanks)")
            key = t.replace("_", " ")
            if key in spelled and spelled[key] != t:
                raise fail(f"territory names {spelled[key]!r} and {t!r} read the same in action "
                           "texts (a space is written '_')")
            spelled[key] = t
            if t in cont_of:
                other = cont_names[cont_of[t]] if cont_of[t] < len(cont_names) else cname
                if other == cname:
                    raise fail(f"duplicate territory name {t!r}")
                raise fail(f"territory {t!r} is in two continents ({other!r} and {cname!r})")
            cont_of[t] = ci
            names.append(t)
        cont_names.append(cname)
        bonuses.append(bonus)
    index = {t: i for i, t in enumerate(names)}
    n = len(names)
    adj = np.zeros((n, n), dtype=np.bool_)
    for b in borders:
        if not (isinstance(b, list) and len(b) == 2 and all(isinstance(x, str) for x in b)):
            raise fail(f"border {b!r} must be a pair of territory names")
        a_name, b_name = b
        for x in (a_name, b_name):
            if x not in index:
                raise fail(f"border {a_name!r}-{b_name!r} names unknown territory {x!r} "
                           "(a territory must be listed in exactly one continent)")
        if a_name == b_name:
            raise fail(f"self border on {a_name!r}")
        i, j = index[a_name], index[b_name]
        adj[i, j] = adj[j, i] = True
    if "neighbours" in data:
        # Optional per-territory lists: they must agree both ways with each other.
        nb = data["neighbours"]
        if not isinstance(nb, dict):
            raise fail("'neighbours' must map territory names to lists of names")
        for t, ns in nb.items():
            if t not in index:
                raise fail(f"'neighbours' names unknown territory {t!r}")
            if not isinstance(ns, list) or not all(isinstance(x, str) for x in ns):
                raise fail(f"'neighbours' of {t!r} must be a list of territory names")
            for x in ns:
                if x not in index:
                    raise fail(f"neighbours of {t!r} name unknown territory {x!r}")
                if x == t:
                    raise fail(f"self border on {t!r}")
                back = nb.get(x, [])
                if not isinstance(back, list) or t not in back:
                    raise fail(f"asymmetric border: {t!r} lists {x!r} but not the reverse")
                adj[index[t], index[x]] = adj[index[x], index[t]] = True
    deg = adj.sum(axis=1).astype(np.int32)
    for i in range(n):
        if deg[i] == 0:
            raise fail(f"territory {names[i]!r} has no borders")
    # Connectivity by breadth-first search from territory 0.
    seen = np.zeros(n, dtype=np.bool_)
    seen[0] = True
    queue = deque([0])
    while queue:
        u = queue.popleft()
        for v in np.flatnonzero(adj[u]):
            if not seen[v]:
                seen[v] = True
                queue.append(int(v))
    if not seen.all():
        lost = names[int(np.flatnonzero(~seen)[0])]
        raise fail(f"the graph is disconnected ({lost!r} cannot be reached from {names[0]!r})")
    max_deg = int(deg.max())
    nbr = -np.ones((n, max_deg), dtype=np.int32)
    for i in range(n):
        js = np.flatnonzero(adj[i])
        nbr[i, : len(js)] = js
    positions = None
    if "positions" in data:
        pos = data["positions"]
        if not isinstance(pos, dict) or set(pos) != set(names):
            raise fail("'positions' must give [x, y] for every territory")
        try:
            positions = np.array([pos[t] for t in names], dtype=np.float64)
        except (TypeError, ValueError):
            positions = np.zeros(0)
        if positions.shape != (n, 2) or not np.isfinite(positions).all():
            raise fail("'positions' must give [x, y] numbers for every territory")
    cont_arr = np.array([cont_of[t] for t in names], dtype=np.int32)
    mission_conts = np.array(
        [[cont_names.index(c) if c in cont_names else -1 for c in pair]
         for pair in L.MISSION_CONTINENTS], dtype=np.int32)
    kinds = classic_card_kinds(n)
    if "card_kinds" in data:
        # Optional: the board's own deck, one territory card per territory (wilds stay wild).
        ck = data["card_kinds"]
        allowed = L.KIND_NAMES[:L.N_KINDS]
        if (not isinstance(ck, dict) or set(ck) != set(names)
                or not all(k in allowed for k in ck.values())):
            raise fail(f"'card_kinds' must give every territory one of {', '.join(allowed)}")
        kinds[:n] = [allowed.index(ck[t]) for t in names]
    return Map(
        name=str(data.get("name", source)),
        territories=tuple(names),
        continents=tuple(cont_names),
        continent_of=_frozen(cont_arr),
        bonus=_frozen(np.array(bonuses, dtype=np.int32)),
        adjacency=_frozen(adj),
        neighbours=_frozen(nbr),
        degree=_frozen(deg),
        continent_size=_frozen(np.bincount(cont_arr, minlength=len(cont_names)).astype(np.int32)),
        mission_continents=_frozen(mission_conts),
        card_kind=_frozen(kinds),
        positions=None if positions is None else _frozen(positions),
        index=index,
    )


def load_map(path: str | Path) -> Map:
    """Load and validate a JSON map file; a bad file raises MapError with a one-line reason."""
    p = Path(path)
    try:
        data = parse_json(read_limited(p, MAX_MAP_BYTES, "a map file"), str(p))
    except OSError as e:
        raise MapError(f"{p}: cannot read map file ({e.strerror})") from None
    except UntrustedJSONError as e:
        raise MapError(str(e)) from None
    return build_map(data, str(p))


_CLASSIC: Map | None = None


def board_positions(m: Map) -> np.ndarray:
    """Territory positions in [0, 1]^2 for drawing: the map's own, the `<map>_positions.json`,
    or a circle."""
    if m.positions is not None:
        return np.asarray(m.positions, dtype=float)
    try:
        ref = resources.files("game") / "maps" / f"{m.name}_positions.json"
        pos = json.loads(ref.read_text(encoding="utf-8"))["positions"]
        return np.array([pos[t] for t in m.territories], dtype=float)
    except (FileNotFoundError, KeyError, json.JSONDecodeError):
        a = np.linspace(0, 2 * np.pi, m.n_territories, endpoint=False)
        return np.stack([0.5 + 0.42 * np.cos(a), 0.5 + 0.42 * np.sin(a)], axis=1)


def classic_map() -> Map:
    """The standard 42-territory board (cached: the Map is immutable)."""
    global _CLASSIC
    if _CLASSIC is None:
        ref = resources.files("game") / "maps" / "classic.json"
        _CLASSIC = build_map(json.loads(ref.read_text(encoding="utf-8")), "classic.json")
    return _CLASSIC
