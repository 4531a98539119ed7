"""The search seam: the top-k attack scorer, the determinizer, the search's hidden-information
guarantee, its settings, and planning games equal in the compiled loop and the Python engine."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from features.botfile import read_bot, save_genome
from features.compiled import play_mixed_game, trace_linear_game
from features.decide import attack_options, decide
from features.genome import hand_set_genome
from features.linear import LinearPlayer, map_context
from features.search.plan import (
    PS_PLACE,
    PS_ROLLOUTS,
    PS_TOP_K,
    decide_plan_boxed,
    make_plan_work,
    searches,
)
from features.search.player import GREEDY, PlanPlayer, PlanSettings, PlanSettingsError
from features.search.rollout import play_on
from features.search.value import NAMES, NV, TERMS, value_scratch, value_terms
from features.work import make_work
from game.decision import DecisionKind
from game.engine import play_game
from game.map import classic_map
from game.rules import layout as L
from game.rules.determinize import determinize
from game.rules.jit import RngBox
from game.state import Rules, State

MAP = classic_map()
W = hand_set_genome()
PLAN = PlanSettings(rollouts=4, top_k=3)
PLACE = PlanSettings(rollouts=4, top_k=3, place=3)


class _Grab(LinearPlayer):
    """The greedy player, keeping a copy of every position it is asked to attack in."""

    def __init__(self, weights: np.ndarray) -> None:
        super().__init__(weights)
        self.positions: list[State] = []

    kinds = (DecisionKind.ATTACK,)

    def act(self, view, decision):  # type: ignore[no-untyped-def]
        if decision.kind in self.kinds:
            self.positions.append(view.kernel_state().copy())
        return super().act(view, decision)


def _positions(rules: Rules, seed: int, every: int = 7,
               kind: DecisionKind = DecisionKind.ATTACK) -> list[State]:
    grab = _Grab(W)
    grab.kinds = (kind,)
    play_game([grab, LinearPlayer(W), LinearPlayer(W), LinearPlayer(W)], seed=seed, rules=rules)
    return grab.positions[::every]


def _plan_action(s: State, rules: Rules, seed: int) -> tuple[int, ...]:
    k = s.kernel
    return tuple(int(x) for x in decide_plan_boxed(
        MAP.kernel, map_context(MAP), k, rules.vector(), W, PLAN.vector(),
        make_work(MAP.kernel, 4), make_plan_work(MAP.kernel, k),
        RngBox(np.random.default_rng(seed))))


def _hide_otherwise(s: State, seat: int, rng: np.random.Generator, missions: bool) -> State:
    """A copy of s that seat sees alike: the unseen cards and the rivals' missions redealt."""
    out = s.copy()
    cards = out.kernel.cards
    unseen = [c for c in range(len(cards)) if cards[c] == L.CARD_DECK
              or (cards[c] >= 0 and cards[c] != seat)]
    locs = cards[unseen].copy()
    cards[unseen] = locs[rng.permutation(len(unseen))]
    if missions:
        pl = out.kernel.pl
        for q in range(pl.shape[0]):
            if q != seat:
                pl[q, L.P_MISSION] = int(rng.integers(0, L.M_DESTROY))
                pl[q, L.P_TARGET] = -1
    return out


def test_attack_options_best_first_and_the_first_is_the_greedy_choice() -> None:
    for s in _positions(Rules(), 3, every=3):
        work = make_work(MAP.kernel, 4)
        k = s.copy().kernel
        n = attack_options(MAP.kernel, map_context(MAP), k, Rules().vector(), W, work, 5)
        assert 0 < n <= 5
        v = work.opt_v[:n]
        assert (np.diff(v) <= 0).all()
        greedy = decide(MAP.kernel, map_context(MAP), s.copy().kernel, Rules().vector(), W,
                        make_work(MAP.kernel, 4))
        if greedy[0] == L.A_ATTACK:
            assert (greedy[1], greedy[2]) == (work.opt_a[0], work.opt_b[0])


def test_determinize_keeps_what_the_seat_sees_and_ignores_what_it_does_not() -> None:
    rules = Rules(missions=True)
    for s in _positions(rules, 5):
        seat = s.current
        other = _hide_otherwise(s, seat, np.random.default_rng(1), missions=True)
        a, b = s.copy().kernel, other.kernel
        for x in (a, b):
            ids = np.zeros(64, np.int32)
            determinize(x, rules.vector(), seat, np.random.default_rng(9), ids, ids.copy())
        assert (a.cards == b.cards).all() and (a.pl == b.pl).all()
        sizes = [int((s.kernel.cards == q).sum()) for q in range(4)]
        assert [int((a.cards == q).sum()) for q in range(4)] == sizes
        assert ((s.kernel.cards == seat) == (a.cards == seat)).all()  # own hand kept
        assert a.pl[seat, L.P_MISSION] == s.kernel.pl[seat, L.P_MISSION]


@pytest.mark.parametrize("missions", [False, True])
def test_planner_decisions_never_depend_on_hidden_cards_or_missions(missions: bool) -> None:
    rules = Rules(missions=missions)
    checked = 0
    for seed in (11, 12):
        for s in _positions(rules, seed):
            other = _hide_otherwise(s, s.current, np.random.default_rng(seed), missions)
            assert _plan_action(s, rules, 4) == _plan_action(other, rules, 4)
            checked += 1
    assert checked >= 10


def test_value_terms_lie_in_their_intervals() -> None:
    leads = np.array([t.name.endswith("_lead") for t in TERMS])
    seen = np.zeros(NV, bool)
    for s in _positions(Rules(), 2, every=2) + _positions(Rules(), 3, every=1):
        out = value_scratch(MAP.kernel, s.kernel.pl.shape[0])
        value_terms(MAP.kernel, s.kernel, Rules().vector(), s.current, out)
        v = out[:NV]
        assert np.isfinite(v).all()
        assert ((v >= np.where(leads, -1, 0)) & (v <= 1)).all(), dict(zip(NAMES, v, strict=True))
        seen |= v != 0
    # Every term but the win's moves somewhere in two seeded games (a win ends the game).
    assert [n for n, s in zip(NAMES, seen, strict=True) if not s] == ["value.won"]


@pytest.mark.parametrize("seed,plan", [(21, PLAN), (22, PLAN), (23, PLAN), (25, PLACE)])
def test_a_planning_game_is_the_same_in_the_compiled_loop_and_the_python_engine(
        seed: int, plan: PlanSettings) -> None:
    weights = np.stack([W] * 4)
    plans = np.zeros((4, len(plan.vector())))
    plans[1] = plan.vector()
    fast = play_mixed_game(weights, np.zeros(4, np.int32), seed, plans=plans)
    slow = play_game([LinearPlayer(W), PlanPlayer(W, plan), LinearPlayer(W), LinearPlayer(W)],
                     seed=seed)
    assert tuple(int(p) for p in fast.placements) == slow.placements
    assert fast.rounds == slow.rounds


def test_several_planners_share_a_game_reproducibly_in_the_compiled_loop() -> None:
    weights = np.stack([W] * 4)
    plans = np.tile(PLAN.vector(), (4, 1))
    one = np.zeros_like(plans)
    one[0] = PLAN.vector()
    a = trace_linear_game(weights, 24, plans=plans)[1]
    assert np.array_equal(a, trace_linear_game(weights, 24, plans=plans)[1])
    assert not np.array_equal(a, trace_linear_game(weights, 24, plans=one)[1])


def test_play_on_finishes_a_game_from_any_position_the_same_way_for_a_seed() -> None:
    rules = Rules()
    fx = map_context(MAP)
    for s in _positions(rules, 5, every=9)[:4]:
        ends = []
        for _ in range(2):
            k = s.copy().kernel
            n = play_on(MAP.kernel, fx, k, rules.vector(), np.stack([W] * 4),
                        np.random.default_rng(8), make_work(MAP.kernel, 4), 200_000)
            assert n > 0 and k.sc[L.S_PHASE] == L.PH_OVER
            ends.append((k.owner.copy(), int(k.sc[L.S_WINNER])))
        assert np.array_equal(ends[0][0], ends[1][0]) and ends[0][1] == ends[1][1]
        assert s.kernel.sc[L.S_PHASE] != L.PH_OVER  # the position itself is left alone


def test_zero_rollouts_play_the_greedy_game_move_for_move() -> None:
    weights = np.stack([W] * 4)
    greedy_plans = np.tile(GREEDY.vector(), (4, 1))
    _, a = trace_linear_game(weights, 31)
    _, b = trace_linear_game(weights, 31, plans=greedy_plans)
    assert np.array_equal(a, b)


@pytest.mark.parametrize("rollouts,place,phase,want", [
    (4, 0, L.PH_ATTACK, True), (4, 0, L.PH_REINFORCE, False), (4, 3, L.PH_REINFORCE, True),
    (4, 3, L.PH_FORTIFY, False), (4, 3, L.PH_OCCUPY, False), (0, 3, L.PH_ATTACK, False),
    (0, 3, L.PH_REINFORCE, False),
])
def test_the_search_runs_in_attacks_and_in_placements_only_when_asked(
        rollouts: int, place: int, phase: int, want: bool) -> None:
    plan = PlanSettings(rollouts=4, top_k=3, place=place).vector()
    plan[PS_ROLLOUTS] = rollouts  # a greedy row of a compiled game's plans
    assert bool(searches(plan, phase)) is want


@pytest.mark.parametrize("column,value,words", [
    (PS_ROLLOUTS, 0.5, "whole numbers"), (PS_TOP_K, -1.0, "whole numbers"),
    (PS_PLACE, 2.5, "whole numbers"), (PS_ROLLOUTS, float("nan"), "finite"),
])
def test_a_compiled_game_refuses_plan_rows_no_settings_make(column: int, value: float,
                                                            words: str) -> None:
    plans = np.tile(PLACE.vector(), (4, 1))
    plans[2, column] = value
    with pytest.raises(ValueError, match=words):
        play_mixed_game(np.stack([W] * 4), np.zeros(4, dtype=np.int32), 5, plans=plans)


def test_a_margin_no_plan_can_clear_keeps_every_greedy_choice() -> None:
    rules = Rules()
    wide = PlanSettings(rollouts=4, top_k=3, margin=100.0)
    fx = map_context(MAP)
    for i, s in enumerate(_positions(rules, 6, every=3)):
        k = s.copy().kernel
        greedy = decide(MAP.kernel, fx, k, rules.vector(), W, make_work(MAP.kernel, 4))
        planned = decide_plan_boxed(MAP.kernel, fx, k, rules.vector(), W, wide.vector(),
                                    make_work(MAP.kernel, 4), make_plan_work(MAP.kernel, k),
                                    RngBox(np.random.default_rng(i)))
        assert tuple(planned) == tuple(greedy)


def test_planning_differs_from_greedy_somewhere() -> None:
    weights = np.stack([W] * 4)
    plans = np.zeros((4, len(PLAN.vector())))
    plans[0] = PLAN.vector()
    differ = sum(not np.array_equal(trace_linear_game(weights, g)[1],
                                    trace_linear_game(weights, g, plans=plans)[1])
                 for g in range(40, 44))
    assert differ >= 1


@pytest.mark.parametrize("bad,field", [
    ({"kind": "deep"}, "plan.kind"), ({"rollouts": 0}, "plan.rollouts"),
    ({"top_k": 9}, "plan.top_k"), ({"value": {"value.nope": 1}}, "plan.value"),
    ({"value": {"value.income": "x"}}, "plan.value: value.income"), ({"depth": 2}, "depth"),
    ({"margin": -0.1}, "plan.margin"), ({"margin": "big"}, "plan.margin"),
    ({"place": 9}, "plan.place"), ({"place": True}, "plan.place"),
])
def test_bad_plan_settings_name_the_field(bad: dict[str, object], field: str) -> None:
    with pytest.raises(PlanSettingsError, match=field.replace(".", r"\.")):
        PlanSettings.from_dict(bad)


def test_a_bot_file_says_how_it_plays(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    save_genome(path, W, {"run": "t"}, plan=PLAN.as_dict())
    values, _meta, plan = read_bot(path)
    assert plan == PLAN and np.array_equal(values, W)
    save_genome(path, W)
    assert read_bot(path)[2] == GREEDY
    doc = json.loads(path.read_text())
    doc["plan"] = {"rollouts": -1}
    path.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match=r"b\.json: plan\.rollouts must be"):
        read_bot(path)


def test_a_plan_explanation_is_the_decisions_own_arithmetic() -> None:
    from features.search.explain import explain_plan

    explained = 0
    for s in _positions(Rules(), 13, every=3):
        ex = explain_plan(s, MAP, Rules(), W, PLAN, np.random.default_rng(4))
        assert ex.action == _plan_action(s, Rules(), 4)
        if not ex.options:
            continue
        explained += 1
        best = ex.ranked()[0]
        if best.stop:
            assert ex.action[0] == L.A_STOP
        else:
            assert ex.action[:3] == (L.A_ATTACK, best.source, best.target)
        for o in ex.options:
            assert abs(sum(w * x for _n, w, x in o.terms) - o.value) < 1e-9
        assert "planned:" in ex.words(MAP)
    assert explained >= 3


@pytest.mark.parametrize("margin,opening", [(0.05, "kept its greedy choice, to stop"),
                                            (0.0, "planned: attack")])
def test_an_explanation_says_when_the_margin_kept_the_greedy_choice(margin: float,
                                                                    opening: str) -> None:
    from features.search.explain import PlanExplanation, PlanOption

    attack, stop = PlanOption(0, 1, 0.50, ()), PlanOption(-1, -1, 0.49, ())
    ex = PlanExplanation((L.A_STOP, 0, 0, 0), (attack, stop), 4, "attack", greedy=1,
                         margin=margin)
    assert ex.words(MAP).startswith(opening)


def test_a_planned_placement_is_its_records_arithmetic_and_the_whole_pool_or_the_greedy_one(
        ) -> None:
    from features.search.explain import decide_now

    rules = Rules()
    fx = map_context(MAP)
    kinds = set()
    for i, s in enumerate(_positions(rules, 14, every=1, kind=DecisionKind.REINFORCE)):
        why = decide_now(s, MAP, rules, W, PLACE, np.random.default_rng(i))
        greedy = tuple(int(x) for x in decide(MAP.kernel, fx, s.copy().kernel, rules.vector(),
                                              W, make_work(MAP.kernel, 4)))
        if why.plan is None:  # one territory to place on: nothing to weigh
            assert why.action == greedy
            continue
        ex = why.plan
        assert ex.options[-1].placement and all(o.placement for o in ex.options)
        best = ex.ranked()[0]
        if ex.kept_greedy() or best is ex.options[-1]:
            assert why.action == greedy
            kinds.add("greedy")
        else:
            assert why.action == (L.A_PLACE, best.source, int(s.sc[L.S_POOL]), 0)
            kinds.add("planned")
        for o in ex.options:
            assert abs(sum(w * x for _n, w, x in o.terms) - o.value) < 1e-9
    assert kinds == {"greedy", "planned"}


def test_placement_planning_changes_seeded_games_reproducibly() -> None:
    weights = np.stack([W] * 4)
    plans = np.zeros((4, len(PLAN.vector())))
    plans[0] = PLAN.vector()
    placing = plans.copy()
    placing[0] = PLACE.vector()
    base = [trace_linear_game(weights, g, plans=plans)[1] for g in range(50, 53)]
    assert all(np.array_equal(b, trace_linear_game(weights, g, plans=plans)[1])
               for g, b in zip(range(50, 53), base, strict=True))
    assert any(not np.array_equal(b, trace_linear_game(weights, g, plans=placing)[1])
               for g, b in zip(range(50, 53), base, strict=True))


@pytest.mark.parametrize("option", [[-3, 4], [0, 99], [-1, 2], [-2, 5]])
def test_a_transcript_record_names_only_options_the_search_can_compare(option: list[int]
                                                                       ) -> None:
    from features.why import record_from_json

    s = _positions(Rules(), 13, every=50)[0]
    bad = {"action": [L.A_STOP, 0, 0, 0], "plan": {
        "action": [L.A_STOP, 0, 0, 0], "rollouts": 4, "horizon": "attack", "greedy": 0,
        "margin": 0.0, "terms": ["value.income"], "weights": [1.0],
        "options": [[*option, 0.5, [0.5]]]}}
    with pytest.raises(ValueError, match="plan option's source and target must be"):
        record_from_json(bad, s)
    bad["plan"]["options"] = [[-1, -1, 0.5, [0.5]]]  # type: ignore[index]
    assert record_from_json(bad, s).plan is not None
