"""No import circles inside any package (the layers keep the packages themselves one way:
test_layers.py): every import counts, lazy and TYPE_CHECKING ones too, since a circle at any
depth means the split was made at a line count, not a seam."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def _imports_in(path: Path) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of a file: parsed once for all the packages and rooms."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]


def module_imports(package: str) -> dict[str, set[str]]:
    """Module -> the modules of `package` it imports anywhere in its file (AST scan)."""
    mods = {}
    folder = ROOT / package.replace(".", "/")
    for p in folder.rglob("*.py"):
        rel = p.relative_to(folder).with_suffix("").as_posix().replace("/", ".")
        mods[f"{package}.{rel}".removesuffix(".__init__")] = p
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        for node in _imports_in(path):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                # `from features import registry` imports the submodule features.registry;
                # `from features.kernels import dot` imports features.kernels.
                subs = [f"{node.module}.{a.name}" for a in node.names]
                names = subs if all(n in mods for n in subs) else [node.module]
            else:
                continue
            for name in names:
                while name and name not in mods:
                    name = name.rpartition(".")[0]
                if name and name != mod and name != package:
                    graph[mod].add(name)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def test_the_scan_finds_a_circle_and_lazy_imports() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    # features.vectors imports features.players only inside the module body: the scan sees it.
    assert "features.players" in module_imports("features")["features.vectors"]
    # `from features import registry as F` is an import of features.registry.
    assert "features.registry" in module_imports("features")["features.decide"]
    # A package's __init__ and a function-level import inside a subpackage both count.
    game = module_imports("game")
    assert "game.bots.table" in game["game.bots.loader"]
    assert {"game.bots.loader", "game.bots.table"} <= game["game.bots"]


# arena's rooms: each is also checked alone, so that a circle names its room.
ARENA_ROOMS = ("arena.web", "arena.serve", "arena.isolation", "arena.measure", "arena.wire")


@pytest.mark.parametrize("package", ["game", "features", "evolve", "arena", *ARENA_ROOMS])
def test_no_import_circle(package: str) -> None:
    assert circles(module_imports(package)) == []


def test_arena_stands_in_rooms() -> None:
    arena = module_imports("arena")
    for room in ARENA_ROOMS:
        assert (ROOT / room.replace(".", "/") / "__init__.py").is_file(), room
        assert any(m.startswith(room + ".") for m in arena), room
    # The rooms' own modules are not also on arena's floor.
    floor = {p.stem for p in (ROOT / "arena").glob("*.py")}
    assert not floor & {"web", "webserver", "serve", "serve_cmd", "tcp", "isolation",
                        "isolated_child", "gauntlet", "tournament"}
    # The wire (the protocol's messages, the engine's subprocess player) is under both the
    # server and the sandbox; the server (its sandboxed child) builds on the sandbox, web on
    # both; never back.
    def uses(room: str) -> set[str]:
        return {m for mod, deps in arena.items() if mod.startswith(room + ".") for m in deps
                if m.startswith("arena.") and not m.startswith(room + ".")}

    assert uses("arena.wire") == set()
    assert not {m for m in uses("arena.isolation") if not m.startswith("arena.wire.")}
    assert not any(m.startswith(("arena.web", "arena.measure")) for m in uses("arena.serve"))

# evolve's and game's rooms, and the rooms each may use (besides its package's floor).
ROOMS_USE = {
    "evolve.breeding": set(), "evolve.rating": set(), "evolve.plan": {"evolve.rating"},
    "evolve.report": {"evolve.breeding", "evolve.plan", "evolve.rating"},
    "evolve.bench": {"evolve.breeding"},
    "game.rules": set(),
}


@pytest.mark.parametrize("room", sorted(ROOMS_USE))
def test_rooms_lean_one_way(room: str) -> None:
    package = room.split(".")[0]
    graph = module_imports(package)
    assert circles(module_imports(room)) == []
    others = {r for r in ROOMS_USE if r.startswith(package + ".") and r != room}
    wrong = {f"{mod} imports {dep}" for mod, deps in graph.items() if mod.startswith(room + ".")
             for dep in deps for r in others - ROOMS_USE[room] if dep.startswith(r + ".")}
    assert not wrong
    if room == "game.rules":  # the compiled rules stand on nothing else of game
        assert all(d.startswith("game.rules") for m, ds in graph.items()
                   if m.startswith("game.rules.") for d in ds)


def test_no_folder_holds_more_than_16_modules() -> None:
    crowded = {str(d.relative_to(ROOT)): n for top in ("game", "features", "evolve", "arena")
               for d in [ROOT / top, *(ROOT / top).rglob("*/")]
               if (n := len(list(d.glob("*.py")))) > 16}
    # game/bots (18: the bundled bots, their kernels and table) is not split yet.
    assert set(crowded) <= {"game/bots"}
