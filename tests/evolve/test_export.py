"""Export a run's champion or any individual as a bot file, and load it back."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from evolve.report.export import ExportError, export_bot, main
from features.botfile import load_genome
from features.genome import LAYOUT, GenomeError
from tests.helpers.synthetic_run import make_synthetic_run

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_synthetic_run(tmp_path_factory.mktemp("exp") / "synth", generations=4)


def test_champion_round_trip(run_dir: Path, tmp_path: Path) -> None:
    out = export_bot(run_dir, tmp_path / "champ.json")
    values, meta = load_genome(out)
    doc = json.loads(out.read_text())
    assert list(doc["genes"]) == list(LAYOUT.names)
    assert doc["feature_set_version"] == LAYOUT.version
    last = json.loads((run_dir / "log.jsonl").read_text().splitlines()[-1])
    with np.load(run_dir / "genes" / "gen_00003.npz") as z:
        np.testing.assert_array_equal(values, z["genes"][last["champion_index"]])
    assert meta["run"] == "synth" and meta["generation"] == 3
    assert meta["mu"] == pytest.approx(last["champion_mu"])
    assert meta["eval"]["wins"] == last["eval"]["wins"]


def test_any_individual(run_dir: Path, tmp_path: Path) -> None:
    out = export_bot(run_dir, tmp_path / "i.json", gen=1, index=5)
    values, meta = load_genome(out)
    with np.load(run_dir / "genes" / "gen_00001.npz") as z:
        np.testing.assert_array_equal(values, z["genes"][5])
        assert meta["mu"] == pytest.approx(float(z["mu"][5]))
    assert (meta["generation"], meta["index"]) == (1, 5)


def test_version_mismatch_is_named(run_dir: Path, tmp_path: Path) -> None:
    out = export_bot(run_dir, tmp_path / "old.json")
    doc = json.loads(out.read_text())
    doc["feature_set_version"] = LAYOUT.version + 41
    out.write_text(json.dumps(doc))
    with pytest.raises(GenomeError, match=f"feature_set_version is {LAYOUT.version + 41}"):
        load_genome(out)


def test_bad_requests(run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ExportError, match="no generation 99"):
        export_bot(run_dir, tmp_path / "x.json", gen=99)
    with pytest.raises(ExportError, match="index must be 0..29"):
        export_bot(run_dir, tmp_path / "x.json", gen=0, index=30)
    assert main([str(run_dir), "--gen", "7", "--out", str(tmp_path / "y.json")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "no generation 7" in err and err.count("\n") == 1
    assert not (tmp_path / "y.json").exists()


@pytest.mark.parametrize("trailing", ["", "/"])
def test_out_existing_folder_is_a_one_line_error(run_dir: Path, tmp_path: Path, trailing: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "bots"
    folder.mkdir()
    assert main([str(run_dir), "--out", str(folder) + trailing]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(f"error: --out {folder}{trailing}: is a folder")
    assert "champion-bot.json" in err  # what to give instead
    assert list(folder.iterdir()) == []  # nothing written, not even a temp file
    with pytest.raises(ExportError, match="is a folder"):
        export_bot(run_dir, f"{tmp_path / 'new'}/")  # a folder that does not exist yet


def test_out_that_cannot_be_written_is_a_one_line_error(run_dir: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("x")
    assert main([str(run_dir), "--out", str(tmp_path / "file" / "bot.json")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"error: --out {tmp_path / 'file' / 'bot.json'}: cannot")
    assert err.count("\n") == 1


@pytest.mark.parametrize("command", ["plot", "report", "export"])
def test_errors_go_to_stderr_without_traceback(command: str, tmp_path: Path) -> None:
    extra = ["--out", str(tmp_path / "b.json")] if command == "export" else []
    res = subprocess.run([sys.executable, "-m", "evolve", command, str(tmp_path / "nope"),
                          *extra], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == f"error: {tmp_path / 'nope'}: not a run folder\n"


@pytest.mark.parametrize("kind", ["symlink", "fifo", "dangling"])
def test_out_that_is_not_a_regular_file_is_never_replaced(run_dir: Path, tmp_path: Path,
                                                         kind: str,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    out = tmp_path / "bot.json"
    if kind == "symlink":
        out.symlink_to(target)
    elif kind == "fifo":
        os.mkfifo(out)
    else:
        out.symlink_to(tmp_path / "nowhere")
    assert main([str(run_dir), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "not a regular file" in err and "\n" not in err.strip()
    assert out.is_symlink() if kind != "fifo" else stat.S_ISFIFO(os.lstat(out).st_mode)
    assert target.read_text() == "keep me"


def test_a_file_of_the_run_is_never_replaced(run_dir: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("config.toml", "log.jsonl", "genes/gen_00000.npz", "champion.json",
                 "champion-plan.json"):
        target = run_dir / name
        before = target.read_bytes() if target.exists() else None
        assert main([str(run_dir), "--gen", "0", "--index", "3", "--out", str(target)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "is a file the run" in err and "writes itself" in err
        assert (target.read_bytes() if target.exists() else None) == before
    new = run_dir / "champion-bot.json"  # make export's own default: written again and again
    try:
        for index in (3, 4):
            assert main([str(run_dir), "--gen", "0", "--index", str(index), "--out",
                         str(new)]) == 0
            assert load_genome(new)[1]["index"] == index
    finally:
        new.unlink(missing_ok=True)


def test_the_champion_carries_its_reigns_evaluation(run_dir: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """champion.json holds no evaluation (crowned in a playoff, evaluated later): the export
    pools the evaluations of its reign from the log, as the report's crowning table does."""
    import shutil

    from features.botfile import save_genome

    run = tmp_path / "run"
    shutil.copytree(run_dir, run)
    rows = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    rows[1]["playoff"] = {"games": 100, "candidate_wins": 40, "incumbent_wins": -1,
                          "crowned": True}
    (run / "log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    values, _ = load_genome(run / "champion.json")
    save_genome(run / "champion.json", values,
                {"run": "run", "generation": 3, "crowned_generation": 1, "mu": 27.123456,
                 "sigma": 1.5})
    assert main([str(run), "--out", str(tmp_path / "c.json")]) == 0
    said = capsys.readouterr().out
    _, meta = load_genome(tmp_path / "c.json")
    assert meta["eval"]["games"] == 100 and meta["eval"]["wins"] == rows[3]["eval"]["wins"]
    assert "(champion since generation 1), mu 27.12±1.50, vs bots " in said
    assert "eval None" not in said
