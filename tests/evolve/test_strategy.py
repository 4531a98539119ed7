"""CMA-ES beside the GA, the hall of fame, and resuming checkpoints of older versions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evolve.breeding import records
from evolve.breeding.strategy import CMA_STATE, CmaEs
from evolve.checkpoint import checkpoint_path, list_checkpoints, load_checkpoint
from evolve.config import load_config
from evolve.evolution import UNKEPT_KEYS, Evolution
from evolve.plugin import load_plugin
from evolve.run_cmd import build_parser, resolve_config
from evolve.run_cmd import main as run_main
from tests.helpers.fake_run import fake_plugin, tiny_args

DATA = Path(__file__).resolve().parents[1] / "data"
CMA = ("--set", "run.strategy=cma")


def _run(runs: Path, generations: int, *extra: str) -> bytes:
    args = tiny_args(runs, "t", *extra)
    args[args.index("--generations") + 1] = str(generations)
    assert run_main(args) == 0
    return checkpoint_path(runs / "t" / "checkpoints", generations - 1).read_bytes()


def test_cma_run_improves_and_is_deterministic(tmp_path: Path) -> None:
    one = _run(tmp_path / "one", 10, *CMA)
    two = _run(tmp_path / "two", 10, *CMA, "--n-jobs", "2", "--chunk-games", "5")
    assert one == two
    ck = load_checkpoint(tmp_path / "one" / "t" / "checkpoints" / "ckpt_00009.npz")
    assert {f"cma.{k}" for k in CMA_STATE} <= set(ck.arrays)
    assert int(ck.arrays["cma.update_count"]) == 10
    # In the fake game a + b is strength: the distribution's centre must move up.
    centre = ck.arrays["cma.centroid"]
    assert centre[0] + centre[1] > 0.5
    assert np.isin(ck.genes[:, 3], [-1.0, 1.0]).all()  # scale genes play as their sign


def test_cma_resume_is_bit_identical(tmp_path: Path) -> None:
    full = _run(tmp_path / "full", 8, *CMA)
    _run(tmp_path / "cut", 4, *CMA)
    assert _run(tmp_path / "cut", 8, *CMA) == full


def test_strategy_cannot_change_on_resume(tmp_path: Path, capsys: Any) -> None:
    _run(tmp_path, 2)
    capsys.readouterr()
    assert run_main(tiny_args(tmp_path, "t", *CMA)) == 2
    assert "run.strategy" in capsys.readouterr().err


def test_cma_state_round_trip() -> None:
    cfg = load_config(overrides={"run.strategy": "cma", "run.population": 12})
    a, b = CmaEs(cfg, fake_plugin(cfg)), CmaEs(cfg, fake_plugin(cfg))
    pop = a.initial(np.random.default_rng(0))
    for i, ind in enumerate(pop):
        ind.fitness.values = (float(i),)
    a.tell(pop)
    b.restore(a.state())
    pa, pb = a.ask([], np.random.default_rng(1)), b.ask([], np.random.default_rng(1))
    assert pa == pb
    with pytest.raises(ValueError, match="cma.C"):
        b.restore({**a.state(), "cma.C": np.eye(3)})


def test_hall_of_fame_keeps_best_champions_once() -> None:
    hof = records.hall_of_fame(2)
    records.enter_champion(hof, [1.0, 0.0], 30.0, 2.0, 0)  # score 24
    records.enter_champion(hof, [2.0, 0.0], 28.0, 1.0, 1)  # 25
    records.enter_champion(hof, [1.0, 0.0], 31.0, 1.0, 2)  # the first again, now 28
    records.enter_champion(hof, [3.0, 0.0], 26.0, 2.0, 3)  # 20: not good enough
    arrays = records.hall_of_fame_arrays(hof, 2)
    assert arrays["hof.genes"].tolist() == [[1.0, 0.0], [2.0, 0.0]]
    assert arrays["hof.mu"].tolist() == [31.0, 28.0] and arrays["hof.generation"].tolist() == [2, 1]
    again = records.hall_of_fame(2)
    records.restore_hall_of_fame(again, arrays)
    assert all(np.array_equal(records.hall_of_fame_arrays(again, 2)[k], arrays[k])
               for k in arrays)


def test_hall_of_fame_restores_ties_in_order() -> None:
    hof = records.hall_of_fame(5)
    for i in range(4):
        records.enter_champion(hof, [float(i)], 25.0, 1.0, i)
    arrays = records.hall_of_fame_arrays(hof, 1)
    again = records.hall_of_fame(5)
    records.restore_hall_of_fame(again, arrays)
    assert records.hall_of_fame_arrays(again, 1)["hof.genes"].tolist() == \
        arrays["hof.genes"].tolist()


def test_run_keeps_hall_of_fame_in_checkpoint(tmp_path: Path) -> None:
    _run(tmp_path, 6)
    ck = load_checkpoint(tmp_path / "t" / "checkpoints" / "ckpt_00005.npz")
    genes, mu = ck.arrays["hof.genes"], ck.arrays["hof.mu"]
    assert 1 <= len(genes) <= 20 and genes.shape[1] == 4
    scores = mu - 3 * ck.arrays["hof.sigma"]
    assert (np.diff(scores) <= 0).all()  # best first
    log = [json.loads(x) for x in (tmp_path / "t" / "log.jsonl").read_text().splitlines()]
    best = max(r["champion_mu"] - 3 * r["champion_sigma"] for r in log)
    assert scores[0] == pytest.approx(best)


def _resume_old(tmp_path: Path, engine: str) -> bytes:
    root = tmp_path / engine / "t"
    (root / "checkpoints").mkdir(parents=True)
    # The file was made when the fake plug-in was test_run:fake_plugin: its copy names the fake
    # by its module today (a run resumes only with the plug-in it was made with).
    old = dict(np.load(DATA / "ckpt_format1_fake.npz", allow_pickle=False))
    config = bytes(old["config"]).replace(b"test_run:fake_plugin",
                                          b"tests.helpers.fake_run:fake_plugin")
    old["config"] = np.frombuffer(config, dtype=np.uint8)
    with (root / "checkpoints" / "ckpt_00002.npz").open("wb") as f:
        np.savez(f, **old)
    # The file was made when the default mutation_indpb was 0.2 and games were rated by their
    # finishing order; a folder without config.toml resumes only with the checkpoint's values
    # (else a one-line error names the field).
    return _run(tmp_path / engine, 6, "--set", f"rating.engine={engine}",
                "--set", "output.checkpoint_seconds=0",
                "--set", "variation.mutation_indpb=0.2", "--set", 'rating.outcome="order"')


def test_checkpoint_of_the_previous_format_resumes_alike_with_both_engines(
        tmp_path: Path) -> None:
    # Written by the version before the rating engines, the DEAP toolbox and the hall of fame
    # (format 1: its config has none of their fields).
    old = load_checkpoint(DATA / "ckpt_format1_fake.npz")
    assert old.arrays == {} and "rating.engine" not in old.config
    compiled = _resume_old(tmp_path, "compiled")
    reference = _resume_old(tmp_path, "reference")
    assert compiled == reference
    lines = (tmp_path / "compiled" / "t" / "log.jsonl").read_text().splitlines()
    assert [json.loads(x) for x in lines[:3]] == old.log and len(lines) == 6
    assert [g for g, _ in list_checkpoints(tmp_path / "compiled" / "t" / "checkpoints")] == \
        [3, 4, 5]
    # Selection read the old ratings: generation 3's elites are the two best of the old file.
    gen3 = load_checkpoint(tmp_path / "compiled" / "t" / "checkpoints" / "ckpt_00003.npz")
    assert np.array_equal(gen3.genes[:2], old.genes[np.argsort(-old.mu, kind="stable")[:2]])


def test_resumed_logbook_holds_the_logged_generations(tmp_path: Path) -> None:
    _run(tmp_path, 6)
    cfg, folder, name = resolve_config(build_parser().parse_args(tiny_args(tmp_path)))
    evo = Evolution(cfg, load_plugin(cfg), folder, name)
    assert evo.resume()
    lines = [json.loads(x) for x in folder.log.read_text().splitlines()]
    assert records.flat_records(evo.logbook) == [
        {k: v for k, v in r.items() if k not in UNKEPT_KEYS} for r in lines]
    assert evo.logbook.select("generation") == list(range(6))
    assert evo.logbook.chapters["eval"].select("generation") == [0, 2, 4]
    assert evo.logbook.chapters["eval"].select("games") == [40, 40, 40]
