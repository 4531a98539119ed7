"""`python -m arena diagnose BOT [OPPONENTS...]`: how a bot plays, beside its opponents.

Plays seeded games of BOT against the opponents (default: 3 copies of the strongest baseline),
seats drawn at random by the engine, in parallel; reports per player label the behaviour
figures of `arena.behaviour` (reinforcement concentration, 1-army territories, continents held
and kept, armies lost defending, conquests and card turns, cards and forced trades, battles,
fortifies, elimination turn), as a printed table, a CSV and one PNG.

`--records DIR` instead prints the table of a bot served with `serve --record DIR` (inside
another engine) from its records alone (`arena.serve.records`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from arena.behaviour import METRICS, Counts, Tally, Watcher
from arena.bots import add_rules_argument, add_timeout_argument
from evolve.cli import ArgumentParser
from game.atomic import atomic_write_bytes

__all__ = ["METRICS", "diagnose", "format_diagnosis", "main", "plot_diagnosis",
           "write_diagnosis_csv"]

Table = list[tuple[str, str, list[float]]]


def _play_one(specs: tuple[str, ...], seed: int, rules: str | None,
              timeout: float | None = None, transcript_to: Path | None = None
              ) -> tuple[list[Counts], tuple[str, ...]]:
    """One observed game (runs in a worker): counts per player in input order and the
    forfeit reasons ("" for none; class-path bots play isolated, `timeout` s per decision);
    `transcript_to`: write the game's transcript there."""
    from arena.bots import make_rules
    from arena.play import play_specs
    from game.map import classic_map

    watcher = Watcher(classic_map(), len(specs))
    out = play_specs(specs, seed, make_rules(rules), timeout=timeout, observer=watcher,
                     transcript_to=transcript_to)
    seat_of = {p: seat for seat, p in enumerate(out.seats)}
    winner_seat = None if out.winner is None else seat_of[int(out.winner)]
    counts = watcher.finish(winner_seat)
    forfeits = out.forfeits or ("",) * len(specs)
    return [counts[seat_of[i]] for i in range(len(specs))], forfeits


def diagnose(bot: str, opponents: Sequence[str], games: int, *, seed: int = 0,
             n_jobs: int = 1, rules: str | None = None, timeout: float | None = None,
             forfeits: list[str] | None = None, transcripts: Path | None = None
             ) -> tuple[list[str], Table]:
    """Play the games; (labels, table rows) with BOT's label first. `forfeits`, if given,
    receives one line per forfeit (game, player label, reason); `transcripts`, a folder for
    game i's transcript as `game-<i>.txt`."""
    from joblib import Parallel, delayed

    from arena.bots import game_seed
    from arena.play import labels_for

    specs = (bot, *opponents)
    labels = labels_for(list(specs))
    # Copies of one opponent pool under one label: "continent#2" reads as "continent".
    pooled = [labels[0], *(lb.split("#")[0] for lb in labels[1:])]
    children = np.random.SeedSequence(seed).spawn(games)
    seeds = [game_seed(int(c.generate_state(1, np.uint64)[0] >> np.uint64(1)), specs)
             for c in children]  # a keyed hash when a seat is isolated (arena.bots)
    width = len(str(games - 1))
    paths = [None if transcripts is None else transcripts / f"game-{i:0{width}d}.txt"
             for i in range(games)]
    if n_jobs == 1:
        results = [_play_one(specs, s, rules, timeout, p) for s, p in zip(seeds, paths,
                                                                          strict=True)]
    else:
        results = Parallel(n_jobs=n_jobs)(delayed(_play_one)(specs, s, rules, timeout, p)
                                          for s, p in zip(seeds, paths, strict=True))
    tally = Tally(pooled)
    for g, (per_player, why) in enumerate(results):
        for i, (lb, c) in enumerate(zip(pooled, per_player, strict=True)):
            tally.add(lb, c)
            if why[i] and forfeits is not None:
                forfeits.append(f"game {g}: {labels[i]} forfeited ({why[i]})")
    return tally.labels, tally.table()


def format_diagnosis(labels: Sequence[str], table: Table) -> str:
    """Aligned text: one row per metric, one column per player label."""
    grid = [["metric", *labels, "meaning"]]
    grid += [[name, *(f"{v:.3f}" for v in vals), doc] for name, doc, vals in table]
    widths = [max(len(row[i]) for row in grid) for i in range(len(grid[0]) - 1)]
    return "\n".join("  ".join([row[0].ljust(widths[0]),
                                *(c.rjust(w) for c, w in zip(row[1:-1], widths[1:],
                                                             strict=True)), row[-1]])
                     for row in grid)


def write_diagnosis_csv(labels: Sequence[str], table: Table, path: Path) -> Path:
    """The table as CSV (atomically)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["metric", *labels, "meaning"])
    w.writerows([name, *(f"{v:.6g}" for v in vals), doc] for name, doc, vals in table)
    atomic_write_bytes(path, buf.getvalue().encode("utf-8"))
    return path


def plot_diagnosis(labels: Sequence[str], table: Table, title: str) -> Any:
    """One figure: a small bar chart per metric, the bot first in each."""
    from evolve.report.plots import plt

    n = len(table)
    cols = 5
    rows = -(-n // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 2.6 * rows), layout="constrained")
    colors = ["crimson", *(["steelblue"] * (len(labels) - 1))]
    for ax, (name, _doc, vals) in zip(axes.ravel(), table, strict=False):
        v = np.nan_to_num(np.array(vals, dtype=float))
        ax.bar(range(len(labels)), v, color=colors)
        ax.set_xticks(range(len(labels)), labels, rotation=30, fontsize=7, ha="right")
        ax.set_title(name.replace("_", " "), fontsize=9)
        ax.tick_params(axis="y", labelsize=7)
    for ax in axes.ravel()[n:]:
        ax.axis("off")
    fig.suptitle(title)
    return fig


def records_main(folder: str, label: str | None) -> int:
    """`diagnose --records DIR`: the table of the bot recorded by `serve --record DIR`."""
    from arena.serve.records import (
        LEGEND,
        NOT_FROM_RECORDS,
        RecordsError,
        read_records,
        records_table,
    )
    from evolve.cli import error

    try:
        games = read_records(folder)
        table, counts, extra = records_table(games)
    except RecordsError as e:
        return error(e)
    name = label or Path(folder).resolve().name
    print(f"behaviour of {name} from {extra.games} recorded games in {folder} ({extra.decisions} "
          f"decisions, {extra.errors} error replies, {counts.turns} own turns): every figure "
          f"comes from the records (one seat's view); [...] says from what")
    print(format_diagnosis([name], table))
    print(LEGEND)
    print(f"not computable from one seat's view (no in-engine row): "
          f"{', '.join(NOT_FROM_RECORDS)}")
    return 0


def main(argv: list[str]) -> int:
    """`python -m arena diagnose BOT [OPPONENTS...] [--games N]`: the behaviour table.

    `--records DIR [--label NAME]`: the table of a bot served with `serve --record DIR`
    (e.g. inside another engine), computed from its records alone.
    """
    from game.bots import GAUNTLET

    ap = ArgumentParser(prog="python -m arena diagnose", description=main.__doc__)
    ap.add_argument("bot", nargs="?", help="bot file, baseline name or package.module:Class")
    ap.add_argument("opponents", nargs="*",
                    help=f"1..5 opponents (default: 3x {GAUNTLET[0]}); repeat a name for copies")
    ap.add_argument("--games", type=int, default=200, help="games (default 200)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=-1, help="worker processes (-1 = all cores)")
    add_rules_argument(ap)
    ap.add_argument("--out", default=None,
                    help="folder for diagnose.csv/diagnose.png (default runs/diagnose/<bot>)")
    ap.add_argument("--transcripts", action="store_true",
                    help="write every game's transcript to OUT/transcripts/ (replay them with "
                    "python -m arena web --replay FILE)")
    ap.add_argument("--records", metavar="DIR", default=None,
                    help="no games: the table of the bot recorded by `serve --record DIR` "
                         "(metrics one seat's view allows; each row says its source)")
    ap.add_argument("--label", default=None,
                    help="the recorded bot's name in the --records table (default: DIR's name)")
    add_timeout_argument(ap)
    args = ap.parse_args(argv)
    if args.records is not None:
        if args.bot is not None or args.opponents:
            ap.error("--records reads records only: give no BOT or OPPONENTS")
        return records_main(args.records, args.label)
    if args.bot is None:
        ap.error("BOT is required (or --records DIR)")
    from arena.bots import GameArgError, check_event, secret_note
    from arena.play import labels_for
    from evolve.cli import error
    from evolve.report.plots import save_figure

    opponents = args.opponents or [GAUNTLET[0]] * 3
    label = labels_for([args.bot])[0]
    out = Path(args.out) if args.out else Path("runs/diagnose") / label
    try:
        if not 1 <= len(opponents) <= 5:
            raise GameArgError(f"a game needs 1..5 opponents, got {len(opponents)}")
        check_event([args.bot, *opponents], seed=args.seed, timeout=args.decision_timeout,
                    jobs=args.jobs, rules=args.rules, games=args.games)
        out.mkdir(parents=True, exist_ok=True)
        folder = out / "transcripts" if args.transcripts else None
        if folder is not None:
            folder.mkdir(exist_ok=True)
        lost: list[str] = []
        labels, table = diagnose(args.bot, opponents, args.games, seed=args.seed,
                                 n_jobs=args.jobs, rules=args.rules,
                                 timeout=args.decision_timeout, forfeits=lost,
                                 transcripts=folder)
    except GameArgError as e:
        return error(e)
    except OSError as e:
        return error(f"--out {out}: cannot create the folder ({e.strerror or e})")
    print(f"behaviour of {label} in {args.games} games against {', '.join(opponents)} "
          f"(seed {args.seed}; opponents of one name pooled)")
    print(format_diagnosis(labels, table))
    print(f"{len(lost)} forfeits (a forfeiting bot's seat is played out passively)")
    for line in lost:
        print(f"  {line}")
    if note := secret_note([args.bot, *opponents]):
        print(note)
    print(write_diagnosis_csv(labels, table, out / "diagnose.csv"))
    fig = plot_diagnosis(labels, table, f"behaviour of {label}: {args.games} games")
    print(save_figure(fig, out / "diagnose.png"))
    return 0

