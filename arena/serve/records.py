"""The behaviour table of a served bot from its `serve --record` files alone (one seat's view).

`read_records(DIR)` reads every `*.jsonl` file there (written by `arena.serve.recorder`), `measure`
turns one game's entries into the `arena.behaviour.Counts` of the recorded seat with the same
definitions as the in-engine table (`Counts.start_turn`/`end_turn`, `continents_held`,
`forced_trade`), and `records_table` gives the rows `format_diagnosis` prints. What one seat
cannot see is left out (win, elimination: the engine never tells the bot) or estimated from the
states it was shown; every row says which (`SOURCES`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from arena.behaviour import METRICS, Counts, continents_held, forced_trade
from arena.serve.recorder import MAX_BYTES
from game.actions import Attack, Fortify, Place, Trade, parse_action
from game.atomic import MiB, read_limited
from game.map import Map, MapError, build_map
from game.state import Rules, RulesError
from game.untrusted import UntrustedJSONError, parse_json

__all__ = ["LEGEND", "NOT_FROM_RECORDS", "SOURCES", "Game", "RecordsError", "measure",
           "read_records", "records_table"]


class RecordsError(ValueError):
    """A records folder or file that cannot be read (the message names it)."""


MAX_FILE_BYTES = 64 * MiB  # one game's record file (a classic-map game writes about 0.3 MB)
MAX_LINE_BYTES = 2 * MiB  # one entry: a decoded request (serve reads lines of <= 1 MiB), its answer


# Where each in-engine metric comes from in a record (the table prints LEGEND).
SOURCES = {
    "reinforce_concentration": "answers",
    "one_army_share": "turn start",
    "continents_held": "turn start",
    "continent_kept": "turn start",
    "defend_losses_per_round": "seen",
    "conquests_per_turn": "seen",
    "card_turn_share": "seen",
    "cards_held": "turn start",
    "forced_trade_share": "answers",
    "battles_per_turn": "answers",
    "battle_win_rate": "seen",
    "fortifies_per_turn": "answers",
}
LEGEND = ("sources: answers = the bot's own answers (exact; forced trades by the hand size at "
          "the request); turn start = the state of an own turn's first request (before "
          "reinforcing, as the referee sees it); seen = estimated from the states of later "
          "requests (a conquest: the attacked territory is own at the next request; defend "
          "losses: own armies at a turn's last request against the next turn's first), so what "
          "happens after a turn's last request is missed")
NOT_FROM_RECORDS = ("eliminated_share", "elimination_turn", "win_rate")  # the bot is not told


@dataclass
class Game:
    """One record file: its header and decision entries (damaged lines dropped)."""

    path: Path
    header: dict[str, Any]
    entries: list[dict[str, Any]] = field(default_factory=list)
    ended: bool = False  # the engine sent end_game
    damaged: list[int] = field(default_factory=list)  # line numbers skipped


def _lines(path: Path) -> Iterator[tuple[int, bytes, bool]]:
    """(line number, bytes, complete) per line; a last line without newline is incomplete."""
    try:
        data = read_limited(path, MAX_FILE_BYTES, "a record file")
    except OSError as e:
        raise RecordsError(f"{path}: cannot read ({e.strerror or e})") from None
    lines = data.split(b"\n")
    for i, raw in enumerate(lines[:-1], 1):
        yield i, raw, True
    if lines[-1]:
        yield len(lines), lines[-1], False


def read_game(path: Path) -> Game | None:
    """One record file; None for a file torn in its header (a kill at start_game)."""
    game: Game | None = None
    for i, raw, complete in _lines(path):
        try:
            obj = parse_json(raw, limit=MAX_LINE_BYTES) if complete else None
        except UntrustedJSONError:
            obj = None
        if game is None:
            if obj is None and not complete:
                return None
            if not (isinstance(obj, dict) and obj.get("record") == "start"
                    and obj.get("format") == 1):
                raise RecordsError(f"{path}: not a serve --record file (line 1 is not a "
                                   f"format-1 record header)")
            game = Game(path, obj)
        elif not isinstance(obj, dict):
            game.damaged.append(i)  # a torn or garbled line costs only itself
        elif obj.get("record") == "end":
            game.ended = True
        else:
            game.entries.append(obj)
    if game is None:
        return None  # an empty file: created, then killed before its header
    return game


def read_records(folder: str | Path,
                 warn: Callable[[str], None] | None = None) -> list[Game]:
    """Every game of a records folder, warning once per file with skipped lines."""
    say = warn or (lambda text: print(f"warning: {text}", file=sys.stderr))
    d = Path(folder)
    if not d.is_dir():
        raise RecordsError(f"--records {folder}: " + ("not a folder (give the folder serve "
                           "--record wrote)" if d.exists() else "no such folder"))
    paths = sorted(d.glob("*.jsonl"))
    if not paths:
        raise RecordsError(f"--records {folder}: no *.jsonl record files in it")
    total = sum(p.lstat().st_size for p in paths)
    if total > MAX_BYTES:
        raise RecordsError(f"--records {folder}: {total / MiB:,.0f} MiB of record files, more "
                           f"than the {MAX_BYTES // MiB:,} MiB one serve run writes at most; "
                           "name a folder of fewer files")
    games = []
    for p in paths:
        g = read_game(p)
        if g is None:
            say(f"{p}: skipped (torn before its header was complete)")
            continue
        if g.damaged:
            say(f"{p}: skipped damaged line(s) {', '.join(map(str, g.damaged))}")
        games.append(g)
    return games


@dataclass
class Extra:
    """Record-only figures (how its games ended, as far as one seat sees)."""

    games: int = 0
    decisions: int = 0
    errors: int = 0  # error replies (requests the server could not answer)
    last_round: int = 0  # sum over games of the last round it was asked in
    last_owned: int = 0  # sum over games of own territories at its last turn start


def measure(game: Game) -> tuple[Counts, Extra]:
    """The recorded seat's counts of one game (`Counts.games` is 1; wins/eliminations 0)."""
    try:
        m: Map = build_map(game.header["map"], f"{game.path} map")
        rules = Rules.from_dict(game.header.get("rules", {}))
        seat = int(game.header["seat"])
    except (MapError, RulesError, KeyError, TypeError, ValueError) as e:
        raise RecordsError(f"{game.path}: bad record header: {e}") from None
    members = [np.flatnonzero(m.kernel.continent_of == c) for c in range(m.n_continents)]
    c, x = Counts(games=1), Extra(games=1)
    turn = _Turn()
    held: frozenset[int] | None = None
    armies_after: int | None = None  # own armies at the last request of the previous turn
    try:
        for entry in game.entries:
            x.decisions += 1
            if "error" in entry or "owner" not in entry:
                x.errors += 1
                continue
            owner, armies = np.asarray(entry["owner"]), np.asarray(entry["armies"])
            if entry["ask"] == "place_initial" or entry.get("phase") == "setup":
                continue
            mine_armies = int(armies[owner == seat].sum())
            # A new own turn: `round` or `turns` moved (a seat has one turn per round), or a
            # decision after a fortify (the turn's last), for engines that send neither counter.
            key = (entry["round"], entry.get("turns", 0))
            again = entry["ask"] == "fortify" and entry.get("fields", {}).get("refused")
            if key != turn.key or (turn.fortified and not again):
                if turn.key is not None:
                    c.end_turn(turn.placed, turn.conquered)
                if armies_after is not None and mine_armies < armies_after:
                    c.defend_losses += armies_after - mine_armies
                now = continents_held(members, owner, seat)
                c.start_turn(owner, armies, seat, len(entry["hand"]), now, held)
                held, turn = now, _Turn(key)
                x.last_owned = int((owner == seat).sum())
                x.last_round = int(entry["round"])
            elif turn.attack is not None and owner[turn.attack[1]] == seat:
                c.battles_won += 1
                c.conquests += 1
                turn.conquered, turn.battle = True, None
            turn.attack = None
            armies_after = mine_armies
            _answer(c, turn, entry, m, rules)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:  # a foreign file
        raise RecordsError(f"{game.path}: decision entry {x.decisions} is not a record entry "
                           f"({type(e).__name__}: {e})") from None
    if turn.key is not None:
        c.end_turn(turn.placed, turn.conquered)
    return c, x


@dataclass
class _Turn:
    key: tuple[int, int] | None = None  # (round, turns) of its first request
    fortified: bool = False  # a fortify was asked: the turn is over
    placed: dict[int, int] = field(default_factory=dict)
    conquered: bool = False
    battle: tuple[int, int] | None = None  # (from, to) of the battle under way
    attack: tuple[int, int] | None = None  # the roll just answered, its outcome not yet seen


def _answer(c: Counts, turn: _Turn, e: dict[str, Any], m: Map, rules: Rules) -> None:
    """Count the bot's answer the way the referee's Watcher counts the action."""
    try:
        a = parse_action(str(e.get("action", "")), m)
    except ValueError:
        return
    if isinstance(a, Place) and e["ask"] == "reinforce":
        turn.placed[a.territory] = turn.placed.get(a.territory, 0) + a.count
    elif isinstance(a, Trade):
        c.trades += 1
        c.forced_trades += forced_trade(len(e["hand"]), rules.trade_at)
    elif isinstance(a, Attack):
        pair = (a.src, a.dst)
        if turn.battle != pair:
            turn.battle = pair
            c.battles += 1
        turn.attack = pair
    elif isinstance(a, Fortify):
        c.fortifies += 1
    if e["ask"] == "fortify":
        turn.fortified = True


def _ratio(a: float, b: float) -> float:
    return a / b if b else float("nan")


def records_table(games: list[Game]) -> tuple[list[tuple[str, str, list[float]]], Counts, Extra]:
    """(metric, meaning with its source, [value]) rows for the recorded bot, and the sums."""
    total, extra = Counts(), Extra()
    for g in games:
        c, x = measure(g)
        total.add(c)
        for k in vars(x):
            setattr(extra, k, getattr(extra, k) + getattr(x, k))
    rows = [(name, f"{doc} [{SOURCES[name]}]", [fn(total)])
            for name, doc, fn in METRICS if name in SOURCES]
    rows += [
        ("rounds_survived", "last round it was asked in (mean per game) [records only]",
         [_ratio(extra.last_round, extra.games)]),
        ("last_turn_territories", "own territories at its last own turn start (mean per game; "
         "how it died when eliminated) [records only]", [_ratio(extra.last_owned, extra.games)]),
        ("turns_per_game", "own turns recorded per game (= elimination_turn in games it lost "
         "by elimination) [records only]", [_ratio(total.turns, extra.games)]),
    ]
    return rows, total, extra
