"""Bot specs from the command line: a bot file, a baseline name or `package.module:Class`.

`make_bot` turns a spec into a fresh player (a class path plays isolated in its own process,
`arena.isolation.sandbox`), `close_bot` ends it after its game; the argument checks every arena tool
shares (seed, rules, time limit, --jobs) live here too.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from features.botfile import BotFile
    from game.protocol import Player
    from game.state import Rules

__all__ = [
    "BotSpecError", "GameArgError", "add_rules_argument", "add_timeout_argument",
    "bot_file_path", "check_bot", "check_event", "check_seed", "check_timeout", "close_bot",
    "game_seed", "is_bot_file", "make_bot", "make_rules", "read_bot_file", "secret_note",
    "trusted",
]


class GameArgError(ValueError):
    """A command-line argument of play, watch or tournament that cannot be used."""


class BotSpecError(GameArgError):
    """A BOT argument that is neither a bot file, a baseline name nor `package.module:Class`."""


def is_bot_file(spec: str) -> bool:
    """True when the spec names a bot file: a path ending in .json, an existing file, or the
    name of a bot file packaged in game/bots/files (a `file` row of game.bots.table)."""
    from game.bots import BOT_FILES

    return spec.endswith(".json") or spec in BOT_FILES or Path(spec).is_file()


def bot_file_path(spec: str) -> str:
    """The path to read a bot file spec from: a packaged bot's file for its name, else itself."""
    from game.bots import BOT_FILES, bot_file

    if spec in BOT_FILES:
        try:
            return str(bot_file(spec))
        except ValueError as e:
            raise BotSpecError(str(e)) from None
    return spec


def read_bot_file(spec: str) -> BotFile:
    """The bot file a spec names (a path, or a packaged bot's name) as `make_bot` plays it
    (BotSpecError)."""
    from features.botfile import BotFile
    from features.genome import GenomeError

    path = Path(bot_file_path(spec))
    try:
        return BotFile.read(path)
    except GenomeError as e:
        # BotFile.read's message already starts with the path: do not repeat it.
        msg = str(e).removeprefix(f"{path}: ")
        raise BotSpecError(f"bot file {spec}: {msg}") from None
    except OSError as e:
        raise BotSpecError(f"bot file {spec}: {e.strerror or e}") from None


def make_bot(spec: str, *, isolate: bool = True, timeout: float | None = None) -> Player:
    """A fresh player for a spec: bot file -> LinearPlayer, else a baseline or class path.

    A class path (not `trusted`) plays isolated in its own process (arena.isolation.sandbox) unless
    `isolate` is False (only the bot's own process may load it); `timeout` is its per-decision
    limit in seconds (default `arena.isolation.sandbox.DECISION_TIMEOUT_S`). Close an isolated bot
    with `close_bot` when its game is over.
    """
    if is_bot_file(spec):
        return read_bot_file(spec).player()
    from arena.isolation.bubblewrap import SandboxError
    from game.bots import make_player

    try:
        if isolate and not trusted(spec):
            from arena.isolation.sandbox import DECISION_TIMEOUT_S, isolated_bot

            return isolated_bot(spec, DECISION_TIMEOUT_S if timeout is None else timeout)
        return make_player(spec)
    except SandboxError as e:  # $RISKEVO_SANDBOX, not the spec
        raise GameArgError(str(e)) from None
    except ValueError as e:
        # make_player's message already names the spec and the allowed baselines.
        said = str(e).removesuffix(_OR_FILE)  # a sandboxed spec's message has it already
        raise BotSpecError(said + _OR_FILE) from None


_OR_FILE = "; or a bot .json file"


def close_bot(player: object) -> None:
    """After a game: an isolated bot's process is kept for the next game of its spec when
    healthy (arena.isolation.sandbox.release), else ended; nothing for an in-process player."""
    from arena.isolation.sandbox import IsolatedBot, release

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


def game_seed(seed: int, specs: Sequence[str]) -> int:
    """The seed a game among `specs` is dealt from: `seed` itself when every seat is trusted
    (the same games as ever), else its keyed hash (`arena.isolation.sandbox.secret_seed`), so
    that an isolated bot that reads or guesses --seed still cannot rebuild the deal, the deck, the
    dice or the missions (GameArgError if the key is unusable: `arena.isolation.sandbox.secret`).
    Call it in the process that plans the games (it holds the key) and hand the result to
    the workers."""
    if all(trusted(s) for s in specs):
        return seed
    from arena.isolation.sandbox import secret_seed

    try:
        return secret_seed(seed)
    except ValueError as e:
        raise GameArgError(str(e)) from None


def secret_note(specs: Sequence[str]) -> str | None:
    """After the games: how to deal them again (games with an isolated seat only)."""
    if all(trusted(s) for s in specs):
        return None
    from arena.isolation.sandbox import SECRET_FILE_ENV, secret

    return (f"class-path bots: games dealt from the seed and a secret key, {secret().hex()}; "
            f"that key in a file named by ${SECRET_FILE_ENV} deals them again")


def make_rules(text: str | None, cap: int | None = None) -> Rules:
    """Rules from 'missions,fixed_cards,path_fortify,cap=50' plus an optional cap override."""
    from game.state import Rules, RulesError

    try:
        rules = Rules.parse(text or "")
        return dataclasses.replace(rules, cap=cap) if cap is not None else rules
    except RulesError as e:
        raise GameArgError(str(e)) from None


def check_timeout(seconds: float) -> None:
    """A per-decision time limit is a positive number of seconds (at most a day)."""
    if not 0 < seconds <= 86_400:
        raise GameArgError(f"--decision-timeout must be > 0 and at most 86400 s, got {seconds}")


def check_seed(seed: int) -> None:
    """Seeds are 0..2**63 - 1, as a run's and a web game's (numpy's SeedSequence rejects
    negative ones with a traceback)."""
    from game.env.seeding import SEED_BOUND

    if not 0 <= seed < SEED_BOUND:
        raise GameArgError(f"--seed must be 0..{SEED_BOUND - 1}, got {seed}")


MAX_EVENT_GAMES = 1_000_000  # games of one command (days of play; its schedule fits in memory)


def check_event(specs: Sequence[str], *, seed: int, timeout: float, jobs: int,
                rules: str | None, cap: int | None = None, games: int = 1) -> None:
    """The checks tournament, gauntlet and diagnose share before any game: seed, time limit,
    --jobs, --games, rules and every bot (GameArgError, one line, naming the argument)."""
    from evolve.sections import MAX_JOBS

    check_seed(seed)
    check_timeout(timeout)
    if jobs != -1 and not 1 <= jobs <= MAX_JOBS:
        raise GameArgError(f"--jobs must be -1 (all cores) or 1..{MAX_JOBS}, got {jobs}")
    if not 1 <= games <= MAX_EVENT_GAMES:
        raise GameArgError(f"--games must be 1..{MAX_EVENT_GAMES}, got {games}")
    make_rules(rules, cap)
    game_seed(seed, specs)  # a malformed secret fails now, before any game
    for s in dict.fromkeys(specs):
        check_bot(s)  # fail fast, with a readable message


def add_rules_argument(ap: argparse.ArgumentParser) -> None:
    """--rules: the rule options of game.state.Rules, as `make_rules` reads them."""
    ap.add_argument("--rules", default=None, metavar="OPTIONS",
                    help="rule options, comma-separated, e.g. missions,fixed_cards,cap=50 "
                         "(docs/rules.md)")


def add_timeout_argument(ap: argparse.ArgumentParser) -> None:
    """--decision-timeout: seconds an isolated (class-path) bot has for one decision."""
    from arena.isolation.sandbox import DECISION_TIMEOUT_S

    ap.add_argument("--decision-timeout", type=float, default=DECISION_TIMEOUT_S, metavar="S",
                    help="seconds a package.module:Class bot (played in its own process) has "
                         f"per decision; it forfeits the game after that (default "
                         f"{DECISION_TIMEOUT_S:g})")
