"""A run's planning champion: its last crowned champions planned, checked alike, the best kept."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import evolve.planrun as planrun
from evolve.config import load_config
from evolve.planfit import Check
from evolve.planrun import crowned, plan_run
from evolve.runfolder import RunFolder
from features.genome import LAYOUT, hand_set_genome, save_genome
from features.search.player import PlanSettings, read_bot

FREE = next(i for i in range(LAYOUT.size) if not LAYOUT.scale[i])  # a gene that may be any number


def _genome(g: int) -> np.ndarray:
    """The hand-set genome with one free gene set to g: a distinct champion per generation."""
    w = hand_set_genome()
    w[FREE] = g
    return w


def _run(tmp_path: Path, proven: list[int | None]) -> RunFolder:
    """A run folder whose log crowns `proven` (one per generation) and stores every
    generation's population, each generation's champion distinct."""
    folder = RunFolder(tmp_path / "r")
    folder.create()
    for g, p in enumerate(proven):
        genes = np.stack([_genome(g), _genome(-1 - g)])
        folder.write_genes(g, genes, np.array([30.0, 20.0]), np.ones(2), LAYOUT.names)
        folder.append_log({"generation": g, "champion_index": 0, "proven_generation": p})
    save_genome(folder.champion, _genome(proven[-1] or 0), {"generation": proven[-1]})
    return folder


def _fake(seen: list[dict[str, Any]], plan_mean: dict[float, float], greedy: float = 0.5
          ) -> Callable[..., tuple[dict[str, Any], dict[str, Any], Check]]:
    """plan_champion that records its calls; the plan's win rate by the bot's first gene."""
    def fake(weights, meta, source, **kw):  # type: ignore[no-untyped-def]
        seen.append({"source": source, **kw})
        won = {"bully": plan_mean[float(weights[FREE])]}
        return PlanSettings().as_dict(), dict(meta), Check(10, {"bully": greedy}, won)
    return fake


def test_crowned_generations_are_listed_once_most_recent_first(tmp_path: Path) -> None:
    folder = _run(tmp_path, [None, 1, 1, 3, 3, 3])
    assert crowned(folder) == [3, 1]


@pytest.mark.parametrize("better", [True, False])
def test_a_run_keeps_its_planning_champion_only_when_it_wins_more(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, better: bool) -> None:
    folder = _run(tmp_path, [None, 1])
    folder.champion_plan.write_text("an older planning champion")
    seen: list[dict[str, Any]] = []
    monkeypatch.setattr(planrun, "plan_champion",
                        _fake(seen, {1.0: 0.6 if better else 0.4}))
    cfg = load_config(overrides={"plan.candidates": 1})
    line = plan_run(folder, cfg, 1)
    assert len(seen) == 1
    assert seen[0]["games"] == cfg.plan.games and seen[0]["horizon"] == cfg.plan.horizon
    assert seen[0]["refits"] == cfg.plan.refits and seen[0]["margins"] == cfg.plan.margins
    if better:
        assert read_bot(folder.champion_plan)[2].kind == "plan"
        assert str(folder.champion_plan) in line
    else:
        assert not folder.champion_plan.exists() and "not kept" in line


def test_the_best_of_the_crowned_champions_is_kept_all_checked_in_the_same_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _run(tmp_path, [None, 1, 2, 3, 4])
    seen: list[dict[str, Any]] = []
    # The champion (4) plans worse than those crowned at 3 and 2; 1 is not tried (3 candidates).
    monkeypatch.setattr(planrun, "plan_champion",
                        _fake(seen, {4.0: 0.55, 3.0: 0.7, 2.0: 0.9, 1.0: 0.9}))
    line = plan_run(folder, load_config(overrides={"plan.candidates": 3}), 4)
    assert [s["source"].split()[-1] for s in seen] == ["4", "3", "2"][:len(seen)]
    assert len(seen) == 3 and len({s["check_seed"] for s in seen}) == 1
    assert len({s["seed"] for s in seen}) == 3
    weights, _meta, plan = read_bot(folder.champion_plan)
    assert plan.kind == "plan" and weights[FREE] == 2.0
    assert "from generation 2" in line and "candidates" in line
