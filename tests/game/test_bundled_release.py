"""The bundled bot files name a released riskevo version: the package's own, or an earlier one
the CHANGELOG lists. A file stamped with a version nobody released cannot be told apart."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

from game.version import FIELD

ROOT = Path(__file__).resolve().parents[2]
FILES = ROOT / "game" / "bots" / "files"
RELEASE = re.compile(r"^## (\d+\.\d+\.\d+) \(\d{4}-\d{2}-\d{2}\)$", re.MULTILINE)


def package_version() -> str:
    """The source tree's version (the installed one may be an older install of the tree)."""
    found = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return str(found["project"]["version"])


def released(changelog: str) -> list[str]:
    """The versions the CHANGELOG lists as released, newest first."""
    return RELEASE.findall(changelog)


def _key(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def named_versions(doc: object) -> Iterator[str]:
    """Every version a bot file names, at any depth (its own and its provenance's)."""
    if isinstance(doc, dict):
        for key, value in doc.items():
            if key == FIELD:
                yield value if isinstance(value, str) else repr(value)
            else:
                yield from named_versions(value)
    elif isinstance(doc, list):
        for value in doc:
            yield from named_versions(value)


def unreleased(docs: dict[str, object], package: str, changelog: str) -> list[str]:
    """'file: version' for every version named that is not the package's or an earlier release."""
    ok = {v for v in released(changelog) if _key(v) <= _key(package)} | {package}
    return [f"{name}: {v}" for name, doc in sorted(docs.items())
            for v in named_versions(doc) if v not in ok]


def test_the_package_version_is_released_in_the_changelog() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = released(changelog)
    assert versions and versions[0] == package_version(), (
        f"pyproject.toml says {package_version()}; the newest CHANGELOG release is "
        f"{versions[:1]}: a version bump gets its CHANGELOG section in the same commit")
    assert versions == sorted(versions, key=_key, reverse=True)


def test_every_bundled_bot_file_names_a_released_version() -> None:
    docs = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in FILES.glob("*.json")}
    assert docs, f"no bundled bot files in {FILES}"
    for name, doc in docs.items():
        assert isinstance(doc, dict) and FIELD in doc, f"{name} names no {FIELD}"
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert unreleased(docs, package_version(), changelog) == []


def test_the_check_catches_a_version_not_released() -> None:
    changelog = "## Unreleased\n\n## 0.2.0 (2026-01-02)\n\n## 0.1.0 (2026-01-01)\n"
    docs: dict[str, object] = {
        "a.json": {FIELD: "0.2.0", "meta": {"provenance": {FIELD: "0.1.0"}}},
        "b.json": {FIELD: "0.2.1"},  # the next version, never released
        "c.json": {FIELD: "0.3.0", "meta": {FIELD: "0.0.9"}},
    }
    assert unreleased(docs, "0.2.0", changelog) == [
        "b.json: 0.2.1", "c.json: 0.3.0", "c.json: 0.0.9"]
    assert unreleased(docs, "0.1.0", changelog) == [
        "a.json: 0.2.0", "b.json: 0.2.1", "c.json: 0.3.0", "c.json: 0.0.9"]
