"""The test suite's own layout: a folder per package, helpers in tests/helpers, and no test
file importing another (a shared piece goes to tests.helpers)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PACKAGES = ("game", "features", "evolve", "arena")
# Checks of the whole repository rather than of one package.
REPOSITORY_WIDE = {"test_docs.py", "test_import_circles.py", "test_layers.py",
                   "test_one_home.py", "test_repository.py", "test_test_layout.py",
                   "test_warmup.py"}


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at any depth of its code."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
    return out


def suite_files() -> list[Path]:
    return sorted(TESTS.rglob("test_*.py"))


def is_test_module(name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    return last.startswith("test_") or last == "conftest"


def test_no_test_file_imports_another() -> None:
    files = [*suite_files(), *(TESTS / "helpers").glob("*.py")]
    found = {f"{p.relative_to(TESTS)} imports {m}" for p in files
             for m in imported_modules(p) if is_test_module(m)}
    assert not found, "move what two test files share into tests/helpers"


def test_the_scan_sees_a_test_import(tmp_path: Path) -> None:
    f = tmp_path / "test_a.py"
    f.write_text("import os\ndef f():\n    from test_b import x\n"
                 "from tests.helpers.linear import act\n")
    assert {m for m in imported_modules(f) if is_test_module(m)} == {"test_b"}


def test_every_test_file_sits_in_its_package_folder() -> None:
    misplaced = [str(p.relative_to(TESTS)) for p in suite_files()
                 if not (p.parent.name in PACKAGES and p.parent.parent == TESTS)
                 and not (p.parent == TESTS and p.name in REPOSITORY_WIDE)]
    assert misplaced == []
    assert not list(TESTS.rglob("conftest.py")), "shared code goes to tests/helpers"
    # No __init__.py beside the package folders: tests/game must never stand for `game`.
    assert not [p for p in TESTS.glob("*/__init__.py") if p.parent.name != "helpers"]
