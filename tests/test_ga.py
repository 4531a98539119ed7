"""GA pieces: population, operators, selection, league draws, ratings, Wilson interval."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import trueskill
from hypothesis import given, settings
from hypothesis import strategies as st
from test_run import fake_plugin

from evolve import ga
from evolve.config import load_config
from evolve.creator import Individual
from evolve.league import draw_groups, rate_games
from evolve.stats import wilson_interval

CFG = load_config()
PLUGIN = fake_plugin(CFG)


def _rated(values: list[list[float]], mus: list[float]) -> list[Any]:
    env = trueskill.TrueSkill()
    return ga.from_arrays(np.array(values), np.array(mus), np.full(len(mus), 2.0), env)


def test_random_population_ranges_and_scale_genes() -> None:
    pop = ga.random_population(PLUGIN, 500, np.random.default_rng(0))
    g = ga.to_array(pop)
    assert g.shape == (500, 4)
    assert (g[:, :3] >= -1).all() and (g[:, :3] <= 1).all() and g[:, :3].std() > 0.4
    assert set(np.unique(g[:, 3])) == {-1.0, 1.0}
    assert all(not ind.fitness.valid and ind.rating is None for ind in pop)


def test_same_generator_state_same_population() -> None:
    a = ga.to_array(ga.random_population(PLUGIN, 20, np.random.default_rng(5)))
    b = ga.to_array(ga.random_population(PLUGIN, 20, np.random.default_rng(5)))
    assert np.array_equal(a, b)


def test_mutation_keeps_scale_genes_and_moves_others() -> None:
    rng = np.random.default_rng(1)
    flips = 0
    for _ in range(400):
        ind = Individual([0.5, 0.5, 0.5, 1.0])
        ga.mutate(ind, PLUGIN, 1.0, 1.0, 0.25, rng)
        assert ind[3] in (-1.0, 1.0) and all(v != 0.5 for v in ind[:3])
        flips += ind[3] == -1.0
    assert 60 < flips < 140  # flip probability 0.25


def test_uniform_crossover_swaps_genes() -> None:
    a, b = Individual([0.0] * 4), Individual([1.0] * 4)
    ga.cx_uniform(a, b, 1.0, np.random.default_rng(0))
    assert a == [1.0] * 4 and b == [0.0] * 4
    a, b = Individual([0.0] * 40), Individual([1.0] * 40)
    ga.cx_uniform(a, b, 0.5, np.random.default_rng(0))
    assert 5 < sum(a) < 35 and [x + y for x, y in zip(a, b, strict=True)] == [1.0] * 40


def test_tournament_prefers_high_mu() -> None:
    pop = _rated([[float(i)] * 4 for i in range(10)], [float(i) for i in range(10)])
    picks = ga.select_tournament(pop, 2000, 3, np.random.default_rng(0))
    mean = np.mean([p[0] for p in picks])
    assert mean > 6.0  # E[max of 3 uniform draws of 0..9] = 6.7; random would be 4.5


def test_next_generation_elites_keep_ratings_offspring_fresh() -> None:
    cfg = CFG.run.__class__(**{**CFG.run.__dict__, "elite": 2, "tournament_size": 2})
    var = CFG.variation.__class__(**{**CFG.variation.__dict__, "crossover_prob": 0.0,
                                     "mutation_prob": 1.0, "mutation_indpb": 1.0})
    pop = _rated([[float(i), 0, 0, 1] for i in range(8)], [float(i) for i in range(8)])
    nxt = ga.next_generation(pop, PLUGIN, cfg, var, np.random.default_rng(0))
    assert len(nxt) == 8
    assert [ind[0] for ind in nxt[:2]] == [7.0, 6.0]
    assert [ind.rating.mu for ind in nxt[:2]] == [7.0, 6.0]
    assert all(ind.rating is None and not ind.fitness.valid for ind in nxt[2:])
    assert [ind[0] for ind in pop] == [float(i) for i in range(8)]  # parents untouched


def test_unchanged_offspring_keep_parent_rating() -> None:
    cfg = CFG.run.__class__(**{**CFG.run.__dict__, "elite": 0})
    var = CFG.variation.__class__(**{**CFG.variation.__dict__, "crossover_prob": 0.0,
                                     "mutation_prob": 0.0})
    pop = _rated([[float(i), 0, 0, 1] for i in range(6)], [float(i) for i in range(6)])
    for ind in ga.next_generation(pop, PLUGIN, cfg, var, np.random.default_rng(0)):
        assert ind.rating.mu == ind[0]


def test_champion_is_best_conservative_rating() -> None:
    assert ga.champion_index(np.array([30.0, 28.0]), np.array([3.0, 0.5])) == 1


@settings(max_examples=60, deadline=None)
@given(n=st.integers(4, 40), k=st.integers(1, 6), s=st.integers(2, 6), seed=st.integers(0, 99))
def test_league_everyone_plays_k_games(n: int, k: int, s: int, seed: int) -> None:
    if s > n:
        return
    groups = draw_groups(n, k, s, np.random.default_rng(seed))
    assert groups.shape == (k * -(-n // s), s)
    assert all(len(set(g)) == s for g in groups.tolist())
    counts = np.bincount(groups.ravel(), minlength=n)
    assert counts.min() >= k and counts.sum() == groups.size
    if n % s == 0:
        assert (counts == k).all()


def test_league_seats_are_random() -> None:
    groups = draw_groups(8, 400, 4, np.random.default_rng(0))
    seat0 = np.bincount(groups[:, 0], minlength=8)
    assert seat0.min() > 60  # 400 games per 4 seats... each individual ~100 times in seat 0


def test_rating_uses_full_order_and_ties() -> None:
    env = trueskill.TrueSkill()
    r = [env.create_rating() for _ in range(4)]
    rate_games(env, r, np.array([[0, 1, 2, 3]]), np.array([[1, 2, 3, 4]]))
    mus = [x.mu for x in r]
    assert mus[0] > mus[1] > mus[2] > mus[3]
    r = [env.create_rating() for _ in range(4)]
    rate_games(env, r, np.array([[0, 1, 2, 3]]), np.array([[1, 2, 2, 4]]))
    # Tied players end (nearly: the factor graph is approximate) level, between 1st and 4th.
    assert r[1].mu == pytest.approx(r[2].mu, abs=0.05)
    assert r[0].mu > r[1].mu + 1 and r[2].mu > r[3].mu + 1


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)
