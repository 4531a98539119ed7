"""The bot file: one reader (`features.botfile.BotFile`), what it holds, and no other code in
the packages that parses a bot file itself."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import numpy as np
import pytest

from features.botfile import BotFile
from features.genome import FORMAT, LAYOUT, GenomeError, hand_set_genome
from features.registry import FEATURE_SET_VERSION
from features.search.player import GREEDY, PlanPlayer, PlanSettings
from game.bots import bot_file
from game.version import FIELD, riskevo_version

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("game", "features", "evolve", "arena")
READER = ROOT / "features" / "botfile.py"
JSON_CALLS = {"load", "loads", "parse_json"}
# Keys only a bot file's document has (a checkpoint's npz also holds "genes", never parsed JSON).
BOT_KEYS = {"genes", "feature_set_version"}
BOT_NAMES = {"MAX_GENOME_BYTES"}
BOT_WHAT = "a bot file"  # what a bounded read of one is called (game.atomic.read_limited)


def test_a_bot_file_round_trips_with_its_plan_and_versions(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    plan = PlanSettings(rollouts=2, top_k=2, margin=0.1)
    BotFile(hand_set_genome(), {"run": "t"}, plan).write(path)
    doc = json.loads(path.read_text())
    assert doc["format"] == FORMAT and doc[FIELD] == riskevo_version()
    assert doc["feature_set_version"] == FEATURE_SET_VERSION and doc["plan"] == plan.as_dict()
    bot = BotFile.read(path)
    assert np.array_equal(bot.weights, hand_set_genome()) and bot.meta == {"run": "t"}
    assert bot.plan == plan and bot.settings == plan and isinstance(bot.player(), PlanPlayer)
    assert bot.riskevo_version == riskevo_version()
    BotFile(bot.weights).write(path)
    greedy = BotFile.read(path)
    assert "plan" not in json.loads(path.read_text())
    assert greedy.plan is None and greedy.settings == GREEDY
    assert not isinstance(greedy.player("me"), PlanPlayer) and greedy.player("me").name == "me"


def test_the_bundled_champion_reads_with_its_plan() -> None:
    bot = BotFile.read(bot_file("champion"))
    assert bot.plan is not None and bot.plan.kind == "plan"
    assert bot.weights.shape == (LAYOUT.size,) and bot.meta["provenance"]["name"] == "champion"


def test_an_old_file_names_its_versions(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    BotFile(hand_set_genome()).write(path)
    doc = json.loads(path.read_text())
    del doc[FIELD]
    path.write_text(json.dumps(doc))
    assert BotFile.read(path).riskevo_version is None


@pytest.mark.parametrize(("edit", "says"), [
    ({"plan": {"rollouts": 0}}, "plan.rollouts must be"),
    ({"meta": []}, "'meta' must be an object"),
    ({"feature_set_version": 99}, "feature_set_version is 99"),
])
def test_a_bad_file_is_one_line_naming_it(tmp_path: Path, edit: dict[str, object],
                                          says: str) -> None:
    path = tmp_path / "bad.json"
    BotFile(hand_set_genome()).write(path)
    path.write_text(json.dumps({**json.loads(path.read_text()), **edit}))
    with pytest.raises(GenomeError) as e:
        BotFile.read(path)
    assert str(e.value).startswith(f"{path}: ") and says in str(e.value)
    assert "\n" not in str(e.value)


def _is_json_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    return name in JSON_CALLS


def _key(node: ast.AST) -> object:
    """The constant key of `x["k"]` or `x.get("k")`, else None."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return node.slice.value
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get" and node.args and isinstance(node.args[0], ast.Constant)):
        return node.args[0].value
    return None


def bot_file_parses(source: str) -> list[int]:
    """Lines of functions (or module code) that parse JSON and read a bot file's keys from it,
    or parse JSON beside a bot file's size bound or format name."""
    tree = ast.parse(source)
    scopes: list[ast.AST] = [tree, *(n for n in ast.walk(tree)
                                      if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))]
    found = []
    for scope in scopes:
        nodes = list(ast.walk(scope)) if scope is not tree else [
            n for stmt in tree.body if not isinstance(stmt, ast.FunctionDef | ast.ClassDef)
            for n in ast.walk(stmt)]
        calls = [n for n in nodes if _is_json_call(n)]
        if not calls:
            continue
        parsed = {t.id for n in nodes if isinstance(n, ast.Assign) and _is_json_call(n.value)
                  for t in n.targets if isinstance(t, ast.Name)}
        for n in nodes:
            inner = n.value if isinstance(n, ast.Subscript) else (
                n.func.value if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                else None)
            from_json = inner is not None and (_is_json_call(inner) or (
                isinstance(inner, ast.Name) and inner.id in parsed))
            marker = (isinstance(n, ast.Name) and n.id in BOT_NAMES) or (
                isinstance(n, ast.Constant) and n.value in (FORMAT, BOT_WHAT))
            if marker or (from_json and _key(n) in BOT_KEYS):
                found.append(getattr(calls[0], "lineno", 0))
                break
    return sorted(set(found))


def test_the_meta_alone_reads_any_layouts_file_and_only_a_bot_file(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"format": FORMAT, "genes": {"a": 1}, "meta": {"generation": 5}}))
    assert BotFile.read_meta(path) == {"generation": 5}  # genes of another plug-in's layout
    with pytest.raises(GenomeError):
        BotFile.read(path)
    for doc in ({"meta": {}}, {"format": FORMAT, "meta": [1]}, [1]):
        path.write_text(json.dumps(doc))
        with pytest.raises(GenomeError, match=f"^{path}: "):
            BotFile.read_meta(path)
    path.write_bytes(b" " * (2 * 2**20))  # beyond a bot file's size bound
    with pytest.raises(GenomeError, match=f"^{path}: cannot read genome file .*limit"):
        BotFile.read_meta(path)


def test_the_scan_finds_a_bot_file_parsed_by_hand() -> None:
    assert bot_file_parses('def f(p):\n    data = json.loads(p.read_text())\n'
                           '    return data["genes"]\n') == [2]
    assert bot_file_parses('def f(p):\n    return json.load(open(p)).get("feature_set_version")\n'
                           ) == [2]
    assert bot_file_parses('def f(p):\n    x = parse_json(read_limited(p, MAX_GENOME_BYTES))\n'
                           ) == [2]
    assert bot_file_parses('def f(p):\n    x = parse_json(read_limited(p, 99, "a bot file"))\n'
                           ) == [2]
    # A checkpoint: "genes" is read from the npz, JSON only for other fields.
    assert bot_file_parses('def f(z):\n    return z["genes"], json.loads(z["config"])\n') == []
    assert bot_file_parses(READER.read_text(encoding="utf-8")) != []


def test_only_the_bot_file_reader_parses_bot_files() -> None:
    found = [f"{p.relative_to(ROOT)}:{line}" for pkg in PACKAGES
             for p in sorted((ROOT / pkg).rglob("*.py")) if p != READER
             for line in bot_file_parses(p.read_text(encoding="utf-8"))]
    assert found == [], f"read bot files with features.botfile.BotFile.read: {found}"
