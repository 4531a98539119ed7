"""The position in which a transcript line was decided, rebuilt from the replay
(`game.record.replay`) and the line's own header (seat, phase, the armies still to place, the
conquest being moved into): what `arena explain --transcript` and the web page's why? read.
A line that is not a decision is a ReplayError, as a transcript that cannot be replayed."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import fields

from game.actions import parse_action
from game.map import Map
from game.record.replay import MAX_REPLAY_LINES, Replay, Replayer, ReplayError
from game.record.replay_board import Frame
from game.rules import layout as L
from game.state import Rules, State

_PHASE_OF_VERB = {"trade": L.PH_TRADE, "end-trade": L.PH_TRADE, "attack": L.PH_ATTACK,
                  "stop": L.PH_ATTACK, "move": L.PH_OCCUPY, "fortify": L.PH_FORTIFY,
                  "skip": L.PH_FORTIFY}


def header_rules(header: str) -> Rules:
    known = {f.name for f in fields(Rules)}
    values: dict[str, object] = {}
    for part in header.split()[1:]:
        name, _, v = part.partition("=")
        if name in known:
            values[name] = int(v) if name in ("cap", "trade_at") else v == "1"
    return Rules.from_dict(values)


def _head(line: str) -> tuple[int, int, str] | None:
    """(round, seat, rest) of a decision line 'r<round> s<seat> <action>', else None."""
    parts = line.strip().split(" ", 2)
    if (len(parts) < 3 or not parts[0].startswith("r") or not parts[1].startswith("s")
            or parts[2].split()[0] in ("card", "eliminates")):
        return None
    return int(parts[0][1:]), int(parts[1][1:]), parts[2]


class Positions:
    """One growing transcript's replay, kept between questions (a live game's why?): a later line
    feeds only the lines since the last question; an earlier line, or other lines, start over."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # the web server asks from several threads
        self._reset()

    def _reset(self) -> None:
        self._reader = Replayer(keep=False)
        self._fed: list[str] = []
        self._last: Frame | None = None  # the board after the lines fed
        self._prev: Frame | None = None  # the board before the last line fed

    def before(self, lines: Sequence[str], no: int) -> tuple[Replay, Frame]:
        """The replay's header and the board before line `no` (1-based), which is replayed too,
        so a line that cannot be is refused; ReplayError naming the line."""
        if no > MAX_REPLAY_LINES:
            raise ReplayError(f"line {no}: a replay shows at most {MAX_REPLAY_LINES} lines")
        with self._lock:
            if no < len(self._fed) or list(lines[:len(self._fed)]) != self._fed:
                self._reset()
            try:
                for raw in lines[len(self._fed):no]:
                    frame = self._reader.feed(raw)
                    self._fed.append(raw)
                    self._prev, self._last = self._last, frame or self._last
            except ReplayError:
                self._reset()
                raise
            if self._reader.out is None or self._prev is None:
                raise ReplayError("the transcript has no 'deal' line")
            return self._reader.out, self._prev


def position_at(lines: Sequence[str], no: int, positions: Positions | None = None
                ) -> tuple[State, Map, Rules, str]:
    """The position in which transcript line `no` (1-based) was decided, and that line; pass
    the same `positions` for questions about one growing transcript."""
    head = _head(lines[no - 1])
    if head is None:
        raise ReplayError(f"--line {no}: not a decision line (allowed: a line 'r<round> "
                           f"s<seat> <action>', e.g. {_first_decision(lines)})")
    round_, seat, rest = head
    rep, before = (positions or Positions()).before(lines, no)
    m = rep.map
    rules = header_rules(next(x for x in lines if x.startswith("rules")))
    st = State.empty(m, len(rep.seats))
    st.owner[:], st.armies[:] = before.owner, before.armies
    st.cards[:] = L.CARD_DECK
    for q, hand in enumerate(before.hands):
        st.cards[hand] = q
    st.pl[:, L.P_ALIVE] = before.alive
    st.pl[:, L.P_MISSION] = st.pl[:, L.P_TARGET] = -1
    for x in lines[:no]:
        if x.startswith("mission "):
            s, mid, tgt = x.split()[1:]
            st.pl[int(s[1:]), L.P_MISSION], st.pl[int(s[1:]), L.P_TARGET] = int(mid), int(tgt)
    sc = st.sc
    for f in (L.S_WINNER, L.S_ELIMINATED, L.S_SRC, L.S_DST):
        sc[f] = -1
    sc[L.S_CURRENT], sc[L.S_ROUND] = seat, round_
    sc[L.S_TRADES] = sum(1 for x in lines[:no - 1] if (h := _head(x)) and h[2].startswith("trade"))
    turn = _this_turn(lines, no, seat)
    sc[L.S_CONQUERED] = int(any(" conquers" in x for x in turn))
    sc[L.S_BONUS_USED] = int(any(x.startswith("trade") and " bonus " in x for x in turn))
    verb = rest.split()[0]
    if verb == "place":
        sc[L.S_PHASE] = L.PH_SETUP if round_ == 0 else L.PH_REINFORCE
        sc[L.S_POOL] = 1 if round_ == 0 else _to_place(lines, no, seat, m)
    else:
        sc[L.S_PHASE] = _PHASE_OF_VERB[verb]
    if verb == "move":
        attack = next(x for x in reversed(turn) if x.startswith("attack"))
        act = parse_action(attack.partition(" = ")[0], m)
        sc[L.S_SRC], sc[L.S_DST] = act.encode()[1:3]
        sc[L.S_MIN_MOVE] = len(attack.partition(" = ")[2].partition(" v ")[0].split())
    return st, m, rules, lines[no - 1].strip()


def _this_turn(lines: Sequence[str], no: int, seat: int) -> list[str]:
    """The actions of `seat`'s turn before line `no`, oldest first."""
    out: list[str] = []
    for x in reversed(lines[:no - 1]):
        parts = x.split(" ", 2)
        if len(parts) < 3 or parts[1] != f"s{seat}" or parts[2].startswith("card"):
            break
        out.append(parts[2])
    return out[::-1]


def _to_place(lines: Sequence[str], no: int, seat: int, m: Map) -> int:
    """Armies still to place: the placements of `seat` from line `no` until it does else."""
    n = 0
    for x in lines[no - 1:]:
        head = _head(x)
        if head is None or head[1] != seat or not head[2].startswith("place"):
            break
        n += parse_action(head[2], m).encode()[2]
    return n


def _first_decision(lines: Sequence[str]) -> str:
    for i, x in enumerate(lines, 1):
        if _head(x) is not None:
            return f"--line {i}"
    return "none in this file"


__all__ = ["Positions", "header_rules", "position_at"]
