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
    tops = {t for t, _ in our_imports(ROOT / "arena" / "tournament.py", "arena")}
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
            "for m in pkgutil.iter_modules(evolve.__path__):\n"
            "    if m.name not in ('__main__',): importlib.import_module('evolve.' + m.name)\n"
            "print(sorted(n for n in sys.modules if n.split('.')[0] == 'arena'))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"


def module_imports(path: Path, package: str) -> set[str]:
    """The modules of `package` a file imports, at any depth (function-level imports count)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith(f"{package}.")}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module == package:
                found |= {f"{package}.{a.name}" for a in node.names}
            elif node.module.startswith(f"{package}."):
                found.add(node.module)
    return found


def import_circles(package: str) -> list[list[str]]:
    """Every import circle among a package's top-level modules (a shortest path back)."""
    graph = {f"{package}.{f.stem}": module_imports(f, package)
             for f in sorted((ROOT / package).glob("*.py"))}
    circles = []
    for start in graph:
        paths, seen = [[start]], {start}
        while paths:  # breadth first: the shortest way back to start
            path = paths.pop(0)
            for nxt in sorted(graph.get(path[-1], ())):
                if nxt == start:
                    circles.append(path)
                    paths = []
                    break
                if nxt in graph and nxt not in seen:
                    seen.add(nxt)
                    paths.append([*path, nxt])
    return circles


def test_the_circle_finder_sees_a_circle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "a.py").write_text("def f():\n    from pkg.b import g\n")
    (pkg / "b.py").write_text("from pkg import a\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert import_circles("pkg") == [["pkg.a", "pkg.b"], ["pkg.b", "pkg.a"]]


def test_arena_has_no_import_circle() -> None:
    # Bot specs (arena.bots) and the isolated child's side (arena.isolated_child) have their
    # own modules so that play, isolation, serve, tcp and tournament import one way.
    assert import_circles("arena") == []
