"""The installed riskevo's version, recorded in what the pipeline writes (transcripts among it)."""

from __future__ import annotations

from functools import cache
from importlib import metadata

UNKNOWN = "unknown"  # not installed (run from a bare checkout)


@cache
def riskevo_version() -> str:
    """The installed distribution's version, or "unknown" when riskevo is not installed."""
    try:
        return metadata.version("riskevo")
    except metadata.PackageNotFoundError:
        return UNKNOWN


__all__ = ["UNKNOWN", "riskevo_version"]
