"""`python -m evolve plan`: a planning bot file from a greedy one (`evolve.plan.planfit`), or a run
folder's planning step again (`evolve.plan.lines`)."""

from __future__ import annotations

from pathlib import Path

from evolve.cli import ArgumentParser, error
from evolve.plan.lines import plan_folder
from evolve.plan.planfit import MAX_GAMES, MAX_REFITS, plan_champion
from evolve.runfolder import output_problem
from features.search.value import MAX_HIDDEN
from game.env.seeding import SEED_BOUND

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    from evolve.config import load_config

    d = load_config().plan  # the defaults a run's planning champion uses (evolve/defaults.toml)
    ap = ArgumentParser(prog="evolve plan", description=__doc__.split("\n\n")[0])
    ap.add_argument("bot", help="a greedy bot file (or a packaged name such as champion), or "
                    "a run folder: its planning step again, with the run's own settings (the "
                    "best of its lines when it restarted)")
    ap.add_argument("--games", type=int, default=max(d.games, 1),
                    help=f"games to fit on (default {d.games})")
    ap.add_argument("--check-games", type=int, default=d.check_games,
                    help=f"games per gauntlet bot in the check (default {d.check_games})")
    ap.add_argument("--self-share", type=float, action="append", dest="self_shares",
                    help="a seat's chance of a copy of the bot, else a gauntlet bot (default: "
                    "a fit for each of " + ", ".join(f"{s:g}" for s in d.self_share)
                    + ", the best in the check kept); repeat it to give your own")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--horizon", choices=("attack", "round"), default=d.horizon)
    ap.add_argument("--rollouts", type=int, default=d.rollouts)
    ap.add_argument("--top-k", type=int, default=d.top_k)
    ap.add_argument("--place", type=int, default=d.play_place,
                    help="territories whose whole-pool placement the written bot weighs against "
                    f"its greedy one (0: none; default {d.play_place}; the check runs without)")
    ap.add_argument("--margin", type=float, action="append", dest="margins",
                    help="value a plan must gain over the greedy choice (default: each of "
                    + ", ".join(f"{m:g}" for m in d.margins)
                    + ", the best in the check kept); repeat it to give your own")
    ap.add_argument("--net", type=int, default=d.net,
                    help="rectified units of the fitted value (0: a weighted sum of the terms; "
                    f"1..32; default {d.net})")
    ap.add_argument("--refits", type=int, default=d.refits,
                    help="fits again on the best planning bot's own games, each checked "
                    f"(default {d.refits})")
    ap.add_argument("--out", type=Path, help="the planning bot file to write (a run folder: "
                    "default its champion-plan.json)")
    ap.add_argument("--upto", type=int, help="a run folder: plan it as if it had stopped after "
                    "this generation")
    args = ap.parse_args(argv)
    if args.out is not None and (problem := output_problem(args.out, plan_ok=True)):
        return error(f"--out {args.out}: {problem}")
    if Path(args.bot).is_dir():
        try:
            print(plan_folder(Path(args.bot), args.upto, args.out))
        except (ValueError, OSError) as e:
            return error(e)
        return 0
    from game.bots import BOT_FILES, bot_file

    if args.bot not in BOT_FILES and not Path(args.bot).is_file():
        return error(f"BOT {args.bot}: no such bot file or run folder (plan takes a bot file, "
                     f"such as {', '.join(BOT_FILES)}, or a run folder)")
    if args.out is None or args.upto is not None:
        return error("a bot file needs --out FILE and takes no --upto (that is for a run "
                     "folder)")
    from features.botfile import BotFile
    from features.genome import GenomeError
    from features.search.player import PlanSettings, PlanSettingsError

    for flag, v in (("--games", args.games), ("--check-games", args.check_games)):
        if not 1 <= v <= MAX_GAMES:
            return error(f"{flag} must be 1..{MAX_GAMES}, got {v}")
    if not 0 <= args.refits <= MAX_REFITS:
        return error(f"--refits must be 0..{MAX_REFITS}, got {args.refits}")
    if not 0 <= args.net <= MAX_HIDDEN:
        return error(f"--net must be 0..{MAX_HIDDEN}, got {args.net}")
    shares = args.self_shares or list(d.self_share)
    for sh in shares:
        if not 0.0 <= sh <= 1.0:
            return error(f"--self-share must be in [0, 1], got {sh:g}")
    if not 0 <= args.seed < SEED_BOUND:
        return error(f"--seed must be 0..{SEED_BOUND - 1}, got {args.seed}")
    try:
        path = bot_file(args.bot) if args.bot in BOT_FILES else Path(args.bot)
        bot = BotFile.read(path)
        margins = args.margins or list(d.margins)
        for mg in margins:
            PlanSettings(rollouts=args.rollouts, top_k=args.top_k, horizon=args.horizon,
                         margin=mg, place=args.place)
    except (GenomeError, PlanSettingsError, ValueError, OSError) as e:
        return error(e)
    plan, meta, result = plan_champion(
        bot.weights, bot.meta, str(args.bot), games=args.games, check_games=args.check_games,
        seed=args.seed, horizon=args.horizon, rollouts=args.rollouts, top_k=args.top_k,
        margins=margins, refits=args.refits, self_shares=shares, units=args.net)
    if args.place:  # the check ran without placements, as a run's planning step notes it
        meta["plan_fit"]["checked_at"] = {"rollouts": plan["rollouts"], "top_k": plan["top_k"],
                                          "place": 0}
    BotFile(bot.weights, meta, PlanSettings.from_dict({**plan, "place": args.place})
            ).write(args.out)
    print(f"{args.out}: planning {args.bot} (horizon {args.horizon}, {args.rollouts} rollouts "
          f"x top {args.top_k}), value fitted on {meta['plan_fit']['positions']} positions of "
          f"{args.games} games" + (f" through {args.net} units" if args.net else "")
          + f"; {result.words()}")
    return 0
