"""Export the champion (or any individual) of a run as a bot file (a features.genome file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from evolve.cli import ArgumentParser, error
from evolve.runfolder import RunFolder, RunFolderError, output_problem
from features.botfile import BotFile
from features.genome import LAYOUT, GenomeError

__all__ = ["ExportError", "export_bot", "main"]


class ExportError(ValueError):
    """The run folder cannot provide the requested individual, or --out cannot take the file."""


def _log_row(folder: RunFolder, gen: int) -> dict[str, Any]:
    """The log record of a generation ({} if the log does not hold it)."""
    return next((dict(r) for r in folder.read_log() if r["generation"] == gen), {})


def _from_generation(folder: RunFolder, gen: int | None, index: int | None
                     ) -> tuple[np.ndarray, dict[str, Any]]:
    files = folder.genes_files(required=True)
    if gen is None:
        gen = files[-1][0]
    elif gen not in dict(files):
        have = ", ".join(str(g) for g, _ in files[-5:])
        raise ExportError(f"{folder.root}: no generation {gen} (last ones stored: {have})")
    pop = folder.read_genes(gen)
    if pop.names != LAYOUT.names:
        extra = sorted(set(pop.names) - set(LAYOUT.names))
        missing = sorted(set(LAYOUT.names) - set(pop.names))
        raise ExportError(f"{folder.genes_path(gen)}: gene names differ from feature set version "
                          f"{LAYOUT.version} (run only: {extra[:3]}, build only: {missing[:3]})")
    row = _log_row(folder, gen)
    if index is None:
        # The logged champion of that generation, else the highest rating.
        index = int(row.get("champion_index", int(np.argmax(pop.mu))))
    if not 0 <= index < len(pop.genes):
        raise ExportError(f"index must be 0..{len(pop.genes) - 1} in generation {gen}, "
                          f"got {index}")
    meta = {"run": folder.root.name, "generation": gen, "index": index,
            "mu": float(pop.mu[index]), "sigma": float(pop.sigma[index]),
            "eval": row.get("eval") if index == row.get("champion_index") else None,
            "source": str(folder.genes_path(gen).relative_to(folder.root))}
    return np.asarray(pop.genes[index], dtype=np.float64), meta


def _check_out(out: str | Path, folder: RunFolder) -> Path:
    """The bot file to write: never a folder, a FIFO or link, nor a file a run writes itself
    (`output_problem`; ExportError naming a file to give instead)."""
    if problem := output_problem(out):
        raise ExportError(f"--out {out}: {problem} (a name such as "
                          f"{folder.root / 'champion-bot.json'})")
    return Path(out)


def _reign_eval(folder: RunFolder, meta: dict[str, Any]) -> dict[str, Any] | None:
    """The champion's evaluations against the bots pooled over its reign, as the report's
    crowning table gives them (None without any, or without a readable log)."""
    from evolve.rating.crownings import reigns

    try:
        log = folder.read_log(warn=None)
    except (RunFolderError, OSError):
        return None
    born = meta.get("crowned_generation")
    r = next((r for r in reigns(log) if r.born == born), None)
    if r is None or not r.eval_games:
        return None
    lo, hi = r.interval()
    return {"games": r.eval_games, "wins": r.eval_wins, "win_rate": r.eval_wins / r.eval_games,
            "lo": lo, "hi": hi, "over": "its reign"}


def export_bot(run_path: str | Path, out: str | Path, gen: int | None = None,
               index: int | None = None) -> Path:
    """Write a bot file for the run's champion (no gen/index) or the chosen individual."""
    folder = RunFolder(Path(run_path))
    if not folder.root.is_dir():
        raise ExportError(f"{folder.root}: not a run folder")
    out_p = _check_out(out, folder)
    if gen is None and index is None and folder.champion.exists():
        bot = BotFile.read(folder.champion)
        bot = BotFile(bot.weights, {**bot.meta, "run": bot.meta.get("run", folder.root.name),
                                    "source": folder.champion.name,
                                    "eval": _reign_eval(folder, bot.meta)
                                    or bot.meta.get("eval")}, bot.plan)
    else:
        bot = BotFile(*_from_generation(folder, gen, index))
    out_p.parent.mkdir(parents=True, exist_ok=True)
    bot.write(out_p)
    return out_p


def main(argv: list[str]) -> int:
    """`python -m evolve export RUN [--gen N] [--index I] --out FILE`: write a bot file."""
    ap = ArgumentParser(prog="python -m evolve export", description=main.__doc__)
    ap.add_argument("run", help="run folder (runs/<name>)")
    ap.add_argument("--gen", type=int, default=None, help="generation (default: the champion)")
    ap.add_argument("--index", type=int, default=None,
                    help="individual in that generation (default: its champion)")
    ap.add_argument("--out", required=True, help="bot file to write (.json)")
    args = ap.parse_args(argv)
    try:
        out = export_bot(args.run, args.out, args.gen, args.index)
        meta = BotFile.read(out).meta
    except (ExportError, RunFolderError, GenomeError) as e:
        return error(e)
    except OSError as e:
        return error(f"--out {args.out}: cannot write the bot file ({e.strerror or e})")
    print(f"{out}: {_described(meta)}")
    return 0



def _described(meta: dict[str, Any]) -> str:
    """The exported player in one line: run, generation (crowned in), rating, evaluation."""
    said = [f"run {meta.get('run')}", f"generation {meta.get('generation')}"]
    if meta.get("crowned_generation") is not None:
        said[-1] += f" (champion since generation {meta['crowned_generation']})"
    if isinstance(meta.get("mu"), (int, float)):
        said.append(f"mu {meta['mu']:.2f}" + (f"±{meta['sigma']:.2f}"
                                              if isinstance(meta.get("sigma"), (int, float))
                                              else ""))
    ev = meta.get("eval")
    if isinstance(ev, dict) and ev.get("games"):
        said.append(f"vs bots {ev['wins'] / ev['games']:.3f} [{ev.get('lo', 0):.3f}, "
                    f"{ev.get('hi', 0):.3f}] of {ev['games']}")
    else:
        said.append("not evaluated against the bots")
    return ", ".join(said)
