"""Replays: the board after every line of a game transcript, and each line in words.

The transcript's reader, beside its writer `game.record.transcript`. A transcript records every
decision with what it caused (dice, losses, conquests, set values, card bonuses, cards drawn,
eliminations), so the board after each line follows from the lines alone: `replay` applies
those recorded effects and never decides a rule. This module reads the transcript's shape
(header, deal, missions, end, bounds); what each action line does to the board is
`game.record.replay_board`'s. `tests/game/test_replay.py` checks it against the kernel's own state
after every action of seeded games, as the perft test checks move generation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from game.atomic import read_limited
from game.map import Map, MapError, classic_map
from game.record.replay_board import Board, Frame
from game.record.transcript import FORMAT, MAX_LABEL, MAX_TRANSCRIPT_BYTES
from game.rules import layout as L

MAX_SEATS = 6  # a game seats 2..6 players
# Lines a replay holds (a frame each, about 2 KiB): several times a 6-player game capped at
# 100 rounds, as many steps as a slider can show, and seconds of work, not minutes.
MAX_REPLAY_LINES = 50_000


class ReplayError(ValueError):
    """A transcript that cannot be replayed; the message names the line."""


@dataclass
class Replay:
    """A whole recorded game: its header and one frame per line (the deal first)."""

    map: Map
    rules: str
    seats: list[int]  # seats[seat] = player index
    missions: dict[int, str] = field(default_factory=dict)
    frames: list[Frame] = field(default_factory=list)
    result: str = ""
    version: str = ""  # the riskevo version that wrote it ("" in older transcripts)
    labels: list[str] = field(default_factory=list)  # what each player was ([]: not recorded)


def mission_text(m: Map, mission: int, target: int, labels: Sequence[str]) -> str:
    """A secret mission in words."""
    if mission < 0:
        return "world domination: take every territory"
    if mission <= L.M_EUR_AUS_ANY:
        a, b = L.MISSION_CONTINENTS[mission]
        extra = " and one more continent" if mission >= L.M_EUR_SAM_ANY else ""
        return f"hold {a} and {b}{extra}"
    if mission == L.M_18_TWO:
        return (f"hold {L.MISSION_TERRITORIES} territories with at least "
                f"{L.MISSION_ARMIES} armies each")
    if mission == L.M_24 or target < 0:
        return f"hold {L.MISSION_ALL_TERRITORIES} territories"
    name = labels[target] if 0 <= target < len(labels) else f"seat {target}"
    return f"destroy {name} (or else hold {L.MISSION_ALL_TERRITORIES} territories)"


class Replayer:
    """A transcript read line by line (`feed`): the frame each line makes, so a live game's
    log grows with its transcript instead of being replayed whole for every request.
    `keep`: also collect the frames in `out.frames` (as `replay` returns them)."""

    def __init__(self, labels: Sequence[str] | None = None, m: Map | None = None,
                 show_cards: bool = True, by_seat: bool = False, keep: bool = True) -> None:
        self.labels, self.m, self.show_cards, self.by_seat, self.keep = (
            labels, m, show_cards, by_seat, keep)
        self.header: dict[str, str] = {}
        self.recorded: dict[int, str] = {}  # player -> label, from the header's player lines
        self.board: Board | None = None
        self.out: Replay | None = None
        self.lines = 0  # lines fed, blank ones included
        self.round = 0  # the round of the last frame
        self.done = False  # the 'end' line was read

    def feed(self, raw: str) -> Frame | None:
        """The frame of the next transcript line (None for header, blank and mission lines,
        and after the end); ReplayError naming the line if it cannot be replayed."""
        self.lines += 1
        line = raw.strip()
        if not line or self.done:
            return None
        try:
            frame = self._frame(self.lines, line)
        except ReplayError:
            raise
        except (ValueError, KeyError, IndexError, MapError) as e:
            raise ReplayError(f"line {self.lines}: cannot replay {line[:80]!r}: {e}") from None
        if frame is not None:
            self.round = frame.round
            if self.keep:
                assert self.out is not None  # noqa: S101 - a frame comes after the deal
                self.out.frames.append(frame)
        return frame

    def _frame(self, no: int, line: str) -> Frame | None:
        board = self.board
        if board is None:
            return self._head(no, line)
        assert self.out is not None  # noqa: S101 - set with the board
        if line.startswith("mission "):
            s, mid, tgt = line.split()[1:]
            seat = int(s.removeprefix("s"))
            self.out.missions[seat] = mission_text(board.m, int(mid), int(tgt), board.labels)
            return None
        if line.startswith("end "):
            self.out.result = line
            self.done = True
            board.event = {"kind": "end", "seat": -1}
            return board.frame(self.round, -1, _end_text(line, board), line, no - 1)
        r, s, rest = line.split(" ", 2)
        round_, seat = int(r.removeprefix("r")), int(s.removeprefix("s"))
        board.begin(round_, seat)
        text = board.apply(seat, rest, self.show_cards)
        return board.frame(round_, seat, text, line, no - 1)

    def _head(self, no: int, line: str) -> Frame | None:
        """A header line; the deal makes the board and the first frame."""
        key, _, value = line.partition(" ")
        if no == 1 and line != FORMAT:
            raise ReplayError(f"line 1: not a transcript (expected {FORMAT!r})")
        if key == "player":
            p, _, label = value.partition(" ")
            self.recorded[int(p)] = label[:MAX_LABEL]
            return None
        if key != "deal":
            if key != FORMAT.split()[0]:
                self.header[key] = value
            return None
        m = self.m = self.m or _board(self.header.get("map", "classic"))
        seats = [int(x) for x in self.header["seats"].split()]
        if not 2 <= len(seats) <= MAX_SEATS:
            raise ReplayError(f"line {no}: a game has 2..{MAX_SEATS} seats, got {len(seats)}")
        owner = [int(x) for x in value.split()]
        if len(owner) != m.n_territories:
            raise ReplayError(f"line {no}: the deal names {len(owner)} territories, "
                              f"map {m.name!r} has {m.n_territories}")
        labels, by_seat, recorded = self.labels, self.by_seat, self.recorded
        if not labels and sorted(recorded) == list(range(len(seats))):
            labels, by_seat = [recorded[p] for p in range(len(seats))], False
        if labels and by_seat:
            names = list(labels)
        elif labels:
            names = [labels[p] for p in seats]
        else:
            names = [f"seat {s}" for s in range(len(seats))]
        rules = dict(x.partition("=")[::2] for x in self.header.get("rules", "").split())
        self.board = Board(m, owner, len(seats), names,
                           {k: rules.get(k, "0") in ("1", "True", "true") for k in
                            ("fixed_cards", "bonus_every_set")})
        self.out = Replay(m, self.header.get("rules", ""), seats,
                          version=self.header.get("version", ""),
                          labels=[recorded[p] for p in sorted(recorded)])
        return self.board.frame(0, -1, "territories dealt", line, no - 1)


def replay(lines: Iterable[str], labels: Sequence[str] | None = None, m: Map | None = None,
           show_cards: bool = True, by_seat: bool = False) -> Replay:
    """Frames of a transcript (lines of `game.record.transcript`); ReplayError naming a bad line.
    `labels` name the players in the order they were given (by seat with `by_seat`); at most
    MAX_REPLAY_LINES lines."""
    if isinstance(lines, Sequence) and len(lines) > MAX_REPLAY_LINES:
        raise ReplayError(f"the transcript has {len(lines)} lines; a replay shows at most "
                          f"{MAX_REPLAY_LINES}")
    r = Replayer(labels, m, show_cards, by_seat)
    for raw in lines:
        if r.lines >= MAX_REPLAY_LINES:
            raise ReplayError(f"line {r.lines + 1}: a replay shows at most {MAX_REPLAY_LINES} "
                              "lines")
        r.feed(raw)
        if r.done:
            break
    if r.out is None:
        raise ReplayError("the transcript has no 'deal' line")
    return r.out


def _board(name: str) -> Map:
    if name != "classic":
        raise ReplayError(f"map {name!r}: only the classic map's transcripts replay without "
                          "the map file")
    return classic_map()


def _end_text(line: str, board: Board) -> str:
    fields = dict(p.split("=", 1) for p in line.split() if "=" in p)
    places = line.split(" places ", 1)[1].split() if " places " in line else []
    order = sorted(range(len(places)), key=lambda s: int(places[s]))
    ranking = ", ".join(f"{places[s]}. {board.who(s)}" for s in order)
    how = "capped" if fields.get("capped") == "1" else "over"
    return f"game {how} after {fields.get('rounds', '?')} rounds: {ranking}"


def read_transcript(path: str | Path) -> list[str]:
    """The lines of a transcript file (ReplayError when missing, too large or not text)."""
    p = Path(path)
    try:  # never waits: a FIFO is refused
        data = read_limited(p, MAX_TRANSCRIPT_BYTES, "a transcript")
    except OSError as e:
        raise ReplayError(f"{p}: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ReplayError(f"{p}: not UTF-8 text") from None
    return text.splitlines()


__all__ = ["MAX_REPLAY_LINES", "Replay", "ReplayError", "Replayer", "mission_text",
           "read_transcript", "replay"]
