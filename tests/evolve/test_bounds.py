"""Every file read is bounded, and hostile content is a one-line error, never a traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from arena.play import main as play_main
from evolve.checkpoint import CheckpointError, load_checkpoint
from evolve.run_cmd import main as run_main
from evolve.runfolder import parse_log
from features.botfile import load_genome
from features.genome import GenomeError
from game.map import MapError, load_map
from game.state import Rules, RulesError
from tests.helpers.fake_run import tiny_args

DEEP = "[" * 100_000 + "]" * 100_000
HUGE = "9" * 5000


def test_config_from_dev_zero_is_bounded(tmp_path: Path, capsys: Any) -> None:
    assert run_main([*tiny_args(tmp_path), "--config", "/dev/zero"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "/dev/zero" in err and "limit" in err


@pytest.mark.parametrize("load", [load_genome, load_map])
def test_bot_and_map_files_are_bounded(load: Any) -> None:
    with pytest.raises((GenomeError, MapError), match="limit"):
        load("/dev/zero")


@pytest.mark.parametrize("text", [DEEP, '{"genes": ' + HUGE + "}"])
@pytest.mark.parametrize("load", [load_genome, load_map])
def test_hostile_json_is_a_one_line_error(tmp_path: Path, text: str, load: Any) -> None:
    p = tmp_path / "bad.json"
    p.write_text(text)
    with pytest.raises((GenomeError, MapError), match="not valid JSON") as e:
        load(p)
    assert "\n" not in str(e.value)


def test_a_round_cap_beyond_int32_is_refused(capsys: Any) -> None:
    with pytest.raises(RulesError, match="1..1000000"):
        Rules(cap=2**31)
    assert play_main(["random", "random", "--cap", str(2**40)]) == 2
    assert "rules.cap" in capsys.readouterr().err


def test_damaged_log_lines_cost_only_themselves() -> None:
    good = {"generation": 1, "mu_mean": 1.0, "gene_mean": {"a.b": 0.5},
            "eval": {"games": 4, "wins": 1, "win_rate": 0.25, "lo": 0.1, "hi": 0.7}}
    lines = [json.dumps({"generation": 0, "mu_mean": 1.0}),
             '{"generation": 2, "x": ' + DEEP + "}",
             json.dumps({"generation": 3, "mu_mean": "high"}),
             json.dumps({"generation": 4, "gene_mean": {"a.b": [1]}}),
             json.dumps({"generation": 5, "eval": {"win_rate": "x"}}),
             json.dumps({"generation": 6, "eval": 5}),
             json.dumps(good)]
    records, bad = parse_log(("\n".join(lines) + "\n").encode())
    assert [r["generation"] for r in records] == [0, 1]
    assert [b.number for b in bad] == [2, 3, 4, 5, 6]
    assert "nested too deep" in bad[0].reason and "mu_mean" in bad[1].reason


def test_a_checkpoint_that_never_ends_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "ckpt_00000.npz"
    os.symlink("/dev/zero", link)
    with pytest.raises(CheckpointError, match="regular file"):
        load_checkpoint(link)


def _tiny(names: list[str]) -> dict[str, Any]:
    return {"name": "t", "continents": [{"name": "C", "bonus": 1, "territories": names}],
            "borders": [[names[0], names[1]], [names[1], names[2]]]}


def test_territory_names_that_read_the_same_in_actions_are_refused() -> None:
    from game.map import build_map

    with pytest.raises(MapError, match="read the same"):
        build_map(_tiny(["A B", "A_B", "C"]))
    with pytest.raises(MapError, match="only blank"):
        build_map(_tiny(["A\tB", "X", "C"]))


def test_a_territory_with_an_underscore_round_trips() -> None:
    from game.actions import Attack, parse_action
    from game.map import build_map

    m = build_map(_tiny(["A_B", "X Y", "C"]))
    for a in (Attack(0, 1, 0), Attack(1, 0, 2)):
        assert parse_action(a.text(m), m) == a


@pytest.mark.parametrize("plugin", ["shutil:rmtree", "os:system", "evolve.plugin:load_plugin",
                                    "evolve.config:load_config"])
def test_only_a_plugin_factory_is_called(tmp_path: Path, plugin: str, capsys: Any) -> None:
    assert run_main([*tiny_args(tmp_path), "--set", f"game.plugin={plugin}"]) == 2
    err = capsys.readouterr().err
    assert "not a plug-in factory" in err and err.count("\n") == 1


@pytest.mark.parametrize(("playoff", "field"), [
    ("won", "playoff"), ([1], "playoff"), (3, "playoff"), ({"crowned": "yes"}, "playoff.crowned"),
])
def test_a_playoff_of_the_wrong_type_costs_only_its_line(playoff: object, field: str) -> None:
    lines = [json.dumps({"generation": 0, "playoff": playoff}),
             json.dumps({"generation": 1, "playoff": {"crowned": True}}),
             json.dumps({"generation": 2, "playoff": None})]
    records, bad = parse_log(("\n".join(lines) + "\n").encode())
    assert [r["generation"] for r in records] == [1, 2]
    assert len(bad) == 1 and bad[0].reason == f"{field} has the wrong type"


@pytest.mark.parametrize("reader", ["checkpoint", "genes", "ladder cache"])
def test_an_npz_that_unpacks_past_its_bound_or_is_no_archive_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reader: str) -> None:
    import numpy as np

    import evolve.checkpoint
    import evolve.report.ladder as ladder
    import evolve.runfolder
    from evolve.checkpoint import npz_bytes
    from evolve.runfolder import RunFolder, RunFolderError

    for module in (evolve.checkpoint, evolve.runfolder):
        monkeypatch.setattr(module, "MAX_NPZ_BYTES", 100_000)
    monkeypatch.setattr(ladder, "MAX_CACHE_BYTES", 100_000)
    folder = RunFolder(tmp_path / "r")
    folder.genes.mkdir(parents=True)
    path = {"checkpoint": tmp_path / "ckpt_00000.npz", "genes": folder.genes_path(0),
            "ladder cache": tmp_path / "ladder.npz"}[reader]
    bomb = npz_bytes({"genes": np.zeros((1000, 100)), "mu": np.zeros(1000),
                      "sigma": np.zeros(1000), "names": np.array(["a"] * 100)})
    assert len(bomb) < 100_000  # 800 kB of zeros packed small: only the unpacked size tells
    npy = tmp_path / "a.npy"
    np.save(npy, np.zeros(3))
    for content, said in ((bomb, "unpacks to"), (npy.read_bytes(), "archive|BadZipFile")):
        path.write_bytes(content)
        if reader == "checkpoint":
            with pytest.raises(CheckpointError, match=said):
                load_checkpoint(path)
        elif reader == "genes":
            with pytest.raises(RunFolderError, match=said):
                folder.read_genes(0)
        else:
            assert ladder._load_cache(path, 100, 4) == {}  # a cache is played again
