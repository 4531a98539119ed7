"""Compact text log of a game: one line per decision plus the chance outcomes it caused.

The header names the format, the riskevo version that wrote it, the board, the rules, the seat
order, what each player was (`player <index> <label>`, when the players are known) and the
deal; `game.record.replay` reads it back. Older transcripts lack the version and player lines.

After the `end` line a transcript may carry decision records, one line each,
`why <version> <line> <json>`: why the player of action line `<line>` (1-based) decided as it
did, as it recorded it then (`features.why` makes and reads the JSON). Readers stop at
`end`, so older ones ignore them; `records` skips a version it does not know.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

import numpy as np

from game.actions import Action, Attack, Trade
from game.map import Map
from game.rules import layout as L
from game.rules.queries import standing
from game.state import Rules, State
from game.untrusted import UntrustedJSONError, parse_json
from game.version import riskevo_version

FORMAT = "riskevo-transcript 1"  # the added header lines leave older readers working
MAX_LABEL = 80  # characters of a player's label kept in the header
RECORD_VERSION = 1  # of the decision records after the end line (`why_line`)
MAX_RECORD_CHARS = 64 * 1024  # one record line (a planned attack of 9 options: about 9 KiB)
MAX_TRANSCRIPT_BYTES = 16 * 1024 * 1024  # a whole transcript file, its records included


# Options every header names; the others of Rules only when they differ from their default,
# so that transcripts of standard games (the golden files among them) keep their header.
HEADER_RULES = ("missions", "fixed_cards", "path_fortify", "cap")


def rules_line(rules: Rules) -> str:
    """The header line naming the rules: 'rules missions=0 ... cap=100 [other=value ...]'."""
    default = Rules()
    parts = [f"{f.name}={int(getattr(rules, f.name))}" for f in fields(Rules)
             if f.name in HEADER_RULES or getattr(rules, f.name) != getattr(default, f.name)]
    return "rules " + " ".join(parts)


def player_line(player: int, label: str) -> str:
    """The header line naming what player `player` was, on one line of at most MAX_LABEL."""
    text = " ".join(str(label).split())[:MAX_LABEL] or f"player {player}"
    return f"player {player} {text}"


class Transcript:
    """Collects transcript lines while a game is played (lines start 'r<round> s<seat>')."""

    def __init__(self, m: Map, rules: Rules, state: State, seats: tuple[int, ...]) -> None:
        self.m, self.state, self.rules_cap = m, state, rules.cap
        self.lines = [
            FORMAT,
            f"version {riskevo_version()}",
            f"map {m.name}",
            rules_line(rules),
            "seats " + " ".join(str(p) for p in seats),
            "deal " + " ".join(str(int(o)) for o in state.owner),
        ]
        self._players_at, self._n_labels = len(self.lines) - 1, 0  # before the deal
        for seat in range(state.n_players):
            mid, target = state.mission(seat)
            if mid >= 0:
                self.lines.append(f"mission s{seat} {mid} {target}")
        self._alive = state.pl[:, L.P_ALIVE].copy()
        self._turns = int(state.sc[L.S_TURNS])

    def name_players(self, labels: Sequence[str]) -> None:
        """Record what each player was (labels in player order), replacing earlier names."""
        at = self._players_at
        self.lines[at:at + self._n_labels] = [player_line(p, x) for p, x in enumerate(labels)]
        self._n_labels = len(labels)

    def _name(self, t: int) -> str:
        return self.m.territories[t].replace(" ", "_")

    def record(self, seat: int, action: Action, round_: int) -> None:
        """Log one applied action of `seat`, taken in round `round_` (read before the step:
        the step may start the next round), and what it caused."""
        st, sc, ev = self.state, self.state.sc, self.state.ev
        head = f"r{round_} s{seat}"
        line = f"{head} {action.text(self.m)}"
        if isinstance(action, Trade):
            line += f" = {int(ev[L.EV_TRADE_ARMIES])}"
            if int(ev[L.EV_BONUS_T]) >= 0:
                line += f" bonus {self._name(int(ev[L.EV_BONUS_T]))}"
        elif isinstance(action, Attack):
            dfn = L.EV_ROLL + L.ATTACK_DICE
            att = " ".join(str(int(d)) for d in ev[L.EV_ROLL:dfn] if d)
            dfs = " ".join(str(int(d)) for d in ev[dfn:dfn + L.DEFEND_DICE] if d)
            line += f" = {att} v {dfs} -{int(ev[L.EV_LOSS_A])} -{int(ev[L.EV_LOSS_D])}"
            if int(st.owner[action.dst]) == seat:
                line += " conquers"
                if st.phase != L.PH_OCCUPY and int(sc[L.S_DST]) == action.dst:
                    line += f" moves {int(st.armies[action.dst])}"
        self.lines.append(line)
        alive = st.pl[:, L.P_ALIVE]
        for q in np.flatnonzero(self._alive != alive):
            self.lines.append(f"{head} eliminates s{int(q)}")
        self._alive = alive.copy()
        turns = int(sc[L.S_TURNS])
        if turns != self._turns or sc[L.S_CAPPED]:
            # The turn ended: EV_DRAWN is the card it earned (stale otherwise).
            drawn = int(ev[L.EV_DRAWN])
            if drawn >= 0:
                self.lines.append(f"{head} card {drawn}")
            self._turns = turns

    def finish(self) -> tuple[str, ...]:
        """Close the log with the result line (places in seat order)."""
        st = self.state
        end = standing(st.kernel, range(st.n_players), self.rules_cap)
        places = " ".join(str(int(p)) for p in end.placements)
        self.lines.append(f"end rounds={end.rounds} winner={st.winner} "
                          f"capped={int(end.capped)} places {places}")
        return tuple(self.lines)


class RecordError(ValueError):
    """A decision record line that cannot be read (its message names the line)."""


def why_line(no: int, record: Mapping[str, Any]) -> str:
    """The trailer line carrying the decision record of action line `no` (1-based)."""
    return f"why {RECORD_VERSION} {no} " + json.dumps(record, separators=(",", ":"),
                                                       allow_nan=False)


def with_records(lines: Sequence[str], records: Mapping[int, Mapping[str, Any]]) -> list[str]:
    """A finished transcript (`lines` ending with `end`) with its decision records after it,
    by action line (1-based): a record too long for a line is left out, and so are the ones
    that would take the file past `MAX_TRANSCRIPT_BYTES` (a long game of planning seats keeps its
    earlier records), so that the file always reads back."""
    out = list(lines)
    size = sum(len(x.encode("utf-8")) + 1 for x in out)
    for no in sorted(records):
        line = why_line(no, records[no])
        if len(line) > MAX_RECORD_CHARS:
            continue
        size += len(line) + 1  # JSON text is ASCII (json.dumps escapes the rest)
        if size > MAX_TRANSCRIPT_BYTES:
            break
        out.append(line)
    return out


def records(lines: Sequence[str]) -> dict[int, dict[str, Any]]:
    """The decision records after the `end` line, by action line (1-based); those of a version
    this riskevo does not know are skipped. RecordError naming a malformed line."""
    end = next((i for i, x in enumerate(lines) if x.startswith("end ")), None)
    out: dict[int, dict[str, Any]] = {}
    if end is None:
        return out
    for i in range(end + 1, len(lines)):
        x = lines[i].strip()
        if not x:
            continue
        parts = x.split(" ", 3)
        if parts[0] != "why" or len(parts) < 4 or not parts[1].isdigit():
            raise RecordError(f"line {i + 1}: after 'end' only 'why <version> <line> <json>' "
                              f"records may follow, got {x[:60]!r}")
        if int(parts[1]) != RECORD_VERSION:
            continue
        if len(x) > MAX_RECORD_CHARS:
            raise RecordError(f"line {i + 1}: a record is at most {MAX_RECORD_CHARS} characters")
        if not parts[2].isdigit() or not 1 <= int(parts[2]) <= end:
            raise RecordError(f"line {i + 1}: a record names an action line 1..{end}, got "
                              f"{parts[2][:20]!r}")
        try:
            data = parse_json(parts[3])
        except UntrustedJSONError as e:  # nested too deep included
            raise RecordError(f"line {i + 1}: the record is {e}") from None
        if not isinstance(data, dict):
            raise RecordError(f"line {i + 1}: the record must be a JSON object")
        out[int(parts[2])] = data
    return out
