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
