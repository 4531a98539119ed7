"""The DEAP toolbox: DEAP's own operators, chosen by name, seeded from the run's generator."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from deap import algorithms, base, tools

from evolve.breeding import ga
from evolve.breeding import toolbox as tbx
from evolve.config import (
    MATE_CHOICES,
    MUTATE_CHOICES,
    SELECT_CHOICES,
    ConfigError,
    load_config,
)
from evolve.run_cmd import main as run_main
from tests.helpers.fake_run import fake_plugin, tiny_args

ROOT = Path(__file__).resolve().parents[2]
CFG = load_config()
PLUGIN = fake_plugin(CFG)


def test_registered_operators_are_deaps(monkeypatch: pytest.MonkeyPatch) -> None:
    tb = tbx.build_toolbox(CFG, PLUGIN)
    assert isinstance(tb, base.Toolbox)
    assert tb.mate.func is tools.cxUniform and tb.mate.keywords == {"indpb": 0.5}
    assert tb.mutate_genes.func is tools.mutGaussian
    assert tb.mutate_genes.keywords["sigma"] == [0.2, 0.2, 0.2, 0.0]  # scale gene: no step
    assert tb.select.func is tools.selTournament and tb.select.keywords == {"tournsize": 3}
    assert tb.mutate_signs.func is tbx.flip_signs and tb.mutate_signs.keywords["genes"] == [3]
    calls = []
    real = algorithms.varAnd

    def spy(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(tbx.algorithms, "varAnd", spy)
    pop = ga.from_arrays(np.zeros((10, 4)), np.arange(10.0), np.ones(10))
    assert len(tbx.next_generation(pop, tb, CFG, np.random.default_rng(0))) == 10
    assert len(calls) == 1 and calls[0][1] is tb and calls[0][2:] == (0.5, 0.8)


def test_operators_by_name() -> None:
    cfg = load_config(overrides={"variation.mate": "cxTwoPoint", "variation.select": "selBest"})
    tb = tbx.build_toolbox(cfg, PLUGIN)
    assert tb.mate.func is tools.cxTwoPoint and tb.select.func is tools.selBest
    assert (tuple(tbx.MATE), tuple(tbx.MUTATE), tuple(tbx.SELECT)) == (
        MATE_CHOICES, MUTATE_CHOICES, SELECT_CHOICES)


@pytest.mark.parametrize("field", ["mate", "mutate", "select"])
def test_unknown_operator_is_one_line_error(field: str) -> None:
    with pytest.raises(ConfigError) as e:
        load_config(overrides={f"variation.{field}": "cxMagic"})
    msg = str(e.value)
    assert f"variation.{field}" in msg and "cxMagic" in msg and "\n" not in msg


def test_swapping_an_operator_is_one_register_line() -> None:
    tb = tbx.build_toolbox(CFG, PLUGIN)
    tb.register("mutate_genes", tools.mutPolynomialBounded, eta=20.0, low=-1.0, up=1.0,
                indpb=1.0)
    tbx.seed_random(np.random.default_rng(0))
    ind = tb.clone(tbx.Individual([0.5, 0.5, 0.5, 1.0]))
    tb.mutate(ind)  # mutate looks its parts up at call time
    assert all(-1.0 <= x <= 1.0 for x in ind[:3]) and ind[:3] != [0.5, 0.5, 0.5]


def _modules_importing_random() -> list[str]:
    found = []
    dirs = [d for d in ROOT.iterdir() if d.is_dir() and d.name[0] not in "._" and d.name != "runs"]
    for path in sorted(p for d in dirs for p in d.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "random" not in text:  # no import of it either
            continue
        tree = ast.parse(text)
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n == "random" or n.startswith("random.") for n in names):
                found.append(str(path.relative_to(ROOT)))
    return sorted(set(found))


def test_only_the_toolbox_touches_random() -> None:
    # DEAP's operators read the global `random` state, seeded in one place from the run's
    # generator; any other use would make runs depend on hidden state.
    assert _modules_importing_random() == ["evolve/breeding/toolbox.py"]


def test_variation_does_not_depend_on_random_state_before_it(tmp_path: Path) -> None:
    import importlib

    rnd: Any = importlib.import_module("random")  # not an import statement: see the test above
    results = []
    for state in (1, 2):
        rnd.seed(state)
        assert run_main(tiny_args(tmp_path / str(state))) == 0
        results.append((tmp_path / str(state) / "t" / "checkpoints" / "ckpt_00005.npz")
                       .read_bytes())
    assert results[0] == results[1]
