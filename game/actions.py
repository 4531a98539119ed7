"""Decisions as small frozen dataclasses with a readable, parseable text form."""

from __future__ import annotations

from dataclasses import dataclass

from game.map import Map
from game.rules.layout import (
    A_ATTACK,
    A_END_TRADE,
    A_FORTIFY,
    A_MOVE,
    A_PLACE,
    A_SKIP,
    A_STOP,
    A_TRADE,
)


def _tname(m: Map, t: int) -> str:
    return m.territories[t].replace(" ", "_") if 0 <= t < m.n_territories else f"#{t}"


@dataclass(frozen=True, slots=True)
class Place:
    """Put `count` armies on own territory `territory` (initial placement: count 1)."""

    territory: int
    count: int = 1

    def encode(self) -> tuple[int, int, int, int]:
        """Kernel form (kind, a, b, c)."""
        return A_PLACE, self.territory, self.count, 0

    def text(self, m: Map) -> str:
        """Transcript form, e.g. 'place Alaska 3'."""
        return f"place {_tname(m, self.territory)} {self.count}"


@dataclass(frozen=True, slots=True)
class Trade:
    """Trade three cards (card ids) as a set."""

    cards: tuple[int, int, int]

    def encode(self) -> tuple[int, int, int, int]:
        """Kernel form (kind, a, b, c)."""
        return A_TRADE, self.cards[0], self.cards[1], self.cards[2]

    def text(self, m: Map) -> str:
        """Transcript form, e.g. 'trade 3 17 42'."""
        return "trade " + " ".join(str(c) for c in self.cards)


@dataclass(frozen=True, slots=True)
class Attack:
    """Roll once from `src` against `dst` with `dice` attacker dice (0 = as many as allowed)."""

    src: int
    dst: int
    dice: int = 0

    def encode(self) -> tuple[int, int, int, int]:
        """Kernel form (kind, a, b, c)."""
        return A_ATTACK, self.src, self.dst, self.dice

    def text(self, m: Map) -> str:
        """Transcript form, e.g. 'attack Alaska Kamchatka 3'."""
        return f"attack {_tname(m, self.src)} {_tname(m, self.dst)} {self.dice}"


@dataclass(frozen=True, slots=True)
class MoveIn:
    """Move `count` armies into the territory just conquered."""

    count: int

    def encode(self) -> tuple[int, int, int, int]:
        """Kernel form (kind, a, b, c)."""
        return A_MOVE, self.count, 0, 0

    def text(self, m: Map) -> str:
        """Transcript form, e.g. 'move 3'."""
        return f"move {self.count}"


@dataclass(frozen=True, slots=True)
class Fortify:
    """Move `count` armies from own `src` to own `dst` at the end of the turn."""

    src: int
    dst: int
    count: int

    def encode(self) -> tuple[int, int, int, int]:
        """Kernel form (kind, a, b, c)."""
        return A_FORTIFY, self.src, self.dst, self.count

    def text(self, m: Map) -> str:
        """Transcript form, e.g. 'fortify Ural Siberia 2'."""
        return f"fortify {_tname(m, self.src)} {_tname(m, self.dst)} {self.count}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline: stop trading, stop attacking or skip fortifying (by the phase)."""

    kind: int

    def encode(self) -> tuple[int, int, int, int]:
        """Kernel form (kind, a, b, c)."""
        return self.kind, 0, 0, 0

    def text(self, m: Map) -> str:
        """Transcript form: 'end-trade', 'stop' or 'skip'."""
        return {A_END_TRADE: "end-trade", A_STOP: "stop", A_SKIP: "skip"}[self.kind]


END_TRADE = Pass(A_END_TRADE)
STOP = Pass(A_STOP)
SKIP = Pass(A_SKIP)
Action = Place | Trade | Attack | MoveIn | Fortify | Pass


def parse_action(text: str, m: Map) -> Action:
    """Inverse of `Action.text`; raises ValueError naming the problem."""
    parts = text.split()
    if not parts:
        raise ValueError("empty action")
    verb, args = parts[0], parts[1:]

    def terr(s: str) -> int:
        # A name with '_' of its own reads as itself (build_map refuses a clash with spaces).
        return m.index[s] if s in m.index else m.territory(s.replace("_", " "))

    def ints(k: int) -> list[int]:
        if len(args) != k:
            raise ValueError(f"{verb!r} takes {k} arguments, got {len(args)}")
        return [int(x) for x in args]

    if verb == "place" and len(args) == 2:
        return Place(terr(args[0]), int(args[1]))
    if verb == "trade":
        a, b, c = ints(3)
        return Trade((a, b, c))
    if verb == "attack" and len(args) == 3:
        return Attack(terr(args[0]), terr(args[1]), int(args[2]))
    if verb == "move":
        return MoveIn(ints(1)[0])
    if verb == "fortify" and len(args) == 3:
        return Fortify(terr(args[0]), terr(args[1]), int(args[2]))
    if verb in ("end-trade", "stop", "skip") and not args:
        return {"end-trade": END_TRADE, "stop": STOP, "skip": SKIP}[verb]
    raise ValueError(f"cannot parse action {text!r} (verbs: place, trade, attack, move, "
                     "fortify, end-trade, stop, skip)")
