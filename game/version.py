"""The riskevo version that made a file: one home for every layer that records or reads it."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

FIELD = "riskevo_version"  # the key in config.toml, bot files, checkpoints and transcripts
UNKNOWN = "0+unknown"  # neither installed nor beside its pyproject.toml
_PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
MAX_LEN = 64  # a recorded version longer than this is not one of ours


@cache
def riskevo_version() -> str:
    """The installed distribution's version, else the source tree's pyproject.toml, else UNKNOWN."""
    try:
        return version("riskevo")
    except PackageNotFoundError:
        pass
    try:
        found = tomllib.loads(_PYPROJECT.read_text(encoding="utf-8"))["project"]["version"]
    except (OSError, KeyError, TypeError, tomllib.TOMLDecodeError):
        return UNKNOWN
    return found if isinstance(found, str) else UNKNOWN


def recorded_version(record: object) -> str | None:
    """The version a loaded file names, or None when it predates version recording.

    A present but malformed field also reads as None: the version is a label, never a reason
    to refuse an otherwise good file.
    """
    found = record.get(FIELD) if isinstance(record, dict) else None
    return found if isinstance(found, str) and 0 < len(found) <= MAX_LEN else None


def describe(recorded: str | None) -> str:
    """One phrase for messages: which version made a file."""
    if recorded is None:
        return "an unrecorded riskevo version (it predates version recording)"
    return f"riskevo {recorded}"
