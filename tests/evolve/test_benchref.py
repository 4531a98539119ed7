"""The bench's reference plumbing: extracting a pinned tree, skipping without git, the table."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from evolve.bench import benchref


def _repo(tmp_path: Path) -> tuple[Path, str]:
    repo = tmp_path / "repo"
    (repo / "features").mkdir(parents=True)
    (repo / "features" / "compiled.py").write_text("X = 1\n")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "one"], check=True)
    head = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True,
                          text=True).stdout.strip()
    return repo, head


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_extract_makes_the_tree_once(tmp_path: Path) -> None:
    repo, head = _repo(tmp_path)
    dest = repo / "runs" / "ref"
    assert benchref.extract(head[:7], repo, dest) is None
    assert (dest / "features" / "compiled.py").read_text() == "X = 1\n"
    (dest / "features" / "compiled.py").write_text("kept\n")
    assert benchref.extract(head[:7], repo, dest) is None  # already there: kept as is
    assert (dest / "features" / "compiled.py").read_text() == "kept\n"
    assert [p.name for p in dest.parent.iterdir()] == ["ref"]  # no temporary left


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_missing_commit_is_one_line_and_no_figures(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    repo, _ = _repo(tmp_path)
    assert benchref.bench_reference(2, 1, 0, commit="0123456", repo=repo) is None
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "skipped" in out and "0123456" in out
    assert not (repo / "runs" / "ref-0123456").exists()


def test_rates_and_report(capsys: pytest.CaptureFixture[str]) -> None:
    rows = [{"cpu_s": 2.0, "rounds": 100, "games": 4}, {"cpu_s": 1.0, "rounds": 100, "games": 4},
            {"cpu_s": 4.0, "rounds": 100, "games": 4}]
    r = benchref.rates(rows)
    assert r["rounds_per_s"] == 50.0 and r["min"] == 25.0 and r["max"] == 100.0
    assert r["mean_rounds"] == 25.0
    res = {"commit": "abc", "repeats": 3, "games": 4}
    for batch in benchref.BATCHES:
        res[batch] = {"head": r, "reference": {**r, "rounds_per_s": 25.0}, "ratio": 2.0}
    benchref.report(res)
    out = capsys.readouterr().out
    assert "abc" in out and out.count("x2.00") == 2
