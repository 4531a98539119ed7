"""Bots from the command line (bot file, baseline name, `package.module:Class`) and one game."""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evolve.cli import error

if TYPE_CHECKING:
    from game.protocol import Player
    from game.state import Rules

__all__ = [
    "BotSpecError", "GameArgError", "add_game_arguments", "check_bot", "check_event", "close_bot",
    "game_setup",
    "labels_for", "main", "make_bot", "make_rules", "play_specs", "print_outcome",
    "save_transcript", "trusted",
]


class GameArgError(ValueError):
    """A command-line argument of play, watch or tournament that cannot be used."""


class BotSpecError(GameArgError):
    """A BOT argument that is neither a bot file, a baseline name nor `package.module:Class`."""


def is_bot_file(spec: str) -> bool:
    """True when the spec names a bot file (a path ending in .json, or an existing file)."""
    return spec.endswith(".json") or Path(spec).is_file()


def make_bot(spec: str, *, isolate: bool = True, timeout: float | None = None) -> Player:
    """A fresh player for a spec: bot file -> LinearPlayer, else a baseline or class path.

    A class path (not `trusted`) plays isolated in its own process (arena.isolation) unless
    `isolate` is False (only the bot's own process may load it); `timeout` is its per-decision
    limit in seconds (default `arena.isolation.DECISION_TIMEOUT_S`). Close an isolated bot
    with `close_bot` when its game is over.
    """
    if is_bot_file(spec):
        from features.genome import GenomeError, load_genome
        from features.linear import LinearPlayer

        try:
            values, _meta = load_genome(spec)
        except GenomeError as e:
            # load_genome's message already starts with the path: do not repeat it.
            msg = str(e).removeprefix(f"{Path(spec)}: ")
            raise BotSpecError(f"bot file {spec}: {msg}") from None
        except OSError as e:
            raise BotSpecError(f"bot file {spec}: {e.strerror or e}") from None
        return LinearPlayer(values)
    from game.bots import make_player

    try:
        if isolate and not trusted(spec):
            from arena.isolation import DECISION_TIMEOUT_S, isolated_bot

            return isolated_bot(spec, DECISION_TIMEOUT_S if timeout is None else timeout)
        return make_player(spec)
    except ValueError as e:
        # make_player's message already names the spec and the allowed baselines.
        raise BotSpecError(f"{e}; or a bot .json file") from None


def close_bot(player: object) -> None:
    """After a game: an isolated bot's process is kept for the next game of its spec when
    healthy (arena.isolation.release), else ended; nothing for an in-process player."""
    from arena.isolation import IsolatedBot, release

    if isinstance(player, IsolatedBot):
        release(player)
        return
    close = getattr(player, "close", None)
    if callable(close):
        close()


def check_bot(spec: str) -> None:
    """Fail fast with a readable BotSpecError (an isolated bot is started and stopped)."""
    close_bot(make_bot(spec))


def trusted(spec: str) -> bool:
    """Bot files and baseline names are riskevo's own players and may read the full game
    arrays (their compiled kernels need them); a `package.module:Class` bot sees only what its
    seat may see (game.view.GameView.full_state is closed to it)."""
    return is_bot_file(spec) or ":" not in spec


def make_rules(text: str | None, cap: int | None = None) -> Rules:
    """Rules from 'missions,fixed_cards,path_fortify,cap=50' plus an optional cap override."""
    from game.state import Rules, RulesError

    try:
        rules = Rules.parse(text or "")
        return dataclasses.replace(rules, cap=cap) if cap is not None else rules
    except RulesError as e:
        raise GameArgError(str(e)) from None


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


def check_timeout(seconds: float) -> None:
    """A per-decision time limit is a positive number of seconds (at most a day)."""
    if not 0 < seconds <= 86_400:
        raise GameArgError(f"--decision-timeout must be > 0 and at most 86400 s, got {seconds}")


def check_seed(seed: int) -> None:
    """Seeds are non-negative (numpy's SeedSequence rejects others with a traceback)."""
    if seed < 0:
        raise GameArgError(f"--seed must be >= 0, got {seed}")


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
    players: list[Player] = []
    try:
        for s in bots:
            players.append(make_bot(s, timeout=timeout))
    except BaseException:
        for p in players:
            close_bot(p)
        raise
    return players, rules


def check_event(specs: Sequence[str], *, seed: int, timeout: float, jobs: int,
                rules: str | None, cap: int | None = None) -> None:
    """The checks tournament, gauntlet and diagnose share before any game: seed, time limit,
    --jobs, rules and every bot (GameArgError, one line, naming the argument)."""
    check_seed(seed)
    check_timeout(timeout)
    if jobs == 0:
        raise GameArgError("--jobs must be -1 (all cores) or >= 1, got 0")
    make_rules(rules, cap)
    for s in dict.fromkeys(specs):
        check_bot(s)  # fail fast, with a readable message


def play_specs(specs: Sequence[str], seed: int, rules: Rules, *,
               timeout: float | None = None, observer: Any = None,
               transcript_to: Path | None = None) -> Any:
    """One game with fresh players for `specs` (the arena tools' one way to play it): a bot
    that fails forfeits, class-path bots play isolated (`timeout` s per decision) and are
    released after; `transcript_to` gets the transcript. Returns the `Outcome`."""
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
    ap.add_argument("--rules", default=None, help="e.g. missions,fixed_cards,cap=50")
    ap.add_argument("--cap", type=int, default=None, help="round cap (overrides --rules)")


def main(argv: list[str]) -> int:
    """`python -m arena play BOT BOT [BOT...] [--seed S] [--rules R]`: play one game."""
    ap = argparse.ArgumentParser(prog="python -m arena play", description=main.__doc__)
    add_game_arguments(ap)
    ap.add_argument("--transcript", action="store_true", help="print every decision")
    ap.add_argument("--save", default=None, metavar="FILE",
                    help="write the transcript to FILE (replay it: python -m arena web --replay)")
    from arena.tournament import add_timeout_argument

    add_timeout_argument(ap)
    args = ap.parse_args(argv)
    try:
        players, rules = game_setup(args.bots, args.seed, args.rules, args.cap,
                                    args.decision_timeout)
    except GameArgError as e:
        return error(e)
    from game.engine import play_game

    try:
        out = play_game(players, rules=rules, seed=args.seed,
                        transcript=args.transcript or args.save is not None,
                        full_access=[trusted(b) for b in args.bots], forfeits=True,
                        labels=labels_for(args.bots))
    finally:
        for p in players:
            close_bot(p)
    print_outcome(labels_for(args.bots), out, args.transcript)
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
