"""The value's net fitted on positions: it learns what a weighted sum of the terms cannot, and
its folded weights are the model it trained."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from evolve.plan.netfit import BATCH, EPOCHS, MIN_STEPS, epochs_for, fit_net
from evolve.plan.planfit import fit_logistic
from evolve.plan.valuefit import COLS, WON, WON_WEIGHT, log_loss
from features.search.player import PlanSettings
from features.search.value import NV, weighted_value


def _data(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Terms in [0, 1]; the win when exactly one of two terms is high (no weighted sum of the
    terms predicts it), with some noise."""
    r = np.random.default_rng(seed)
    x = r.random((n, NV))
    x[:, WON] = 0.0
    a, b = x[:, COLS[0]] > 0.5, x[:, COLS[5]] > 0.5
    p = np.where(a ^ b, 0.85, 0.15)
    return x, (r.random(n) < p).astype(np.float64)


def test_the_net_learns_what_the_weighted_sum_cannot() -> None:
    x, y = _data(40_000, 1)
    xt, yt = _data(10_000, 2)
    fit = fit_net(x, y, 8, np.random.default_rng(3), epochs=40)
    b = fit_logistic(x[:, COLS], y)
    linear = log_loss(1 / (1 + np.exp(-(b[0] + xt[:, COLS] @ b[1:]))), yt)
    assert linear > 0.68  # the sum learns nothing here
    assert fit.log_loss(xt, yt) < linear - 0.1
    assert fit.value[WON] == WON_WEIGHT and len(fit.net) == 8


def test_a_fit_is_its_generators_and_its_bot_plays_the_same_arithmetic() -> None:
    x, y = _data(5_000, 4)
    one = fit_net(x, y, 4, np.random.default_rng(5), epochs=2)
    assert one == fit_net(x, y, 4, np.random.default_rng(5), epochs=2)
    assert one != fit_net(x, y, 4, np.random.default_rng(6), epochs=2)
    vw = PlanSettings(value=one.value, net=one.net).value_vector()
    got = np.array([weighted_value(vw, row) for row in x[:200]])
    assert np.allclose(got, one.logits(x[:200]), atol=1e-9)


def test_the_fit_does_not_depend_on_each_terms_scale() -> None:
    # The net trains on standardized terms, so rescaled and shifted terms train the same net;
    # its weights, folded back onto the raw terms, must then value every position alike.
    x, y = _data(4_000, 8)
    scale = np.linspace(0.5, 3.0, NV)
    shift = np.linspace(-1.0, 1.0, NV)
    x2 = x * scale + shift
    x2[:, WON] = 0.0
    a = fit_net(x, y, 4, np.random.default_rng(9), epochs=1)
    b = fit_net(x2, y, 4, np.random.default_rng(9), epochs=1)
    xt, _ = _data(500, 10)
    xt2 = xt * scale + shift
    xt2[:, WON] = 0.0
    assert np.allclose(a.intercept + a.logits(xt), b.intercept + b.logits(xt2), atol=1e-3)


@pytest.mark.parametrize("n, epochs", [(131, MIN_STEPS), (BATCH, MIN_STEPS),
                                       (3 * BATCH + 1, MIN_STEPS // 4), (10**7, EPOCHS)])
def test_a_fit_takes_min_steps_minibatches_or_its_epochs(n: int, epochs: int) -> None:
    # A sample under one minibatch once took MIN_STEPS * BATCH / n of them (78,000 for 131
    # positions, a minute of a test); a large one takes EPOCHS whole passes.
    assert epochs_for(n) == epochs


@pytest.mark.parametrize("hidden", [0, 33])
def test_a_net_size_outside_the_bot_files_bound_is_refused(hidden: int) -> None:
    x, y = _data(100, 7)
    with pytest.raises(ValueError, match="hidden must be 1..32"):
        fit_net(x, y, hidden, np.random.default_rng(0))


def test_evolve_plan_fits_a_net_when_asked_and_the_same_one_again(tmp_path: Path) -> None:
    from evolve.plan.plan_cmd import main
    from features.botfile import read_bot

    files = [tmp_path / "a.json", tmp_path / "b.json"]
    for out in files:
        assert main(["champion", "--games", "6", "--seed", "1", "--rollouts", "2",
                     "--check-games", "4", "--margin", "0.1", "--net", "4",
                     "--out", str(out)]) == 0
    _w, meta, plan = read_bot(files[0])
    assert len(plan.net) == 4 and meta["plan_fit"]["units"] == 4
    assert read_bot(files[1])[2] == plan


def test_evolve_plan_refuses_a_net_too_big(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from evolve.plan.plan_cmd import main

    assert main(["champion", "--net", "33", "--out", str(tmp_path / "x.json")]) == 2
    assert "--net must be 0..32" in capsys.readouterr().err
