"""The value's net: its units in a bot file, its arithmetic in the compiled search, and the
explanation's `value.net` part."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from features.botfile import read_bot, save_genome
from features.compiled import trace_linear_game
from features.genome import hand_set_genome
from features.search.plan import NET_TERM
from features.search.player import PlanSettings, PlanSettingsError
from features.search.value import MAX_HIDDEN, NAMES, NV, UNIT, weighted_value
from game.engine import play_game
from game.map import classic_map
from game.state import Rules

MAP = classic_map()
W = hand_set_genome()


def _net(units: int, seed: int, bias: float = 0.0) -> tuple[tuple[float, ...], ...]:
    r = np.random.default_rng(seed)
    rows = r.normal(0.0, 1.0, (units, UNIT))
    rows[:, 0] += bias
    return tuple(tuple(float(x) for x in row) for row in rows)


NETTED = PlanSettings(rollouts=4, top_k=3, net=_net(5, 1))


def test_a_net_round_trips_through_a_bot_file(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    save_genome(path, W, plan=NETTED.as_dict())
    assert read_bot(path)[2] == NETTED
    assert "net" not in PlanSettings().as_dict()  # a file without units is written as before


@pytest.mark.parametrize("net,field", [
    ([], "plan.net must be an object"), ({"bias": [1.0], "out": [1.0], "x": 1}, "'x'"),
    ({"bias": [], "out": []}, "plan.net.bias"),
    ({"bias": [0.0] * (MAX_HIDDEN + 1), "out": [0.0] * (MAX_HIDDEN + 1)}, "plan.net.bias"),
    ({"bias": [0.0], "out": [0.0, 1.0]}, "plan.net.out"),
    ({"bias": [0.0], "out": [True]}, "plan.net.out"),
    ({"bias": [0.0], "out": [1.0], "in": {"value.nope": [1.0]}}, "plan.net.in"),
    ({"bias": [0.0], "out": [1.0], "in": {"value.income": [float("nan")]}},
     "plan.net.in.value.income"),
    ({"bias": [0.0], "out": [1.0], "in": []}, "plan.net.in"),
    ({"bias": [0.0], "out": [10**400]}, "plan.net.out"),  # beyond any float
    ({"bias": [0.0], "out": [2e6]}, "plan.net.out"),
])
def test_a_bad_net_names_its_field(net: object, field: str) -> None:
    with pytest.raises(PlanSettingsError, match=field.replace(".", r"\.").replace("[", r"\[")):
        PlanSettings.from_dict({"net": net})


@pytest.mark.parametrize("weight", [10**400, -3e6, float("inf")])
def test_a_value_weight_beyond_its_bound_names_the_term(weight: object) -> None:
    with pytest.raises(PlanSettingsError, match=r"plan\.value: value\.income must be"):
        PlanSettings.from_dict({"value": {"value.income": weight}})


def test_settings_refuse_a_net_of_the_wrong_shape() -> None:
    with pytest.raises(PlanSettingsError, match="plan.net"):
        PlanSettings(net=((1.0, 2.0),))
    with pytest.raises(PlanSettingsError, match="plan.net"):
        PlanSettings(net=_net(MAX_HIDDEN + 1, 2))


def test_the_compiled_value_adds_each_rectified_unit() -> None:
    r = np.random.default_rng(3)
    vw = NETTED.value_vector()
    rows = np.asarray(NETTED.net)
    lin = np.asarray(NETTED.value)
    for _ in range(50):
        x = r.random(NV)
        x[NAMES.index("value.won")] = 0.0
        want = lin @ x + sum(u[-1] * max(0.0, u[0] + u[1:-1] @ x) for u in rows)
        assert abs(weighted_value(vw, x) - want) < 1e-9
        assert abs(weighted_value(lin, x) - lin @ x) < 1e-9  # the terms alone
    won = r.random(NV)
    won[NAMES.index("value.won")] = 1.0  # no net learned from a won position: the sum alone
    assert abs(weighted_value(vw, won) - lin @ won) < 1e-9


@pytest.mark.parametrize("count", [MAX_HIDDEN + 1, 1.5, -1.0])
def test_a_compiled_game_refuses_a_unit_count_no_settings_make(count: float) -> None:
    from features.compiled import play_mixed_game
    from features.search.plan import PS_NET

    plans = np.tile(NETTED.vector(), (4, 1))
    plans[1, PS_NET] = count
    with pytest.raises(ValueError, match="unit count"):
        play_mixed_game(np.stack([W] * 4), np.zeros(4, dtype=np.int32), 5, plans=plans)


def test_units_that_never_fire_play_as_no_net_and_live_ones_change_games() -> None:
    weights = np.stack([W] * 4)

    def trace(plan: PlanSettings, seed: int) -> np.ndarray:
        plans = np.zeros((4, len(plan.vector())))
        plans[0] = plan.vector()
        return trace_linear_game(weights, seed, plans=plans)[1]

    base = PlanSettings(rollouts=4, top_k=3)
    dead = PlanSettings(rollouts=4, top_k=3, net=_net(4, 5, bias=-1e5))
    live = PlanSettings(rollouts=4, top_k=3, net=tuple(
        (*row[:-1], 5.0) for row in _net(8, 6, bias=1.0)))
    differ = 0
    for seed in (41, 42, 43):
        a = trace(base, seed)
        assert np.array_equal(a, trace(dead, seed))
        differ += not np.array_equal(a, trace(live, seed))
    assert differ >= 1


def test_an_explanation_shows_the_nets_part_and_still_adds_up() -> None:
    from features.search.player import PlanPlayer
    from features.why import PlanExplanation, Why

    seen: list[PlanExplanation] = []

    def keep(why: Why) -> None:
        if why.plan is not None and why.plan.options:
            seen.append(why.plan)

    first = PlanPlayer(W, NETTED)
    first.on_why = keep
    play_game([first, *(PlanPlayer(W, NETTED) for _ in range(3))], seed=7, rules=Rules())
    assert len(seen) >= 3
    for plan in seen:
        for o in plan.options:
            assert [t[0] for t in o.terms] == [*NAMES, NET_TERM]
            assert abs(sum(w * x for _n, w, x in o.terms) - o.value) < 1e-9
