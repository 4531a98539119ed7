"""Bot protocol: JSON lines over stdin/stdout (see docs/protocol.md) and its engine-side adapter.

`serve` runs any riskevo player behind the protocol; `SubprocessPlayer` is a `game.protocol`
player that forwards every decision to `python -m arena serve BOT` (or any other command that
speaks the protocol), so riskevo can play bots that live in another process or language.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

import numpy as np

from game import layout as L
from game.actions import Attack, Fortify, MoveIn, Pass, Place, Trade, parse_action
from game.cards import classic_card_kinds
from game.decision import Decision, DecisionKind
from game.decision import ask as answer
from game.map import Map, MapError, build_map
from game.protocol import IllegalActionError, Player
from game.state import Rules, RulesError, State
from game.view import GameView

__all__ = ["PROTOCOL", "ProtocolError", "Server", "SubprocessPlayer", "encode_state", "main"]

PROTOCOL = "riskevo-bot 1"
ASKS = ("place_initial", "reinforce", "trade", "attack", "move_in", "fortify")
# Public scalars sent by name: game scalars (sc) and events (ev); the last roll goes as lists,
# the card just drawn stays private. Sorted as the constants' names.
_PUBLIC = sorted((n.split("_", 1)[1], n) for n in dir(L)
                 if n.startswith(("S_", "EV_")) and n not in ("EV_ROLL", "EV_DRAWN"))
_SC = {name.lower(): (n.startswith("EV_"), getattr(L, n)) for name, n in _PUBLIC}
_PL = {"alive": L.P_ALIVE, "elim_order": L.P_ELIM_ORDER, "setup_left": L.P_SETUP_LEFT,
       "conquests": L.P_CONQUESTS, "eliminations": L.P_ELIMINATIONS, "received": L.P_RECEIVED,
       "lost": L.P_LOST}


class ProtocolError(ValueError):
    """A request or reply that does not follow docs/protocol.md."""


def map_json(m: Map) -> dict[str, Any]:
    """The board in the JSON layout of game/maps/classic.json (territory order = index order)."""
    conts = [{"name": c, "bonus": int(m.bonus[ci]),
              "territories": [t for i, t in enumerate(m.territories) if m.continent_of[i] == ci]}
             for ci, c in enumerate(m.continents)]
    ii, jj = np.nonzero(np.triu(m.adjacency))
    d: dict[str, Any] = {
        "name": m.name, "continents": conts,
        "borders": [[m.territories[i], m.territories[j]] for i, j in zip(ii, jj, strict=True)]}
    if not np.array_equal(m.card_kind, classic_card_kinds(m.n_territories)):
        d["card_kinds"] = {t: L.KIND_NAMES[m.card_kind[i]] for i, t in enumerate(m.territories)}
    return d


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
        "players": [{"cards": int(sizes[q]), **{k: int(s.pl[q, i]) for k, i in _PL.items()}}
                    for q in range(s.n_players)],
        "scalars": {k: int((s.ev if ev else s.sc)[i]) for k, (ev, i) in _SC.items()},
        "last_roll": {"attacker": [int(x) for x in s.ev[L.EV_ROLL:L.EV_ROLL + 3]],
                      "defender": [int(x) for x in s.ev[L.EV_ROLL + 3:L.EV_ROLL + 5]]},
    }


def decode_state(d: dict[str, Any], m: Map, n_players: int, seat: int) -> State:
    """Rebuild a State from an encoded one; others' cards get arbitrary unseen card ids."""
    s = State.empty(m, n_players)
    s.owner[:] = d["owner"]
    s.armies[:] = d["armies"]
    s.cards[:] = L.CARD_DECK
    s.cards[list(d.get("discard", []))] = L.CARD_DISCARD
    s.cards[[c["id"] for c in d["hand"]]] = seat
    unseen = [int(c) for c in np.flatnonzero(s.cards == L.CARD_DECK)][::-1]
    for q, p in enumerate(d["players"]):
        for k, i in _PL.items():
            s.pl[q, i] = p.get(k, 0)
        s.pl[q, L.P_MISSION] = s.pl[q, L.P_TARGET] = -1
        if q != seat:
            for _ in range(int(p.get("cards", 0))):
                s.cards[unseen.pop()] = q
    s.pl[seat, L.P_MISSION], s.pl[seat, L.P_TARGET] = d.get("mission", [-1, -1])
    for k, v in d.get("scalars", {}).items():
        if k not in _SC:
            raise ProtocolError(f"unknown scalar {k!r} (allowed: {', '.join(sorted(_SC))})")
        ev, i = _SC[k]
        (s.ev if ev else s.sc)[i] = v
    s.sc[L.S_PHASE] = L.PHASE_NAMES.index(d["phase"])
    s.sc[L.S_CURRENT], s.sc[L.S_ROUND] = d["current"], d["round"]
    roll = d.get("last_roll", {})
    s.ev[L.EV_ROLL:L.EV_ROLL + 3] = (roll.get("attacker", []) + [0, 0, 0])[:3]
    s.ev[L.EV_ROLL + 3:L.EV_ROLL + 5] = (roll.get("defender", []) + [0, 0])[:2]
    s.ev[L.EV_DRAWN] = -1
    return s


def action_text(act: Any, m: Map) -> str:
    """Reply text of a decision (the transcript form; None becomes the phase's pass)."""
    if isinstance(act, Place | Trade | Attack | Fortify | MoveIn | Pass):
        return act.text(m)
    raise ProtocolError(f"not an action: {act!r}")


_PASS = {DecisionKind.TRADE: "end-trade", DecisionKind.ATTACK: "stop",
         DecisionKind.FORTIFY: "skip"}


def _decision(ask_name: str, req: dict[str, Any]) -> Decision:
    """The Decision a request asks (its fields from the request)."""
    kind = DecisionKind(ask_name)
    if kind is DecisionKind.REINFORCE:
        return Decision(kind, armies=int(req["armies"]))
    if kind is DecisionKind.TRADE:
        return Decision(kind, compulsory=bool(req["compulsory"]))
    if kind is DecisionKind.MOVE_IN:
        return Decision(kind, lo=int(req["lo"]), hi=int(req["hi"]))
    return Decision(kind)


class Server:
    """Answers protocol requests with a riskevo player; never raises on bad input."""

    def __init__(self, make_player: Callable[[], Player]) -> None:
        self.make_player = make_player
        self.player: Player | None = None
        self.map: Map | None = None
        self.rules = Rules()
        self.seat = 0
        self.n_players = 0

    def handle(self, line: str) -> dict[str, Any]:
        """One request line -> one reply object (an `error` reply for anything malformed)."""
        rid: Any = None
        try:
            req = json.loads(line)
            if not isinstance(req, dict):
                raise ProtocolError("a request must be a JSON object")
            rid = req.get("id")
            return {"id": rid, **self._dispatch(req)}
        except json.JSONDecodeError as e:
            return {"id": rid, "error": f"not JSON: {e.msg} at column {e.colno}"}
        except (ProtocolError, MapError, RulesError, IllegalActionError) as e:
            return {"id": rid, "error": str(e)}
        except (KeyError, TypeError, ValueError, IndexError) as e:
            return {"id": rid, "error": f"malformed request: {type(e).__name__}: {e}"}

    def _dispatch(self, req: dict[str, Any]) -> dict[str, Any]:
        ask = req.get("ask")
        if ask == "hello":
            return {"protocol": PROTOCOL, "asks": ["start_game", *ASKS, "end_game"]}
        if ask == "start_game":
            self.map = build_map(req["map"], "start_game.map")
            self.rules = Rules.from_dict(req.get("rules", {}))
            self.seat, self.n_players = int(req["seat"]), int(req["n_players"])
            if not 0 <= self.seat < self.n_players:
                raise ProtocolError(f"seat must be 0..{self.n_players - 1}, got {self.seat}")
            rng = np.random.default_rng(int(req.get("seed", 0)))
            if "rng_state" in req:
                rng.bit_generator.state = req["rng_state"]
            self.player = self.make_player()
            self.player.start_game(self._view(req["state"]), rng)
            return {"ok": True}
        if ask == "end_game":
            self.player = None
            return {"ok": True}
        if ask not in ASKS:
            raise ProtocolError(f"unknown ask {ask!r} (allowed: hello, start_game, "
                                f"{', '.join(ASKS)}, end_game)")
        if self.player is None or self.map is None:
            raise ProtocolError(f"{ask!r} before start_game")
        view = self._view(req["state"])
        m = self.map
        d = _decision(ask, req)
        a = answer(self.player, view, d)
        if d.kind is DecisionKind.PLACE_INITIAL:
            return {"action": Place(int(a), 1).text(m)}
        if d.kind is DecisionKind.MOVE_IN:
            return {"action": MoveIn(int(a)).text(m)}
        if a is None and d.kind in _PASS:
            return {"action": _PASS[d.kind]}
        return {"action": action_text(a, m)}

    def _view(self, d: dict[str, Any]) -> GameView:
        if self.map is None:
            raise ProtocolError("a state before start_game")
        return GameView(decode_state(d, self.map, self.n_players, self.seat), self.map,
                        self.rules, self.seat)


def serve(make_player: Callable[[], Player], inp: IO[str], out: IO[str]) -> None:
    """Answer request lines from `inp` on `out` until end of input."""
    server = Server(make_player)
    for line in inp:
        if not line.strip():
            continue
        out.write(json.dumps(server.handle(line), separators=(",", ":")) + "\n")
        out.flush()


class SubprocessPlayer:
    """A riskevo player whose decisions come from a subprocess speaking the protocol."""

    name = "subprocess"

    def __init__(self, command: Sequence[str] | None) -> None:
        self.command = list(command or [])
        self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1) if command else None
        self.map: Map | None = None
        self._id = 0

    @classmethod
    def for_bot(cls, spec: str) -> SubprocessPlayer:
        """`python -m arena.serve SPEC` (as `python -m arena serve`) with this interpreter."""
        return cls([sys.executable, "-m", "arena.serve", spec])

    def exchange(self, line: str) -> str:
        """Send one request line, return the reply line ("" if the process closed its output)."""
        if self.proc is None or self.proc.stdin is None or self.proc.stdout is None:
            raise ProtocolError("no bot process to talk to")
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.proc.stdout.readline()

    def request(self, ask: str, **fields: Any) -> dict[str, Any]:
        """Send one request and return the reply (ProtocolError on an error reply)."""
        self._id += 1
        line = self.exchange(json.dumps({"id": self._id, "ask": ask, **fields},
                                        separators=(",", ":")))
        if not line:
            raise ProtocolError(f"bot process {self.command} closed its output")
        reply = json.loads(line)
        if reply.get("id") != self._id:
            raise ProtocolError(f"reply id {reply.get('id')!r}, expected {self._id}")
        if "error" in reply:
            raise ProtocolError(f"bot error on {ask}: {reply['error']}")
        return dict(reply)

    def _act(self, view: GameView, ask: str, **fields: Any) -> Any:
        if self.map is None:
            raise ProtocolError(f"{ask} before start_game")
        text = self.request(ask, state=encode_state(view), **fields)["action"]
        try:
            return parse_action(str(text), self.map)
        except ValueError as e:
            raise IllegalActionError(f"bot answered {text!r} to {ask}: {e}") from None

    def start_game(self, view: GameView, rng: np.random.Generator) -> None:
        """Send the board, rules, seat and this player's generator state."""
        self.map = view.map
        r = view.rules
        self.request("start_game", map=map_json(view.map), seat=view.seat,
                     n_players=view.n_players, rng_state=rng.bit_generator.state,
                     rules={"missions": r.missions, "fixed_cards": r.fixed_cards,
                            "path_fortify": r.path_fortify, "cap": r.cap},
                     state=encode_state(view))

    def act(self, view: GameView, decision: Decision) -> Any:
        """Forward the decision; the reply's action in the engine's answer form."""
        k = decision.kind
        fields: dict[str, Any] = {}
        if k is DecisionKind.REINFORCE:
            fields["armies"] = decision.armies
        elif k is DecisionKind.TRADE:
            fields["compulsory"] = decision.compulsory
        elif k is DecisionKind.MOVE_IN:
            fields["lo"], fields["hi"] = decision.lo, decision.hi
        a = self._act(view, k.value, **fields)
        if k is DecisionKind.PLACE_INITIAL:
            if not isinstance(a, Place):
                raise IllegalActionError(f"expected 'place T 1', got {a!r}")
            return a.territory
        if k is DecisionKind.MOVE_IN:
            if not isinstance(a, MoveIn):
                raise IllegalActionError(f"expected 'move N', got {a!r}")
            return a.count
        return None if isinstance(a, Pass) else a

    def close(self) -> None:
        """End the subprocess (closing its input ends `serve`)."""
        if self.proc is not None:
            if self.proc.stdin:
                self.proc.stdin.close()
            self.proc.wait(timeout=10)

    def __repr__(self) -> str:
        return f"SubprocessPlayer({' '.join(self.command[-1:])!r})"


def main(argv: list[str]) -> int:
    """`python -m arena serve BOT`: answer protocol requests on stdin/stdout."""
    ap = argparse.ArgumentParser(prog="python -m arena serve", description=main.__doc__)
    ap.add_argument("bot", help="bot file, baseline name or package.module:Class")
    args = ap.parse_args(argv)
    from arena.play import BotSpecError, make_bot

    try:
        make_bot(args.bot)
    except BotSpecError as e:
        print(json.dumps({"id": None, "error": str(e)}), flush=True)
        return 2
    serve(lambda: make_bot(args.bot), sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
