"""A bot file: the linear player's weights, how it plays them (`plan`), its meta, and the
versions that made it. `BotFile.read` is the one reader of bot files in the packages (a test
greps for others); `write` the one writer; `player` the protocol player it describes.

The file (format `riskevo-genome`, a few KB of JSON):

    {"format": "riskevo-genome", "riskevo_version": "0.13.0", "feature_set_version": 6,
     "genes": {"reinforce.army_vantage": -1.0, ...}, "meta": {...}, "plan": {...}}

`genes` holds every gene of its feature set (files of sets 1-5 load with the genes added since
at 0, `features.genome.upgrade_genes`); `meta` is free JSON (run, generation, provenance);
`plan` is optional (`features.search.player.PlanSettings`: without it the player is greedy);
`riskevo_version` is a label, absent from files written before 0.5.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from features.genome import (
    FORMAT,
    LAYOUT,
    MAX_GENOME_BYTES,
    UPGRADABLE,
    GenomeError,
    GenomeLayout,
    upgrade_genes,
)
from features.linear import LinearPlayer
from features.registry import FEATURE_SET_VERSION
from features.search.player import GREEDY, PlanSettings, PlanSettingsError, player_of
from game.atomic import atomic_write_text, read_limited
from game.untrusted import UntrustedJSONError, parse_json
from game.version import FIELD, recorded_version, riskevo_version


@dataclass(frozen=True, eq=False)
class BotFile:
    """One bot file's content. `plan` None: the file has no `plan` object (the player is
    greedy); `riskevo_version` and `feature_set_version` are what the file names (a written
    file names the writing version and the current feature set)."""

    weights: np.ndarray  # f64[G] on the current gene layout
    meta: dict[str, Any] = field(default_factory=dict)
    plan: PlanSettings | None = None
    riskevo_version: str | None = None
    feature_set_version: int = FEATURE_SET_VERSION

    @property
    def settings(self) -> PlanSettings:
        """How the player plays its weights: the file's plan, else GREEDY."""
        return GREEDY if self.plan is None else self.plan

    def player(self, name: str | None = None) -> LinearPlayer:
        """The protocol player this file describes (a `PlanPlayer` when it plans)."""
        return player_of(self.weights, self.settings, name)

    @classmethod
    def read(cls, path: str | Path, layout: GenomeLayout = LAYOUT) -> BotFile:
        """The bot file at `path`; every problem (unreadable, not JSON, a bad field, the `plan`
        object's included) is a one-line GenomeError starting with the path."""
        p = Path(path)
        doc = _read_doc(p)
        try:
            return cls.from_doc(doc, layout)
        except (GenomeError, PlanSettingsError) as e:
            raise GenomeError(f"{p}: {e}") from None

    @staticmethod
    def read_meta(path: str | Path) -> dict[str, Any]:
        """Only the `meta` of the bot file at `path`, its genes unchecked (a file of any
        plug-in's layout); a one-line GenomeError when it is no bot file."""
        p = Path(path)
        doc = _read_doc(p)
        try:
            return _meta_of(_bot_doc(doc))
        except GenomeError as e:
            raise GenomeError(f"{p}: {e}") from None

    @classmethod
    def from_doc(cls, doc: object, layout: GenomeLayout = LAYOUT) -> BotFile:
        """From a parsed bot file (GenomeError or PlanSettingsError naming the field)."""
        doc = _bot_doc(doc)
        ver = doc.get("feature_set_version")
        if isinstance(ver, bool) or ver not in (*UPGRADABLE, layout.version):
            raise GenomeError(f"feature_set_version is {ver!r}, this build reads "
                              f"{', '.join(map(str, UPGRADABLE))} (upgraded) and "
                              f"{layout.version}")
        genes = doc.get("genes")
        if not isinstance(genes, dict):
            raise GenomeError("'genes' must be an object of gene name -> number")
        if ver != layout.version:
            try:
                genes = upgrade_genes(genes, layout, ver)
            except GenomeError as e:
                raise GenomeError(f"feature set version {ver}: {e}") from None
        meta = _meta_of(doc)
        values = layout.from_dict(genes)
        plan = doc.get("plan")
        return cls(values, meta, None if plan is None else PlanSettings.from_dict(plan),
                   recorded_version(doc), int(ver))

    def doc(self, layout: GenomeLayout = LAYOUT) -> dict[str, Any]:
        """The JSON document `write` writes: stamped with this riskevo version and the
        layout's feature set, whatever the file read named."""
        out: dict[str, Any] = {"format": FORMAT, FIELD: riskevo_version(),
                               "feature_set_version": layout.version,
                               "genes": layout.as_dict(self.weights), "meta": dict(self.meta)}
        if self.plan is not None:
            out["plan"] = self.plan.as_dict()
        return out

    def write(self, path: str | Path, layout: GenomeLayout = LAYOUT) -> None:
        """Write the file atomically (a temp file in the same folder, then os.replace);
        GenomeError when the weights do not fit the layout or meta is not finite JSON."""
        try:
            text = json.dumps(self.doc(layout), indent=2, allow_nan=False) + "\n"
        except (TypeError, ValueError) as e:
            if isinstance(e, GenomeError):
                raise
            raise GenomeError(f"genome meta must be JSON data with finite numbers ({e})"
                              ) from None
        atomic_write_text(path, text)


def save_genome(path: str | Path, values: np.ndarray, meta: dict[str, Any] | None = None,
                layout: GenomeLayout = LAYOUT, plan: dict[str, Any] | None = None) -> None:
    """`BotFile(values, meta, plan).write(path)` with `plan` a bot file's `plan` object
    (`PlanSettings.as_dict`; none: greedy), for the many tests and scripts that write one."""
    try:
        settings = None if plan is None else PlanSettings.from_dict(plan)
    except PlanSettingsError as e:
        raise GenomeError(str(e)) from None
    BotFile(np.asarray(values), dict(meta or {}), settings).write(path, layout)


def load_genome(path: str | Path, layout: GenomeLayout = LAYOUT
                ) -> tuple[np.ndarray, dict[str, Any]]:
    """A bot file's (weights f64[G], meta): `BotFile.read` without the plan."""
    bot = BotFile.read(path, layout)
    return bot.weights, bot.meta


def read_bot(path: str | Path) -> tuple[np.ndarray, dict[str, Any], PlanSettings]:
    """A bot file's (weights, meta, how it plays: GREEDY when it has no `plan`)."""
    bot = BotFile.read(path)
    return bot.weights, bot.meta, bot.settings


def _read_doc(p: Path) -> Any:
    """The parsed JSON of a bot file, read within its size bound (GenomeError otherwise)."""
    try:
        return parse_json(read_limited(p, MAX_GENOME_BYTES, "a bot file"), str(p))
    except OSError as e:
        raise GenomeError(f"{p}: cannot read genome file ({e.strerror or e})") from None
    except UntrustedJSONError as e:
        raise GenomeError(str(e)) from None


def _bot_doc(doc: object) -> dict[str, Any]:
    """`doc` if it is a bot file's document (its `format`), else GenomeError."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise GenomeError(f"'format' must be {FORMAT!r}")
    return doc


def _meta_of(doc: dict[str, Any]) -> dict[str, Any]:
    """A bot file's `meta` (an empty one when absent), GenomeError when it is no object."""
    meta = doc.get("meta", {})
    if not isinstance(meta, dict):
        raise GenomeError("'meta' must be an object")
    return meta


__all__ = ["BotFile", "load_genome", "read_bot", "save_genome"]
