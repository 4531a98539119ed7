"""The run folder `runs/<name>/`: config, log, genes per generation, champion, checkpoints."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import numpy as np

from evolve.checkpoint import npz_bytes
from game.atomic import atomic_write_bytes

_NAME_OK = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def check_name(name: str) -> str:
    """A run name usable as a folder name (ValueError otherwise)."""
    if not _NAME_OK.match(name):
        raise ValueError(f"run name {name!r}: use letters, digits, '.', '_' or '-' "
                         "(not starting with '.' or '-')")
    return name


class RunFolder:
    """Paths and writers of one run folder (every write atomic; the log append-only)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.config = self.root / "config.toml"
        self.log = self.root / "log.jsonl"
        self.genes = self.root / "genes"
        self.champion = self.root / "champion.json"
        self.checkpoints = self.root / "checkpoints"

    def create(self) -> None:
        """Make the folder tree."""
        for d in (self.root, self.genes, self.checkpoints):
            d.mkdir(parents=True, exist_ok=True)

    def write_config(self, text: str) -> None:
        """The effective config.toml."""
        atomic_write_bytes(self.config, text.encode())

    def append_log(self, record: dict[str, Any]) -> None:
        """One JSON line per generation (flushed and fsynced: the log survives a kill)."""
        line = json.dumps(record, sort_keys=False, allow_nan=False) + "\n"
        with open(self.log, "a", encoding="utf-8") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())

    def read_log(self) -> list[dict[str, Any]]:
        """Records of log.jsonl (a torn last line from a kill is dropped)."""
        if not self.log.exists():
            return []
        out = []
        for line in self.log.read_text(encoding="utf-8").splitlines():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                break
        return out

    def reset_log(self, keep: list[dict[str, Any]]) -> None:
        """Rewrite the log with only `keep` (used when resuming from a checkpoint)."""
        text = "".join(json.dumps(r, allow_nan=False) + "\n" for r in keep)
        atomic_write_bytes(self.log, text.encode())

    def genes_path(self, generation: int) -> Path:
        """genes/gen_NNNNN.npz."""
        return self.genes / f"gen_{generation:05d}.npz"

    def write_genes(self, generation: int, genes: np.ndarray, mu: np.ndarray,
                    sigma: np.ndarray, names: tuple[str, ...]) -> None:
        """The population of a generation, for the plots."""
        atomic_write_bytes(self.genes_path(generation), npz_bytes({
            "genes": genes, "mu": mu, "sigma": sigma, "names": np.array(names, dtype=np.str_)}))
