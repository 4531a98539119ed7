"""The riskevo version: where it comes from, and how a loaded file's field reads back."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError
from pathlib import Path

import pytest

from game import version as V


def test_the_installed_distribution_names_the_version() -> None:
    from importlib.metadata import version
    assert V.riskevo_version() == version("riskevo")


def _not_installed(name: str) -> str:
    raise PackageNotFoundError(name)


@pytest.mark.parametrize("pyproject, expected", [
    ('[project]\nname = "riskevo"\nversion = "1.2.3"\n', "1.2.3"),
    ('[project]\nname = "riskevo"\n', V.UNKNOWN),
    ("not toml [", V.UNKNOWN),
    (None, V.UNKNOWN),
])
def test_without_an_install_the_source_tree_or_unknown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pyproject: str | None,
        expected: str) -> None:
    path = tmp_path / "pyproject.toml"
    if pyproject is not None:
        path.write_text(pyproject, encoding="utf-8")
    monkeypatch.setattr(V, "version", _not_installed)
    monkeypatch.setattr(V, "_PYPROJECT", path)
    V.riskevo_version.cache_clear()
    try:
        assert V.riskevo_version() == expected
    finally:
        V.riskevo_version.cache_clear()


@pytest.mark.parametrize("record, expected", [
    ({V.FIELD: "0.9.0"}, "0.9.0"),
    ({}, None),  # an old file, written before the field existed
    ({V.FIELD: 9}, None),
    ({V.FIELD: ""}, None),
    ({V.FIELD: "x" * (V.MAX_LEN + 1)}, None),
    ([V.FIELD], None),
])
def test_recorded_version_reads_only_a_sane_string(record: object, expected: str | None) -> None:
    assert V.recorded_version(record) == expected


def test_describe_names_the_version_or_says_it_predates_recording() -> None:
    assert V.describe("0.9.0") == "riskevo 0.9.0"
    assert "predates version recording" in V.describe(None)


# ----- every output of a run names its version; files from before it still load -----

def _tiny_run(tmp_path: Path) -> Path:
    from evolve.run_cmd import main as run_main
    from tests.helpers.fake_run import tiny_args
    assert run_main(tiny_args(tmp_path)) == 0
    return tmp_path / "t"


def test_a_run_folder_names_its_version_everywhere_and_resume_says_which(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json
    import tomllib

    from evolve.checkpoint import list_checkpoints, load_checkpoint
    from evolve.report.export import export_bot
    from evolve.run_cmd import main as run_main
    from features.botfile import save_genome
    from features.genome import hand_set_genome
    from tests.helpers.fake_run import tiny_args

    root = _tiny_run(tmp_path)
    now = V.riskevo_version()
    config = tomllib.loads((root / "config.toml").read_text())
    assert config[V.FIELD] == now
    assert {load_checkpoint(p).version for _, p in list_checkpoints(root / "checkpoints")} == {now}
    # Bot files: champion.json is the plug-in's format (the fake one here); the real one's is
    # features.genome's, which export writes too.
    save_genome(root / "champion.json", hand_set_genome(), {"generation": 3})
    assert json.loads((root / "champion.json").read_text())[V.FIELD] == now
    out = export_bot(root, tmp_path / "bot.json")
    assert json.loads(out.read_text())[V.FIELD] == now
    args = tiny_args(tmp_path)
    args[args.index("--generations") + 1] = "7"
    capsys.readouterr()
    assert run_main(args) == 0
    assert f"after generation 5, saved by riskevo {now} (this is riskevo {now})" in (
        capsys.readouterr().out)


def test_a_versioned_config_lacking_a_field_its_version_writes_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from evolve.config import BEFORE_ADDED
    from evolve.run_cmd import main as run_main
    from tests.helpers.fake_run import tiny_args

    root = _tiny_run(tmp_path)
    added = BEFORE_ADDED["rating.outcome"][0]
    text = (root / "config.toml").read_text()
    (root / "config.toml").write_text("".join(
        f'{V.FIELD} = "{added}"\n' if x.startswith(V.FIELD) else x
        for x in text.splitlines(True) if not x.startswith("outcome = ")))
    args = tiny_args(tmp_path)
    args[args.index("--generations") + 1] = "7"
    capsys.readouterr()
    assert run_main(args) == 2
    err = capsys.readouterr().err
    assert (f"config field rating.outcome is missing, but riskevo {added} wrote this file"
            in err and err.count("\n") == 1)


def test_files_from_before_version_recording_load(tmp_path: Path) -> None:
    import json

    import numpy as np

    from evolve.checkpoint import load_checkpoint
    from features.botfile import load_genome, save_genome
    from features.genome import hand_set_genome

    old = load_checkpoint(Path(__file__).parents[1] / "data" / "ckpt_format1_fake.npz")
    assert old.version is None
    bot = tmp_path / "bot.json"
    save_genome(bot, hand_set_genome(), {"note": "x"})
    doc = json.loads(bot.read_text())
    del doc[V.FIELD]
    bot.write_text(json.dumps(doc))
    values, meta = load_genome(bot)
    np.testing.assert_array_equal(values, hand_set_genome())
    assert meta == {"note": "x"}


@pytest.mark.parametrize("stored", ["", "x" * (V.MAX_LEN + 1)])
def test_a_checkpoints_malformed_version_reads_as_unrecorded(tmp_path: Path, stored: str) -> None:
    import numpy as np

    from evolve.checkpoint import checkpoint_path, load_checkpoint

    ck = load_checkpoint(Path(__file__).parents[1] / "data" / "ckpt_format1_fake.npz")
    ck.version = stored
    path = checkpoint_path(tmp_path, ck.generation)
    path.write_bytes(ck.to_bytes())
    assert load_checkpoint(path).version is None
    ck.version = "1.2.3"
    path.write_bytes(ck.to_bytes())
    assert load_checkpoint(path).version == "1.2.3"
    assert np.array_equal(load_checkpoint(path).genes, ck.genes)
