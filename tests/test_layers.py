"""Imports run one way: game <- features <- evolve <- arena; never back up, no cycle."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("game", "features", "evolve", "arena")
# What each package may import of ours (itself included). arena may use evolve's helpers (CLI
# dispatch, plots, Wilson interval); evolve names arena's commands only as strings in its table.
ALLOWED = {
    "game": {"game"},
    "features": {"game", "features"},
    "evolve": {"game", "features", "evolve"},
    "arena": {"game", "features", "evolve", "arena"},
}


def our_imports(path: Path, package: str) -> set[tuple[str, int]]:
    """(top-level package, line) of every import of ours in a file, at any depth."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [package] if node.level else [node.module or ""]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            if top in PACKAGES:
                found.add((top, node.lineno))
    return found


def test_the_scanner_sees_lazy_and_top_level_imports() -> None:
    # Without this, an empty scan would make the direction test pass vacuously.
    tops = {t for t, _ in our_imports(ROOT / "arena" / "measure" / "tournament.py", "arena")}
    assert {"evolve", "game", "arena"} <= tops  # evolve.stats at the top, arena.play in a function


@pytest.mark.parametrize("package", PACKAGES)
def test_imports_run_one_way(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files
    wrong = [f"{f.relative_to(ROOT)}:{line} imports {top}"
             for f in files for top, line in sorted(our_imports(f, package))
             if top not in ALLOWED[package]]
    assert not wrong, "\n".join(wrong)


def test_arena_commands_work_from_both_entry_points() -> None:
    from arena.cli import SUBCOMMANDS as ARENA
    from evolve.cli import SUBCOMMANDS, resolve

    assert set(ARENA) == {"play", "tournament", "gauntlet", "diagnose", "watch", "serve", "web",
                          "explain"}
    for name in ARENA:
        assert callable(resolve(name))  # evolve's lazy table entry points at a real function
    for entry in ("evolve", "arena"):
        res = subprocess.run([sys.executable, "-m", entry, "play", "random", "random",
                              "--cap", "3"], capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert res.returncode == 0 and res.stdout.startswith("winner:"), res.stderr
    assert SUBCOMMANDS["play"] == ARENA["play"]


def test_importing_evolve_loads_no_arena_module() -> None:
    code = ("import sys, importlib, pkgutil, evolve\n"
            "for m in pkgutil.walk_packages(evolve.__path__, 'evolve.'):\n"
            "    if not m.name.endswith('__main__'): importlib.import_module(m.name)\n"
            "print(sorted(n for n in sys.modules if n.split('.')[0] == 'arena'))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"
