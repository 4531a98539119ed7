"""`python -m arena explain`: why a riskevo bot made a decision, in words and its arithmetic.

Two ways to name the decision: a seeded game (`BOT OPPONENT... --seed S`, then `--decision N`,
BOT's N-th decision, or `--round R [--kind K]`, BOT's first decision of that round and kind),
played with BOT playing as it plays (its plan included) until it reaches it, explained from the
decision's own record; or a transcript line (`--transcript FILE --line N`), where the position
before the line is rebuilt (`game.record.position`) and BOT decides again there: a transcript
holds no record, so the words say so, and say when the line records another move. Text by
default, `--json` for the data. The account is `arena.why.account`'s, as on the web page.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from arena.bots import (
    GameArgError,
    close_bot,
    game_seed,
    is_bot_file,
    read_bot_file,
    trusted,
)
from arena.play import add_game_arguments, game_setup, labels_for
from arena.why import account, bot_of, transcript_account
from evolve.cli import ArgumentParser, error
from features.explain import KINDS, ExplainError, Explanation, explain
from features.explain.options import kind_of
from features.linear import map_context
from features.search.explain import Why
from features.search.player import player_of
from game.engine import play_game
from game.map import Map, classic_map
from game.record.position import position_at
from game.record.replay import ReplayError, read_transcript
from game.rules import layout as L
from game.state import RulesError

MAX_DECISION = 1_000_000  # a capped game makes far fewer


class _Found(Exception):
    """Raised inside the game to stop it at the decision asked for (its record)."""

    def __init__(self, why: Why, index: int, round_: int) -> None:
        super().__init__("found")
        self.why, self.index, self.round = why, index, round_


class _Wanted:
    """Counts BOT's decisions as it plays (its plan included) and stops the game at the one
    `decision` (N-th) or `round_` (and `kind`) names, with the decision's own record."""

    def __init__(self, decision: int | None, round_: int | None, kind: str | None) -> None:
        self.decision, self.round_, self.kind, self.made = decision, round_, kind, 0

    def __call__(self, why: Why) -> None:
        self.made += 1
        round_ = int(why.state.sc[L.S_ROUND])
        at = self.decision == self.made or (self.round_ == round_ and self.decision is None)
        if at and (self.kind is None or kind_of(why.state.kernel) == self.kind):
            raise _Found(why, self.made, round_)


def bot_weights(spec: str) -> np.ndarray:
    """BOT's genes: it must be a bot file (a linear player explains itself; others cannot),
    a packaged one by its name (`champion`) too."""
    if not is_bot_file(spec):
        raise GameArgError(f"BOT must be a riskevo bot file (a genome .json), got {spec!r}")
    try:
        return read_bot_file(spec).weights
    except (OSError, ValueError) as e:
        raise GameArgError(f"BOT {e}") from None


def seeded(bots: list[str], seed: int, rules_text: str | None, cap: int | None,
           decision: int | None, round_: int | None, kind: str | None
           ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play the seeded game until BOT (bots[0]), playing as it plays, reaches the decision:
    its account (`arena.why.account`) from the decision's own record; GameArgError if never."""
    weights, plan = bot_of(bots[0])
    players, rules = game_setup(bots, seed, rules_text, cap)
    close_bot(players[0])
    me = player_of(weights, plan)
    wanted = _Wanted(decision, round_, kind)
    me.on_why = wanted
    players[0] = me
    try:
        play_game(players, rules=rules, seed=game_seed(seed, bots),
                  full_access=[trusted(b) for b in bots])
    except _Found as found:
        where = {"seed": seed, "bots": labels_for(bots), "decision": found.index,
                 "round": found.round}
        out = account(found.why, classic_map(), rules, weights, labels_for(bots)[0],
                      recorded=True)
        return out, where
    finally:
        for p in players[1:]:
            close_bot(p)
    asked = (f"--decision {decision}" if decision is not None
             else f"--round {round_}" + (f" --kind {kind}" if kind else ""))
    raise GameArgError(f"{asked}: BOT made {wanted.made} decisions in this game and none "
                       f"matches (allowed --decision 1..{wanted.made})")


def from_transcript(spec: str, path: str, no: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """BOT's account of transcript line `no` (no record in a file: decided again there)."""
    lines = read_transcript(path)
    if not 1 <= no <= len(lines):
        raise GameArgError(f"--line must be 1..{len(lines)} (the lines of {path}), got {no}")
    out = transcript_account(spec, lines, no)
    return out, {"transcript": path, "line": no, "played": out["played"]}


def from_lines(spec: str, lines: Sequence[str], no: int) -> tuple[Explanation, Map, str]:
    """BOT's greedy rank in the position of line `no` (1-based) of transcript `lines`, and the
    line (its search aside: `arena.why.transcript_account` explains the decision)."""
    w = bot_weights(spec)
    st, m, rules, line = position_at(lines, no)
    return explain(m.kernel, map_context(m), st.kernel, rules.vector(), w), m, line


def main(argv: list[str]) -> int:
    """`python -m arena explain BOT [OPPONENT...] --seed S (--decision N | --round R [--kind K])`
    or `python -m arena explain BOT --transcript FILE --line N`: why BOT decides as it does."""
    ap = ArgumentParser(prog="python -m arena explain", description=main.__doc__)
    add_game_arguments(ap)
    ap.add_argument("--decision", type=int, default=None, help="BOT's N-th decision (1-based)")
    ap.add_argument("--round", type=int, default=None, help="BOT's first decision of round R")
    ap.add_argument("--kind", default=None, help=f"with --round: one of {', '.join(KINDS)}")
    ap.add_argument("--transcript", default=None, metavar="FILE", help="a saved transcript")
    ap.add_argument("--line", type=int, default=None, help="with --transcript: its line N")
    ap.add_argument("--json", action="store_true", help="the explanation as JSON data")
    ap.set_defaults(seed=None)  # 0 when a game is played; given with --transcript, an error
    args = ap.parse_args(argv)
    try:
        out, where = _run(args)
    except (GameArgError, ReplayError, ExplainError, RulesError) as e:
        return error(e)
    if args.json:
        keep = ("plain", "text", "recorded", "note", "plan", "move")
        json.dump({**where, **{k: out[k] for k in keep}, "explanation": out["explanation"]},
                  sys.stdout, indent=1)
        print()
    else:
        head = ", ".join(f"{k} {v}" for k, v in where.items() if k != "bots")
        print(f"# {head}")
        print(f"in words: {out['plain']}")
        print(out["text"])
    return 0


def _run(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any]]:
    if args.kind is not None and args.kind not in KINDS:
        raise GameArgError(f"--kind must be one of {', '.join(KINDS)}, got {args.kind!r}")
    if args.transcript is not None:
        if args.line is None or len(args.bots) != 1 or args.decision or args.round is not None:
            raise GameArgError("--transcript takes one BOT and --line N (not opponents, "
                               "--decision or --round)")
        given = [f for f, v in (("--seed", args.seed), ("--rules", args.rules),
                                ("--cap", args.cap), ("--kind", args.kind)) if v is not None]
        if given:
            raise GameArgError(f"--transcript: the game, its seed and its rules come from the "
                               f"file; {', '.join(given)} cannot change them")
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
    return seeded(args.bots, args.seed or 0, args.rules, args.cap, args.decision, args.round,
                  args.kind)
