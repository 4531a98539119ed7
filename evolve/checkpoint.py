"""Checkpoints: plain arrays and JSON, byte-identical for identical runs (written atomically
through game.atomic)."""

from __future__ import annotations

import errno
import io
import json
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from game.atomic import MiB, atomic_write_bytes, check_size
from game.version import FIELD, MAX_LEN, riskevo_version

MAX_NPZ_BYTES = 4096 * MiB  # a run's .npz archive, unpacked (10^5 x 60 genes: 50 MB)

# Format 2 added `arrays` (strategy state, hall of fame); format 1 files still load. Both keep
# the deterministic part of the log (no timings, no gene statistics: ~0.3 kB a generation), so a
# resume can restore a log.jsonl line lost to a kill or a bad disk. The riskevo version that
# wrote a file (`riskevo_version`) is optional: files from before it load with None.
FORMAT = 2
_NAME = re.compile(r"^ckpt_(\d{5,})\.npz$")


class CheckpointError(ValueError):
    """A corrupt, unreadable or mismatched checkpoint."""


def npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    """An .npz archive with fixed timestamps (np.savez stamps the clock, we want equal bytes)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, arr in arrays.items():
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            a = io.BytesIO()
            np.lib.format.write_array(a, np.asarray(arr), allow_pickle=False)
            z.writestr(info, a.getvalue())
    return buf.getvalue()


class NpzError(ValueError):
    """An .npz file that is not a readable archive of plain arrays (one line: what is wrong)."""


def load_npz(path: Path, limit: int, what: str) -> dict[str, np.ndarray]:
    """Every array of the .npz archive at `path` (pickles refused), read whole. OSError if it
    cannot be read or holds more than `limit` bytes, packed or unpacked (a small archive can
    unpack to gigabytes); NpzError for anything that is not such an archive. A FIFO is refused,
    not waited on."""
    check_size(path, limit, what)
    try:
        with zipfile.ZipFile(path) as zf:
            unpacked = sum(i.file_size for i in zf.infolist())
        if unpacked > limit:
            raise OSError(errno.EFBIG, f"unpacks to {unpacked:,} bytes, more than {limit:,}, "
                          f"the limit for {what}", str(path))
        with np.load(path, allow_pickle=False) as z:
            return {k: z[k] for k in z.files}
    except OSError:
        raise
    except (ValueError, TypeError, KeyError, EOFError, zipfile.BadZipFile, MemoryError,
            RecursionError) as e:
        reason = " ".join(str(e).split()) or type(e).__name__  # one line whatever numpy says
        raise NpzError(f"{type(e).__name__}: {reason}") from None


def _json_array(obj: Any) -> np.ndarray:
    return np.frombuffer(json.dumps(obj, sort_keys=True).encode(), dtype=np.uint8)


@dataclass
class Checkpoint:
    """State after a completed generation."""

    generation: int
    genes: np.ndarray  # f64[n, G]
    mu: np.ndarray  # f64[n]
    sigma: np.ndarray  # f64[n]
    names: tuple[str, ...]
    rng_state: dict[str, Any]  # numpy bit generator state
    config: dict[str, Any]  # config fingerprint (fields a resume must keep)
    # Named numeric arrays of the search strategy ("cma.*") and hall of fame ("hof.*").
    arrays: dict[str, np.ndarray] = field(default_factory=dict)
    format: int = FORMAT
    # The deterministic part of the per-generation log (the Logbook's records).
    log: list[dict[str, Any]] = field(default_factory=list)
    version: str | None = field(default_factory=riskevo_version)  # None: predates recording

    def to_bytes(self) -> bytes:
        """The .npz file content."""
        made_by = {} if self.version is None else {FIELD: np.array(self.version, dtype=np.str_)}
        return npz_bytes({
            "format": np.array(self.format), "generation": np.array(self.generation),
            "genes": self.genes, "mu": self.mu, "sigma": self.sigma,
            "names": np.array(self.names, dtype=np.str_),
            "rng_state": _json_array(self.rng_state), "config": _json_array(self.config),
            "log": _json_array(self.log), **{k: self.arrays[k] for k in sorted(self.arrays)},
            **made_by,
        })


def checkpoint_path(folder: Path, generation: int) -> Path:
    """checkpoints/ckpt_NNNNN.npz."""
    return Path(folder) / f"ckpt_{generation:05d}.npz"


def list_checkpoints(folder: Path) -> list[tuple[int, Path]]:
    """(generation, path) of complete checkpoint files, oldest first (temp files ignored)."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    found = [(int(m.group(1)), p) for p in folder.iterdir() if (m := _NAME.match(p.name))]
    return sorted(found)


def save_checkpoint(folder: Path, ck: Checkpoint, keep: int) -> Path:
    """Write atomically, then delete all but the newest `keep` checkpoints."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = checkpoint_path(folder, ck.generation)
    atomic_write_bytes(path, ck.to_bytes())
    for _, old in list_checkpoints(folder)[:-keep]:
        old.unlink(missing_ok=True)
    return path


def _fallback_hint(path: Path) -> str:
    """Advice for a bad checkpoint: delete it only if an older one can take its place."""
    m = _NAME.match(Path(path).name)
    older = [g for g, _ in list_checkpoints(Path(path).parent) if m and g < int(m.group(1))]
    if older:
        return f"; delete it to resume from the previous one (generation {older[-1]})"
    return "; no older checkpoint to fall back on"


def _read(path: Path) -> Checkpoint:
    """The raw fields of an .npz checkpoint (numpy and JSON errors propagate)."""
    z = load_npz(path, MAX_NPZ_BYTES, "a checkpoint")
    fmt = int(z["format"])
    if fmt not in (1, FORMAT):
        raise CheckpointError(f"{path}: checkpoint format {fmt}, this version reads 1 and "
                              f"{FORMAT}")
    return Checkpoint(
        generation=int(z["generation"]), genes=np.array(z["genes"], dtype=np.float64),
        mu=np.array(z["mu"], dtype=np.float64),
        sigma=np.array(z["sigma"], dtype=np.float64),
        names=tuple(str(s) for s in z["names"]),
        rng_state=json.loads(z["rng_state"].tobytes()),
        config=json.loads(z["config"].tobytes()),
        arrays={k: np.array(v) for k, v in z.items() if "." in k}, format=fmt,
        log=json.loads(z["log"].tobytes()) if "log" in z else [],
        version=_version(z[FIELD]) if FIELD in z else None,
    )


def _version(a: np.ndarray) -> str | None:
    """A stored version string; anything else (not one short string) reads as unrecorded."""
    return str(a) if a.dtype.kind == "U" and a.ndim == 0 and 0 < len(str(a)) <= MAX_LEN else None


def _problem(ck: Checkpoint) -> str | None:
    """What is inconsistent in a checkpoint read without error, or None."""
    n = len(ck.genes)
    if (ck.genes.ndim != 2 or ck.genes.shape[1] != len(ck.names) or ck.mu.shape != (n,)
            or ck.sigma.shape != (n,)):
        return "inconsistent array shapes"
    if not (np.isfinite(ck.genes).all() and np.isfinite(ck.mu).all()
            and np.isfinite(ck.sigma).all()):
        return "non-finite genes or ratings"
    if not all(a.dtype.kind in "biuf" and np.isfinite(a).all() for a in ck.arrays.values()):
        return "non-numeric or non-finite strategy or hall-of-fame arrays"
    if not isinstance(ck.config, dict):
        return "config is not a table of fields"
    if not isinstance(ck.rng_state, dict):
        return "rng_state is not a bit generator state"
    if not isinstance(ck.log, list) or not all(
            isinstance(r, dict) and isinstance(r.get("generation"), int) for r in ck.log):
        return "log entries without a generation"
    if ck.log and [r["generation"] for r in ck.log] != list(range(ck.generation + 1)):
        return (f"log holds {len(ck.log)} generations, the checkpoint is after generation "
                f"{ck.generation}")
    return None


def load_checkpoint(path: Path) -> Checkpoint:
    """Read and check one checkpoint; CheckpointError (one line) if it is not usable."""
    path = Path(path)
    try:
        # Opened without waiting (a FIFO is refused, not waited on); an unreadable file is an
        # OSError, not "not an archive".
        check_size(path, MAX_NPZ_BYTES, "a checkpoint")
        if not zipfile.is_zipfile(path):
            raise CheckpointError(f"{path}: corrupt checkpoint (not an .npz archive: truncated "
                                  f"or another kind of file){_fallback_hint(path)}")
        ck = _read(path)
    except CheckpointError:
        raise
    except KeyError as e:  # an array the format has is missing
        raise CheckpointError(f"{path}: corrupt checkpoint (no {e.args[0] if e.args else e!s} "
                              f"array){_fallback_hint(path)}") from None
    except OSError as e:
        raise CheckpointError(f"{path}: cannot read checkpoint ({e.strerror or e})") from None
    except NpzError as e:
        raise CheckpointError(f"{path}: corrupt checkpoint ({e}){_fallback_hint(path)}") from None
    except (ValueError, TypeError, RecursionError) as e:  # the JSON fields
        reason = " ".join(str(e).split())  # one line whatever the library says
        raise CheckpointError(f"{path}: corrupt checkpoint ({type(e).__name__}: {reason})"
                              f"{_fallback_hint(path)}") from None
    problem = _problem(ck)
    m = _NAME.match(path.name)
    if not problem and m and int(m.group(1)) != ck.generation:
        # A renamed file would resume from the wrong generation, and pruning by name would
        # then delete newer real checkpoints.
        problem = (f"its name says generation {int(m.group(1))}, its content generation "
                   f"{ck.generation}: renamed or copied over")
    if problem:
        raise CheckpointError(f"{path}: corrupt checkpoint ({problem}){_fallback_hint(path)}")
    return ck


def restore_rng(rng: np.random.Generator, ck: Checkpoint, path: Path) -> None:
    """Set the generator's state from a checkpoint; CheckpointError if it does not fit."""
    try:
        rng.bit_generator.state = ck.rng_state
    except (TypeError, ValueError, KeyError) as e:
        raise CheckpointError(f"{path}: corrupt checkpoint (rng_state does not fit "
                              f"{type(rng.bit_generator).__name__}: {e})") from None


def check_compatible(ck: Checkpoint, path: Path, config: dict[str, Any],
                     names: tuple[str, ...], defaults: dict[str, Any] | None = None) -> None:
    """CheckpointError naming the first differing field between a checkpoint and this run.

    A field the checkpoint does not know (added to the config after it was written) counts as
    its value in `defaults`, the fingerprint of the package defaults.
    """
    for k in sorted(set(ck.config) | set(config)):
        a, b = ck.config.get(k, (defaults or {}).get(k)), config.get(k)
        if a != b:
            raise CheckpointError(f"{path}: checkpoint was made with {k} = {a!r}, this run has "
                                  f"{b!r}; use the same value or a new --name")
    if ck.names != names:
        raise CheckpointError(f"{path}: checkpoint genome has genes {len(ck.names)} "
                              f"({', '.join(ck.names[:3])}, ...) but the current layout differs; "
                              "use a new --name")
