"""One game from the command line (`python -m arena play`) and the helpers the arena tools
share to play one (`game_setup`, `play_specs`, labels, transcripts); bot specs are
`arena.bots`."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.bots import (
    GameArgError,
    add_rules_argument,
    add_timeout_argument,
    check_seed,
    check_timeout,
    close_bot,
    game_seed,
    make_bot,
    make_rules,
    secret_note,
    trusted,
)
from evolve.cli import ArgumentParser, error

if TYPE_CHECKING:
    from game.protocol import Player
    from game.state import Rules

__all__ = ["add_game_arguments", "game_setup", "labels_for", "main", "play_specs",
           "print_outcome", "save_transcript"]


def print_outcome(labels: list[str], out: Any, transcript: bool) -> None:
    """Print placements, winner, rounds and (optionally) the transcript of a game."""
    if transcript and getattr(out, "transcript", None):
        for line in out.transcript:
            print(line)
        print()
    winner = "none (capped)" if out.winner is None or out.winner < 0 else labels[out.winner]
    print(f"winner: {winner}; rounds: {out.rounds}; capped: {bool(out.capped)}")
    order = sorted(range(len(labels)), key=lambda i: out.placements[i])
    forfeits = getattr(out, "forfeits", ())
    for i in order:
        why = forfeits[i] if i < len(forfeits) and forfeits[i] else ""
        print(f"  place {out.placements[i]}: player {i} {labels[i]}"
              + (f" (forfeited: {why})" if why else ""))


def game_setup(bots: list[str], seed: int, rules_text: str | None, cap: int | None,
               timeout: float | None = None) -> tuple[list[Player], Rules]:
    """The checks play and watch share: 2..6 bots, seed, rules; fresh players and the rules
    (close them with `close_bot`: class-path bots run in their own process)."""
    if not 2 <= len(bots) <= 6:
        raise GameArgError(f"a game needs 2..6 bots, got {len(bots)}")
    check_seed(seed)
    if timeout is not None:
        check_timeout(timeout)
    rules = make_rules(rules_text, cap)
    game_seed(seed, bots)  # a malformed secret fails before any bot starts
    players: list[Player] = []
    try:
        for s in bots:
            players.append(make_bot(s, timeout=timeout))
    except BaseException:
        for p in players:
            close_bot(p)
        raise
    return players, rules


def play_specs(specs: Sequence[str], seed: int, rules: Rules, *,
               timeout: float | None = None, observer: Any = None,
               transcript_to: Path | None = None) -> Any:
    """One game with fresh players for `specs` (the arena tools' one way to play it), dealt
    from `seed` (the process that plans the games passes `game_seed(...)` of the user's
    seed): a bot that fails forfeits, class-path bots play isolated (`timeout` s per decision)
    and are released after; `transcript_to` gets the transcript. Returns the `Outcome`."""
    from game.engine import play_game

    players: list[Player] = []
    try:
        for s in specs:
            players.append(make_bot(s, timeout=timeout))
        out = play_game(players, rules=rules, seed=seed, observer=observer,
                        full_access=[trusted(s) for s in specs], forfeits=True,
                        transcript=transcript_to is not None, labels=labels_for(specs))
    finally:
        for p in players:
            close_bot(p)
    if transcript_to is not None:
        save_transcript(transcript_to, out.transcript)
    return out


def labels_for(specs: Sequence[str]) -> list[str]:
    """Short unique labels: file stem or bot name, with #2, #3 for repeats."""
    seen: dict[str, int] = {}
    out = []
    for s in specs:
        base = Path(s).stem if s.endswith(".json") else s.rsplit(":", 1)[-1]
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return out


def add_game_arguments(ap: argparse.ArgumentParser) -> None:
    """The arguments play and watch share: BOT..., --seed, --rules, --cap (see game_setup)."""
    ap.add_argument("bots", nargs="+", help="bot file, baseline name or package.module:Class")
    ap.add_argument("--seed", type=int, default=0)
    add_rules_argument(ap)
    ap.add_argument("--cap", type=int, default=None, help="round cap (overrides --rules)")


def main(argv: list[str]) -> int:
    """`python -m arena play BOT BOT [BOT...] [--seed S] [--rules R]`: play one game."""
    ap = ArgumentParser(prog="python -m arena play", description=main.__doc__)
    add_game_arguments(ap)
    ap.add_argument("--transcript", action="store_true", help="print every decision")
    ap.add_argument("--save", default=None, metavar="FILE",
                    help="write the transcript to FILE (replay it: python -m arena web --replay)")
    add_timeout_argument(ap)
    args = ap.parse_args(argv)
    if args.save is not None:
        from evolve.runfolder import output_problem

        if problem := output_problem(args.save):
            return error(f"--save {args.save}: {problem}")
    try:
        players, rules = game_setup(args.bots, args.seed, args.rules, args.cap,
                                    args.decision_timeout)
    except GameArgError as e:
        return error(e)
    from game.engine import play_game

    try:
        out = play_game(players, rules=rules, seed=game_seed(args.seed, args.bots),
                        transcript=args.transcript or args.save is not None,
                        full_access=[trusted(b) for b in args.bots], forfeits=True,
                        labels=labels_for(args.bots))
    finally:
        for p in players:
            close_bot(p)
    print_outcome(labels_for(args.bots), out, args.transcript)
    if note := secret_note(args.bots):
        print(note)
    if args.save is not None:
        try:
            save_transcript(args.save, out.transcript)
        except OSError as e:
            return error(f"--save {args.save}: {e.strerror or e}")
        print(f"transcript: {args.save}")
    return 0


def save_transcript(path: str | Path, lines: Sequence[str] | None) -> None:
    """Write a game's transcript (one action a line) atomically."""
    from game.atomic import atomic_write_text

    atomic_write_text(Path(path), "\n".join(lines or ()) + "\n")
