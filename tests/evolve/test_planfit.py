"""`evolve plan`: the value fitted on self-play, written into a planning bot file."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from evolve.planfit import fit_logistic, main
from features.search.player import read_bot


def test_the_logistic_fit_recovers_known_coefficients() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(20_000, 3))
    b = np.array([-1.0, 2.0, -0.5, 0.0])
    y = (rng.random(len(x)) < 1 / (1 + np.exp(-(b[0] + x @ b[1:])))).astype(float)
    assert np.allclose(fit_logistic(x, y), b, atol=0.08)


def test_evolve_plan_writes_a_planning_bot_file(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    assert main(["champion", "--games", "3", "--seed", "1", "--rollouts", "2",
                 "--out", str(out)]) == 0
    weights, meta, plan = read_bot(out)
    assert plan.kind == "plan" and plan.rollouts == 2 and plan.horizon == "attack"
    assert meta["plan_fit"]["games"] == 3 and meta["plan_fit"]["positions"] > 0
    champion, _, _ = read_bot(Path(__file__).parents[2] / "game/bots/files/champion.json")
    assert np.array_equal(weights, champion)  # the same weights, now with a fitted plan


def test_evolve_plan_refuses_bad_arguments(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["champion", "--games", "0", "--out", str(tmp_path / "x.json")]) == 2
    assert "--games must be" in capsys.readouterr().err
    assert main(["nope.json", "--out", str(tmp_path / "x.json")]) == 2
    assert "nope.json" in capsys.readouterr().err
