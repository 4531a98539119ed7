"""The page's files: every script the page loads is served, and each stays under 400 lines,
split along a seam (CONTRIBUTING.md), with no build step."""

from __future__ import annotations

import re
from pathlib import Path

from arena.web.handler import STATIC

PAGE = Path(__file__).parents[2] / "arena" / "web" / "static"


def test_every_script_is_served_and_loaded_with_the_game_script_last() -> None:
    scripts = re.findall(r'<script src="/([^"]+)"></script>', (PAGE / "index.html").read_text())
    on_disk = sorted(p.name for p in PAGE.glob("*.js"))
    assert sorted(scripts) == on_disk
    assert all(s in STATIC for s in scripts)
    assert scripts[-1] == "app.js"  # it calls main() once every other script has loaded


def test_each_script_stays_under_400_lines() -> None:
    long = {p.name: n for p in PAGE.glob("*.js")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) >= 400}
    assert long == {}
