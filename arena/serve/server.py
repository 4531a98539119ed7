"""Bot protocol server: JSON lines over stdin/stdout or TCP (see docs/protocol.md).

`Server` answers one game session's requests with a riskevo player and never raises on any
input line; `arena.serve.lines.serve` runs it over stdin/stdout, `arena.serve.tcp.serve_tcp` one
session per connection. The request checks live in `arena.wire.protocol`, the answer checks in
`arena.serve.answers`, the engine side in `arena.wire.subprocess_player`.
"""

from __future__ import annotations

import contextlib
import functools
import queue
import sys
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from arena.serve.answers import final_answer, legal, parse_refused
from arena.serve.recorder import (
    GameRecord,
    Recorder,
    decision_entry,
    header_entry,
)
from arena.wire.protocol import (
    MAX_ARMIES,
    PROTOCOL,
    PROTOCOLS,
    ProtocolError,
    as_int,
    decode_state,
    encode_state,
    hand_kinds,
    with_kinds,
)
from arena.wire.subprocess_player import SubprocessPlayer, map_json
from game.actions import END_TRADE, SKIP, STOP, Action, MoveIn, Place
from game.decision import Decision, DecisionKind
from game.decision import ask as answer
from game.map import Map, MapError, build_map
from game.protocol import IllegalActionError, Player
from game.rules import layout as L
from game.state import Rules, RulesError, State
from game.untrusted import UntrustedJSONError, parse_json
from game.view import GameView

__all__ = ["PROTOCOL", "ProtocolError", "Server", "SubprocessPlayer", "encode_state", "map_json"]

ASKS = tuple(k.value for k in DecisionKind)  # the six decisions, in the order they are asked
_ERROR_CHARS = 300  # an error reply stays one short line whatever the input


class Server:
    """Answers one game session's protocol requests with a riskevo player.

    `strict` (the isolated seat of arena.isolation.sandbox): the player's own answer or an
    error reply, never a fallback: a player that raises or answers illegally gets an error
    reply naming it, and the engine side forfeits it.
    """

    def __init__(self, make_player: Callable[[], Player], strict: bool = False,
                 decision_timeout: float | None = None,
                 recorder: Recorder | None = None) -> None:
        self.make_player = make_player
        self.strict = strict
        # Not strict: a decision not answered in this many seconds gets the fallback answer,
        # and the player (still busy) is not asked again in this game.
        self.decision_timeout = decision_timeout
        self.stuck = False
        self.busy: threading.Thread | None = None  # a timed-out decision still running
        self._worker: _DecisionThread | None = None
        self.player: Player | None = None
        self.map: Map | None = None
        self.rules = Rules()
        self.seat = 0
        self.n_players = 0
        self._live: tuple[Map, State, GameView] | None = None  # the session's view and state
        self.recorder = recorder
        self.record: GameRecord | None = None  # this game's file (serve --record)
        # (ask, decoded view, decision fields) of the request being answered, for the record
        self._seen: tuple[Any, GameView | None, dict[str, Any]] = (None, None, {})

    def handle(self, line: str | bytes) -> dict[str, Any]:
        """One request line -> one reply object (an `error` reply for anything at all wrong)."""
        self._seen = (None, None, {})
        reply = self._reply(line)
        if self.record is not None:
            self._keep(reply)
        return reply

    def _keep(self, reply: dict[str, Any]) -> None:
        """Record a decision (or the game's end) after its reply: the answer is already made."""
        assert self.record is not None  # noqa: S101 - handle checks; for mypy
        ask, view, extra = self._seen
        if ask == "end_game":
            self.record.write({"record": "end"})
            self.record.close()
            self.record = None
        elif ask in ASKS:
            self.record.write(decision_entry(ask, reply.get("id"), view, extra, reply))

    def _reply(self, line: str | bytes) -> dict[str, Any]:
        rid: Any = None
        try:
            try:
                req = parse_json(line)
            except UntrustedJSONError as e:  # one line: the column says where
                where = f" at column {e.column}" if e.kind == "syntax" else ""
                what = "not UTF-8" if e.kind == "utf8" else "not JSON"
                raise ProtocolError(f"{what}: {e.msg}{where}") from None
            if not isinstance(req, dict):
                raise ProtocolError("a request must be a JSON object")
            rid = req.get("id")
            return {"id": rid, **self._dispatch(req)}
        except (ProtocolError, MapError, RulesError, IllegalActionError) as e:
            return {"id": rid, "error": _one_line(str(e))}
        except Exception as e:  # noqa: BLE001 - the server must outlive any input line
            return {"id": rid, "error": _one_line(f"cannot answer: {type(e).__name__}: {e}")}

    def _dispatch(self, req: dict[str, Any]) -> dict[str, Any]:
        ask = req.get("ask")
        self._seen = (ask, None, {})
        if ask == "hello":
            return {"protocol": PROTOCOL, "accepts": list(PROTOCOLS),
                    "asks": ["start_game", *ASKS, "end_game"]}
        if ask == "start_game":
            return self._start(req)
        if ask == "end_game":
            self.player = None  # the record file is closed by _keep, after this reply
            return {"ok": True}
        if ask not in ASKS:
            raise ProtocolError(f"unknown ask {_short_repr(ask)} (allowed: hello, start_game, "
                                f"{', '.join(ASKS)}, end_game)")
        if self.player is None or self.map is None:
            raise ProtocolError(f"{ask!r} before start_game")
        return {"action": self._decide(ask, req).text(self.map)}

    def _start(self, req: dict[str, Any]) -> dict[str, Any]:
        proto = req.get("protocol", PROTOCOL)
        if proto not in PROTOCOLS:
            raise ProtocolError(f"protocol must be one of {', '.join(PROTOCOLS)}, got "
                                f"{_short_repr(proto)}")
        if not isinstance(req.get("map"), dict):
            raise ProtocolError("start_game.map must be a JSON object (the board)")
        m = build_map(req["map"], "start_game.map")
        rules = req.get("rules", {})
        if not isinstance(rules, dict):
            raise ProtocolError("start_game.rules must be a JSON object")
        r = Rules.from_dict(rules)
        n = as_int(req.get("n_players"), "start_game.n_players", 2, 6)
        seat = as_int(req.get("seat"), "start_game.seat", 0, n - 1)
        r.check(m, n)
        rng = np.random.default_rng(as_int(req.get("seed", 0), "start_game.seed", 0, 2**64 - 1))
        if "rng_state" in req:
            try:
                rng.bit_generator.state = req["rng_state"]
            except (TypeError, ValueError, KeyError, OverflowError) as e:
                raise ProtocolError(f"start_game.rng_state must be numpy's PCG64 "
                                    f"bit_generator.state: {e}") from None
        self.player, self.map, self.rules, self.seat, self.n_players = None, m, r, seat, n
        self._live = None
        self.stuck = False
        player = self.make_player()
        player.start_game(self._view(req, "start_game"), rng)
        self.player = player
        if self.record is not None:  # a start_game without end_game: the last game is over
            self.record.close()
        if self.recorder is not None:
            self.record = self.recorder.open_game(
                header_entry(m, r, seat, n, str(proto)))
        return {"ok": True}

    def _view(self, req: dict[str, Any], ask: str) -> GameView:
        assert self.map is not None  # noqa: S101 - callers check; for mypy
        if "state" not in req:
            raise ProtocolError(f"{ask!r} needs a state")
        # The request's card kinds are authoritative; card ids stay stable through a game.
        self.map = with_kinds(self.map, hand_kinds(req["state"], self.map))
        s = decode_state(req["state"], self.map, self.n_players, self.seat, ask)
        mission, target = int(s.pl[self.seat, L.P_MISSION]), int(s.pl[self.seat, L.P_TARGET])
        if mission >= 0 and not self.rules.missions:
            raise ProtocolError("state.mission must be [-1, -1] when rules.missions is false")
        if (mission >= L.M_DESTROY) != (target >= 0) or target == self.seat:
            raise ProtocolError(f"state.mission: a destroy-colour mission (id >= {L.M_DESTROY}) "
                                f"needs another seat as target, other missions target -1")
        if ask == "reinforce":
            s.sc[L.S_POOL] = req["armies"]
        if ask == "move_in":
            s.sc[L.S_MIN_MOVE] = req["lo"]
            if req["hi"] > s.armies[s.sc[L.S_SRC]] - 1:
                raise ProtocolError(f"hi must be at most the attacking territory's armies - 1 "
                                    f"({s.armies[s.sc[L.S_SRC]] - 1}), got {req['hi']}")
        if s.pl[self.seat, L.P_ALIVE] != 1 or s.phase == L.PH_OVER:
            raise ProtocolError(f"state: the bot's seat {self.seat} must be alive in a game "
                                "still on to be asked")
        live = self._live
        if live is not None and live[0] is self.map:
            # One view per session, as in the engine (a new view costs ~1 ms of binding).
            for dst, src in zip(live[1].kernel, s.kernel, strict=True):
                np.copyto(dst, src)
            return live[2]
        view = GameView(s, self.map, self.rules, self.seat)
        self._live = (self.map, s, view)
        return view

    def _decide(self, ask: str, req: dict[str, Any]) -> Action:
        extra = _extra_fields(ask, req)
        view = self._view({**req, **extra}, ask)
        if ask == "trade" and "compulsory" not in extra:
            extra["compulsory"] = len(view.hand) >= self.rules.trade_at
        refused = parse_refused(req.get("refused", []), view)
        self._seen = (ask, view, {**extra, **({"refused": req["refused"]} if refused else {})})
        act = self._ask(view, ask, extra)
        if self.strict:
            if act is None or not legal(view, ask, act, extra):
                raise IllegalActionError(f"the bot's answer {act!r} to {ask} is not legal")
            return act
        if isinstance(act, MoveIn):
            act = MoveIn(min(max(act.count, extra["lo"]), extra["hi"]))
        return final_answer(view, ask, act, extra, refused)

    def _ask(self, view: GameView, ask: str, extra: dict[str, Any]) -> Action | None:
        """The player's own answer; None where the rules leave no choice (or it fails)."""
        p = self.player
        assert p is not None  # noqa: S101 - _dispatch checks; for mypy
        # Asked where riskevo would not ask (point 6): answer without the player.
        if ask == "move_in" and extra["lo"] == extra["hi"]:
            return MoveIn(extra["lo"])
        if ask == "attack" and not view.attack_options():
            return STOP
        if ask == "fortify" and not view.fortify_options():
            return SKIP
        if ask == "trade" and not view.sets():
            return END_TRADE
        kind = DecisionKind(ask)
        if self.strict:
            return self._answer(p, view, kind, extra)
        if self.stuck:
            return None
        if self.decision_timeout is not None:
            return self._timed(p, view, kind, extra, self.decision_timeout)
        try:
            return self._answer(p, view, kind, extra)
        except Exception:  # noqa: BLE001 - any failure of the bot: the fallback answers
            # A state riskevo never reaches (another engine's rules), or a bot's own bug.
            return None

    def _timed(self, p: Player, view: GameView, kind: DecisionKind, extra: dict[str, Any],
               limit: float) -> Action | None:
        """The answer from the session's decision thread, None (the fallback) if it fails or
        takes longer than `limit` seconds (then the player counts as stuck until the next
        start_game)."""
        job = functools.partial(self._answer, p, view, kind, extra)
        if self._worker is None or not self._worker.submit(job):
            self._worker = _DecisionThread()  # the first decision, or the last thread idled out
            self._worker.submit(job)
        done, answer = self._worker.wait(limit)
        if not done:
            self.stuck, self.busy = True, self._worker.thread
            self._worker.retire()
            self._worker = None
            print(f"seat {self.seat}: no answer within {limit:g} s; fallback answers for the "
                  "rest of this game", file=sys.stderr, flush=True)
        return answer

    @staticmethod
    def _answer(p: Player, view: GameView, kind: DecisionKind, extra: dict[str, Any]
                ) -> Action | None:
        """The player's answer as an action (None: the bot passed)."""
        # One entry point: the player's act (or an older bot's named method).
        a = answer(p, view, Decision(kind, armies=extra.get("armies", 0),
                                     compulsory=bool(extra.get("compulsory", False)),
                                     lo=extra.get("lo", 0), hi=extra.get("hi", 0)))
        if kind is DecisionKind.PLACE_INITIAL:
            return Place(int(a), 1)
        if kind is DecisionKind.MOVE_IN:
            return MoveIn(int(a))
        if a is None:
            return {DecisionKind.TRADE: END_TRADE, DecisionKind.ATTACK: STOP,
                    DecisionKind.FORTIFY: SKIP}.get(kind)
        return a


class _DecisionThread:
    """One thread that runs a session's decisions one after another, so that a decision
    with a time limit costs a hand-over, not a thread start (3x faster bridge games); it ends
    after `IDLE_S` without work, or after the job it is running when retired."""

    IDLE_S = 30.0

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[Callable[[], Action | None] | None] = queue.SimpleQueue()
        self.answers: queue.SimpleQueue[Action | None] = queue.SimpleQueue()
        self.lock = threading.Lock()
        self.closed = False
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def submit(self, job: Callable[[], Action | None]) -> bool:
        """Queue `job`; False if the thread has ended (idle) and takes no more."""
        with self.lock:
            if self.closed:
                return False
            self.jobs.put(job)
            return True

    def wait(self, limit: float) -> tuple[bool, Action | None]:
        """(answered within `limit` s, the answer: None if the job raised or timed out)."""
        try:
            return True, self.answers.get(timeout=limit)
        except queue.Empty:
            return False, None

    def retire(self) -> None:
        """No more jobs: the thread ends once its running job returns."""
        with self.lock:
            self.closed = True
            self.jobs.put(None)

    def _loop(self) -> None:
        while True:
            try:
                job = self.jobs.get(timeout=self.IDLE_S)
            except queue.Empty:
                with self.lock:
                    if self.jobs.empty():
                        self.closed = True
                        return
                continue
            if job is None:
                return
            answer = None
            with contextlib.suppress(Exception):
                answer = job()
            self.answers.put(answer)


def _extra_fields(ask: str, req: dict[str, Any]) -> dict[str, Any]:
    """The decision's own fields, checked (state checks come with the board)."""
    if ask == "reinforce":
        return {"armies": as_int(req.get("armies"), "armies", 1, MAX_ARMIES)}
    if ask == "move_in":
        lo = as_int(req.get("lo"), "lo", 1, MAX_ARMIES)
        hi = as_int(req.get("hi"), "hi", 1, MAX_ARMIES)
        if lo > hi:
            raise ProtocolError(f"lo must be at most hi, got lo={lo}, hi={hi}")
        return {"lo": lo, "hi": hi}
    if ask == "trade" and "compulsory" in req:
        if not isinstance(req["compulsory"], bool):
            raise ProtocolError(f"compulsory must be true or false, got "
                                f"{_short_repr(req['compulsory'])}")
        return {"compulsory": req["compulsory"]}
    return {}


def _short_repr(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _one_line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _ERROR_CHARS else text[:_ERROR_CHARS - 3] + "..."


if __name__ == "__main__":
    # The command line is `python -m arena serve` (arena.serve.command); importing it from here
    # would close an import circle.
    sys.exit("usage: python -m arena serve BOT [--tcp HOST:PORT] [--record DIR]")
