"""A run's lines of descent (run.restart_after) and the planning step that plans the best
player of each and keeps the one its check ranks first (evolve.plan.lines)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import evolve.plan.lines as lines_mod
import evolve.plan.planfit as planfit
from evolve.config import load_config
from evolve.plan.lines import champion_at, line_bests, lines, plan_lines
from evolve.plan.plan_cmd import main as plan_main
from evolve.plan.planfit import Check
from evolve.run_cmd import main as run_main
from evolve.runfolder import RunFolder
from features.search.player import PlanSettings
from tests.helpers.fake_run import tiny_args


@pytest.mark.parametrize("restarts, upto, expected", [
    ([], 9, [(0, 9)]),
    ([4], 9, [(0, 4), (5, 9)]),
    ([2, 6], 9, [(0, 2), (3, 6), (7, 9)]),
    ([2, 6], 5, [(0, 2), (3, 5)]),  # planned as if stopped at 5: the line after 6 is not there
    ([9], 9, [(0, 9)]),  # restarted after the last generation: no generation of the new line
])
def test_lines_start_after_each_restart(restarts: list[int], upto: int,
                                        expected: list[tuple[int, int]]) -> None:
    log = [{"generation": g, "restart": g in restarts} for g in range(upto + 1)]
    assert [(ln.first, ln.last) for ln in lines(log, upto)] == expected
    assert [ln.index for ln in lines(log, upto)] == list(range(len(expected)))


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> RunFolder:
    """A fake run of 24 generations that restarts after 3 without a crowning."""
    runs = tmp_path_factory.mktemp("runs")
    args = tiny_args(runs, "r", "--set", "run.restart_after=3", "--set",
                     "output.genes_every=1")
    args[args.index("--generations") + 1] = "24"
    assert run_main(args) == 0
    return RunFolder(runs / "r")


def _champion(path: Path) -> tuple[np.ndarray, dict[str, Any]]:
    doc = json.loads(path.read_text())
    return np.array([doc["genes"][n] for n in ("a", "b", "c", "s")]), doc["meta"]


def test_each_line_offers_its_last_champion_or_its_closest_candidate(run: RunFolder) -> None:
    log = run.read_log()
    last = log[-1]["generation"]
    bests, notes = line_bests(run, log, last, 100.0)
    assert len(lines(log, last)) >= 3, "the fake run should restart at least twice"
    assert len(bests) + len(notes) == len(lines(log, last))
    for b in bests:
        played = [r for r in log if b.line.first <= r["generation"] <= b.line.last
                  and r["playoff"]]
        crowned = [r["generation"] for r in played if r["playoff"]["crowned"]]
        if crowned:
            assert b.crowned and b.generation == crowned[-1]
        else:
            gap = {r["generation"]: r["playoff"]["candidate_wins"]
                   - r["playoff"]["incumbent_wins"] for r in played}
            assert not b.crowned and gap[b.generation] == max(gap.values())
        pop = run.read_genes(b.generation)
        i = int(np.argmax(pop.mu - 3 * pop.sigma))  # champion.max_sigma 100: all qualify
        assert np.array_equal(b.genes, pop.genes[i])
        assert log[b.generation]["playoff"]["candidate"] == i  # the playoff says whom it played
    champion, _ = _champion(run.champion)
    assert any(np.array_equal(b.genes, champion) for b in bests)


def _fake_plan(seen: list[tuple[np.ndarray, int]], better: bool) -> Any:
    def fake(weights: np.ndarray, meta: dict[str, Any], source: str, **kw: Any) -> Any:
        seen.append((weights.copy(), kw["seed"]))
        strength = float(weights[0] + weights[1])  # the fake game's strength
        plan = {"bully": 0.5 + strength / 100 if better else 0.1}
        return PlanSettings().as_dict(), dict(meta), Check(10, {"bully": 0.5}, plan)
    return fake


@pytest.mark.parametrize("better", [True, False])
def test_a_run_plans_every_line_in_the_same_games_and_keeps_the_best(
        run: RunFolder, monkeypatch: pytest.MonkeyPatch, better: bool) -> None:
    seen: list[tuple[np.ndarray, int]] = []
    monkeypatch.setattr(planfit, "plan_champion", _fake_plan(seen, better))
    monkeypatch.setattr(lines_mod, "_read_champion", _champion)
    saved: dict[str, Any] = {}
    monkeypatch.setattr("features.botfile.BotFile.write",
                        lambda bot, path: saved.update(genes=bot.weights, meta=bot.meta))
    log = run.read_log()
    last = log[-1]["generation"]
    cfg = load_config(run_file=run.config)
    out = run.root / "plan.json"
    out.write_text("an older planning champion")
    words = plan_lines(run, cfg, last, out=out)
    bests, _ = line_bests(run, log, last, cfg.champion.max_sigma)
    assert len(seen) == len(bests) >= 2
    assert {s for _, s in seen} == {planfit.run_seed(cfg, last)}  # the same fit and check games
    if not better:
        assert "not kept" in words and not out.exists() and not saved
        return
    strongest = max(bests, key=lambda b: b.genes[0] + b.genes[1])
    assert np.array_equal(saved["genes"], strongest.genes)
    assert saved["meta"]["line"]["index"] == strongest.line.index
    assert saved["meta"]["line"]["lines"] == len(bests)
    assert f"the best of {len(bests)} lines" in words


def test_a_run_planned_as_if_stopped_before_its_first_restart_plans_one_champion(
        run: RunFolder, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[np.ndarray, int]] = []
    monkeypatch.setattr(planfit, "plan_champion", _fake_plan(seen, True))
    monkeypatch.setattr(lines_mod, "_read_champion", _champion)
    monkeypatch.setattr("features.botfile.BotFile.write", lambda *a, **k: None)
    log = run.read_log()
    first = next(r["generation"] for r in log if r["restart"])
    cfg = load_config(run_file=run.config)
    plan_lines(run, cfg, first, out=run.root / "early.json")
    crowned = [r["generation"] for r in log[:first + 1]
               if r["playoff"] and r["playoff"]["crowned"]]
    pop = run.read_genes(crowned[-1])
    assert len(seen) == 1 and seen[0][1] == planfit.run_seed(cfg, first)
    assert np.array_equal(seen[0][0], pop.genes[int(np.argmax(pop.mu - 3 * pop.sigma))])


def test_evolve_plan_of_a_run_folder_refuses_a_generation_it_did_not_log(
        run: RunFolder, capsys: pytest.CaptureFixture[str]) -> None:
    assert plan_main([str(run.root)]) == 2  # the fake run's plan.games is 0
    err = capsys.readouterr().err
    assert "plan.games is 0" in err and err.count("\n") == 1
    text = run.config.read_text()
    run.config.write_text(text.replace("\n[plan]\ngames = 0\n", "\n[plan]\ngames = 5\n"))
    try:
        assert plan_main([str(run.root)]) == 2  # the fake game is not the planning player's
        assert "the planning player plays four-seat games" in capsys.readouterr().err
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(lines_mod, "DEFAULT_PLUGIN", "tests.helpers.fake_run:fake_plugin")
            assert plan_main([str(run.root), "--upto", "99999"]) == 2
    finally:
        run.config.write_text(text)
    err = capsys.readouterr().err
    assert "--upto must be 0.." in err and err.count("\n") == 1
    assert plan_main(["champion", "--upto", "3", "--out", str(run.root / "x.json")]) == 2
    assert "takes no --upto" in capsys.readouterr().err


def test_damaged_playoff_records_and_lost_population_files_leave_a_line_out_not_a_crash(
        run: RunFolder, tmp_path: Path) -> None:
    log = run.read_log()
    last = log[-1]["generation"]
    bests, _ = line_bests(run, log, last, 100.0)
    first = bests[0]
    damaged = [dict(r) for r in log]
    for r in damaged:
        if first.line.first <= r["generation"] <= first.line.last and r["playoff"]:
            r["playoff"] = {**r["playoff"], "candidate_wins": "many"}
    again, notes = line_bests(run, damaged, last, 100.0)
    assert [b.line.index for b in again] == [b.line.index for b in bests[1:]]
    assert notes == ["line 1: no playoff"]

    def played(b: Any) -> int:
        return sum(1 for r in log if b.line.first <= r["generation"] <= b.line.last
                   and r["playoff"])

    target = next((b for b in bests if played(b) >= 2), None)
    assert target is not None, "no line of the fake run played two playoffs"
    gone = RunFolder(tmp_path / "copy")
    gone.genes.mkdir(parents=True)
    for g, p in run.genes_files():
        if g != target.generation:
            (gone.genes / p.name).write_bytes(p.read_bytes())
    moved = {b.line.index: b for b in line_bests(gone, log, last, 100.0)[0]}
    # the line's next playoff stands in for the one whose file is gone
    assert moved[target.line.index].generation != target.generation


def test_a_run_planned_before_its_first_crowning_is_refused(
        run: RunFolder, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lines_mod, "_read_champion", _champion)
    log = run.read_log()
    # the fake run crowns in generation 0; a log whose playoffs all kept the champion
    # stands for a run planned before its first crowning
    early = [{**r, "playoff": {**r["playoff"], "crowned": False}} if r["playoff"] else r
             for r in log[:5]]
    bests, _ = line_bests(run, early, 4, 100.0)
    with pytest.raises(ValueError, match="no champion crowned by generation 4"):
        champion_at(run, early, bests, 4)
    _, meta, source = champion_at(run, log, bests, log[-1]["generation"])
    assert source == "champion.json" and meta == _champion(run.champion)[1]
