"""The server's last word on a decision: legal on the request's board, not an answer refused.

A riskevo player is asked as in riskevo; its answer is then checked against the request (the
engine may ask when riskevo would not, or may run slightly different rules and refuse an
answer). An illegal or refused answer is replaced by the first legal alternative in a fixed
order (docs/protocol.md, "Refused actions"), so the reply is always one the engine can apply.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from arena.wire.protocol import ProtocolError
from game.actions import END_TRADE, SKIP, STOP, Action, Attack, Fortify, MoveIn, Pass, Place, Trade
from game.actions import parse_action as _parse
from game.rules import layout as L
from game.rules.cards import is_set
from game.rules.kernel import connected_own
from game.view import GameView

__all__ = ["final_answer", "parse_refused"]

Key = tuple[Any, ...]


def _dice(view: GameView, a: Attack) -> int:
    return a.dice or min(L.ATTACK_DICE, int(view.armies[a.src]) - 1)


def key(view: GameView, act: Action) -> Key:
    """What makes two answers the same (a set in any order, dice 0 as the dice it means)."""
    if isinstance(act, Trade):
        return ("trade", *sorted(act.cards))
    if isinstance(act, Attack) and 0 <= act.src < len(view.armies):
        return ("attack", act.src, act.dst, _dice(view, act))
    return (type(act).__name__, *act.encode())


def parse_refused(v: Any, view: GameView) -> set[Key]:
    """The request's `refused` list (action texts) as answer keys."""
    if not isinstance(v, list) or len(v) > 10_000:
        raise ProtocolError(f"refused must be a list of action texts, got {type(v).__name__}")
    out = set()
    for i, text in enumerate(v):
        if not isinstance(text, str):
            raise ProtocolError(f"refused[{i}] must be an action text, got {type(text).__name__}")
        try:
            out.add(key(view, _parse(text, view.map)))
        except ValueError as e:
            raise ProtocolError(f"refused[{i}]: {e}") from None
    return out


def legal(view: GameView, ask: str, act: Action, req: dict[str, Any]) -> bool:
    """True when `act` answers `ask` legally on the request's board and rules."""
    own = view.owner == view.seat
    t_n = view.map.n_territories
    armies = view.armies
    if ask in ("place_initial", "reinforce"):
        most = 1 if ask == "place_initial" else req["armies"]
        return (isinstance(act, Place) and 0 <= act.territory < t_n and bool(own[act.territory])
                and 1 <= act.count <= most)
    if ask == "trade":
        if isinstance(act, Pass):
            return act == END_TRADE and not (req["compulsory"] and view.sets())
        hand = set(view.hand)
        return (isinstance(act, Trade) and len(set(act.cards)) == L.SET_SIZE
                and all(c in hand for c in act.cards)
                and bool(is_set(*(view.map.card_kind[c] for c in act.cards))))  # int32: one compile
    if ask == "attack":
        if isinstance(act, Pass):
            return act == STOP
        return (isinstance(act, Attack) and 0 <= act.src < t_n and 0 <= act.dst < t_n
                and bool(own[act.src]) and not own[act.dst]
                and bool(view.map.adjacency[act.src, act.dst]) and armies[act.src] >= 2
                and 0 <= act.dice <= min(L.ATTACK_DICE, int(armies[act.src]) - 1))
    if ask == "move_in":
        return isinstance(act, MoveIn) and req["lo"] <= act.count <= req["hi"]
    if isinstance(act, Pass):
        return act == SKIP
    return (isinstance(act, Fortify) and 0 <= act.src < t_n and 0 <= act.dst < t_n
            and act.src != act.dst and bool(own[act.src]) and bool(own[act.dst])
            and 1 <= act.count <= int(armies[act.src]) - 1 and _reaches(view, act.src, act.dst))


def _reaches(view: GameView, a: int, b: int) -> bool:
    if view.map.adjacency[a, b]:
        return True
    if not view.rules.path_fortify:
        return False
    # connected_own uses the army signs as scratch: give it a copy.
    return bool(connected_own(view.map.kernel, view.owner, np.array(view.armies), view.seat,
                              a, b))


def alternatives(view: GameView, ask: str, req: dict[str, Any]) -> Iterator[Action]:
    """Legal answers in the fixed fallback order of docs/protocol.md."""
    mine = [int(t) for t in np.flatnonzero(view.owner == view.seat)]
    if ask in ("place_initial", "reinforce"):
        n = 1 if ask == "place_initial" else req["armies"]
        yield from (Place(t, n) for t in mine)
        yield from (Place(t, k) for t in mine for k in range(n - 1, 0, -1))
    elif ask == "trade":
        yield END_TRADE
        sets = sorted(view.sets(), key=lambda c: -view.set_value(c))
        yield from (Trade(c) for c in sets)
    elif ask == "attack":
        yield STOP
        yield from (Attack(a, b, 0) for a, b in view.attack_options())
    elif ask == "move_in":
        yield from (MoveIn(k) for k in range(req["lo"], req["hi"] + 1))
    else:
        yield SKIP
        yield from (Fortify(a, b, int(view.armies[a]) - 1) for a, b in view.fortify_options())


def final_answer(view: GameView, ask: str, act: Action | None, req: dict[str, Any],
                 refused: set[Key]) -> Action:
    """The player's answer if legal and not refused, else the first legal alternative."""
    if act is not None and legal(view, ask, act, req) and key(view, act) not in refused:
        return act
    for alt in alternatives(view, ask, req):
        if legal(view, ask, alt, req) and key(view, alt) not in refused:
            return alt
    raise ProtocolError(f"no legal answer to {ask!r} is left: every one was refused")
