"""Bot protocol requests (docs/protocol.md): the state object both ways, checked field by field.

Every check names the field and what it allows, as a `ProtocolError`, so that the server can
answer any input line with a one-line error instead of dying or answering an impossible state.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from game.decision import DecisionKind
from game.map import Map
from game.rules import layout as L
from game.state import State
from game.view import GameView

__all__ = ["MAX_ARMIES", "PROTOCOL", "PROTOCOLS", "ProtocolError", "as_int", "decode_state",
           "encode_state", "with_kinds"]

PROTOCOL = "riskevo-bot 2"
PROTOCOLS = ("riskevo-bot 1", PROTOCOL)  # what start_game's optional `protocol` may name
MAX_ARMIES = 1_000_000  # per territory and per request: far above any game, far below int32
_MAX_COUNT = 1_000_000  # counters (round, turns, received, ...)

# Public scalars sent by name: game scalars (sc) and events (ev); the last roll goes as lists,
# the card just drawn stays private. Sorted as the constants' names.
_PUBLIC = sorted((n.split("_", 1)[1], n) for n in dir(L)
                 if n.startswith(("S_", "EV_")) and n not in ("EV_ROLL", "EV_DRAWN"))
SCALARS = {name.lower(): (n.startswith("EV_"), getattr(L, n)) for name, n in _PUBLIC}
# Scalars naming a territory or a seat default to -1 (none) when missing, the rest to 0.
_TERRITORY_SCALARS = ("src", "dst", "bonus_t")
_SEAT_SCALARS = ("winner", "eliminated")
PLAYER_FIELDS = {"alive": L.P_ALIVE, "elim_order": L.P_ELIM_ORDER,
                 "setup_left": L.P_SETUP_LEFT, "conquests": L.P_CONQUESTS,
                 "eliminations": L.P_ELIMINATIONS, "received": L.P_RECEIVED, "lost": L.P_LOST}
# The phase a decision is asked in, when the state leaves `phase` out.
_K = DecisionKind
ASK_PHASE = {k.value: ph for k, ph in (
    (_K.PLACE_INITIAL, L.PH_SETUP), (_K.REINFORCE, L.PH_REINFORCE), (_K.TRADE, L.PH_TRADE),
    (_K.ATTACK, L.PH_ATTACK), (_K.MOVE_IN, L.PH_OCCUPY), (_K.FORTIFY, L.PH_FORTIFY))}


class ProtocolError(ValueError):
    """A request or reply that does not follow docs/protocol.md."""


def as_int(v: Any, field: str, lo: int, hi: int) -> int:
    """A JSON integer in lo..hi (not a bool, not a float), else a ProtocolError naming it."""
    if isinstance(v, bool) or not isinstance(v, int):
        raise ProtocolError(f"{field} must be an integer {lo}..{hi}, got {_short(v)}")
    if not lo <= v <= hi:
        raise ProtocolError(f"{field} must be {lo}..{hi}, got {_short(v)}")
    return v


def _short(v: Any) -> str:
    if isinstance(v, int) and abs(v) >= 10**12:  # 2**70 or worse: its size says enough
        return f"an integer of {v.bit_length()} bits"
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _obj(v: Any, field: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise ProtocolError(f"{field} must be a JSON object, got {_short(v)}")
    return v


def _list(v: Any, field: str, n: int | None = None, most: int | None = None) -> list[Any]:
    if not isinstance(v, list):
        raise ProtocolError(f"{field} must be a list, got {_short(v)}")
    if n is not None and len(v) != n:
        raise ProtocolError(f"{field} must have {n} entries (one per "
                            f"{'territory' if field.endswith(('owner', 'armies')) else 'seat'}), "
                            f"got {len(v)}")
    if most is not None and len(v) > most:
        raise ProtocolError(f"{field} must have at most {most} entries, got {len(v)}")
    return v


def encode_state(view: GameView) -> dict[str, Any]:
    """What the seat may see: board, own hand and mission, public per-seat figures, scalars."""
    s, m = view.state, view.map
    t_n = m.n_territories

    def card(c: int) -> dict[str, Any]:
        return {"id": c, "kind": L.KIND_NAMES[view.card_kind(c)],
                "territory": m.territories[c] if c < t_n else None}

    sizes = view.hand_sizes
    return {
        "phase": L.PHASE_NAMES[s.phase], "current": s.current, "round": s.round,
        "owner": [int(x) for x in s.owner], "armies": [int(x) for x in s.armies],
        "hand": [card(c) for c in view.hand],
        "mission": list(view.mission),
        "discard": [int(c) for c in np.flatnonzero(s.cards == L.CARD_DISCARD)],
        "players": [{"cards": int(sizes[q]),
                     **{k: int(s.pl[q, i]) for k, i in PLAYER_FIELDS.items()}}
                    for q in range(s.n_players)],
        "scalars": {k: int((s.ev if ev else s.sc)[i]) for k, (ev, i) in SCALARS.items()},
        "last_roll": {"attacker": [int(x) for x in s.ev[L.EV_ROLL:L.EV_ROLL + 3]],
                      "defender": [int(x) for x in s.ev[L.EV_ROLL + 3:L.EV_ROLL + 5]]},
    }


def hand_kinds(d: Any, m: Map) -> dict[int, int]:
    """Card id -> kind as the request's hand says (the request's kinds are authoritative)."""
    state = _obj(d, "state")
    n_cards = m.n_territories + L.N_WILDS
    out: dict[int, int] = {}
    for i, c in enumerate(_list(state.get("hand", []), "state.hand", most=n_cards)):
        c = _obj(c, f"state.hand[{i}]")
        cid = as_int(c.get("id"), f"state.hand[{i}].id", 0, n_cards - 1)
        if cid in out:
            raise ProtocolError(f"state.hand[{i}].id {cid} appears twice in the hand")
        kind = c.get("kind", L.KIND_NAMES[m.card_kind[cid]])
        if kind not in L.KIND_NAMES:
            raise ProtocolError(f"state.hand[{i}].kind must be one of "
                                f"{', '.join(L.KIND_NAMES)}, got {_short(kind)}")
        terr = c.get("territory")
        want = m.territories[cid] if cid < m.n_territories else None
        if terr is not None and terr != want:
            raise ProtocolError(f"state.hand[{i}].territory must be {want!r} for card id "
                                f"{cid} (ids < T show territory id, T and T+1 none), got "
                                f"{_short(terr)}")
        out[cid] = L.KIND_NAMES.index(kind)
    return out


def with_kinds(m: Map, kinds: dict[int, int]) -> Map:
    """The board with these cards' kinds replaced (the same Map when nothing changes)."""
    if all(int(m.card_kind[c]) == k for c, k in kinds.items()):
        return m
    ck = m.card_kind.copy()
    for c, k in kinds.items():
        ck[c] = k
    ck.flags.writeable = False
    return dataclasses.replace(m, card_kind=ck)


def trades_for_value(value: int) -> int:
    """The escalating count whose next set is worth most without exceeding `value` (min 0)."""
    steps = L.ESCALATING
    if value < steps[-1]:
        return max([t for t, v in enumerate(steps) if v <= value], default=0)
    # Past the table each set is worth ESCALATING_STEP more: no loop over a huge value.
    return len(steps) - 1 + (value - steps[-1]) // L.ESCALATING_STEP


def decode_state(d: Any, m: Map, n_players: int, seat: int, ask: str) -> State:
    """Rebuild a State from a request's `state`, checking every field against the board.

    Missing fields take the defaults of docs/protocol.md; others' cards get arbitrary unseen
    card ids (only their number is public).
    """
    d = _obj(d, "state")
    t_n, n_cards = m.n_territories, m.n_territories + L.N_WILDS
    s = State.empty(m, n_players)
    phase = d.get("phase", L.PHASE_NAMES[ASK_PHASE.get(ask, L.PH_SETUP)])
    if phase not in L.PHASE_NAMES:
        raise ProtocolError(f"state.phase must be one of {', '.join(L.PHASE_NAMES)}, "
                            f"got {_short(phase)}")
    ph = L.PHASE_NAMES.index(phase)
    if ask in ASK_PHASE and ph != ASK_PHASE[ask]:
        raise ProtocolError(f"state.phase must be {L.PHASE_NAMES[ASK_PHASE[ask]]!r} for "
                            f"{ask!r}, got {phase!r}")
    if "owner" not in d or "armies" not in d:
        raise ProtocolError("state.owner and state.armies are required (one entry per territory)")
    s.owner[:] = _ints(_list(d["owner"], "state.owner", t_n), "state.owner", 0, n_players - 1)
    s.armies[:] = _ints(_list(d["armies"], "state.armies", t_n), "state.armies", 0, MAX_ARMIES)
    s.cards[:] = L.CARD_DECK
    hand = hand_kinds(d, m)
    for c in hand:
        s.cards[c] = seat
    for i, c in enumerate(_list(d.get("discard", []), "state.discard", most=n_cards)):
        c = as_int(c, f"state.discard[{i}]", 0, n_cards - 1)
        if s.cards[c] != L.CARD_DECK:
            raise ProtocolError(f"state.discard[{i}]: card {c} is also in the hand or listed "
                                f"twice")
        s.cards[c] = L.CARD_DISCARD
    _decode_players(d, s, seat, n_cards)
    mission = _list(d.get("mission", [-1, -1]), "state.mission", 2)
    s.pl[seat, L.P_MISSION] = as_int(mission[0], "state.mission[0]", -1, L.N_MISSIONS - 1)
    s.pl[seat, L.P_TARGET] = as_int(mission[1], "state.mission[1]", -1, n_players - 1)
    _decode_scalars(d, s, t_n, n_players)
    s.sc[L.S_PHASE] = ph
    s.sc[L.S_CURRENT] = as_int(d.get("current", seat), "state.current", 0, n_players - 1)
    if ask in ASK_PHASE and s.current != seat:
        raise ProtocolError(f"state.current must be the bot's seat {seat} when it is asked "
                            f"{ask!r}, got {s.current}")
    round_default = 0 if ph == L.PH_SETUP else 1
    s.sc[L.S_ROUND] = as_int(d.get("round", round_default), "state.round", 0, _MAX_COUNT)
    if "next_set_value" in d:
        value = as_int(d["next_set_value"], "state.next_set_value", 1, MAX_ARMIES)
        s.sc[L.S_TRADES] = trades_for_value(value)
    roll = _obj(d.get("last_roll", {}), "state.last_roll")
    for side, at, n in (("attacker", L.EV_ROLL, L.ATTACK_DICE),
                        ("defender", L.EV_ROLL + L.ATTACK_DICE, L.DEFEND_DICE)):
        dice = _list(roll.get(side, []), f"state.last_roll.{side}", most=n)
        for i, v in enumerate(dice):
            s.ev[at + i] = as_int(v, f"state.last_roll.{side}[{i}]", 0, L.DIE_FACES)
    s.ev[L.EV_DRAWN] = -1
    if ph == L.PH_OCCUPY:
        _check_conquest(s, m, seat)
    for q in range(n_players):  # a seat out of the game holds nothing (the bot would attack it)
        if s.pl[q, L.P_ALIVE] == 0 and (s.owner == q).any():
            raise ProtocolError(f"state.players[{q}].alive is false, yet seat {q} owns "
                                "territories in state.owner")
    _check_armies(s, seat)
    return s


def _check_conquest(s: State, m: Map, seat: int) -> None:
    """The move-in's attack: scalars.src (own) borders scalars.dst, taken as own with 0 armies."""
    src, dst = int(s.sc[L.S_SRC]), int(s.sc[L.S_DST])
    if src < 0 or dst < 0:
        raise ProtocolError("state.scalars.src and state.scalars.dst (the attacking and the "
                            "conquered territory) are required for 'move_in'")
    if s.owner[src] != seat or not m.adjacency[src, dst]:
        raise ProtocolError(f"state.scalars.src {src} must be the bot's and border "
                            f"state.scalars.dst {dst}")
    # Engines differ on when the conquered territory changes hands: riskevo's view is the
    # bot's territory with 0 armies until the move-in.
    s.owner[dst] = seat
    s.armies[dst] = 0


def _ints(v: list[Any], field: str, lo: int, hi: int) -> list[int]:
    """A list of JSON integers in lo..hi (checked in one pass; the first bad entry is named)."""
    if all(type(x) is int and lo <= x <= hi for x in v):
        return v
    for i, x in enumerate(v):
        as_int(x, f"{field}[{i}]", lo, hi)
    return v  # not reached: as_int raised


def _decode_players(d: dict[str, Any], s: State, seat: int, n_cards: int) -> None:
    n = s.n_players
    players = _list(d.get("players", [{} for _ in range(n)]), "state.players", n)
    unseen = [int(c) for c in np.flatnonzero(s.cards == L.CARD_DECK)][::-1]
    for q, p in enumerate(players):
        p = _obj(p, f"state.players[{q}]")
        for k, i in PLAYER_FIELDS.items():
            if k == "alive":
                v = p.get(k, int((s.owner == q).any()))
                v, most = (int(v) if isinstance(v, bool) else v), 1
            else:
                v, most = p.get(k, 0), (n if k == "elim_order" else _MAX_COUNT)
            # The common case first: the field's name is only spelled out for an error.
            ok = type(v) is int and 0 <= v <= most
            s.pl[q, i] = v if ok else as_int(v, f"state.players[{q}].{k}", 0, most)
        s.pl[q, L.P_MISSION] = s.pl[q, L.P_TARGET] = -1
        if q != seat:
            held = as_int(p.get("cards", 0), f"state.players[{q}].cards", 0, n_cards)
            if held > len(unseen):
                raise ProtocolError(f"state.players[{q}].cards: {held} cards, but only "
                                    f"{len(unseen)} of the {n_cards} are not in the bot's hand, "
                                    f"the discard or another hand")
            for _ in range(held):
                s.cards[unseen.pop()] = q
        elif "cards" in p and p["cards"] != int((s.cards == seat).sum()):
            raise ProtocolError(f"state.players[{q}].cards must equal the bot's hand size "
                                f"{int((s.cards == seat).sum())}, got {_short(p['cards'])}")


def _decode_scalars(d: dict[str, Any], s: State, t_n: int, n_players: int) -> None:
    for k in _TERRITORY_SCALARS + _SEAT_SCALARS:
        ev, i = SCALARS[k]
        (s.ev if ev else s.sc)[i] = -1
    for k, v in _obj(d.get("scalars", {}), "state.scalars").items():
        if k not in SCALARS:
            raise ProtocolError(f"unknown scalar {k!r} (allowed: {', '.join(sorted(SCALARS))})")
        if k in _TERRITORY_SCALARS:
            v = as_int(v, f"state.scalars.{k}", -1, t_n - 1)
        elif k in _SEAT_SCALARS or k == "current":
            v = as_int(v, f"state.scalars.{k}", -1, n_players - 1)
        else:
            v = as_int(v, f"state.scalars.{k}", 0, MAX_ARMIES)
        ev, i = SCALARS[k]
        (s.ev if ev else s.sc)[i] = v


def _check_armies(s: State, seat: int) -> None:
    """Every territory holds an army, but the one conquered awaiting its move-in."""
    for t in np.flatnonzero(s.armies == 0):
        if not (s.phase == L.PH_OCCUPY and t == s.sc[L.S_DST]):
            raise ProtocolError(f"state.armies[{t}] must be at least 1 (only the territory "
                                f"conquered awaiting a move-in, scalars.dst, holds 0)")
    if not (s.owner == seat).any() and s.phase != L.PH_OVER:
        raise ProtocolError(f"state.owner: the bot's seat {seat} owns no territory")
