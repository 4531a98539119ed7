"""`python -m arena explain`: why a riskevo bot made a decision, in its own arithmetic.

Two ways to name the decision: a seeded game (`BOT OPPONENT... --seed S`, then `--decision N`,
BOT's N-th decision, or `--round R [--kind K]`, BOT's first decision of that round and kind),
played until BOT reaches it; or a transcript line (`--transcript FILE --line N`), where the
position before the line is rebuilt from the replay (`game.replay`) and the line's own header
(seat, phase, the armies still to place, the conquest being moved into). BOT then explains the
decision it would make there (for its own lines: the one it made). Text by default, `--json`
for the data (`features.explain.to_json`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import fields
from typing import Any

import numpy as np

from arena.bots import GameArgError, bot_file_path, close_bot, game_seed, is_bot_file, trusted
from arena.play import add_game_arguments, game_setup, labels_for
from evolve.cli import error
from features.botfile import BotFile
from features.explain import KINDS, ExplainError, Explanation, describe, explain, to_json
from features.genome import GenomeError
from features.linear import LinearPlayer, map_context
from game import layout as L
from game.actions import parse_action
from game.engine import play_game
from game.map import Map, classic_map
from game.replay import ReplayError, read_transcript, replay
from game.state import Rules, RulesError, State
from game.view import GameView

MAX_DECISION = 1_000_000  # a capped game makes far fewer
_PHASE_OF_VERB = {"trade": L.PH_TRADE, "end-trade": L.PH_TRADE, "attack": L.PH_ATTACK,
                  "stop": L.PH_ATTACK, "move": L.PH_OCCUPY, "fortify": L.PH_FORTIFY,
                  "skip": L.PH_FORTIFY}


class _Found(Exception):
    """Raised inside the game to stop it at the decision asked for."""

    def __init__(self, ex: Explanation, index: int, round_: int) -> None:
        super().__init__("found")
        self.ex, self.index, self.round = ex, index, round_


class _Explainer(LinearPlayer):
    """BOT: plays as itself and stops the game at the decision picked by `wanted`."""

    def __init__(self, weights: np.ndarray, decision: int | None, round_: int | None,
                 kind: str | None) -> None:
        super().__init__(weights)
        self.decision, self.round_, self.kind, self.made = decision, round_, kind, 0

    def kernel_action(self, view: GameView) -> tuple[int, int, int, int]:
        s = view.kernel_state()
        self.made += 1
        round_ = int(s.sc[L.S_ROUND])
        if self.decision == self.made or (self.round_ == round_ and self.decision is None):
            ex = explain(view.map.kernel, map_context(view.map), s.kernel, view.rules_vector,
                         self.weights)
            if self.kind is None or ex.kind == self.kind:
                raise _Found(ex, self.made, round_)
        return super().kernel_action(view)


def bot_weights(spec: str) -> np.ndarray:
    """BOT's genes: it must be a bot file (a linear player explains itself; others cannot),
    a packaged one by its name (`champion`) too."""
    if not is_bot_file(spec):
        raise GameArgError(f"BOT must be a riskevo bot file (a genome .json), got {spec!r}")
    try:
        return BotFile.read(bot_file_path(spec)).weights
    except GenomeError as e:
        raise GameArgError(f"BOT {e}") from None


def seeded(bots: list[str], seed: int, rules_text: str | None, cap: int | None,
           decision: int | None, round_: int | None, kind: str | None
           ) -> tuple[Explanation, Map, dict[str, Any]]:
    """Play the seeded game until BOT (bots[0]) reaches the decision; GameArgError if never."""
    w = bot_weights(bots[0])
    players, rules = game_setup(bots, seed, rules_text, cap)
    close_bot(players[0])
    me = _Explainer(w, decision, round_, kind)
    players[0] = me
    try:
        play_game(players, rules=rules, seed=game_seed(seed, bots),
                  full_access=[trusted(b) for b in bots])
    except _Found as found:
        where = {"seed": seed, "bots": labels_for(bots), "decision": found.index,
                 "round": found.round}
        return found.ex, classic_map(), where
    finally:
        for p in players[1:]:
            close_bot(p)
    asked = (f"--decision {decision}" if decision is not None
             else f"--round {round_}" + (f" --kind {kind}" if kind else ""))
    raise GameArgError(f"{asked}: BOT made {me.made} decisions in this game and none matches "
                       f"(allowed --decision 1..{me.made})")


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


def position_at(lines: Sequence[str], no: int) -> tuple[State, Map, Rules, str]:
    """The position in which transcript line `no` (1-based) was decided, and that line."""
    rep = replay(lines)
    head = _head(lines[no - 1])
    if head is None:
        raise GameArgError(f"--line {no}: not a decision line (allowed: a line 'r<round> "
                           f"s<seat> <action>', e.g. {_first_decision(lines)})")
    round_, seat, rest = head
    before = [f for f in rep.frames if f.index < no - 1][-1]
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


def from_transcript(spec: str, path: str, no: int) -> tuple[Explanation, Map, dict[str, Any]]:
    """BOT's decision in the position of transcript line `no`."""
    lines = read_transcript(path)
    if not 1 <= no <= len(lines):
        raise GameArgError(f"--line must be 1..{len(lines)} (the lines of {path}), got {no}")
    ex, m, line = from_lines(spec, lines, no)
    where: dict[str, Any] = {"transcript": path, "line": no, "played": line}
    plan, note = plan_and_note(spec, lines, no, ex, m)
    if plan is not None:
        where["plan"] = plan
    if note is not None:
        where["note"] = note
    return ex, m, where


def plan_and_note(spec: str, lines: Sequence[str], no: int, ex: Explanation, m: Map
                  ) -> tuple[str | None, str | None]:
    """A planning bot's plan in words for line `no` (None when it is not a planned attack),
    and the note that BOT would not choose the line (None when it would, or when its planner
    played it: the greedy rank may choose otherwise there)."""
    planned = plan_words(spec, lines, no)
    head = _head(lines[no - 1])
    played = parse_action(head[2].partition(" = ")[0], m).encode() if head else None
    if planned is not None and planned[1] == played:
        return planned[0], None
    return (planned[0] if planned else None), not_its_own(spec, lines, no, ex, m)


def plan_words(spec: str, lines: Sequence[str], no: int
               ) -> tuple[str, tuple[int, ...]] | None:
    """A planning bot file's attack decision at line `no` in words: the options its planner
    compared and their values, with a fixed sample (seed 0; in play the samples come from the
    game's generator, so a close call may go the other way), and the action it takes; None for
    a greedy bot or another kind of decision."""
    from arena.bots import is_bot_file, read_bot_file
    from features.search.explain import explain_plan
    from game import layout as L

    if not is_bot_file(spec):
        return None
    bot = read_bot_file(spec)
    st, m, rules, _line = position_at(lines, no)
    if bot.plan is None or bot.plan.kind != "plan" or st.phase != L.PH_ATTACK:
        return None
    ex = explain_plan(st, m, rules, bot.weights, bot.plan, np.random.default_rng(0))
    return ex.words(m), ex.action


def not_its_own(spec: str, lines: Sequence[str], no: int, ex: Explanation, m: Map) -> str | None:
    """What to say when BOT would not make the choice transcript line `no` records (another
    player made it: the header's `player` lines name who); None when it would."""
    head = _head(lines[no - 1])
    assert head is not None  # noqa: S101 - position_at checked it
    if tuple(int(v) for v in ex.action) == parse_action(head[2].partition(" = ")[0],
                                                        m).encode():
        return None
    seat, bot = head[1], labels_for([spec])[0]
    seats = next((x.split()[1:] for x in lines if x.startswith("seats ")), [])
    player = seats[seat] if seat < len(seats) else "?"
    label = next((x.split(" ", 2)[2] for x in lines
                  if x.startswith(f"player {player} ") and len(x.split(" ", 2)) == 3), None)
    who = f"seat {seat}" + (f" (player {player}, {label!r})" if label is not None else "")
    return (f"line {no} was played by {who}, and {bot!r} chooses otherwise there: what follows "
            f"is {bot!r}'s own choice, not the line's")


def from_lines(spec: str, lines: Sequence[str], no: int) -> tuple[Explanation, Map, str]:
    """BOT's decision in the position of line `no` (1-based) of transcript `lines`, and the
    line (the web page's log explains itself through here, as the command line does)."""
    w = bot_weights(spec)
    st, m, rules, line = position_at(lines, no)
    return explain(m.kernel, map_context(m), st.kernel, rules.vector(), w), m, line


def main(argv: list[str]) -> int:
    """`python -m arena explain BOT [OPPONENT...] --seed S (--decision N | --round R [--kind K])`
    or `python -m arena explain BOT --transcript FILE --line N`: why BOT decides as it does."""
    ap = argparse.ArgumentParser(prog="python -m arena explain", description=main.__doc__)
    add_game_arguments(ap)
    ap.add_argument("--decision", type=int, default=None, help="BOT's N-th decision (1-based)")
    ap.add_argument("--round", type=int, default=None, help="BOT's first decision of round R")
    ap.add_argument("--kind", default=None, help=f"with --round: one of {', '.join(KINDS)}")
    ap.add_argument("--transcript", default=None, metavar="FILE", help="a saved transcript")
    ap.add_argument("--line", type=int, default=None, help="with --transcript: its line N")
    ap.add_argument("--json", action="store_true", help="the explanation as JSON data")
    args = ap.parse_args(argv)
    try:
        ex, m, where = _run(args)
    except (GameArgError, ReplayError, ExplainError, RulesError) as e:
        return error(e)
    if args.json:
        json.dump({**where, "explanation": to_json(ex, m)}, sys.stdout, indent=1)
        print()
    else:
        head = ", ".join(f"{k} {v}" for k, v in where.items()
                         if k not in ("bots", "note", "plan"))
        print(f"# {head}")
        if "note" in where:
            print(f"note: {where['note']}")
        if "plan" in where:
            print(f"plan: {where['plan']} (the greedy rank below orders the options it "
                  "compared)")
        print(describe(ex, m, labels_for(args.bots)[0]))
    return 0


def _run(args: argparse.Namespace) -> tuple[Explanation, Map, dict[str, Any]]:
    if args.kind is not None and args.kind not in KINDS:
        raise GameArgError(f"--kind must be one of {', '.join(KINDS)}, got {args.kind!r}")
    if args.transcript is not None:
        if args.line is None or len(args.bots) != 1 or args.decision or args.round is not None:
            raise GameArgError("--transcript takes one BOT and --line N (not opponents, "
                               "--decision or --round)")
        return from_transcript(args.bots[0], args.transcript, args.line)
    if args.line is not None:
        raise GameArgError("--line needs --transcript FILE")
    if (args.decision is None) == (args.round is None):
        raise GameArgError("name the decision with one of --decision N or --round R")
    if args.decision is not None and not 1 <= args.decision <= MAX_DECISION:
        raise GameArgError(f"--decision must be 1..{MAX_DECISION}, got {args.decision}")
    if args.round is not None and not 0 <= args.round <= MAX_DECISION:
        raise GameArgError(f"--round must be 0..{MAX_DECISION}, got {args.round}")
    if args.kind is not None and args.round is None:
        raise GameArgError("--kind goes with --round R")
    return seeded(args.bots, args.seed, args.rules, args.cap, args.decision, args.round,
                  args.kind)
