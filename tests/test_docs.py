"""The docs' generated tables are current, every page the README links to exists, and every
experiment page has a short title and a row in the experiments' index."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from evolve.config import SCHEMA
from evolve.report import docgen
from features.genome import LAYOUT

ROOT = Path(__file__).resolve().parents[1]
EXPERIMENTS = ROOT / "docs" / "experiments"


def test_generated_tables_are_current() -> None:
    assert docgen.stale(ROOT / "docs") == [], "run make docs (python -m evolve.report.docgen)"


def test_gene_table_names_every_gene_and_config_table_every_field() -> None:
    genes = docgen.genes_markdown()
    assert all(f"| `{n}` |" in genes for n in LAYOUT.names)
    config = docgen.config_markdown()
    for sname, fields in SCHEMA.items():
        assert f"### `[{sname}]`" in config
        assert all(f"| `{f}` |" in config for f in fields)


def test_render_needs_its_block() -> None:
    assert docgen.render("a\n<!-- BEGIN generated: x -->\nold\n<!-- END generated: x -->\n",
                         "x", "new") == ("a\n<!-- BEGIN generated: x -->\nnew\n"
                                         "<!-- END generated: x -->\n")
    with pytest.raises(ValueError, match="generated: y"):
        docgen.render("no block", "y", "")


def test_relative_links_resolve() -> None:
    pages = [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "CONTRIBUTING.md",
             *sorted((ROOT / "docs").rglob("*.md"))]
    for page in pages:
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            assert (page.parent / target).exists(), f"{page.name}: {target}"


def test_experiment_titles_are_one_short_line() -> None:
    pages = sorted(EXPERIMENTS.glob("*.md"))
    assert len(pages) > 1
    for page in pages:
        title = page.read_text(encoding="utf-8").split("\n", 1)[0]
        assert title.startswith("# "), f"{page.name}: its first line is not its title"
        assert len(title) < 80, f"{page.name}: a title of {len(title)} characters (under 80)"


def test_the_experiments_index_links_every_page() -> None:
    index = (EXPERIMENTS / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| \[[^]]+\]\(([^)#]+)\) \|", index, flags=re.MULTILINE)
    pages = sorted(p.name for p in EXPERIMENTS.glob("*.md") if p.name != "README.md")
    assert rows, "docs/experiments/README.md has no index table"
    missing = [p for p in pages if p not in rows]
    assert not missing, f"docs/experiments/README.md's index has no row for {missing}"


def test_the_readme_stays_a_guide() -> None:
    """Under 220 lines, and what a newcomer looks for first within its first 150: set-up, a
    first run, the strength table, using the results, where a change goes (figures beyond
    the one table live in docs/strength.md)."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 220, f"README.md has {len(lines)} lines: move detail to docs/"
    head = "\n".join(lines[:150])
    for section in ("## Set-up", "## A first run", "## How strong it is", "## Using the results",
                    "## Where a change goes"):
        assert f"\n{section}" in head, f"{section} is not within README.md's first 150 lines"
    strength = head[head.index("## How strong it is"):].split("\n## ")[0]
    assert strength.count("\n| ") <= 4, "the README's strength table stays one small table"

