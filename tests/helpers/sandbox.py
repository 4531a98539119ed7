"""What the sandbox tests share: they run where bubblewrap works, fail under CI without it."""

from __future__ import annotations

import os

import pytest

from arena.isolation import bubblewrap


def need_sandbox() -> None:
    """Return where the sandbox can start; fail under CI (or RISKEVO_REQUIRE_SANDBOX), else
    skip with a visible NOT RUN reason."""
    why = bubblewrap.unavailable()
    if why is None:
        return
    if os.environ.get("CI") == "true" or os.environ.get("RISKEVO_REQUIRE_SANDBOX"):
        pytest.fail(f"the sandbox is required here and {why}; apt-get install bubblewrap")
    pytest.skip(f"NOT RUN: {why} (apt-get install bubblewrap; required under CI)")
