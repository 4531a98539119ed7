"""The strength gauntlet: one bot against 3 copies of each strong baseline, a table with intervals.

A tournament table mixes every opponent; a gauntlet asks the question a user has about a champion:
how often does it win a 4-player game against three copies of a strong, fixed opponent? Par is
1/players. Games are seeded (the i-th child of `SeedSequence(seed)` per opponent block) and seats
are random in every game, so results do not depend on `--jobs`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from arena.bots import add_rules_argument, add_timeout_argument
from arena.measure.tournament import (
    PlayFn,
    Row,
    _play_specs,
    align,
    run_tournament,
    summarize,
    write_rows_csv,
)
from evolve.cli import ArgumentParser

__all__ = ["GauntletRow", "format_gauntlet", "gauntlet_mean", "main", "run_gauntlet",
           "write_gauntlet_csv"]


@dataclass(frozen=True)
class GauntletRow:
    """The bot's result against `players - 1` copies of one opponent."""

    opponent: str
    row: Row  # the bot's tournament row in those games


def run_gauntlet(bot: str, opponents: Sequence[str], games: int, *, players: int = 4,
                 seed: int = 0, n_jobs: int = 1, rules: str | None = None,
                 cap: int | None = None, play_fn: PlayFn = _play_specs,
                 timeout: float | None = None) -> list[GauntletRow]:
    """Play `games` games of `bot` against `players - 1` copies of each opponent in turn.

    Opponent block i uses seed `seed + i`, so adding an opponent leaves the others' games as
    they were.
    """
    from arena.play import labels_for

    label = labels_for([bot])[0]
    out = []
    for i, opp in enumerate(opponents):
        specs = [bot] + [opp] * (players - 1)
        results = run_tournament(specs, games, per_game=players, seed=seed + i, n_jobs=n_jobs,
                                 rules=rules, cap=cap, play_fn=play_fn, timeout=timeout)
        row = summarize([label, *labels_for(specs)[1:]], results, players)[0]
        out.append(GauntletRow(opp, row))
    return out


_HEAD = ("opponent", "games", "wins", "win rate", "95% lo", "95% hi", "mean place", "capped",
         "mean rounds", "forfeits", "forfeit reasons")


def _cells(g: GauntletRow, players: int) -> list[str]:
    r = g.row
    return [f"{players - 1}x {g.opponent}", str(r.games), str(r.wins), f"{r.win_rate:.3f}",
            f"{r.lo:.3f}", f"{r.hi:.3f}", f"{r.mean_place:.2f}", str(r.capped),
            f"{r.mean_rounds:.1f}", str(r.forfeits), r.reasons or "-"]


def format_gauntlet(rows: Sequence[GauntletRow], players: int) -> str:
    """Aligned text table: one line per opponent."""
    return align([list(_HEAD)] + [_cells(g, players) for g in rows])


def gauntlet_mean(rows: Sequence[GauntletRow]) -> float:
    """The bot's win rate averaged over the opponents, each counted once: one figure to compare
    bots (or the champions of several runs) played on the same seed."""
    return sum(g.row.win_rate for g in rows) / len(rows)


def write_gauntlet_csv(rows: Sequence[GauntletRow], players: int, path: Path) -> Path:
    """The table as CSV (atomically)."""
    return write_rows_csv(_HEAD, [_cells(g, players) for g in rows], path)


def main(argv: list[str]) -> int:
    """`python -m arena gauntlet BOT [--opponents a,b] [--games N]`: the strength table."""
    from game.bots import GAUNTLET

    ap = ArgumentParser(prog="python -m arena gauntlet", description=main.__doc__)
    ap.add_argument("bot", help="bot file, baseline name or package.module:Class")
    ap.add_argument("--opponents", default=",".join(GAUNTLET),
                    help=f"comma-separated opponents (default: {','.join(GAUNTLET)})")
    ap.add_argument("--games", type=int, default=1000, help="games per opponent (default 1000)")
    ap.add_argument("--players", type=int, default=4, help="players per game (default 4)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=-1, help="worker processes (-1 = all cores)")
    add_rules_argument(ap)
    ap.add_argument("--cap", type=int, default=None, help="round cap (default: the rules')")
    ap.add_argument("--out", default=None,
                    help="folder for gauntlet.csv/gauntlet.png (default runs/gauntlet/<bot>)")
    add_timeout_argument(ap)
    args = ap.parse_args(argv)
    from arena.bots import GameArgError, check_event, secret_note
    from arena.measure.tournament import TournamentError, plot_table
    from arena.play import labels_for
    from evolve.cli import error

    label = labels_for([args.bot])[0]
    out = Path(args.out) if args.out else Path("runs/gauntlet") / label
    opponents = [o.strip() for o in args.opponents.split(",") if o.strip()]
    try:
        if not opponents:
            raise GameArgError("--opponents must name at least one bot")
        if not 2 <= args.players <= 6:
            raise GameArgError(f"--players must be 2..6, got {args.players}")
        check_event([args.bot, *opponents], seed=args.seed, timeout=args.decision_timeout,
                    jobs=args.jobs, rules=args.rules, cap=args.cap, games=args.games)
        out.mkdir(parents=True, exist_ok=True)
        rows = run_gauntlet(args.bot, opponents, args.games, players=args.players,
                            seed=args.seed, n_jobs=args.jobs, rules=args.rules, cap=args.cap,
                            timeout=args.decision_timeout)
    except (GameArgError, TournamentError) as e:
        return error(e)
    except OSError as e:
        return error(f"--out {out}: cannot create the folder ({e.strerror or e})")
    print(f"gauntlet of {label}: {args.games} games per opponent, {args.players} players, "
          f"par {1 / args.players:.3f}, seed {args.seed}")
    print(format_gauntlet(rows, args.players))
    n = len(rows)
    print(f"mean win rate {gauntlet_mean(rows):.3f} over {n} opponent{'s' * (n != 1)} "
          f"(compare bots on the same --seed)")
    if note := secret_note([args.bot, *opponents]):
        print(note)
    print(write_gauntlet_csv(rows, args.players, out / "gauntlet.csv"))
    table = [replace(g.row, bot=f"vs {args.players - 1}x {g.opponent}") for g in rows]
    print(plot_table(table, args.players, f"gauntlet of {label}: win rate per opponent",
                     out / "gauntlet.png"))
    return 0
