"""Tournaments among bots: even lineups, rotating seats, seeded games in parallel, a table."""

from __future__ import annotations

import csv
import functools
import io
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from arena.bots import add_rules_argument, add_timeout_argument, game_seed
from evolve.cli import ArgumentParser
from evolve.stats import wilson_interval
from game.atomic import atomic_write_bytes, check_replaceable

__all__ = [
    "GameResult",
    "Row",
    "TournamentError",
    "align",
    "format_table",
    "main",
    "run_tournament",
    "schedule",
    "summarize",
    "write_csv",
    "write_forfeits_csv",
    "write_rows_csv",
]


class TournamentError(ValueError):
    """Bad tournament arguments (bots, games, players per game)."""


@dataclass(frozen=True)
class GameResult:
    """One game: bot indices in seat-input order, their placements, winner (bot index or -1)."""

    lineup: tuple[int, ...]
    placements: tuple[int, ...]
    winner: int
    rounds: int
    capped: bool
    forfeits: tuple[str, ...] = ()  # per lineup position: why that bot forfeited, "" if not


@dataclass(frozen=True)
class Row:
    """One bot's line of the tournament table."""

    bot: str
    games: int
    wins: int
    places: tuple[int, ...]  # places[k] = games finished in place k + 1
    mean_place: float
    win_rate: float
    lo: float
    hi: float
    capped: int
    mean_rounds: float
    forfeits: int = 0  # games this bot forfeited (game.forfeit)
    reasons: str = ""  # why, e.g. "2x attack: BotTimeoutError" (round and details left out)


MAX_LINEUPS = 1_000_000  # bot combinations a schedule cycles through (it lists them all)


def check_lineups(n_bots: int, per_game: int) -> None:
    """TournamentError unless `n_bots` bots fill `per_game`-player games (2..6 players) in at
    most MAX_LINEUPS combinations."""
    if not 2 <= per_game <= 6:
        raise TournamentError(f"--per-game must be 2..6, got {per_game}")
    if n_bots < per_game:
        raise TournamentError(
            f"{n_bots} bots for {per_game}-player games: give at least {per_game} "
            "(repeat a bot to seat it more than once)")
    if (n := math.comb(n_bots, per_game)) > MAX_LINEUPS:
        raise TournamentError(f"{n_bots} bots in {per_game}-player games make {n:,} lineups, "
                              f"more than {MAX_LINEUPS:,}: name fewer bots")


def schedule(n_bots: int, per_game: int, games: int,
             rng: np.random.Generator) -> list[tuple[int, ...]]:
    """Lineups for `games` games: every combination used equally often (±1), seats rotated.

    Combinations are cycled in a shuffled order, and the j-th use of a combination rotates its
    seat list by j so that each bot sits in each input position equally often.
    """
    check_lineups(n_bots, per_game)
    if games < 1:
        raise TournamentError(f"--games must be >= 1, got {games}")
    combos = list(itertools.combinations(range(n_bots), per_game))
    order = rng.permutation(len(combos))
    used = [0] * len(combos)
    out: list[tuple[int, ...]] = []
    for g in range(games):
        ci = int(order[g % len(combos)])
        c, j = combos[ci], used[ci]
        used[ci] += 1
        r = j % per_game
        out.append(c[r:] + c[:r])
    return out


Played = tuple[tuple[int, ...], int, int, bool] | tuple[tuple[int, ...], int, int, bool,
                                                         tuple[str, ...]]


def _play_specs(specs: tuple[str, ...], seed: int, rules_spec: str | None,
                cap: int | None, timeout: float | None = None) -> Played:
    """Play one game with fresh players (runs in a worker process): in the compiled loop when
    every seat has a compiled implementation (the same game, faster), else `_play_python`."""
    from arena.bots import make_rules
    from arena.measure.lineup import compiled_lineup
    from features.compiled import play_mixed_game

    lineup = compiled_lineup(specs)
    if lineup is None:
        return _play_python(specs, seed, rules_spec, cap, timeout)
    weights, policies, plans = lineup
    out = play_mixed_game(weights, policies, seed, make_rules(rules_spec, cap), plans=plans)
    return (tuple(int(p) for p in out.placements), int(out.winner), int(out.rounds),
            bool(out.capped))


def _play_python(specs: tuple[str, ...], seed: int, rules_spec: str | None,
                 cap: int | None, timeout: float | None = None,
                 transcript_to: Path | None = None) -> Played:
    """Play one game with fresh players in the Python engine; a bot that fails forfeits
    (class-path bots play isolated, with `timeout` seconds per decision). `transcript_to`:
    write the game's transcript there."""
    from arena.bots import make_rules
    from arena.play import play_specs

    out = play_specs(specs, seed, make_rules(rules_spec, cap), timeout=timeout,
                     transcript_to=transcript_to)
    winner = -1 if out.winner is None else int(out.winner)
    played = (tuple(int(p) for p in out.placements), winner, int(out.rounds), bool(out.capped))
    return (*played, out.forfeits) if out.forfeits else played  # as the compiled loop's


PlayFn = Callable[[tuple[str, ...], int, "str | None", "int | None"], Played]


def run_tournament(specs: Sequence[str], games: int, *, per_game: int = 4, seed: int = 0,
                   n_jobs: int = 1, rules: str | None = None, cap: int | None = None,
                   play_fn: PlayFn = _play_specs, timeout: float | None = None,
                   transcripts: Path | None = None) -> list[GameResult]:
    """Play the games (in parallel with joblib when n_jobs != 1) and return them in order.

    Game i is seeded by the i-th child of `SeedSequence(seed)`, so results do not depend on
    n_jobs or on the order workers finish in. `timeout`: seconds per decision of an isolated
    bot (default `arena.isolation.sandbox.DECISION_TIMEOUT_S`); a bot that fails forfeits the game.
    `transcripts`: a folder that gets game i's transcript as `game-<i>.txt` (the games then
    run in the Python engine, which the compiled loop equals move for move).
    """
    from joblib import Parallel, delayed

    if play_fn is _play_specs and timeout is not None:
        play_fn = functools.partial(_play_specs, timeout=timeout)
    width = len(str(max(games - 1, 0)))

    def play_of(i: int) -> PlayFn:
        if transcripts is None:
            return play_fn
        path = transcripts / f"game-{i:0{width}d}.txt"
        return functools.partial(_play_python, timeout=timeout, transcript_to=path)

    rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])
    lineups = schedule(len(specs), per_game, games, rng)
    children = np.random.SeedSequence(seed).spawn(games + 1)[1:]
    seeds = [int(c.generate_state(1, np.uint64)[0] >> np.uint64(1)) for c in children]
    lineup_specs = [tuple(specs[b] for b in lu) for lu in lineups]
    # A game with an isolated seat is dealt from a keyed hash of its seed (arena.bots).
    calls = [(play_of(i), (ls, game_seed(s, ls), rules, cap))
             for i, (ls, s) in enumerate(zip(lineup_specs, seeds, strict=True))]
    raw = (Parallel(n_jobs=n_jobs, batch_size="auto")(delayed(f)(*a) for f, a in calls)
           if n_jobs != 1 else [f(*a) for f, a in calls])
    results = []
    for lu, played in zip(lineups, raw, strict=True):
        places, winner, rounds, capped = played[:4]
        forfeits = tuple(played[4]) if len(played) > 4 else ()
        results.append(GameResult(lu, tuple(places), -1 if winner < 0 else lu[winner],
                                  rounds, capped, forfeits))
    return results


def summarize(labels: Sequence[str], results: Sequence[GameResult], per_game: int) -> list[Row]:
    """The table: per bot games, wins, placement counts, mean place, Wilson interval, caps."""
    rows = []
    for b, label in enumerate(labels):
        mine = [(r, r.lineup.index(b)) for r in results if b in r.lineup]
        why = [forfeit_of(r, k) for r in results for k, x in enumerate(r.lineup)
               if x == b and forfeit_of(r, k)]
        n = len(mine)
        wins = sum(1 for r, _ in mine if r.winner == b)
        places = [0] * per_game
        for r, k in mine:
            places[r.placements[k] - 1] += 1
        lo, hi = wilson_interval(wins, n)
        rows.append(Row(
            bot=label, games=n, wins=wins, places=tuple(places),
            mean_place=float(np.mean([r.placements[k] for r, k in mine])) if n else float("nan"),
            win_rate=wins / n if n else float("nan"), lo=lo, hi=hi,
            capped=sum(1 for r, _ in mine if r.capped),
            mean_rounds=float(np.mean([r.rounds for r, _ in mine])) if n else float("nan"),
            forfeits=len(why), reasons=_reasons(why),
        ))
    return rows


def forfeit_of(r: GameResult, k: int) -> str:
    """Why lineup position k forfeited game r ("" if it did not)."""
    return r.forfeits[k] if k < len(r.forfeits) else ""


def _reasons(why: Sequence[str]) -> str:
    """Forfeit reasons counted by kind: the decision and the error type ("2x attack:
    BotTimeoutError; 1x reinforce 3: IllegalActionError")."""
    kinds: dict[str, int] = {}
    for w in why:
        head, _, rest = w.partition(", ")  # drop "round N, "
        what = rest or head
        decision, _, err = what.partition(": ")
        key = f"{decision.split()[0]}: {err.split(':')[0]}" if err else decision
        kinds[key] = kinds.get(key, 0) + 1
    return "; ".join(f"{n}x {k}" for k, n in kinds.items())


def forfeit_lines(labels: Sequence[str], results: Sequence[GameResult]) -> list[str]:
    """One line per forfeit: game number, bot, full reason."""
    return [f"game {g}: {labels[b]} forfeited ({forfeit_of(r, k)})"
            for g, r in enumerate(results) for k, b in enumerate(r.lineup) if forfeit_of(r, k)]


_HEAD = ("bot", "games", "wins", "mean place", "win rate", "95% lo", "95% hi", "capped",
         "mean rounds", "forfeits")


def _cells(r: Row) -> list[str]:
    return [r.bot, str(r.games), str(r.wins), *(str(p) for p in r.places),
            f"{r.mean_place:.2f}", f"{r.win_rate:.3f}", f"{r.lo:.3f}", f"{r.hi:.3f}",
            str(r.capped), f"{r.mean_rounds:.1f}", str(r.forfeits)]


def _header(per_game: int) -> list[str]:
    return [*_HEAD[:3], *(f"place {k}" for k in range(1, per_game + 1)), *_HEAD[3:]]


def align(grid: Sequence[Sequence[str]]) -> str:
    """Rows of cells as aligned text: the first column left, the others right."""
    widths = [max(len(line[i]) for line in grid) for i in range(len(grid[0]))]
    return "\n".join("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(line, widths, strict=True)))
                     for line in grid)


def write_rows_csv(header: Sequence[str], rows: Sequence[Sequence[str]], path: Path) -> Path:
    """A header (spaces and % made CSV-friendly) and rows as CSV, written atomically."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([h.replace(" ", "_").replace("%", "pct") for h in header])
    w.writerows(rows)
    atomic_write_bytes(path, buf.getvalue().encode("utf-8"))
    return path


def format_table(rows: Sequence[Row], per_game: int) -> str:
    """The table as aligned text for the terminal."""
    return align([_header(per_game)] + [_cells(r) for r in rows])


def write_csv(rows: Sequence[Row], per_game: int, path: Path) -> Path:
    """Write the table as CSV (atomically), with the forfeit reasons counted per bot."""
    return write_rows_csv([*_header(per_game), "forfeit reasons"],
                          [[*_cells(r), r.reasons] for r in rows], path)


def write_forfeits_csv(labels: Sequence[str], results: Sequence[GameResult], path: Path) -> Path:
    """Every forfeit as a CSV row: game, bot, reason (the header alone when none)."""
    rows = [[str(g), labels[b], forfeit_of(r, k)] for g, r in enumerate(results)
            for k, b in enumerate(r.lineup) if forfeit_of(r, k)]
    return write_rows_csv(["game", "bot", "reason"], rows, path)


def plot_table(rows: Sequence[Row], per_game: int, title: str, path: Path) -> Path:
    """Write a PNG: win rates with Wilson intervals above, the table below."""
    from evolve.report.plots import plt, save_figure

    n = len(rows)
    fig, (ax, tax) = plt.subplots(2, 1, figsize=(11, 2.2 + 0.45 * n + 0.35 * n + 1.2),
                                  height_ratios=[0.45 * n + 1.2, 0.35 * n + 0.8],
                                  layout="constrained")
    y = np.arange(n)[::-1]
    wr = np.array([r.win_rate for r in rows])
    err = np.array([[r.win_rate - r.lo for r in rows], [r.hi - r.win_rate for r in rows]])
    ax.barh(y, wr, color="steelblue", height=0.6)
    ax.errorbar(wr, y, xerr=err, fmt="none", ecolor="black", capsize=4)
    ax.axvline(1 / per_game, color="grey", ls=":", label=f"chance (1/{per_game})")
    ax.set_yticks(y, [r.bot for r in rows])
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (bars: 95% Wilson interval)")
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title(title)
    tax.axis("off")
    tbl = tax.table(cellText=[_cells(r) for r in rows], colLabels=_header(per_game),
                    loc="center", cellLoc="right")
    tbl.auto_set_font_size(False)
    tbl.set_fontsize(8)
    tbl.auto_set_column_width(list(range(len(_header(per_game)))))
    return save_figure(fig, path)


def main(argv: list[str]) -> int:
    """`python -m arena tournament BOTS... --games N`: play, print and save the table."""
    ap = ArgumentParser(prog="python -m arena tournament", description=main.__doc__)
    ap.add_argument("bots", nargs="+", help="bot file, baseline name or package.module:Class")
    ap.add_argument("--games", type=int, required=True, help="number of games")
    ap.add_argument("--per-game", type=int, default=4, help="players per game (default 4)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=-1, help="worker processes (-1 = all cores)")
    add_rules_argument(ap)
    ap.add_argument("--cap", type=int, default=None, help="round cap (default: the rules')")
    ap.add_argument("--out", default="runs/tournament", help="folder for table.csv/table.png")
    ap.add_argument("--transcripts", action="store_true",
                    help="write every game's transcript to OUT/transcripts/ (replay them with "
                    "python -m arena web --replay FILE)")
    add_timeout_argument(ap)
    args = ap.parse_args(argv)
    from arena.bots import GameArgError, check_event, secret_note
    from arena.play import labels_for
    from evolve.cli import error

    out = Path(args.out)
    outputs = [out / name for name in ("table.csv", "forfeits.csv", "table.png")]
    try:
        check_event(args.bots, seed=args.seed, timeout=args.decision_timeout, jobs=args.jobs,
                    rules=args.rules, cap=args.cap, games=args.games)
        check_lineups(len(args.bots), args.per_game)
        out.mkdir(parents=True, exist_ok=True)  # before the games, not after them
        folder = out / "transcripts" if args.transcripts else None
        if folder is not None:
            folder.mkdir(exist_ok=True)
        for path in outputs:  # a link or a folder in the way fails now, not after the games
            check_replaceable(path)
    except (GameArgError, TournamentError) as e:
        return error(e)
    except OSError as e:
        if isinstance(e, FileExistsError) and e.filename:  # check_replaceable's refusal
            return error(f"--out {out}: {e.filename} {e.strerror}")
        return error(f"--out {out}: cannot create the folder ({e.strerror or e})")
    try:
        results = run_tournament(args.bots, args.games, per_game=args.per_game, seed=args.seed,
                                 n_jobs=args.jobs, rules=args.rules, cap=args.cap,
                                 timeout=args.decision_timeout, transcripts=folder)
    except TournamentError as e:
        return error(e)
    except OSError as e:
        return error(f"during the games: {e.strerror or e}"
                     + (f" ({e.filename})" if e.filename else ""))
    labels = labels_for(args.bots)
    rows = summarize(labels, results, args.per_game)
    print(format_table(rows, args.per_game))
    capped_nowin = sum(1 for r in results if r.capped and r.winner < 0)
    lost = forfeit_lines(labels, results)
    print(f"{len(results)} games, {capped_nowin} capped without a winner, {len(lost)} forfeits, "
          f"seed {args.seed}")
    for line in lost:
        print(f"  {line}")
    if note := secret_note(args.bots):
        print(note)
    print(write_csv(rows, args.per_game, out / "table.csv"))
    print(write_forfeits_csv(labels, results, out / "forfeits.csv"))
    title = f"tournament: {len(results)} games, {args.per_game} per game, seed {args.seed}"
    print(plot_table(rows, args.per_game, title, out / "table.png"))
    return 0
