"""The game package's modules import each other without a circle (imports at any depth count:
a function-level import closes a circle as surely as a top-level one)."""

from __future__ import annotations

import ast
from pathlib import Path

GAME = Path(__file__).resolve().parents[1] / "game"


def _graph() -> dict[str, set[str]]:
    mods = {".".join(("game", *f.relative_to(GAME).with_suffix("").parts)).removesuffix(
        ".__init__"): f for f in GAME.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for m, f in mods.items():
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [f"{node.module}.{a.name}" for a in node.names]
            else:
                continue
            for t in names:  # the longest of our modules the name starts with
                while t and t not in mods:
                    t = t.rpartition(".")[0]
                if t and t != m:
                    graph[m].add(t)
    return graph


def _reaches(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph[start])
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(graph[m])
    return seen


def test_the_scanner_sees_the_bots_registry() -> None:
    graph = _graph()
    assert "game.bots.registry" in graph["game.bots.loader"]
    assert {"game.bots.loader", "game.bots.registry"} <= graph["game.bots"]


def test_no_module_of_game_imports_itself_back() -> None:
    graph = _graph()
    circles = sorted(m for m in graph if m in _reaches(graph, m))
    assert not circles, f"modules on an import circle: {', '.join(circles)}"
