"""`python -m evolve run`: start or resume a run, one summary line per generation."""

from __future__ import annotations

import argparse
import signal
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from types import FrameType
from typing import Any

from evolve.checkpoint import CheckpointError
from evolve.cli import ArgumentParser, evolve_command
from evolve.config import (
    BEFORE_ADDED,
    Config,
    ConfigError,
    load_config,
    parse_override,
    run_file_origin,
    to_toml,
)
from evolve.evolution import Evolution, Generation
from evolve.parallel import Runner, WorkersLostError
from evolve.plan.lines import DEFAULT_PLUGIN, plan_lines
from evolve.plan.planmark import unfinished
from evolve.plugin import load_plugin, warm_up
from evolve.progress import ProgressBar, RunClock, Ticker, summary
from evolve.rating.crownings import closing_words
from evolve.report.refresh import PlotRefresher
from evolve.runfolder import RunFolder, RunFolderError, check_name
from game.version import describe, riskevo_version

# Command-line options that set one config field each.
OPTIONS: dict[str, tuple[str, type]] = {
    "--seed": ("run.seed", int),
    "--generations": ("run.generations", int),
    "--population": ("run.population", int),
    "--games": ("run.games_per_individual", int),
    "--group-size": ("run.group_size", int),
    "--eval-every": ("eval.every", int),
    "--eval-games": ("eval.games", int),
    "--n-jobs": ("parallel.n_jobs", int),
    "--backend": ("parallel.backend", str),
    "--scheduler": ("parallel.scheduler", str),
    "--chunk-games": ("parallel.chunk_games", int),
    "--runs-dir": ("output.runs_dir", str),
}


def build_parser() -> argparse.ArgumentParser:
    """Options of the run subcommand."""
    p = ArgumentParser(prog="python -m evolve run", description=(
        "Start a run in runs/<name>/, or resume it from its newest checkpoint if it exists."))
    p.add_argument("--name", help="run folder name (default: run-YYYYmmdd-HHMMSS, a new run)")
    p.add_argument("--config", type=Path, help="TOML file overriding the package defaults")
    for opt, (key, typ) in OPTIONS.items():
        p.add_argument(opt, type=typ, dest=key, default=None, help=f"sets {key}")
    p.add_argument("--set", action="append", default=[], metavar="SECTION.FIELD=VALUE",
                   help="set any config field (TOML value syntax); repeatable")
    return p


def resolve_config(args: argparse.Namespace) -> tuple[Config, RunFolder, str]:
    """Layer defaults, the run folder's own config (when resuming), --config and options."""
    overrides: dict[str, Any] = dict(parse_override(s) for s in args.set)
    overrides.update({key: getattr(args, key) for key, _ in OPTIONS.values()
                      if getattr(args, key) is not None})
    files = [args.config] if args.config else []
    cfg = load_config(files, overrides)
    name = check_name(time.strftime("run-%Y%m%d-%H%M%S") if args.name is None else args.name)
    folder = RunFolder(Path(cfg.output.runs_dir) / name)
    if folder.config.exists():
        cfg = load_config(files, overrides, run_file=folder.config)
        made_by, assumed = run_file_origin(folder.config)
        for key, value in assumed.items():
            print(f"{folder.config}: written by {describe(made_by)}, before riskevo "
                  f"{BEFORE_ADDED[key][0]} added {key}: the run keeps {key} = {value!r}",
                  flush=True)
    return cfg, folder, name


class StopFlag:
    """SIGINT/SIGTERM: first signal asks to stop after the current generation, second aborts."""

    def __init__(self) -> None:
        self.signum = 0
        self.notice = "stopping before the first generation (signal again to abort)"
        self._old: dict[int, Any] = {}

    def install(self) -> None:
        """Take over SIGINT and SIGTERM (main thread only)."""
        for s in (signal.SIGINT, signal.SIGTERM):
            self._old[s] = signal.signal(s, self._handle)

    def restore(self) -> None:
        """Give the signals back."""
        for s, h in self._old.items():
            signal.signal(s, h)

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.signum:
            raise KeyboardInterrupt
        self.signum = signum
        print(f"\n{self.notice}", file=sys.stderr, flush=True)


def _prepare(args: argparse.Namespace, stack: ExitStack
             ) -> tuple[Config, RunFolder, str, Evolution, Runner, bool]:
    """Validate everything (config, plug-in, checkpoint, workers), then set up the folder.

    Nothing is written before every check passed: a bad setting leaves no folder behind.
    """
    cfg, folder, name = resolve_config(args)
    plugin = load_plugin(cfg)
    evo = Evolution(cfg, plugin, folder, name)
    # The lock comes before anything reads the folder: a second process must not resume (and
    # rewrite the log of) a run that is still going. A folder made only to hold the lock goes
    # again if a later check fails.
    created = folder.lock()
    stack.callback(folder.unlock)
    try:
        for p in folder.remove_temp_files():
            print(f"removed {p} (a write cut short by a kill or a full disk)", flush=True)
        resumed = evo.resume()
        if evo.log_dropped:
            print(f"dropped generation 0 from {folder.log} (killed or out of space before its "
                  "checkpoint was written); it runs again", flush=True)
        try:
            runner = stack.enter_context(Runner(cfg.parallel))
        except OSError as e:  # Runner turns connection failures into ConfigError; a net
            raise ConfigError(f"parallel.backend: cannot start the workers ({e})") from None
    except BaseException:
        folder.unlock(remove_root=created)
        raise
    folder.create()
    if not resumed:
        folder.reset_log([])
    folder.write_config(to_toml(cfg))
    return cfg, folder, name, evo, runner, resumed


def _forget_empty_run(folder: RunFolder) -> None:
    """Remove the config and empty log this process wrote for a run stopped before generation
    0 was saved, so that the same name starts afresh instead of refusing to overwrite them."""
    folder.config.unlink(missing_ok=True)
    folder.log.unlink(missing_ok=True)


def _save_failed(e: OSError, evo: Evolution, folder: RunFolder, resume_cmd: str) -> str:
    """One line for a generation that could not be saved: what failed and what is intact."""
    where = f"{e.filename}: " if e.filename else f"{folder.root}: "
    what = f"{where}cannot save generation {evo.generation} ({e.strerror or e})"
    if evo.saved_generation < 0:
        return f"error: {what}; nothing was saved yet; free space and start again with: " \
               f"{resume_cmd}"
    return (f"error: {what}; the checkpoints up to generation {evo.saved_generation} are "
            f"intact; free space and resume with: {resume_cmd}")


def main(argv: list[str]) -> int:
    """Run or resume; exit 0 when done, 2 on bad input, 1 when the folder cannot be written,
    130 when stopped by a signal."""
    args = build_parser().parse_args(argv)
    # Signals are ours from here: a first Ctrl-C while the plug-in, the checkpoint or the
    # workers load is noted and honoured before generation 0, rather than raised inside
    # whatever import or start-up it lands in.
    stop = StopFlag()
    stop.install()
    try:
        return _start(args, stop)
    finally:
        stop.restore()


def _start(args: argparse.Namespace, stop: StopFlag) -> int:
    """Prepare the run, then hand it to `_loop`; the exit code."""
    stack = ExitStack()  # holds the Runner; _loop closes it
    try:
        cfg, folder, name, evo, runner, resumed = _prepare(args, stack)
    except (ConfigError, CheckpointError, ValueError) as e:
        stack.close()
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OSError as e:  # the folder cannot be written (full disk, permissions)
        stack.close()
        where = f"{e.filename}: " if e.filename else ""
        print(f"error: {where}cannot write the run folder ({e.strerror or e})", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # a second Ctrl-C while loading: no generation yet
        stack.close()
        print("stopped before the run started; start again with the same command", file=sys.stderr)
        return 130
    except BaseException:
        stack.close()
        raise
    return _loop(cfg, folder, name, evo, runner, resumed, stack, stop)


def _loop(cfg: Config, folder: RunFolder, name: str, evo: Evolution, runner: Runner,
          resumed: bool, stack: ExitStack, stop: StopFlag) -> int:
    """Generations until done or stopped, then close `stack` (the workers); the exit code."""
    total = cfg.run.generations
    resume_cmd = evolve_command(f"run --name {name}")
    plan_cmd = evolve_command(f"plan {folder.root}")  # makes the planning champion later
    if cfg.output.runs_dir != "runs":
        resume_cmd += f" --runs-dir {cfg.output.runs_dir}"
    if resumed:
        print(f"resuming {folder.root} after generation {evo.generation}, saved by "
              f"{describe(evo.resumed_version)} (this is riskevo {riskevo_version()})", flush=True)
        if evo.log_missing:
            print(f"warning: {folder.log} lacks {evo.log_missing} of the generations before "
                  "the checkpoint; the run goes on without them", file=sys.stderr, flush=True)
    else:
        print(f"new run {folder.root}{_near_names(folder.root)}", flush=True)
    if evo.generation + 1 >= total:
        stack.close()
        print(f"run already has {evo.generation + 1} generations (--generations to extend)")
        if cfg.output.plot_every and folder.drawn_generation() < evo.generation:
            print("drawing the final plots (the last drawing was cut short)", flush=True)
            PlotRefresher(folder.root, cfg.output.plot_every).finish(True, evo.generation)
        if unfinished(folder) is not None:
            print("the planning champion was not finished (the run was stopped during it): "
                  "making it now", flush=True)
            _plan_champion(cfg, folder, evo, plan_cmd)
        return 0
    if unfinished(folder) is not None:
        print("the planning champion was not finished (the run was stopped during it): this "
              f"run makes it when it ends, or: {plan_cmd}", flush=True)
    save_error: OSError | None = None
    lost: WorkersLostError | None = None
    plots = PlotRefresher(folder.root, cfg.output.plot_every)
    last: Generation | None = None  # the last generation `evo.save` wrote
    clock = RunClock()
    try:
        with stack:  # closed in here: workers killed by the signal may fail to shut down
            if not stop.signum:
                # A wait past loading the cache is numba compiling (make venv does it ahead).
                with Ticker("compiling the game loop and the rating for this machine (after "
                            "an install or an edit; about 2 minutes of one core)") as tick:
                    warm_up(evo.plugin, cfg.run.group_size, evo.opponents)
                    evo.rater.warm_up()
                if tick.seconds > 5:
                    print(f"compiled in {tick.seconds:.0f} s; cached for later runs", flush=True)
            stop.notice = "stopping after this generation (signal again to abort it)"
            while evo.generation + 1 < total and not stop.signum:
                bar = ProgressBar(f"gen {evo.generation + 1}")
                try:
                    gen = evo.step(runner, bar.update)
                except WorkersLostError as e:  # the generation is dropped, the last is saved
                    lost = e
                    break
                finally:
                    bar.close()
                try:
                    evo.save(gen)
                except OSError as e:  # disk full, quota, read-only: earlier files are intact
                    save_error = e
                    break
                last = gen
                print(summary(gen.record, total, clock.left(gen.record, total)), flush=True)
                plots.maybe_start(evo.generation)
    except Exception:
        if not stop.signum:
            raise
        # Workers died from the same signal: the generation is dropped, the last is saved.
    except KeyboardInterrupt:
        stop.signum = stop.signum or signal.SIGINT
    finally:
        try:  # the last generation saved, whatever ended the loop (its state is a copy)
            evo.flush()
            if stop.signum and last is not None:  # the plots and `export --gen` reach it
                evo.keep_genes(last)
        except OSError as e:
            save_error = save_error or e
        stop.restore()
        plots.finish(not stop.signum and save_error is None and lost is None, evo.generation)
    if lost is not None:
        saved = ("nothing was saved yet; start again with" if evo.saved_generation < 0 else
                 f"generation {evo.saved_generation} is saved; resume with")
        print(f"error: {lost}; {saved}: {resume_cmd}", file=sys.stderr, flush=True)
        return 1
    if save_error is not None:
        print(_save_failed(save_error, evo, folder, resume_cmd), file=sys.stderr, flush=True)
        return 1
    if stop.signum:
        if evo.saved_generation < 0:
            _forget_empty_run(folder)
            print(f"stopped before generation 0 was saved; nothing to resume (start again "
                  f"with: {resume_cmd})", file=sys.stderr, flush=True)
        else:
            _print_closing_words(folder)
            if stop.signum == signal.SIGTERM:  # asked to end soon (a service, `timeout`)
                print(f"planning champion not made (stopped by SIGTERM); make it later with: "
                      f"{plan_cmd}", file=sys.stderr, flush=True)
            else:  # Ctrl-C: the plan follows, and a second Ctrl-C skips it
                _plan_champion(cfg, folder, evo, plan_cmd)
            print(f"stopped after generation {evo.saved_generation}; resume with: {resume_cmd}",
                  file=sys.stderr, flush=True)
        return 130
    _print_closing_words(folder)
    _plan_champion(cfg, folder, evo, plan_cmd)
    print(f"done: {total} generations in {folder.root}", flush=True)
    return 0


def _near_names(root: Path) -> str:
    """For a new run: the existing runs whose names are close to its own (a typo in RUN= would
    start a night instead of resuming one), as a note to print after its name."""
    import difflib

    try:
        names = [d.name for d in root.parent.iterdir()
                 if d != root and (d / "config.toml").is_file()]
    except OSError:
        return ""
    near = difflib.get_close_matches(root.name, names, n=3, cutoff=0.8)
    return (f" (no run of that name; to resume one of {', '.join(near)}, stop this one with "
            "Ctrl-C and give its name)" if near else "")


def _plan_champion(cfg: Config, folder: RunFolder, evo: Evolution, later: str) -> None:
    """Make the planning champion (`evolve.plan.lines.plan_lines`: the best line's) unless
    plan.games is 0 or the games are not the planning player's (four seats, the game's own plug-in);
    Ctrl-C skips it and says how to make it later."""
    plugin = evo.plugin
    if (not cfg.plan.games or not folder.champion.is_file() or cfg.run.group_size != 4
            or cfg.game.plugin != DEFAULT_PLUGIN):
        return
    fit = f"a value fitted on {cfg.plan.games} games"
    values = {"run": f"the run's learned value (or, without one, {fit})", "fits": fit,
              "both": f"the run's learned value and {fit}"}[cfg.plan.value_from]
    lines = (", for the best player of each line when the run restarted"
             if cfg.run.restart_after else "")
    print(f"planning the champion: checking {values} in {cfg.plan.check_games} games per "
          f"gauntlet bot{lines} (Ctrl-C skips it)", flush=True)
    asked: list[int] = []

    def skip(signum: int, frame: object) -> None:
        asked.append(signum)
        raise KeyboardInterrupt

    # The flag, not the exception, says Ctrl-C was pressed: raised inside the compiled games,
    # the KeyboardInterrupt comes out as numba's SystemError.
    previous = signal.signal(signal.SIGINT, skip)
    try:
        print(plan_lines(folder, cfg, evo.saved_generation, plugin.rules, plugin.map),
              flush=True)
    except (KeyboardInterrupt, Exception) as e:
        if not asked and not isinstance(e, (OSError, ValueError, KeyboardInterrupt)):
            raise
        # OSError, ValueError: the champion's file unreadable, a full disk
        why = "skipped" if asked or isinstance(e, KeyboardInterrupt) else f"not made ({e})"
        print(f"planning champion {why}; make it later with: {later}", file=sys.stderr,
              flush=True)
    finally:
        signal.signal(signal.SIGINT, previous)


def _print_closing_words(folder: RunFolder) -> None:
    """The crowning verdict and the candidates' trend, when the run played playoffs (the
    run's files are saved by now: a log that cannot be read, or a second Ctrl-C while a long
    one is read, only loses these words)."""
    try:
        log = folder.read_log(warn=None)
    except (RunFolderError, OSError, KeyboardInterrupt):
        return
    if any(r.get("playoff") for r in log):
        print(closing_words(log), flush=True)
