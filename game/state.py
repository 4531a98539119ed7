"""Mutable game state (small numpy arrays) and the frozen rules it is played under."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np

from game.map import Map
from game.rules import layout as L

# Hand sizes rules.trade_at may take: 3 cards always hold a set with a wild, 10 is every kind
# three times over plus one, beyond which no engine asks.
TRADE_AT_RANGE = (3, 10)


class RulesError(ValueError):
    """A rules option that does not exist or has a value out of range."""


# Most rounds rules.cap may take, wherever rules come from (a run's configuration reads the
# bound from the field): far beyond any game, far inside the kernels' int32.
MAX_CAP = 1_000_000


@dataclass(frozen=True)
class Rules:
    """Rule options; the defaults are the standard game (docs/rules.md).

    This is the one home of the options: a run's configuration section `[rules]` is built from
    these fields (`evolve.config`), with the bounds in each field's metadata.
    """

    missions: bool = field(default=False, metadata={
        "doc": "secret missions instead of world domination"})
    fixed_cards: bool = field(default=False, metadata={
        "doc": "fixed set values instead of escalating ones"})
    path_fortify: bool = field(default=False, metadata={
        "doc": "fortify along a chain of own territories"})
    cap: int = field(default=100, metadata={
        "lo": 1, "hi": MAX_CAP, "doc": "stalemate cap in rounds"})
    bonus_every_set: bool = field(default=False, metadata={
        "doc": "the +2 territory bonus on every traded set, not once a turn"})
    trade_at: int = field(default=L.TRADE_COMPULSORY, metadata={
        "lo": TRADE_AT_RANGE[0], "hi": TRADE_AT_RANGE[1],
        "doc": "a hand this big must trade (other engines: 4..6)"})

    def __post_init__(self) -> None:
        for f in RULE_FLAGS:
            if not isinstance(getattr(self, f), bool):
                raise RulesError(f"rules.{f} must be true or false, got {getattr(self, f)!r}")
        if (isinstance(self.cap, bool) or not isinstance(self.cap, int)
                or not 1 <= self.cap <= MAX_CAP):
            shown = self.cap if not isinstance(self.cap, int) or abs(self.cap) < 10**12 \
                else f"an integer of {self.cap.bit_length()} bits"
            raise RulesError(f"rules.cap must be a number of rounds 1..{MAX_CAP}, got {shown!r}")
        lo, hi = TRADE_AT_RANGE
        if (isinstance(self.trade_at, bool) or not isinstance(self.trade_at, int)
                or not lo <= self.trade_at <= hi):
            raise RulesError(
                f"rules.trade_at must be a hand size {lo}..{hi}, got {self.trade_at!r}")

    def vector(self) -> np.ndarray:
        """The int32 rules vector the kernels take."""
        v = np.zeros(L.N_RULES, dtype=np.int32)
        v[L.R_MISSIONS] = self.missions
        v[L.R_FIXED_CARDS] = self.fixed_cards
        v[L.R_PATH_FORTIFY] = self.path_fortify
        v[L.R_CAP] = self.cap
        v[L.R_BONUS_EVERY_SET] = self.bonus_every_set
        v[L.R_TRADE_AT] = self.trade_at
        return v

    @classmethod
    def from_dict(cls, d: dict[str, object]) -> Rules:
        """Build from a config table; an unknown option is a one-line error naming it."""
        known = {f.name for f in fields(cls)}
        for k in d:
            if k not in known:
                allowed = ", ".join(sorted(known))
                raise RulesError(f"unknown rules option {k!r} (allowed: {allowed})")
        return cls(**d)  # type: ignore[arg-type]

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Parse 'missions,fixed_cards=false,cap=50': options, option=true/false, cap=N."""
        d: dict[str, object] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            name, eq, value = (p.strip() for p in part.partition("="))
            if name in RULE_NUMBERS:
                try:
                    d[name] = int(value)
                except ValueError:
                    msg = f"rules.{name} must be a whole number, got {value!r}"
                    raise RulesError(msg) from None
            elif not eq or value.lower() in ("true", "1", "yes"):
                d[name] = True
            elif value.lower() in ("false", "0", "no"):
                d[name] = False
            else:
                raise RulesError(f"rules.{name} must be true or false, got {value!r}")
        return cls.from_dict(d)

    def flags_on(self) -> list[str]:
        """The names of the on/off options that are on, in field order."""
        return [f for f in RULE_FLAGS if getattr(self, f)]

    def text(self) -> str:
        """'missions,cap=100,trade_at=5': the options as `Rules.parse` reads them back."""
        return ",".join([*self.flags_on(), *(f"{f}={getattr(self, f)}" for f in RULE_NUMBERS)])

    def words(self) -> str:
        """The options in words for a person: 'missions, trade at 5 cards, cap 100 rounds'."""
        return ", ".join([*self.flags_on(), f"trade at {self.trade_at} cards",
                          f"cap {self.cap} rounds"])

    def check(self, m: Map, n_players: int) -> None:
        """Reject combinations the board or seat count cannot play."""
        if not 2 <= n_players <= 6:
            raise RulesError(f"players must be 2..6, got {n_players}")
        if n_players > m.n_territories:
            raise RulesError(f"players must be at most the {m.n_territories} territories of map "
                             f"{m.name!r}, got {n_players}")
        if self.missions and not m.has_mission_continents:
            raise RulesError(
                f"rules.missions needs the classic continents; map {m.name!r} lacks some")


# The option names by kind, from the fields: each option is named once, in Rules.
RULE_FLAGS: tuple[str, ...] = tuple(f.name for f in fields(Rules) if f.type == "bool")
RULE_NUMBERS: tuple[str, ...] = tuple(f.name for f in fields(Rules) if f.type == "int")


class State:
    """The mutable state: owner, armies, cards, per-seat fields, scalars and the last events.

    `kernel` is the `StateArrays` the kernels take (the same arrays). Equality compares the
    position (owner, armies, cards, pl, sc), not `ev`, what the last action happened to roll.
    `flat` is all six arrays as one int32 buffer when they are views of one (`empty` and the
    copies of such a state), else None: `copy_from` then copies them at once.
    """

    __slots__ = ("armies", "cards", "ev", "flat", "kernel", "owner", "pl", "sc")

    def __init__(self, owner: np.ndarray, armies: np.ndarray, cards: np.ndarray, pl: np.ndarray,
                 sc: np.ndarray, ev: np.ndarray | None = None) -> None:
        # The arrays change in place and are never rebound, so `kernel` stays the same arrays.
        self.owner, self.armies, self.cards, self.pl, self.sc = owner, armies, cards, pl, sc
        self.ev = np.zeros(L.N_EV, np.int32) if ev is None else ev
        self.kernel = L.StateArrays(owner, armies, cards, pl, sc, self.ev)
        self.flat: np.ndarray | None = None

    @classmethod
    def _in_one_buffer(cls, buf: np.ndarray, shapes: list[tuple[int, ...]]) -> State:
        """The state whose arrays of these shapes are consecutive views of `buf`."""
        arrays, at = [], 0
        for shape in shapes:
            size = int(np.prod(shape))
            arrays.append(buf[at:at + size].reshape(shape))
            at += size
        s = cls(*arrays)
        s.flat = buf
        return s

    @classmethod
    def empty(cls, m: Map, n_players: int, one_buffer: bool = True) -> State:
        """Zeroed arrays sized for a board and a seat count (kernel.setup fills them); in one
        buffer (`flat`) unless `one_buffer` is False, as the compiled loop asks: it plays 5-9%
        slower on views of one buffer (evolve.bench.benchref)."""
        t = m.n_territories
        shapes = [(t,), (t,), (t + L.N_WILDS,), (n_players, L.N_PL), (L.N_SC,), (L.N_EV,)]
        if not one_buffer:
            return cls(*(np.zeros(s, np.int32) for s in shapes))
        return cls._in_one_buffer(np.zeros(sum(int(np.prod(s)) for s in shapes), np.int32),
                                  shapes)

    @property
    def position(self) -> tuple[np.ndarray, ...]:
        """The arrays that make the position (all but `ev`): what equality compares."""
        return self.owner, self.armies, self.cards, self.pl, self.sc

    def copy(self) -> State:
        """A deep copy (for search or what-if analysis)."""
        if self.flat is not None:
            return State._in_one_buffer(self.flat.copy(), [a.shape for a in self.kernel])
        return State(*(a.copy() for a in self.kernel))

    def copy_from(self, other: State) -> None:
        """Overwrite this state's arrays with other's values (the same shapes), in place."""
        if self.flat is not None and other.flat is not None:
            np.copyto(self.flat, other.flat)
            return
        for dst, src in zip(self.kernel, other.kernel, strict=True):
            np.copyto(dst, src)

    def readonly(self) -> State:
        """Views of the same arrays that cannot be written (they follow the game as it moves)."""
        views = []
        for a in (*self.kernel, *(() if self.flat is None else (self.flat,))):
            v = a.view()
            v.flags.writeable = False
            views.append(v)
        s = State(*views[:6])
        s.flat = views[6] if len(views) > 6 else None
        return s

    @property
    def n_players(self) -> int:
        """Seats in the game."""
        return int(self.pl.shape[0])

    @property
    def phase(self) -> int:
        """Current phase (game.rules.layout.PH_*)."""
        return int(self.sc[L.S_PHASE])

    @property
    def current(self) -> int:
        """Seat to move."""
        return int(self.sc[L.S_CURRENT])

    @property
    def round(self) -> int:
        """Round number (1-based; 0 during setup)."""
        return int(self.sc[L.S_ROUND])

    @property
    def pool(self) -> int:
        """Armies left to place in the current phase."""
        return int(self.sc[L.S_POOL])

    @property
    def trades(self) -> int:
        """Sets traded so far by all players."""
        return int(self.sc[L.S_TRADES])

    @property
    def winner(self) -> int:
        """Winning seat, or -1."""
        return int(self.sc[L.S_WINNER])

    def alive(self, seat: int) -> bool:
        """True while the seat has territories."""
        return bool(self.pl[seat, L.P_ALIVE])

    def hand(self, seat: int) -> tuple[int, ...]:
        """Card ids held by a seat, ascending."""
        return tuple(int(c) for c in np.flatnonzero(self.cards == seat))

    def mission(self, seat: int) -> tuple[int, int]:
        """(mission id, target seat) of a seat; (-1, -1) without missions."""
        return int(self.pl[seat, L.P_MISSION]), int(self.pl[seat, L.P_TARGET])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(np.array_equal(a, b) for a, b in zip(self.position, other.position, strict=True))

    __hash__ = None  # type: ignore[assignment]
