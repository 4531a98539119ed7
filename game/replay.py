"""Replays: the board after every line of a game transcript, and each line in words.

The transcript's reader, beside its writer `game.transcript`. A transcript records every
decision with what it caused (dice, losses, conquests, set values, card bonuses, cards drawn,
eliminations), so the board after each line follows from the lines alone: `replay` applies
those recorded effects and never decides a rule. `tests/game/test_replay.py` checks it against the
kernel's own state after every action of seeded games, as the perft test checks move
generation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from game import layout as L
from game.actions import Attack, Fortify, MoveIn, Pass, Place, Trade, parse_action
from game.map import Map, MapError, classic_map
from game.transcript import FORMAT, MAX_LABEL

MAX_TRANSCRIPT_BYTES = 16 * 1024 * 1024  # a capped 6-player game is well under 1 MiB
MAX_SEATS = 6  # a game seats 2..6 players
# Lines a replay holds (a frame each, about 2 KiB): several times a 6-player game capped at
# 100 rounds, as many steps as a slider can show, and seconds of work, not minutes.
MAX_REPLAY_LINES = 50_000


class ReplayError(ValueError):
    """A transcript that cannot be replayed; the message names the line."""


@dataclass
class Frame:
    """The board after one transcript line, and that line in words."""

    owner: list[int]
    armies: list[int]
    hands: list[list[int]]  # card ids per seat
    alive: list[bool]
    round: int
    seat: int  # who acted, -1 for the deal and the end
    text: str
    line: str
    index: int = 0  # the line's index in the transcript (0-based)
    event: dict[str, object] = field(default_factory=dict)  # the line as data (`_Board.apply`)

    def to_json(self) -> dict[str, object]:
        """The frame as the web page reads it."""
        return {"owner": self.owner, "armies": self.armies, "hands": self.hands,
                "alive": self.alive, "round": self.round, "seat": self.seat,
                "text": self.text, "line": self.line, "index": self.index, "event": self.event}


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


def card_text(m: Map, card: int) -> str:
    """'Alaska (infantry)' or 'wild'."""
    kind = int(m.card_kind[card])
    if kind == L.WILD or card >= m.n_territories:
        return "wild"
    return f"{m.territories[card]} ({L.KIND_NAMES[kind]})"


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


class _Board:
    """The position a transcript describes, moved on by its recorded effects."""

    def __init__(self, m: Map, owner: list[int], n_seats: int, labels: Sequence[str]) -> None:
        self.m, self.owner, self.labels = m, owner, labels
        self.armies = [1] * m.n_territories  # the deal puts one army on every territory
        self.hands: list[list[int]] = [[] for _ in range(n_seats)]
        self.alive = [True] * n_seats
        self.occupy = (-1, -1)
        # The last line as data for drawing it: kind (deal, place, trade, end-trade, attack,
        # stop, move, fortify, skip, card, eliminate, end), seat and the kind's fields; a
        # card's id is left out (the page names it only to its holder).
        self.event: dict[str, object] = {"kind": "deal", "seat": -1}

    def name(self, t: int) -> str:
        return self.m.territories[t]

    def who(self, seat: int) -> str:
        return self.labels[seat] if 0 <= seat < len(self.labels) else f"seat {seat}"

    def frame(self, round_: int, seat: int, text: str, line: str, index: int) -> Frame:
        return Frame(list(self.owner), list(self.armies), [list(h) for h in self.hands],
                     list(self.alive), round_, seat, text, line, index, self.event)

    def apply(self, seat: int, rest: str, show_cards: bool) -> str:
        """Apply one line's action and effects (text after 'r<round> s<seat> '); its words."""
        head, _, effects = rest.partition(" = ")
        words = head.split()
        who = self.who(seat)
        ev: dict[str, object] = {"kind": words[0], "seat": seat}
        self.event = ev
        if not 0 <= seat < len(self.hands):
            raise ValueError(f"seat s{seat} does not play (s0..s{len(self.hands) - 1})")
        if words[0] == "eliminates":
            q = int(words[1].removeprefix("s"))
            if not 0 <= q < len(self.hands) or q == seat:
                raise ValueError(f"s{q} is not another seat of the game")
            ev.update(kind="eliminate", victim=q, cards=len(self.hands[q]))
            taken = self.hands[q]
            self.hands[seat].extend(taken)
            self.hands[q], self.alive[q] = [], False
            return f"{who} eliminates {self.who(q)} and takes {len(taken)} cards"
        if words[0] == "card":
            card = int(words[1])
            if not 0 <= card < len(self.m.card_kind) or any(card in h for h in self.hands):
                # A real deck holds each card once: this also bounds every frame's hands.
                raise ValueError(f"card {card} is not in the deck (0..{len(self.m.card_kind) - 1}, "
                                 "each card once)")
            self.hands[seat].append(card)
            return f"{who} draws {card_text(self.m, card) if show_cards else 'a card'}"
        act = parse_action(head, self.m)
        if isinstance(act, Place):
            self._mine(seat, act.territory)
            ev.update(dst=act.territory, count=act.count)
            self.armies[act.territory] += act.count
            s = "y" if act.count == 1 else "ies"
            return f"{who} places {act.count} arm{s} on {self.name(act.territory)}"
        if isinstance(act, Trade):
            return self._trade(seat, act, effects)
        if isinstance(act, Attack):
            return self._attack(seat, act, effects)
        if isinstance(act, MoveIn):
            src, dst = self.occupy
            if src < 0 or not 1 <= act.count < self.armies[src]:
                raise ValueError("a move-in needs a conquest to move into and leaves at least "
                                 "1 army behind")
            self.occupy = (-1, -1)
            ev.update(src=src, dst=dst, count=act.count)
            self.armies[src] -= act.count
            self.armies[dst] += act.count
            return f"{who} moves {act.count} into {self.name(dst)}"
        if isinstance(act, Fortify):
            self._mine(seat, act.src)
            self._mine(seat, act.dst)
            if not 1 <= act.count < self.armies[act.src]:
                raise ValueError(f"fortifying {act.count} from {self.name(act.src)} would leave "
                                 "it without an army")
            ev.update(src=act.src, dst=act.dst, count=act.count)
            self.armies[act.src] -= act.count
            self.armies[act.dst] += act.count
            return (f"{who} fortifies {self.name(act.dst)} with {act.count} from "
                    f"{self.name(act.src)}")
        assert isinstance(act, Pass)
        return {L.A_END_TRADE: f"{who} ends trading", L.A_STOP: f"{who} stops attacking",
                L.A_SKIP: f"{who} does not fortify"}[act.kind]

    def _mine(self, seat: int, t: int) -> None:
        if self.owner[t] != seat:
            raise ValueError(f"{self.name(t)} is seat s{self.owner[t]}'s, not s{seat}'s")

    def _trade(self, seat: int, act: Trade, effects: str) -> str:
        parts = effects.split()
        for c in act.cards:
            self.hands[seat].remove(c)
        text = (f"{self.who(seat)} trades " + ", ".join(card_text(self.m, c) for c in act.cards)
                + f" for {parts[0]} armies")
        self.event.update(cards=list(act.cards), armies=int(parts[0]), bonus=-1)
        if len(parts) >= 3 and parts[1] == "bonus":
            t = self.m.territory(parts[2].replace("_", " "))
            self._mine(seat, t)
            self.event["bonus"] = t
            self.armies[t] += L.CARD_BONUS
            text += f" (+{L.CARD_BONUS} on {self.name(t)})"
        return text

    def _attack(self, seat: int, act: Attack, effects: str) -> str:
        att, _, rest = effects.partition(" v ")
        parts = rest.split()
        first_loss = next((i for i, p in enumerate(parts) if p.startswith("-")), len(parts))
        dfn = parts[:first_loss]  # the dice, not the count after "moves"
        losses = [int(p[1:]) for p in parts if p.startswith("-")]
        la, ld = losses[0], losses[1]
        victim = self.owner[act.dst]
        a_dice, d_dice = [int(d) for d in att.split()], [int(d) for d in dfn]
        self._possible_attack(seat, act, a_dice, d_dice, la, ld, "conquers" in parts)
        self.event.update(src=act.src, dst=act.dst, defender=victim, att=a_dice, dfn=d_dice,
                          lost=la, killed=ld, conquered="conquers" in parts, moved=0)
        self.armies[act.src] -= la
        self.armies[act.dst] -= ld
        text = (f"{self.who(seat)} attacks {self.name(act.dst)} ({self.who(victim)}) from "
                f"{self.name(act.src)}: {att} vs {' '.join(dfn)}, loses {la}, kills {ld}")
        if "conquers" in parts:
            self.owner[act.dst] = seat
            self.occupy = (act.src, act.dst)
            text += f"; conquers {self.name(act.dst)}"
            if "moves" in parts:
                n = int(parts[parts.index("moves") + 1])
                if not 1 <= n < self.armies[act.src]:
                    raise ValueError(f"moves {n}: 1..{self.armies[act.src] - 1} can move in")
                self.occupy = (-1, -1)
                self.event["moved"] = n
                self.armies[act.src] -= n
                self.armies[act.dst] = n
                text += f", moves {n}"
        return text


    def _possible_attack(self, seat: int, act: Attack, att: list[int], dfn: list[int],
                         la: int, ld: int, conquers: bool) -> None:
        """ValueError unless the attack's record is one the rules can produce: the attacker's
        territory, a neighbour's target, as many dice as the armies allow, each 1..6 and high
        to low, the losses the dice give (ties to the defender), a conquest exactly when the
        target is emptied; every territory keeps an army."""
        self._mine(seat, act.src)
        if self.owner[act.dst] == seat or not self.m.adjacency[act.src, act.dst]:
            raise ValueError(f"{self.name(act.dst)} is not a neighbour to attack from "
                             f"{self.name(act.src)}")
        most = min(L.ATTACK_DICE, self.armies[act.src] - 1)
        if not 1 <= len(att) <= most or (act.dice and len(att) != act.dice):
            raise ValueError(f"the attacker rolls 1..{most} dice (as named), not {len(att)}")
        if len(dfn) != min(L.DEFEND_DICE, self.armies[act.dst]):
            raise ValueError(f"the defender rolls {min(L.DEFEND_DICE, self.armies[act.dst])} "
                             f"dice, not {len(dfn)}")
        for dice in (att, dfn):
            if not all(1 <= d <= 6 for d in dice) or dice != sorted(dice, reverse=True):
                raise ValueError("dice must be 1..6, highest first")
        wins = sum(a > d for a, d in zip(att, dfn, strict=False))
        if (la, ld) != (min(len(att), len(dfn)) - wins, wins):
            raise ValueError(f"these dice cost the attacker {min(len(att), len(dfn)) - wins} "
                             f"and the defender {wins}, not {la} and {ld}")
        if conquers != (self.armies[act.dst] == ld):
            raise ValueError("a conquest is recorded exactly when the target has no army left")


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
        self.board: _Board | None = None
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
        self.board = _Board(m, owner, len(seats), names)
        self.out = Replay(m, self.header.get("rules", ""), seats,
                          version=self.header.get("version", ""),
                          labels=[recorded[p] for p in sorted(recorded)])
        return self.board.frame(0, -1, "territories dealt", line, no - 1)


def replay(lines: Iterable[str], labels: Sequence[str] | None = None, m: Map | None = None,
           show_cards: bool = True, by_seat: bool = False) -> Replay:
    """Frames of a transcript (lines of `game.transcript`); ReplayError naming a bad line.
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


def _end_text(line: str, board: _Board) -> str:
    fields = dict(p.split("=", 1) for p in line.split() if "=" in p)
    places = line.split(" places ", 1)[1].split() if " places " in line else []
    order = sorted(range(len(places)), key=lambda s: int(places[s]))
    ranking = ", ".join(f"{places[s]}. {board.who(s)}" for s in order)
    how = "capped" if fields.get("capped") == "1" else "over"
    return f"game {how} after {fields.get('rounds', '?')} rounds: {ranking}"


def read_transcript(path: str | Path) -> list[str]:
    """The lines of a transcript file (ReplayError when missing, too large or not text)."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            data = f.read(MAX_TRANSCRIPT_BYTES + 1)
    except OSError as e:
        raise ReplayError(f"{p}: {e.strerror or e}") from None
    if len(data) > MAX_TRANSCRIPT_BYTES:
        raise ReplayError(f"{p}: larger than {MAX_TRANSCRIPT_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ReplayError(f"{p}: not UTF-8 text") from None
    return text.splitlines()


__all__ = ["MAX_REPLAY_LINES", "Frame", "Replay", "ReplayError", "Replayer", "card_text",
           "mission_text", "read_transcript", "replay"]
