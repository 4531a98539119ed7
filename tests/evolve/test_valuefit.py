"""The run's value (evolve.plan.valuefit): the online fit learns and scores each batch before
learning it; its state survives a checkpoint; in a run it learns from the champion's recorded
games without changing the GA's games, a resumed run learns the same value, and the run's plots
draw it (evolve.report.valueplot)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from evolve.checkpoint import list_checkpoints, load_checkpoint
from evolve.plan.valuefit import (
    COLS,
    HELD_KEY,
    OnlineValue,
    calibration_error,
    held_out_curve,
    log_loss,
    record_task,
    run_value,
    value_games,
)
from evolve.progress import summary
from evolve.report.plots import make_plots
from evolve.report.valueplot import held_out
from evolve.run_cmd import main as run_main
from evolve.stats import base_log_loss
from features.botfile import BotFile
from features.search.value import NAMES, NV


def _batch(rng: np.random.Generator, truth: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    x = rng.random((n, NV))
    p = 1 / (1 + np.exp(-(truth[0] + x[:, COLS] @ truth[1:])))
    return x, (rng.random(n) < p).astype(np.float64)


def test_the_online_fit_scores_each_batch_before_learning_it_and_approaches_the_truth() -> None:
    rng = np.random.default_rng(3)
    truth = rng.normal(0, 1.0, 1 + len(COLS))
    value = OnlineValue.new(l2=1.0)
    losses = [value.learn(*_batch(rng, truth, 4000), decay=1.0)["log_loss"] for _ in range(6)]
    assert losses[0] == pytest.approx(np.log(2))  # nothing learned yet: p = 0.5 everywhere
    assert losses[-1] < losses[1] < losses[0]
    x, y = _batch(rng, truth, 20000)
    best = log_loss(1 / (1 + np.exp(-(truth[0] + x[:, COLS] @ truth[1:]))), y)
    assert log_loss(value.predict(x), y) < best + 0.01
    assert value.positions == 24000 and value.batches == 6
    assert value.values()["value.won"] == 10.0 and set(value.values()) == set(NAMES)


def test_calibration_error_is_zero_when_predictions_match_the_rates() -> None:
    p = np.repeat([0.15, 0.55, 0.95], 100)
    y = np.concatenate([np.r_[np.ones(15), np.zeros(85)], np.r_[np.ones(55), np.zeros(45)],
                        np.r_[np.ones(95), np.zeros(5)]])
    assert calibration_error(p, y) == pytest.approx(0.0)
    assert calibration_error(np.full(300, 0.9), y) > 0.2


def test_the_progress_line_sets_the_log_loss_beside_the_base_rates() -> None:
    # The log-loss of always predicting a batch's win rate is its binary entropy: the value
    # knows something only below it (a batch of longer games has a lower one).
    y = np.r_[np.ones(30), np.zeros(70)]
    assert base_log_loss(0.3) == pytest.approx(log_loss(np.full(100, 0.3), y))
    assert base_log_loss(0.5) == pytest.approx(np.log(2)) and base_log_loss(0.0) < 1e-9
    rec = {"generation": 40, "games": 8, "wall_s": 1.0, "games_per_s": 8.0, "mu_mean": 25.0,
           "mu_std": 1.0, "mu_max": 27.0, "champion_index": 0, "champion_mu": 26.0,
           "champion_sigma": 1.0, "mean_rounds": 15.0, "capped_fraction": 0.0, "eval": None,
           "value": {"positions": 900, "log_loss": 0.52, "calibration": 0.02, "won": 0.3,
                     "total_positions": 9000, "batches": 3}}
    assert "value log-loss 0.5200 (base rate 0.6109, calibration 0.020, 9,000 positions)" in (
        summary(rec, 100))


def test_the_state_round_trips_and_a_wrong_shape_is_refused() -> None:
    rng = np.random.default_rng(1)
    value = OnlineValue.new(1.0)
    value.learn(*_batch(rng, rng.normal(size=1 + len(COLS)), 500), decay=0.9)
    back = OnlineValue.from_arrays(value.arrays(), 1.0)
    assert np.array_equal(back.mean, value.mean) and back.positions == 500
    assert OnlineValue.from_arrays({}, 2.0).precision[0, 0] == 2.0  # an older checkpoint
    bad = {**value.arrays(), "value.mean": np.zeros(5)}
    with pytest.raises(ValueError, match="coefficients"):
        OnlineValue.from_arrays(bad, 1.0)


def test_value_games_derive_from_the_run_seed_and_generation() -> None:
    a = value_games(5, 10, 40, 4, 0.5, [3, 4])
    b = value_games(5, 10, 40, 4, 0.5, [3, 4])
    c = value_games(5, 11, 40, 4, 0.5, [3, 4])
    assert np.array_equal(a[0], b[0]) and not np.array_equal(a[0], c[0])
    assert ((a[0] == 0).sum(axis=1) >= 1).all()  # the champion sits in every game
    assert set(np.unique(a[0])) <= {0, 3, 4}


def _args(runs: Path, generations: int, every: int) -> list[str]:
    """A tiny run of the real game: the value learns from 8 games each generation."""
    return ["--name", "r", "--runs-dir", str(runs), "--population", "8", "--games", "4",
            "--generations", str(generations), "--seed", "3", "--n-jobs", "1",
            "--eval-every", "0", "--set", "run.elite=2", "--set", "output.plot_every=0",
            "--set", "champion.every=0", "--set", "plan.games=0", "--set",
            f"value.every={every}", "--set", "value.games=8", "--set", "value.self_share=0.5"]


def _state(runs: Path) -> tuple[list[bytes], dict[str, np.ndarray], list[object]]:
    root = runs / "r"
    genes = [p.read_bytes() for p in sorted((root / "genes").iterdir())]
    last = load_checkpoint(list_checkpoints(root / "checkpoints")[-1][1])
    log = [json.loads(x).get("value") for x in (root / "log.jsonl").read_text().splitlines()]
    return genes, last.arrays, log


def test_a_run_learns_its_value_resumes_it_and_plays_the_same_games(tmp_path: Path) -> None:
    full, cut, off = tmp_path / "full", tmp_path / "cut", tmp_path / "off"
    assert run_main(_args(full, 3, 1)) == 0
    genes, arrays, log = _state(full)
    assert all(r and r["positions"] > 0 for r in log)  # type: ignore[index]
    assert log[-1]["total_positions"] == sum(r["positions"] for r in log)  # type: ignore[index]
    assert run_value(full / "r" / "checkpoints", 2) is not None
    assert full / "r" / "plots" / "value.png" in make_plots(full / "r", genes=[], ladder=False)
    # The log keeps the value after each batch; one held-out set scores every one of them.
    champion = BotFile.read(full / "r" / "champion.json").weights
    full_log = [json.loads(x) for x in (full / "r" / "log.jsonl").read_text().splitlines()]
    curve = held_out_curve(full_log, champion, 6)
    assert curve.shape == (3, 3) and list(curve[:, 0]) == [0, 1, 2]
    assert np.array_equal(curve, held_out_curve(full_log, champion, 6))
    last = OnlineValue.from_arrays(arrays, 1.0)
    x, y = record_task(champion, np.zeros((6, 4), np.int32),
                       [np.random.SeedSequence(HELD_KEY, spawn_key=(i,)) for i in range(6)],
                       None, None)
    assert curve[-1, 1] == pytest.approx(log_loss(last.predict(x), y))
    assert curve[0, 1] != curve[-1, 1] and np.all(curve[:, 2] == curve[0, 2])
    assert held_out_curve([{"generation": 0}], champion, 6).shape == (0, 3)
    damaged = [{"generation": 1, "value": {"weights": ["x"] * (1 + len(COLS))}},
               {"generation": 2, "value": {"weights": [1e999] * (1 + len(COLS))}},
               {"generation": 3, "value": {"weights": [0.0] * len(COLS)}}]
    assert held_out_curve(damaged, champion, 6).shape == (0, 3)  # skipped, not a traceback
    drawn = held_out(full / "r", full_log)  # what `make plot` draws: the run's own game
    assert drawn is not None and drawn.shape == (3, 3) and np.isfinite(drawn).all()
    assert run_main(_args(cut, 2, 1)) == 0
    assert run_main(_args(cut, 3, 1)) == 0
    genes_cut, arrays_cut, log_cut = _state(cut)
    assert genes_cut == genes and log_cut == log
    assert all(np.array_equal(arrays[k], arrays_cut[k]) for k in arrays)
    assert run_main(_args(off, 3, 0)) == 0  # no value: the same league, the same genes
    genes_off, arrays_off, log_off = _state(off)
    assert genes_off == genes and log_off == [None] * 3
    assert "value.mean" not in arrays_off or not arrays_off["value.counts"][0]
    stop = tmp_path / "stop"  # value.until: it learns through generation 1, then stands
    assert run_main([*_args(stop, 3, 1), "--set", "value.until=1"]) == 0
    genes_stop, arrays_stop, log_stop = _state(stop)
    assert genes_stop == genes and log_stop[:2] == log[:2] and log_stop[2] is None
    assert arrays_stop["value.counts"][1] == 2
    assert run_value(stop / "r" / "checkpoints", 2) == OnlineValue(
        np.asarray(log[1]["weights"]), np.eye(1)).values()  # type: ignore[index]
