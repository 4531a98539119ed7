"""Export a run's champion or any individual as a bot file, and load it back."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_plots import make_synthetic_run

from evolve.export import ExportError, export_bot, load_bot, main
from features.genome import LAYOUT, GenomeError


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_synthetic_run(tmp_path_factory.mktemp("exp") / "synth", generations=4)


def test_champion_round_trip(run_dir: Path, tmp_path: Path) -> None:
    out = export_bot(run_dir, tmp_path / "champ.json")
    values, meta = load_bot(out)
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
    values, meta = load_bot(out)
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
        load_bot(out)


def test_bad_requests(run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ExportError, match="no generation 99"):
        export_bot(run_dir, tmp_path / "x.json", gen=99)
    with pytest.raises(ExportError, match="index must be 0..29"):
        export_bot(run_dir, tmp_path / "x.json", gen=0, index=30)
    assert main([str(run_dir), "--gen", "7", "--out", str(tmp_path / "y.json")]) == 2
    assert "no generation 7" in capsys.readouterr().out
    assert not (tmp_path / "y.json").exists()
