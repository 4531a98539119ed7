"""Run configuration: package defaults, then a TOML file, then command-line overrides.

Every field is validated; a bad value raises `ConfigError` with one line naming the field and
what is allowed.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any, get_type_hints

from evolve.sections import (
    MATE_CHOICES,
    MAX_GAMES,
    MAX_GENERATIONS,
    MAX_GENOME_ANCHORS,
    MAX_LEAGUE_SEATS,
    MAX_RATING,
    MUTATE_CHOICES,
    OUTCOMES,
    SELECT_CHOICES,
    STRATEGIES,
    ChampionSection,
    CmaSection,
    Config,
    EvalSection,
    GameSection,
    LeagueSection,
    OutputSection,
    ParallelSection,
    PlanSection,
    RatingSection,
    RunSection,
    ValueSection,
    VariationSection,
)
from game.atomic import MiB, read_limited
from game.state import Rules, RulesError
from game.version import FIELD, recorded_version, riskevo_version

# The sections live in evolve.sections (the schema); they are part of this module's API too.
__all__ = [
    "BEFORE_ADDED",
    "MATE_CHOICES",
    "MAX_CONFIG_BYTES",
    "MAX_GAMES",
    "MAX_GENERATIONS",
    "MAX_GENOME_ANCHORS",
    "MAX_LEAGUE_SEATS",
    "MAX_RATING",
    "MUTATE_CHOICES",
    "OUTCOMES",
    "RESUMABLE",
    "SCHEMA",
    "SELECT_CHOICES",
    "STRATEGIES",
    "ChampionSection",
    "CmaSection",
    "Config",
    "ConfigError",
    "EvalSection",
    "GameSection",
    "LeagueSection",
    "OutputSection",
    "ParallelSection",
    "PlanSection",
    "RatingSection",
    "RunSection",
    "ValueSection",
    "VariationSection",
    "field_meta",
    "fingerprint",
    "from_dict",
    "load_config",
    "parse_override",
    "run_file_origin",
    "to_dict",
    "to_toml",
]

MAX_CONFIG_BYTES = 1 * MiB  # a config file (a few KB)
MAX_LIST = 16  # entries of a list of numbers (plan.margins, plan.self_share)


class ConfigError(ValueError):
    """An invalid or unknown configuration value (one-line message naming the field)."""


# Fields that may change when a run is resumed: they do not change its results (both rating
# engines give the same numbers; the champion's settings change only which one is crowned).
RESUMABLE = ("run.generations", "parallel.", "output.", "eval.", "champion.", "plan.", "value.",
             "rating.engine")
# Fields added with a default that plays differently: field -> (the riskevo version that added
# it, the value a run made before it resumes with). A run file naming a version that already
# wrote the field but lacking it is refused rather than guessed.
BEFORE_ADDED: dict[str, tuple[str, Any]] = {"rating.outcome": ("0.9.0", "order"),
                                             "plan.play_place": ("0.18.0", 0),
                                             "plan.value_from": ("0.23.0", "both"),
                                             "value.until": ("0.23.0", 0)}

_SECTIONS: dict[str, Any] = get_type_hints(Config)
# A dask scheduler address: tcp://host:port (host a name, IPv4, or [IPv6]).
_SCHEDULER = re.compile(r"^tcp://(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])"
                        r":(\d{1,5})$")


def _schema() -> dict[str, dict[str, tuple[Any, dataclasses.Field[Any]]]]:
    """section -> field -> (type, dataclass field)."""
    out: dict[str, dict[str, tuple[Any, dataclasses.Field[Any]]]] = {}
    for sname, scls in _SECTIONS.items():
        hints = get_type_hints(scls)
        out[sname] = {f.name: (hints[f.name], f) for f in dataclasses.fields(scls)}
    return out


def field_meta(f: dataclasses.Field[Any]) -> dict[str, Any]:
    """A field's bounds, choices and doc, with the keys a field of `Rules` may leave out."""
    return {"lo": None, "hi": None, "choices": (), "doc": "", **f.metadata}


SCHEMA = _schema()


def _describe(typ: Any, meta: dict[str, Any]) -> str:
    """Human text of what a field allows."""
    if meta["choices"]:
        return "one of " + ", ".join(repr(c) for c in meta["choices"])
    if typ is bool:
        return "true or false"
    if typ is str:
        return "a string"
    if typ == tuple[str, ...]:
        return "a list of strings"
    if typ == tuple[float, ...]:
        return f"a list of 1..{MAX_LIST} numbers in [{meta['lo']}, {meta['hi']}]"
    kind = "an integer" if typ is int else "a number"
    lo, hi = meta["lo"], meta["hi"]
    if lo is not None and hi is not None:
        return f"{kind} in [{lo}, {hi}]"
    if lo is not None:
        return f"{kind} >= {lo}"
    return kind


def _check(name: str, typ: Any, meta: dict[str, Any], v: Any) -> Any:
    """Validate and normalise one value (ConfigError naming the field otherwise)."""
    ok = True
    if typ is bool:
        ok = isinstance(v, bool)
    elif typ is int:
        ok = isinstance(v, int) and not isinstance(v, bool)
    elif typ is float:
        ok = isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
        if ok:
            v = float(v)
    elif typ is str:
        ok = isinstance(v, str) and (not meta["choices"] or v in meta["choices"])
    elif typ == tuple[float, ...]:
        lo, hi = meta["lo"], meta["hi"]
        if isinstance(v, int | float) and not isinstance(v, bool):
            v = [v]  # a number is a list of one (older run configs: plan.self_share)
        ok = (isinstance(v, list | tuple) and 1 <= len(v) <= MAX_LIST and all(
            isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)
            and lo <= x <= hi for x in v))
        if ok:
            v = tuple(float(x) for x in v)
    else:  # tuple[str, ...]
        ok = isinstance(v, list | tuple) and all(isinstance(x, str) for x in v)
        if ok:
            v = tuple(v)
    if ok and typ in (int, float):
        lo, hi = meta["lo"], meta["hi"]
        ok = (lo is None or v >= lo) and (hi is None or v <= hi)
    if not ok:
        raise ConfigError(f"config field {name}: expected {_describe(typ, meta)}, got {v!r}")
    return v


def _merge(base: dict[str, Any], extra: dict[str, Any], source: str) -> None:
    """Merge one TOML document into `base`, rejecting unknown sections and fields."""
    for sname, sval in extra.items():
        if sname not in SCHEMA:
            raise ConfigError(f"{source}: unknown config section [{sname}] "
                              f"(allowed: {', '.join(SCHEMA)})")
        if not isinstance(sval, dict):
            raise ConfigError(f"{source}: [{sname}] must be a table of fields")
        for k, v in sval.items():
            if k not in SCHEMA[sname]:
                raise ConfigError(f"{source}: unknown config field {sname}.{k} "
                                  f"(allowed: {', '.join(SCHEMA[sname])})")
            base.setdefault(sname, {})[k] = v


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(read_limited(path, MAX_CONFIG_BYTES, "a config file")
                             .decode("utf-8"))
    except OSError as e:
        raise ConfigError(f"{path}: cannot read config file ({e.strerror})") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: not UTF-8 ({e.reason} at byte {e.start})") from None
    except (RecursionError, ValueError) as e:  # nesting or numbers TOML's parser cannot take
        raise ConfigError(f"{path}: not valid TOML ({type(e).__name__})") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML ({e})") from None


def parse_override(text: str) -> tuple[str, Any]:
    """Parse `section.field=value` (value in TOML syntax, bare words taken as strings)."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or "." not in key:
        raise ConfigError(f"override {text!r}: expected section.field=value")
    try:
        value = tomllib.loads(f"v = {raw.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw.strip()
    return key, value


def load_config(files: list[Path] | tuple[Path, ...] = (),
                overrides: dict[str, Any] | None = None, run_file: Path | None = None) -> Config:
    """Defaults, then a resumed run's config.toml (`run_file`; fields it lacks take their
    `BEFORE_ADDED` value), then each file in order, then `section.field -> value` overrides."""
    # The rules' defaults are Rules' own: defaults.toml need not copy them.
    raw: dict[str, Any] = {"rules": dataclasses.asdict(Rules())}
    text = (resources.files("evolve") / "defaults.toml").read_text(encoding="utf-8")
    _merge(raw, tomllib.loads(text), "defaults.toml")
    if run_file is not None:
        _merge_flat(raw, run_file_origin(run_file)[1], "evolve.config.BEFORE_ADDED")
    for p in [*([run_file] if run_file is not None else []), *files]:
        doc = _read_toml(Path(p))
        doc.pop(FIELD, None)  # which version wrote the file, not a setting
        _merge(raw, doc, str(p))
    _merge_flat(raw, overrides or {}, "command line")
    return from_dict(raw)


def _version_key(v: str) -> tuple[int, ...] | None:
    parts = re.match(r"^(\d+)\.(\d+)(?:\.(\d+))?", v)
    return tuple(int(x or 0) for x in parts.groups()) if parts else None


def run_file_origin(path: Path) -> tuple[str | None, dict[str, Any]]:
    """The version that wrote a run's config.toml (None: it predates version recording) and the
    `BEFORE_ADDED` fields it lacks, with the values the run resumes with."""
    doc = _read_toml(path)
    made_by = recorded_version(doc)
    made, assumed = _version_key(made_by) if made_by else None, {}
    for key, (added, before) in BEFORE_ADDED.items():
        sname, _, fname = key.partition(".")
        if isinstance(doc.get(sname), dict) and fname in doc[sname]:
            continue
        if made is not None and made >= (_version_key(added) or ()):
            raise ConfigError(f"{path}: config field {key} is missing, but riskevo {made_by} "
                              f"wrote this file and every version since {added} writes it")
        assumed[key] = before
    return made_by, assumed


def _merge_flat(base: dict[str, Any], flat: dict[str, Any], source: str) -> None:
    for key, v in flat.items():
        sname, _, fname = key.partition(".")
        _merge(base, {sname: {fname: v}}, source)


def from_dict(raw: dict[str, Any]) -> Config:
    """Build and validate a Config from nested plain data (every field required)."""
    sections: dict[str, Any] = {}
    for sname, fields in SCHEMA.items():
        vals = {}
        for fname, (typ, f) in fields.items():
            name = f"{sname}.{fname}"
            if fname not in raw.get(sname, {}):
                raise ConfigError(f"config field {name} is missing")
            vals[fname] = _check(name, typ, field_meta(f), raw[sname][fname])
        try:
            sections[sname] = _SECTIONS[sname](**vals)
        except RulesError as e:  # Rules checks itself too; its message names the field
            raise ConfigError(f"config field {e}") from None
    cfg = Config(**sections)
    _cross_check(cfg)
    return cfg


def _cross_check(cfg: Config) -> None:
    """Constraints between fields."""
    r = cfg.run
    if r.group_size > r.population:
        raise ConfigError(f"config field run.group_size: must be <= run.population "
                          f"({r.population}), got {r.group_size}")
    if r.population * r.games_per_individual > MAX_LEAGUE_SEATS:
        raise ConfigError(f"config field run.games_per_individual: run.population * "
                          f"run.games_per_individual must be <= {MAX_LEAGUE_SEATS:_}, got "
                          f"{r.population} * {r.games_per_individual}")
    if r.elite >= r.population:
        raise ConfigError(f"config field run.elite: must be < run.population "
                          f"({r.population}), got {r.elite}")
    if r.restart_after and (r.strategy != "ga" or not cfg.champion.every):
        raise ConfigError("config field run.restart_after: needs run.strategy = 'ga' and "
                          f"champion.every > 0 (restarts count from crownings), got "
                          f"{r.restart_after} with strategy {r.strategy!r}, champion.every "
                          f"{cfg.champion.every}")
    _check_islands(r)
    if cfg.league.seats >= r.group_size:
        raise ConfigError(f"config field league.seats: must be < run.group_size "
                          f"({r.group_size}), got {cfg.league.seats}")
    lg = cfg.league
    if lg.seats > len(lg.bots) + len(lg.genomes) + lg.hall_size:
        raise ConfigError(f"config field league.seats: {lg.seats} anchors per game need "
                          f"as many anchors (league.bots + league.genomes + league.hall_size), "
                          f"got {len(lg.bots) + len(lg.genomes) + lg.hall_size}")
    if len(lg.genomes) > MAX_GENOME_ANCHORS:
        raise ConfigError(f"config field league.genomes: at most {MAX_GENOME_ANCHORS} bot "
                          f"files, got {len(lg.genomes)}")
    if cfg.parallel.n_jobs == 0:
        raise ConfigError("config field parallel.n_jobs: expected -1 (all cores) or >= 1, got 0")
    sched = cfg.parallel.scheduler
    if sched and cfg.parallel.backend != "dask":
        raise ConfigError("config field parallel.scheduler: only allowed with "
                          f"parallel.backend = 'dask', got backend {cfg.parallel.backend!r}")
    m = _SCHEDULER.match(sched)
    if sched and not (m and 1 <= int(m.group(1)) <= 65535):
        raise ConfigError("config field parallel.scheduler: expected tcp://HOST:PORT "
                          f"(port 1..65535) or empty for a local cluster, got {sched!r}")


def _check_islands(r: RunSection) -> None:
    """run.islands splits the GA's population evenly; each island keeps its elite."""
    if r.islands == 1:
        return
    if r.strategy != "ga":
        raise ConfigError(f"config field run.islands: more than 1 needs run.strategy = 'ga', "
                          f"got {r.islands} with strategy {r.strategy!r}")
    size = r.population // r.islands
    if r.population % r.islands or size <= r.elite:
        raise ConfigError(f"config field run.islands: must divide run.population "
                          f"({r.population}) evenly into islands of more than run.elite "
                          f"({r.elite}), got {r.islands}")
    if r.migration_every and r.migrants >= size:
        raise ConfigError(f"config field run.migrants: must be < an island's size "
                          f"(run.population / run.islands = {size}), got {r.migrants}")


def to_dict(cfg: Config) -> dict[str, Any]:
    """Nested plain data (lists for tuples), the inverse of `from_dict`."""
    out = dataclasses.asdict(cfg)
    for sec in out.values():
        for k, v in sec.items():
            if isinstance(v, tuple):
                sec[k] = list(v)
    return out


def fingerprint(cfg: Config) -> dict[str, Any]:
    """The flat `section.field -> value` items a resumed run must keep unchanged."""
    flat = {f"{s}.{k}": v for s, sec in to_dict(cfg).items() for k, v in sec.items()}
    return {k: v for k, v in flat.items() if not any(k.startswith(p) for p in RESUMABLE)}


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # a JSON string is a valid TOML basic string
    return "[" + ", ".join(_toml_value(x) for x in v) + "]"


def to_toml(cfg: Config) -> str:
    """TOML text that `load_config` reads back to an equal Config."""
    lines = ["# Effective configuration of this run (written by python -m evolve run).",
             f"{FIELD} = {_toml_value(riskevo_version())}"]
    for sname, sec in to_dict(cfg).items():
        lines.append(f"\n[{sname}]")
        lines += [f"{k} = {_toml_value(v)}" for k, v in sec.items()]
    return "\n".join(lines) + "\n"
