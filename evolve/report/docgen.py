"""The generated parts of the docs: the gene table of docs/genome.md (from
`features.genome.LAYOUT`) and the configuration table of docs/evolution.md (from
`evolve/defaults.toml`, its comments and the bounds `evolve.config` checks).

`python -m evolve.report.docgen` rewrites them between their `<!-- BEGIN generated: NAME -->` and
`<!-- END generated: NAME -->` lines; `--check` only says whether they are current (exit 1 if
not). A test runs the check, so a new gene or config field cannot leave the docs behind.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from evolve.cli import ArgumentParser
from evolve.config import SCHEMA, _describe, _toml_value, field_meta, load_config, to_dict
from features.genome import ADDED, LAYOUT, V1_NAMES, GenomeLayout
from game.atomic import atomic_write_text

DOCS = Path(__file__).resolve().parents[2] / "docs"
_LINE = re.compile(r"^(\w+)\s*=\s*(.+?)\s*(?:#\s*(.*))?$")
_SECTION = re.compile(r"^\[(\w+)\]\s*(?:#\s*(.*))?$")


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def gene_since(name: str) -> int:
    """The feature-set version that added a gene."""
    if name in V1_NAMES:
        return 1
    return next((v for v, names in ADDED.items() if name in names), 2)


def genes_markdown(layout: GenomeLayout = LAYOUT) -> str:
    """One row per gene: name, the version that added it, initial range, meaning."""
    rows = [f"Feature set version {layout.version}, {layout.size} genes.", "",
            "| gene | since | range at start | meaning |", "|---|---|---|---|"]
    for d in layout.describe():
        span = "-1 or +1 (scale gene)" if d["scale"] else f"{d['low']:g} .. {d['high']:g}"
        rows.append(f"| `{d['name']}` | {gene_since(d['name'])} | {span} | "
                    f"{_cell(d['meaning'])} |")
    return "\n".join(rows)


def defaults_comments() -> tuple[dict[str, str], dict[str, str]]:
    """Comments of evolve/defaults.toml: section -> comment, `section.field` -> comment
    (indented comment lines continue the one above)."""
    text = (resources.files("evolve") / "defaults.toml").read_text(encoding="utf-8")
    sections: dict[str, str] = {}
    fields: dict[str, str] = {}
    section, last = "", ""
    for raw in text.splitlines():
        line = raw.strip()
        if m := _SECTION.match(line):
            section = last = m.group(1)
            sections[section] = m.group(2) or ""
        elif (m := _LINE.match(line)) and section:
            last = f"{section}.{m.group(1)}"
            fields[last] = m.group(3) or ""
        elif line.startswith("#") and raw[:1].isspace() and last:
            table = sections if last == section else fields
            table[last] = f"{table[last]} {line.lstrip('#').strip()}".strip()
    return sections, fields


def config_markdown() -> str:
    """One table per section: field, what it allows, default, what it does."""
    section_notes, notes = defaults_comments()
    defaults = to_dict(load_config())
    out: list[str] = []
    for sname, fields in SCHEMA.items():
        out += [f"### `[{sname}]`", ""]
        if section_notes.get(sname):
            out += [section_notes[sname], ""]
        out += ["| field | allowed | default | what |", "|---|---|---|---|"]
        for fname, (typ, f) in fields.items():
            meta = field_meta(f)
            note = notes.get(f"{sname}.{fname}") or meta["doc"]
            out.append(f"| `{fname}` | {_cell(_describe(typ, meta))} | "
                       f"`{_toml_value(defaults[sname][fname])}` | {_cell(note)} |")
        out.append("")
    return "\n".join(out).rstrip()


GENERATED: dict[str, tuple[str, Callable[[], str]]] = {
    "genes": ("genome.md", genes_markdown),
    "config": ("evolution.md", config_markdown),
}


def render(text: str, name: str, body: str) -> str:
    """`text` with the block of `name` replaced by `body` (ValueError if it has no block)."""
    begin, end = f"<!-- BEGIN generated: {name} -->", f"<!-- END generated: {name} -->"
    i, j = text.find(begin), text.find(end)
    if i < 0 or j < i:
        raise ValueError(f"no '{begin}' ... '{end}' block")
    return text[:i + len(begin)] + "\n" + body + "\n" + text[j:]


def stale(docs: Path = DOCS, write: bool = False) -> list[str]:
    """Pages whose generated blocks are out of date (rewritten when `write`)."""
    out = []
    for name, (page, make) in GENERATED.items():
        path = docs / page
        text = path.read_text(encoding="utf-8")
        new = render(text, name, make())
        if new != text:
            out.append(f"{page} ({name})")
            if write:
                atomic_write_text(path, new)
    return out


def main(argv: list[str] | None = None) -> int:
    """`python -m evolve.report.docgen [--check] [--docs DIR]`."""
    ap = ArgumentParser(prog="python -m evolve.report.docgen", description=__doc__)
    ap.add_argument("--check", action="store_true", help="exit 1 if a page is out of date")
    ap.add_argument("--docs", type=Path, default=DOCS,
                    help="the docs folder (default: %(default)s)")
    args: Any = ap.parse_args(argv)
    if not (args.docs / "genome.md").is_file():
        print(f"error: {args.docs} has no genome.md (run from a source checkout)")
        return 2
    pages = stale(args.docs, write=not args.check)
    for p in pages:
        print(f"{'out of date' if args.check else 'rewrote'}: {p}")
    return 1 if args.check and pages else 0


if __name__ == "__main__":
    raise SystemExit(main())
