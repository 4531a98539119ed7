"""The repository as a newcomer finds it: a licence, and no machine's absolute paths."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# A home, a work area or a temporary folder of one machine. Built from parts so that this file
# does not match itself.
MACHINE_PATH = re.compile("(?<![\\w.~$-])/(" + "|".join(
    ["work", "home", "root", "Users", "tmp"]) + r")/[\w.+-]")
# perf reads a JIT's symbol map from /tmp/perf-PID.map: a fixed name, no machine's folder.
ALLOWED = ("/tmp/perf-",)


def machine_paths(text: str) -> list[str]:
    """The absolute machine paths in a text, each with 30 characters after it."""
    return [text[m.start():m.start() + 30] for m in MACHINE_PATH.finditer(text)
            if not text.startswith(ALLOWED, m.start())]


def test_the_scan_finds_machine_paths() -> None:
    work, home, tmp = "/" + "work", "/" + "home", "/" + "tmp"  # kept out of this file's text
    assert machine_paths(f"cd {work}/main && ls {home}/me/x") == [
        f"{work}/main && ls {home}/me/x", f"{home}/me/x"]
    assert machine_paths(f"out {tmp}/hostile") == [f"{tmp}/hostile"]
    assert machine_paths(f"runs/night $NIGHT/players {tmp}/ {tmp}/perf-1.map a{work}/b") == []


def test_no_committed_file_holds_a_machine_path() -> None:
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                                check=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        pytest.fail("git ls-files failed: the path check needs a git checkout")
    found = {}
    for name in filter(None, listed):
        path = ROOT / name
        if not path.is_file() or path.stat().st_size > 4 << 20:
            continue
        hits = machine_paths(path.read_bytes().decode("utf-8", "replace"))
        if hits:
            found[name] = hits[:3]
    assert found == {}, "use $NIGHT, runs/... or a path relative to the checkout"


def test_no_committed_file_is_a_link_or_a_virtual_environment() -> None:
    # A committed link to a machine's folder (a worktree's `.venv`) replaces that folder on
    # checkout; git stores a link as its target, which `is_file` above never reads.
    staged = subprocess.run(["git", "ls-files", "-s", "-z"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode().split("\0")
    links = [x.split("\t", 1)[1] for x in staged if x.startswith("120000 ")]
    assert links == []
    assert not [x for x in staged if "\t.venv" in x or "\tvenv/" in x]


def test_a_licence_is_stated() -> None:
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert "riskevo contributors" in (ROOT / "LICENSE").read_text()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT"
    assert "MIT" in (ROOT / "game" / "maps" / "README.md").read_text()


def test_a_make_target_names_a_missing_run_in_one_line() -> None:
    """`make report RUN=typo` said "cannot read genome file" while plot and export said "not
    a run folder": need-run checks the folder first, for every target that reads a run."""
    got = subprocess.run(["make", "-s", "need-run", "RUN=no-such-run-x"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert got.returncode == 2
    assert got.stdout.splitlines()[0].startswith(
        "error: RUN=no-such-run-x: no run in runs/no-such-run-x (runs there: ")
