"""`evolve plan`: the value fitted against a mix of opponents, written into a planning bot file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import evolve.plan.planfit as planfit
from evolve.config import load_config
from evolve.plan.plan_cmd import main
from evolve.plan.planfit import Check, fit_logistic, plan_run, positions
from features.botfile import read_bot, save_genome
from features.genome import hand_set_genome
from features.linear import LinearPlayer
from features.search.player import PlanSettings
from features.search.value import NV, value_scratch, value_terms
from game.bots import BOTS, GAUNTLET
from game.decision import DecisionKind
from game.engine import play_game
from game.map import classic_map
from game.rules import layout as L
from game.state import Rules


def test_the_logistic_fit_recovers_known_coefficients() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(20_000, 3))
    b = np.array([-1.0, 2.0, -0.5, 0.0])
    y = (rng.random(len(x)) < 1 / (1 + np.exp(-(b[0] + x @ b[1:])))).astype(float)
    assert np.allclose(fit_logistic(x, y), b, atol=0.08)


def test_evolve_plan_writes_a_planning_bot_file(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    assert main(["champion", "--games", "3", "--seed", "1", "--rollouts", "2",
                 "--check-games", "4", "--out", str(out)]) == 0
    weights, meta, plan = read_bot(out)
    assert plan.kind == "plan" and plan.rollouts == 2 and plan.horizon == "attack"
    assert plan.place == load_config().plan.play_place  # it plans its placements as a run's
    assert meta["plan_fit"]["games"] == 3 and meta["plan_fit"]["positions"] > 0
    assert set(meta["plan_fit"]["check"]["plan"]) == set(meta["plan_fit"]["check"]["greedy"])
    # without --margin it tries the margins a run's planning champion tries
    assert set(meta["plan_fit"]["check"]["margins"]) == {f"{m:g}" for m in
                                                         load_config().plan.margins}
    champion, _, _ = read_bot(Path(__file__).parents[2] / "game/bots/files/champion.json")
    assert np.array_equal(weights, champion)  # the same weights, now with a fitted plan


def test_evolve_plan_refuses_bad_arguments(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["champion", "--games", "0", "--out", str(tmp_path / "x.json")]) == 2
    assert "--games must be" in capsys.readouterr().err
    assert main(["nope.json", "--out", str(tmp_path / "x.json")]) == 2
    assert "nope.json" in capsys.readouterr().err
    assert main(["champion", "--place", "9", "--out", str(tmp_path / "x.json")]) == 2
    assert "plan.place must be" in capsys.readouterr().err


def test_the_fit_records_the_bot_in_every_game_and_its_copies_only_when_drawn() -> None:
    w = hand_set_genome()
    alone, _ = positions(w, 4, 9, "attack", self_share=0.0)
    mixed, _ = positions(w, 4, 9, "attack", self_share=1.0)
    assert 0 < len(alone) < len(mixed)


@pytest.mark.parametrize("better", [True, False])
def test_a_run_keeps_its_planning_champion_only_when_it_wins_more(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, better: bool) -> None:
    champion, out = tmp_path / "champion.json", tmp_path / "champion-plan.json"
    save_genome(champion, hand_set_genome(), {"generation": 7})
    out.write_text("an older planning champion")
    seen = {}

    def fake(weights, meta, source, **kw):  # type: ignore[no-untyped-def]
        seen.update(kw)
        won = {"bully": 0.6 if better else 0.4}
        return PlanSettings().as_dict(), {**meta, "plan_fit": {}}, Check(10, {"bully": 0.5}, won)

    monkeypatch.setattr(planfit, "plan_champion", fake)
    cfg = load_config()
    line = plan_run(champion, out, cfg, 7)
    assert seen["games"] == cfg.plan.games and seen["horizon"] == cfg.plan.horizon
    assert seen["refits"] == cfg.plan.refits and seen["margins"] == cfg.plan.margins
    assert seen["self_shares"] == cfg.plan.self_share
    if better:
        _w, _meta, played = read_bot(out)
        assert played.kind == "plan" and str(out) in line
        # The file searches as configured to play, not as cheaply as the check ran.
        assert (played.rollouts, played.top_k, played.place) == (
            cfg.plan.play_rollouts, cfg.plan.play_top_k, cfg.plan.play_place)
    else:
        assert not out.exists() and "not kept" in line


def test_the_config_offers_the_horizons_the_planner_plays() -> None:
    from evolve.sections import PLAN_HORIZONS
    from features.search.player import HORIZONS

    assert PLAN_HORIZONS == HORIZONS


def test_evolve_plan_keeps_the_margin_that_won_most(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    assert main(["champion", "--games", "3", "--seed", "2", "--rollouts", "2",
                 "--check-games", "8", "--margin", "0", "--margin", "100",
                 "--out", str(out)]) == 0
    _w, meta, plan = read_bot(out)
    tried = meta["plan_fit"]["check"]["margins"]
    assert set(tried) == {"0", "100"}
    assert tried[f"{plan.margin:g}"] == max(tried.values())


def test_the_fit_can_record_the_planning_bot_itself() -> None:
    w = hand_set_genome()
    x, _y = positions(w, 3, 5, "attack", self_share=0.0)
    xp, yp = positions(w, 3, 5, "attack", self_share=0.0, plan=PlanSettings(rollouts=2))
    assert len(xp) > 0 and len(yp) == len(xp)
    assert len(xp) != len(x) or not np.array_equal(xp, x)  # other games: the bot planned


def test_a_refit_is_checked_beside_the_first_fit_and_the_best_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    assert main(["champion", "--games", "3", "--seed", "3", "--rollouts", "2",
                 "--check-games", "6", "--margin", "0", "--margin", "0.2", "--refits", "1",
                 "--out", str(out)]) == 0
    _w, meta, plan = read_bot(out)
    fit = meta["plan_fit"]
    assert fit["refits"] == 1 and len(fit["check"]["refits"]) == 1
    every = [fit["check"]["margins"], *fit["check"]["refits"]]
    assert all(set(f) == {"0", "0.2"} for f in every)
    chosen = every[fit["fit"]][f"{plan.margin:g}"]
    assert chosen == max(v for f in every for v in f.values())
    assert main(["champion", "--refits", "9", "--out", str(out)]) == 2


def test_each_self_share_is_a_fit_checked_in_the_same_games_and_the_best_is_kept(
        tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    assert main(["champion", "--games", "3", "--seed", "4", "--rollouts", "2",
                 "--check-games", "6", "--margin", "0", "--margin", "0.2",
                 "--self-share", "0", "--self-share", "1", "--out", str(out)]) == 0
    _w, meta, plan = read_bot(out)
    fit = meta["plan_fit"]
    shares = fit["check"]["self_shares"]
    assert set(shares) == {"0", "1"} and all(set(r) == {"0", "0.2"} for r in shares.values())
    chosen = shares[f"{fit['self_share']:g}"]
    assert chosen == fit["check"]["margins"]
    assert chosen[f"{plan.margin:g}"] == max(v for r in shares.values() for v in r.values())
    assert main(["champion", "--self-share", "1.5", "--out", str(out)]) == 2


def test_a_run_config_with_one_self_share_still_loads(tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text("[plan]\nself_share = 0.5\n")
    assert load_config([cfg]).plan.self_share == (0.5,)



MAP = classic_map()


class _Recorder(LinearPlayer):
    """The greedy player in the Python engine, keeping its value terms before its first fortify
    decision of each turn (with the turn): what the compiled recorder must record."""

    def __init__(self, weights: np.ndarray) -> None:
        super().__init__(weights)
        self.rows: list[tuple[int, np.ndarray]] = []

    def act(self, view, decision):  # type: ignore[no-untyped-def]
        st = view.kernel_state()
        turn = int(st.kernel.sc[L.S_TURNS])
        if decision.kind is DecisionKind.FORTIFY and (not self.rows or self.rows[-1][0] != turn):
            buf = value_scratch(MAP.kernel, 4)
            value_terms(MAP.kernel, st.kernel, Rules().vector(), st.current, buf)
            self.rows.append((turn, buf[:NV].copy()))
        return super().act(view, decision)


@pytest.mark.parametrize("share", [1.0, 0.5])
def test_the_compiled_recorder_records_what_the_python_engine_sees(share: float) -> None:
    w = hand_set_genome()
    x, y = positions(w, 3, 11, "attack", self_share=share)
    rows: list[tuple[int, np.ndarray, float]] = []
    for g in range(3):  # the games `positions` plays, in the Python engine
        draw = np.random.default_rng(np.random.SeedSequence(11, spawn_key=(g, 1)))
        seats: list[Any] = [_Recorder(w)]
        for _ in range(3):
            seats.append(_Recorder(w) if draw.random() < share
                         else BOTS[GAUNTLET[int(draw.integers(len(GAUNTLET)))]]())
        seats = [seats[i] for i in draw.permutation(4)]
        out = play_game(seats, seed=np.random.SeedSequence(11, spawn_key=(g,)))
        game = [(t, r, float(out.winner == i)) for i, p in enumerate(seats)
                if isinstance(p, _Recorder) for t, r in p.rows]
        rows += sorted(game, key=lambda e: e[0])  # the replay records in turn order
    assert len(x) == len(rows) > 0
    assert np.array_equal(x, np.array([r for _t, r, _w in rows]))
    assert np.array_equal(y, np.array([v for _t, _r, v in rows]))


@pytest.mark.parametrize("run_wins", [True, False])
def test_the_runs_learned_value_is_checked_beside_the_fits(monkeypatch: pytest.MonkeyPatch,
                                                           run_wins: bool) -> None:
    learned = {"value.income": 7.0}

    def fake_rates(weights, plan, games, seed, rules=None, board=None):  # type: ignore[no-untyped-def]
        if plan is None:
            return {"bully": 0.3}
        from features.search.plan import PS_VALUE
        is_run = plan[PS_VALUE] == 7.0
        return {"bully": 0.6 if is_run == run_wins else 0.5}

    monkeypatch.setattr(planfit, "rates", fake_rates)
    monkeypatch.setattr(planfit, "fitted_values", lambda *a, **k: ({"value.income": 1.0}, 10, ()))
    plan, meta, check = planfit.plan_champion(hand_set_genome(), {}, "test", games=10,
                                              check_games=5, seed=1, margins=(0.1, 0.2),
                                              run_value=learned)
    fit = meta["plan_fit"]
    assert set(fit["check"]["run_value"]) == {"0.1", "0.2"}
    assert (plan["value"]["value.income"] == 7.0) is run_wins
    assert (fit["value"] == "the run's, learned as it went") is run_wins
    assert (fit["self_share"] is None) is run_wins and fit["check"]["margins"]
    assert "the run's value:" in check.words()


@pytest.mark.parametrize("has_run_value", [True, False])
def test_the_runs_value_alone_is_checked_unless_it_has_none(monkeypatch: pytest.MonkeyPatch,
                                                            has_run_value: bool) -> None:
    fitted: list[float] = []

    def fake_fit(*a, **k):  # type: ignore[no-untyped-def]
        fitted.append(a[4])  # the fit's self share
        return {"value.income": 1.0}, 10, ()

    monkeypatch.setattr(planfit, "rates", lambda w, plan, *a, **k: {"bully": 0.5})
    monkeypatch.setattr(planfit, "fitted_values", fake_fit)
    plan, meta, check = planfit.plan_champion(
        hand_set_genome(), {}, "test", games=10, check_games=5, seed=1, margins=(0.1, 0.2),
        self_shares=(0.25, 1.0), run_value={"value.income": 7.0} if has_run_value else None,
        value_from="run")
    fit = meta["plan_fit"]
    assert fitted == ([] if has_run_value else [0.25, 1.0])
    assert (plan["value"]["value.income"] == 7.0) is has_run_value
    assert (fit["games"] == 0) is has_run_value
    # Only the fits made have rows in the check.
    shares = fit["check"]["self_shares"]
    assert shares == {} if has_run_value else set(shares) == {"0.25", "1"}
    assert {f for f, _s, _m in check.margins} == ({planfit.RUN_FIT} if has_run_value else {0})
    fitted.clear()
    _plan, _meta, only_fits = planfit.plan_champion(
        hand_set_genome(), {}, "test", games=10, check_games=5, seed=1, margins=(0.1,),
        run_value={"value.income": 7.0}, value_from="fits")
    assert fitted == [planfit.SELF_SHARE] and {f for f, _s, _m in only_fits.margins} == {0}


def test_a_run_made_before_placement_planning_resumes_writing_what_it_did(
        tmp_path: Path) -> None:
    old = tmp_path / "config.toml"
    old.write_text('riskevo_version = "0.17.0"\n[rating]\noutcome = "win"\n[plan]\ngames = 10\n')
    assert load_config(run_file=old).plan.play_place == 0  # as 0.17.0 wrote its planning file
    assert load_config().plan.play_place > 0  # a new run plans its placements
    old.write_text('riskevo_version = "0.18.0"\n[rating]\noutcome = "win"\n[plan]\ngames = 10\n')
    with pytest.raises(ValueError, match="plan.play_place"):
        load_config(run_file=old)  # a version that wrote the field cannot lack it


def test_a_run_made_before_0_23_resumes_learning_and_checking_as_it_did(tmp_path: Path) -> None:
    old = tmp_path / "config.toml"
    old.write_text('riskevo_version = "0.22.0"\n[rating]\noutcome = "win"\n'
                   '[plan]\ngames = 10\nplay_place = 4\n')
    cfg = load_config(run_file=old)
    assert cfg.value.until == 0 and cfg.plan.value_from == "both"
    new = load_config()
    assert new.value.until > 0 and new.plan.value_from == "run"
