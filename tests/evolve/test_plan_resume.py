"""A run stopped during its end-of-run planning step gets its planning champion on resume
(issue 65, K8): before, resuming a finished run said only that it had its generations, and an
extended run stopped there kept the previous length's champion-plan.json beside the new
champion.json. The fit itself is replaced by a stand-in (the real one plays 10,000 games)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import evolve.plan.lines
import evolve.run_cmd
from evolve.cli import evolve_command
from evolve.plan.planmark import PENDING, plan_generation
from evolve.run_cmd import main as run_main
from features.genome import FORMAT
from tests.helpers.fake_run import tiny_args


class Planner:
    """Stands in for the fit: stopped by Ctrl-C while `stopping`, else writes `out`."""

    def __init__(self) -> None:
        self.stopping = True
        self.calls: list[int] = []

    def __call__(self, folder: Any, cfg: Any, generation: int, rules: Any, board: Any,
                 out: Path) -> str:
        self.calls.append(generation)
        if self.stopping:
            raise KeyboardInterrupt
        out.write_text(json.dumps({"format": FORMAT, "meta": {"generation": generation}}))
        return f"planning champion: {out}"


@pytest.fixture
def planner(monkeypatch: pytest.MonkeyPatch) -> Planner:
    fake = Planner()
    monkeypatch.setattr(evolve.plan.lines, "_plan_lines", fake)
    # The tiny runs play the fake plug-in's games: let them plan as the real one's would.
    monkeypatch.setattr(evolve.run_cmd, "DEFAULT_PLUGIN", "tests.helpers.fake_run:fake_plugin")
    return fake


def _args(tmp_path: Path, generations: int) -> list[str]:
    args = [*tiny_args(tmp_path), "--set", "plan.games=100"]
    args[args.index("--generations") + 1] = str(generations)
    return args


def test_a_resume_finishes_a_planning_step_the_stop_cut_short(tmp_path: Path, capsys: Any,
                                                               planner: Planner) -> None:
    run = tmp_path / "t"
    assert run_main(_args(tmp_path, 6)) == 0
    assert "planning champion skipped" in capsys.readouterr().err
    assert (run / PENDING).is_file() and not (run / "champion-plan.json").exists()
    planner.stopping = False
    assert run_main(_args(tmp_path, 6)) == 0
    out = capsys.readouterr().out
    assert "the planning champion was not finished (the run was stopped during it): making it " \
           "now" in out
    assert planner.calls == [5, 5]
    assert plan_generation(run / "champion-plan.json") == 5 and not (run / PENDING).exists()
    assert run_main(_args(tmp_path, 6)) == 0  # done: nothing more to make
    assert planner.calls == [5, 5] and "not finished" not in capsys.readouterr().out


def test_an_extended_run_stopped_while_planning_keeps_no_plan_of_the_earlier_length(
        tmp_path: Path, capsys: Any, planner: Planner) -> None:
    run = tmp_path / "t"
    planner.stopping = False
    assert run_main(_args(tmp_path, 6)) == 0
    assert plan_generation(run / "champion-plan.json") == 5
    planner.stopping = True
    assert run_main(_args(tmp_path, 8)) == 0  # extended, and stopped while planning
    assert not (run / "champion-plan.json").exists()
    assert plan_generation(run / "champion-plan-gen5.json") == 5
    capsys.readouterr()
    planner.stopping = False
    assert run_main(_args(tmp_path, 8)) == 0
    assert plan_generation(run / "champion-plan.json") == 7 and not (run / PENDING).exists()


def test_a_sigterm_stop_leaves_the_plan_for_later(tmp_path: Path, capsys: Any,
                                                  planner: Planner,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # SIGTERM asks a run to end soon (a service manager, `timeout`): no planning step then.
    import os
    import signal

    import tests.helpers.fake_run as fake_run

    real, sent = fake_run.fake_play_games, []

    def play(weights: Any, seeds: Any, rules: Any, board: Any) -> Any:
        if seeds[0].spawn_key and not sent:  # a league game (the warm-up's has no spawn key)
            sent.append(1)
            os.kill(os.getpid(), signal.SIGTERM)
        return real(weights, seeds, rules, board)

    monkeypatch.setattr(fake_run, "fake_play_games", play)
    planner.stopping = False
    assert run_main(_args(tmp_path, 6)) == 130
    err = capsys.readouterr().err
    assert planner.calls == [] and "planning champion not made (stopped by SIGTERM)" in err
    assert "stopped after generation 0" in err


def test_ctrl_c_inside_the_compiled_games_skips_the_plan_and_says_how_to_make_it(
        tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Raised inside numba's compiled games, Ctrl-C's KeyboardInterrupt comes out as a
    # SystemError ("returned a result with an exception set"): it used to end the run with
    # "interrupted" and neither the skip nor the resume line.
    import os
    import signal

    def compiled_games(*args: Any) -> str:
        try:
            os.kill(os.getpid(), signal.SIGINT)
        except KeyboardInterrupt as e:
            raise SystemError("CPUDispatcher(_play) returned a result with an exception set"
                              ) from e
        return "not reached"

    monkeypatch.setattr(evolve.plan.lines, "_plan_lines", compiled_games)
    monkeypatch.setattr(evolve.run_cmd, "DEFAULT_PLUGIN", "tests.helpers.fake_run:fake_plugin")
    before = signal.getsignal(signal.SIGINT)
    assert run_main(_args(tmp_path, 6)) == 0
    err = capsys.readouterr().err
    assert f"planning champion skipped; make it later with: {evolve_command('plan')}" in err
    assert (tmp_path / "t" / PENDING).is_file()
    assert signal.getsignal(signal.SIGINT) is before  # the planning step's handler is gone


def test_a_plan_that_fails_without_ctrl_c_is_not_called_skipped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any) -> str:
        raise SystemError("a real fault")

    monkeypatch.setattr(evolve.plan.lines, "_plan_lines", broken)
    monkeypatch.setattr(evolve.run_cmd, "DEFAULT_PLUGIN", "tests.helpers.fake_run:fake_plugin")
    with pytest.raises(SystemError, match="a real fault"):
        run_main(_args(tmp_path, 6))
