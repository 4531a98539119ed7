"""Genome layout, random genomes and the genome JSON file with every bad-file error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from features.botfile import load_genome, save_genome
from features.genome import (
    FORMAT,
    LAYOUT,
    SCALE_GENES,
    GenomeError,
    random_genomes,
)
from features.registry import (
    FEATURE_SET_VERSION,
    FEATURES,
    G_ATTACK,
    G_ATTACK_THRESHOLD,
    G_FORTIFY,
    G_FORTIFY_THRESHOLD,
    G_OCCUPY_SHARE,
    G_TRADE_AT,
    N_GENES,
)


def test_layout_names_and_offsets() -> None:
    names = LAYOUT.names
    assert len(names) == N_GENES == len(set(names))
    assert names[G_ATTACK] == "attack.win_prob"
    assert names[G_ATTACK_THRESHOLD] == "attack.threshold"
    assert names[G_FORTIFY] == "fortify.threat_gain"
    assert names[G_FORTIFY_THRESHOLD] == "fortify.threshold"
    assert names[G_OCCUPY_SHARE] == "occupy.share"
    assert names[G_TRADE_AT] == "cards.trade_at"
    assert all(f.gene in names for f in FEATURES)
    assert [names[i] for i in np.flatnonzero(LAYOUT.scale)] == list(SCALE_GENES)
    assert (LAYOUT.low < LAYOUT.high).all() and (LAYOUT.sigma > 0).all()


def test_describe_lists_every_gene() -> None:
    d = LAYOUT.describe()
    assert [r["name"] for r in d] == list(LAYOUT.names)
    assert {r["rank"] for r in d} == {"reinforce", "attack", "fortify", "occupy", "cards"}
    assert all(r["meaning"] for r in d)


def test_random_genomes_ranges_and_determinism() -> None:
    g = random_genomes(LAYOUT, 500, np.random.default_rng(7))
    assert g.shape == (500, N_GENES)
    free = ~LAYOUT.scale
    assert ((g[:, free] >= LAYOUT.low[free]) & (g[:, free] <= LAYOUT.high[free])).all()
    sc = g[:, LAYOUT.scale]
    assert set(np.unique(sc)) == {-1.0, 1.0}
    assert np.array_equal(g, random_genomes(LAYOUT, 500, np.random.default_rng(7)))


def test_round_trip(tmp_path: Path) -> None:
    g = random_genomes(LAYOUT, 1, np.random.default_rng(1))[0]
    p = tmp_path / "champion.json"
    save_genome(p, g, {"generation": 12, "trueskill": [25.0, 8.3]})
    v, meta = load_genome(p)
    assert np.array_equal(v, g)
    assert meta == {"generation": 12, "trueskill": [25.0, 8.3]}
    doc = json.loads(p.read_text())
    assert doc["format"] == FORMAT and doc["feature_set_version"] == FEATURE_SET_VERSION
    assert list(doc["genes"]) == list(LAYOUT.names)
    assert [x.name for x in tmp_path.iterdir()] == ["champion.json"]  # no temp file left


def test_save_rejects_bad_values(tmp_path: Path) -> None:
    g = random_genomes(LAYOUT, 1, np.random.default_rng(1))[0]
    bad = g.copy()
    bad[3] = np.nan
    with pytest.raises(GenomeError, match="reinforce.continent_bonus"):
        save_genome(tmp_path / "x.json", bad)
    with pytest.raises(GenomeError, match="genes"):
        save_genome(tmp_path / "x.json", g[:-1])
    assert not list(tmp_path.iterdir())


def _doc() -> dict[str, Any]:
    g = random_genomes(LAYOUT, 1, np.random.default_rng(2))[0]
    return {"format": FORMAT, "feature_set_version": FEATURE_SET_VERSION,
            "genes": LAYOUT.as_dict(g), "meta": {}}


def _edit(**kw: Any) -> dict[str, Any]:
    d = _doc()
    for k, v in kw.items():
        if k.startswith("gene:"):
            name = k[5:]
            if v is None:
                del d["genes"][name]
            else:
                d["genes"][name] = v
        else:
            d[k] = v
    return d


BAD = [
    (_edit(format="something-else"), "'format' must be 'riskevo-genome'"),
    (_edit(feature_set_version=FEATURE_SET_VERSION + 1), "feature_set_version"),
    (_edit(feature_set_version=None), "feature_set_version"),
    (_edit(genes=[1, 2]), "'genes' must be an object"),
    (_edit(meta=3), "'meta' must be an object"),
    (_edit(**{"gene:attack.bravado": 0.5}), "unknown gene 'attack.bravado'"),
    (_edit(**{"gene:fortify.movable": None}), "missing gene 'fortify.movable'"),
    (_edit(**{"gene:occupy.share": "half"}), "gene 'occupy.share' must be a number"),
    (_edit(**{"gene:occupy.share": True}), "gene 'occupy.share' must be a number"),
    (_edit(**{"gene:attack.win_prob": 0.5}), "scale gene 'attack.win_prob' must be -1 or 1"),
]


@pytest.mark.parametrize("doc,msg", BAD)
def test_bad_documents(tmp_path: Path, doc: dict[str, Any], msg: str) -> None:
    p = tmp_path / "g.json"
    p.write_text(json.dumps(doc))
    with pytest.raises(GenomeError, match=msg.replace("(", r"\(")) as e:
        load_genome(p)
    assert "\n" not in str(e.value) and str(p) in str(e.value)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_gene(tmp_path: Path, value: float) -> None:
    p = tmp_path / "g.json"
    p.write_text(json.dumps(_edit(**{"gene:attack.threshold": value})))  # NaN, Infinity
    assert "attack.threshold" in p.read_text()
    with pytest.raises(GenomeError, match="gene 'attack.threshold' is not finite"):
        load_genome(p)


def test_unreadable_and_invalid_json(tmp_path: Path) -> None:
    with pytest.raises(GenomeError, match="cannot read genome file"):
        load_genome(tmp_path / "missing.json")
    p = tmp_path / "g.json"
    p.write_text('{"format": ')
    with pytest.raises(GenomeError, match="not valid JSON"):
        load_genome(p)
    p.write_text("[1, 2]")
    with pytest.raises(GenomeError, match="'format'"):
        load_genome(p)


def test_docs_document_every_gene() -> None:
    # docs/genome.md's gene table is generated from LAYOUT (make docs; test_docs checks it).
    page = (Path(__file__).resolve().parents[2] / "docs" / "genome.md")
    missing = [n for n in LAYOUT.names if f"`{n}`" not in page.read_text(encoding="utf-8")]
    assert not missing, f"docs/genome.md gene table lacks {missing}"
