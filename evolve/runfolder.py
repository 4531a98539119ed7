"""The run folder `runs/<name>/`: its file names, writers and the one reader of each file.

Everything that reads a run folder (resume, plots, report, export) goes through here, so a
damaged file is treated the same way everywhere.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from evolve.checkpoint import MAX_NPZ_BYTES, NpzError, load_npz, npz_bytes
from evolve.sections import ISLAND_LISTS, ISLAND_SPREAD, MAX_ISLANDS
from game.atomic import MiB, atomic_write_bytes, check_replaceable, read_limited
from game.folderlock import FolderLockedError, lock_folder
from game.untrusted import UntrustedJSONError, parse_json

__all__ = [
    "BadLine", "Population", "RunFolder", "RunFolderError", "RunLockedError", "check_name",
    "genes_file_name", "output_problem", "parse_log", "run_holding",
]

_NAME_OK = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
_GENES_NAME = re.compile(r"^gen_(\d{5,})\.npz$")
MAX_LOG_BYTES = 1024 * MiB  # log.jsonl (a generation's line is a few KB)
MAX_LOG_LINE = 1 * MiB  # one line of it; a longer line is a bad line
_SHOWN_BAD = 5  # bad lines listed by name in a warning; the rest are counted


class RunFolderError(ValueError):
    """A run folder that is missing files or holds unreadable ones."""


class RunLockedError(RunFolderError):
    """Another live process holds the run folder's lock."""


def check_name(name: str) -> str:
    """A run name usable as a folder name (ValueError otherwise)."""
    if not _NAME_OK.match(name):
        raise ValueError(f"run name {name!r}: use letters, digits, '.', '_' or '-' "
                         "(not starting with '.' or '-')")
    return name


def genes_file_name(generation: int) -> str:
    """gen_NNNNN.npz: the population of one generation, in genes/."""
    return f"gen_{generation:05d}.npz"


@dataclass(frozen=True)
class BadLine:
    """A log.jsonl line that was skipped: its 1-based number and why."""

    number: int
    reason: str


def parse_log(data: bytes) -> tuple[list[dict[str, Any]], list[BadLine]]:
    """Generation records of log.jsonl bytes, and the lines skipped (blank lines are neither).

    A bad line (torn by a kill, stray bytes, not UTF-8, not a record) costs only itself: the
    lines after it are read as usual.
    """
    records: list[dict[str, Any]] = []
    bad: list[BadLine] = []
    lines = data.split(b"\n")
    for i, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            rec = parse_json(raw, limit=MAX_LOG_LINE)
        except UntrustedJSONError as e:
            last = i == len(lines)  # no newline after it: a write cut short
            bad.append(BadLine(i, _line_fault(e, last)))
            continue
        gen = rec.get("generation") if isinstance(rec, dict) else None
        if not isinstance(gen, int) or isinstance(gen, bool) or not 0 <= gen < 10**9:
            bad.append(BadLine(i, "not a generation record"))
            continue
        wrong = _wrong_field(rec)
        if wrong:
            bad.append(BadLine(i, f"{wrong} has the wrong type"))
            continue
        records.append(rec)
    return records, bad


def _line_fault(e: UntrustedJSONError, last: bool) -> str:
    """A skipped log line's reason, in the few words the run's report lists."""
    if e.kind == "size":
        return f"longer than {MAX_LOG_LINE} bytes"
    if e.kind == "utf8":
        return "not UTF-8"
    if e.kind == "depth":
        return "nested too deep"
    return "incomplete last line" if last else "not JSON"


_NUMBER_KEYS = ("wall_s", "games", "games_per_s", "capped_fraction", "mean_rounds", "mu_mean",
                "mu_std", "mu_min", "mu_max", "champion_index", "champion_mu", "champion_sigma",
                "time_games_s", "time_rating_s", "time_overhead_s")
_EVAL_NUMBERS = ("games", "wins", "win_rate", "lo", "hi", "players")


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and abs(v) < 1e300


def _wrong_field(rec: dict[str, Any]) -> str | None:
    """The first known field whose value has a type the readers cannot use, else None."""
    for k in _NUMBER_KEYS:
        if k in rec and not _number(rec[k]):
            return k
    for k in ("gene_mean", "gene_std"):  # gene name -> number
        v = rec.get(k, {})
        if not (isinstance(v, dict) and all(_number(x) for x in v.values())):
            return k
    for k in ISLAND_LISTS:
        v = rec.get(k, [])
        if not (isinstance(v, list) and len(v) <= MAX_ISLANDS and all(_number(x) for x in v)):
            return k
    if ISLAND_SPREAD in rec and not _number(rec[ISLAND_SPREAD]):
        return ISLAND_SPREAD
    ev = rec.get("eval")
    if ev is not None:
        if not isinstance(ev, dict):
            return "eval"
        for k in _EVAL_NUMBERS:
            if (k in ev or k != "players") and not _number(ev.get(k)):
                return f"eval.{k}"
        if not isinstance(ev.get("opponents", []), list):
            return "eval.opponents"
    po = rec.get("playoff")
    if po is not None and not (isinstance(po, dict) and isinstance(po.get("crowned", False), bool)):
        return "playoff" if not isinstance(po, dict) else "playoff.crowned"
    return None


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def bad_lines_warning(path: Path, bad: list[BadLine]) -> str:
    """One line naming the file and the skipped lines (the first few by number)."""
    shown = ", ".join(f"line {b.number} ({b.reason})" for b in bad[:_SHOWN_BAD])
    more = f" and {len(bad) - _SHOWN_BAD} more" if len(bad) > _SHOWN_BAD else ""
    return f"warning: {path}: skipped {len(bad)} unreadable line(s): {shown}{more}"


@dataclass(frozen=True)
class Population:
    """One genes/gen_NNNNN.npz file: every individual's genes, mu and sigma."""

    generation: int
    genes: np.ndarray  # f64[n, G]
    mu: np.ndarray  # f64[n]
    sigma: np.ndarray  # f64[n]
    names: tuple[str, ...]


class RunFolder:
    """Paths, writers and readers of one run folder (every write atomic; the log append-only)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.config = self.root / "config.toml"
        self.log = self.root / "log.jsonl"
        self.genes = self.root / "genes"
        self.champion = self.root / "champion.json"
        self.champion_plan = self.root / "champion-plan.json"  # evolve.plan.planfit.plan_run
        self.checkpoints = self.root / "checkpoints"
        self.plots = self.root / "plots"
        self.report = self.root / "report.html"
        self.lock_file = self.root / ".lock"
        self._lock_fd: int | None = None

    def holds(self, path: Path) -> bool:
        """Whether `path` is one of the files the run writes itself (its config, log, champions,
        report, lock, or anything in genes/, checkpoints/ or plots/), not a file a user put
        there (an exported bot)."""
        p, root = path.resolve(), self.root.resolve()
        if p.parent == root:
            own = {self.config, self.log, self.champion, self.report, self.lock_file}
            return p.name in {f.name for f in own} or p.name.startswith("champion-plan")
        return any(d.resolve() in p.parents for d in (self.genes, self.checkpoints, self.plots))

    def lock(self) -> bool:
        """Take the folder's lock (RunLockedError naming the holder if another process has it).

        The root is created if missing; True if this call created it. The lock is
        `game.folderlock`'s: the kernel drops it when its process dies, so a killed run never
        blocks its resume.
        """
        created = not self.root.is_dir()
        self.root.mkdir(parents=True, exist_ok=True)
        try:
            fd = lock_folder(self.root, self.lock_file)
        except FolderLockedError as e:
            raise RunLockedError(f"{self.root}: run folder is in use by process {e.holder} "
                                 "(another evolve run); wait for it to finish or stop it "
                                 "first") from None
        except OSError as e:
            raise RunFolderError(f"{self.root}: cannot lock ({e.strerror or e})") from None
        self._lock_fd = fd
        return created

    def unlock(self, remove_root: bool = False) -> None:
        """Release the lock; with `remove_root`, also remove the folder if nothing else is in it."""
        if self._lock_fd is None:
            return
        if remove_root:
            self.lock_file.unlink(missing_ok=True)
        os.close(self._lock_fd)  # closing the last descriptor releases the flock
        self._lock_fd = None
        if remove_root:
            with contextlib.suppress(OSError):  # not empty: somebody put something there
                self.root.rmdir()

    def remove_temp_files(self) -> list[Path]:
        """Delete the `.NAME.*.tmp` files left by writes a kill or a full disk cut short.

        Only call with the lock held: a live run's temp files are its writes in progress.
        """
        removed = []
        for d in (self.root, self.genes, self.checkpoints, self.root / "plots"):
            if d.is_dir():
                for p in d.iterdir():
                    if p.name.startswith(".") and p.name.endswith(".tmp") and p.is_file():
                        p.unlink(missing_ok=True)
                        removed.append(p)
        return removed

    def create(self) -> None:
        """Make the folder tree."""
        for d in (self.root, self.genes, self.checkpoints):
            d.mkdir(parents=True, exist_ok=True)

    def write_config(self, text: str) -> None:
        """The effective config.toml."""
        atomic_write_bytes(self.config, text.encode())

    # ----- plots/drawn.txt -----
    def mark_drawn(self, generation: int) -> None:
        """Every plot is drawn up to `generation` (written last by `evolve plot`)."""
        atomic_write_bytes(self.plots / "drawn.txt", f"{generation}\n".encode())

    def drawn_generation(self) -> int:
        """The generation the plots were last all drawn for (-1: never, or a drawing cut
        short by a kill)."""
        try:
            return int(read_limited(self.plots / "drawn.txt", 20, "plots/drawn.txt").strip())
        except (OSError, ValueError):
            return -1

    # ----- log.jsonl -----
    def append_log(self, record: dict[str, Any]) -> None:
        """One JSON line per generation (flushed and fsynced: the log survives a kill)."""
        line = json.dumps(record, sort_keys=False, allow_nan=False) + "\n"
        # Opened without waiting (a FIFO without a reader is ENXIO) and only if regular.
        fd = os.open(self.log, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK
                     | os.O_CLOEXEC, 0o644)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(errno.EINVAL, "not a regular file (log.jsonl must be one)",
                              str(self.log))
            os.set_blocking(fd, True)
            os.write(fd, line.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)

    def read_log(self, warn: Callable[[str], None] | None = _stderr) -> list[dict[str, Any]]:
        """Records of log.jsonl; bad lines are skipped and named in one warning line."""
        try:
            data = read_limited(self.log, MAX_LOG_BYTES, "log.jsonl")
        except FileNotFoundError:
            return []
        except OSError as e:
            raise RunFolderError(f"{self.log}: cannot read ({e.strerror or e})") from None
        records, bad = parse_log(data)
        if bad and warn is not None:
            warn(bad_lines_warning(self.log, bad))
        return records

    def reset_log(self, keep: list[dict[str, Any]]) -> None:
        """Rewrite the log with only `keep` (used when resuming from a checkpoint)."""
        text = "".join(json.dumps(r, allow_nan=False) + "\n" for r in keep)
        atomic_write_bytes(self.log, text.encode())

    # ----- genes/gen_NNNNN.npz -----
    def genes_path(self, generation: int) -> Path:
        """genes/gen_NNNNN.npz."""
        return self.genes / genes_file_name(generation)

    def genes_files(self, required: bool = False) -> list[tuple[int, Path]]:
        """(generation, path) of every stored population, oldest first (if `required`, none is
        a RunFolderError)."""
        found = sorted((int(m.group(1)), p) for p in self.genes.iterdir()
                       if (m := _GENES_NAME.match(p.name))) if self.genes.is_dir() else []
        if required and not found:
            raise RunFolderError(f"{self.root}: no genes/gen_NNNNN.npz files")
        return found

    def write_genes(self, generation: int, genes: np.ndarray, mu: np.ndarray,
                    sigma: np.ndarray, names: tuple[str, ...]) -> None:
        """The population of a generation, for the plots."""
        atomic_write_bytes(self.genes_path(generation), npz_bytes({
            "genes": genes, "mu": mu, "sigma": sigma, "names": np.array(names, dtype=np.str_)}))

    def read_genes(self, generation: int) -> Population:
        """The stored population of a generation (RunFolderError naming the file if unusable)."""
        path = self.genes_path(generation)
        try:
            z = load_npz(path, MAX_NPZ_BYTES, "a genes file")
            genes = np.asarray(z["genes"], dtype=np.float64)
            mu = np.asarray(z["mu"], dtype=np.float64)
            sigma = np.asarray(z["sigma"], dtype=np.float64)
            names = tuple(str(n) for n in np.atleast_1d(z["names"]))
        except FileNotFoundError:
            raise RunFolderError(f"{path}: no such genes file") from None
        except (OSError, KeyError, ValueError, TypeError, NpzError) as e:
            raise RunFolderError(f"{path}: unreadable genes file ({e})") from None
        if genes.ndim != 2 or genes.shape[1] != len(names):
            raise RunFolderError(f"{path}: 'genes' must be [n, {len(names)}], got {genes.shape}")
        if mu.shape != (len(genes),) or sigma.shape != (len(genes),):
            raise RunFolderError(f"{path}: 'mu' and 'sigma' must hold {len(genes)} values, got "
                                 f"{mu.shape} and {sigma.shape}")
        return Population(generation, genes, mu, sigma, names)


def run_holding(path: Path) -> Path | None:
    """The run folder of which `path` is one of its own files (`RunFolder.holds`), or None. A
    run folder is one that holds a config.toml: `path`'s folder or the one above it (genes/,
    checkpoints/, plots/)."""
    parent = path.parent
    for root in (parent, parent.parent):  # as the user named them, for the message
        if (root / "config.toml").is_file() and RunFolder(root).holds(path):
            return root
    return None


def output_problem(named: str | Path, plan_ok: bool = False) -> str | None:
    """Why a command may not write the file `named` (None if it may), said before any work: a
    folder (a name ending in / too: give it as typed), something that is not a regular file, or
    a file a run writes itself (a run's champion-plan*.json is allowed with `plan_ok`: `evolve
    plan` writes those)."""
    path = Path(named)
    if str(named).endswith(("/", os.sep)) or path.is_dir():
        return "is a folder; give the file to write"
    try:
        check_replaceable(path)
    except OSError as e:
        return str(e.strerror)
    root = run_holding(path)
    if root is not None and not (plan_ok and path.name.startswith("champion-plan")):
        return f"is a file the run {root} writes itself; give another name"
    return None
