"""GA pieces: population, DEAP variation through the toolbox, league draws, Wilson interval."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evolve.breeding import ga
from evolve.breeding.toolbox import build_toolbox, next_generation, seed_random
from evolve.config import load_config
from evolve.rating.league import draw_groups
from evolve.stats import wilson_interval
from tests.helpers.fake_run import fake_plugin

CFG = load_config()
PLUGIN = fake_plugin(CFG)


def _cfg(**over: Any) -> Any:
    return load_config(overrides=over)


def _rated(values: list[list[float]], mus: list[float]) -> list[Any]:
    return ga.from_arrays(np.array(values), np.array(mus), np.full(len(mus), 2.0))


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


def test_ratings_of_unrated_individuals_are_the_initial_rating() -> None:
    pop = _rated([[0.0] * 4, [1.0] * 4], [30.0, 20.0])
    pop[1].rating = None
    mu, sigma = ga.ratings(pop, 25.0, 8.0)
    assert mu.tolist() == [30.0, 25.0] and sigma.tolist() == [2.0, 8.0]


def test_next_generation_elites_keep_ratings_offspring_fresh() -> None:
    cfg = _cfg(**{"run.elite": 2, "run.tournament_size": 2, "run.population": 8,
                  "variation.crossover_prob": 0.0, "variation.mutation_prob": 1.0,
                  "variation.mutation_indpb": 1.0})
    pop = _rated([[float(i), 0, 0, 1] for i in range(8)], [float(i) for i in range(8)])
    nxt = next_generation(pop, build_toolbox(cfg, PLUGIN), cfg, np.random.default_rng(0))
    assert len(nxt) == 8
    assert [ind[0] for ind in nxt[:2]] == [7.0, 6.0]
    assert [ind.rating[0] for ind in nxt[:2]] == [7.0, 6.0]
    assert all(ind.rating is None and not ind.fitness.valid for ind in nxt[2:])
    assert [ind[0] for ind in pop] == [float(i) for i in range(8)]  # parents untouched


def test_unchanged_offspring_keep_parent_rating() -> None:
    cfg = _cfg(**{"run.elite": 0, "variation.crossover_prob": 0.0,
                  "variation.mutation_prob": 0.0})
    pop = _rated([[float(i), 0, 0, 1] for i in range(6)], [float(i) for i in range(6)])
    for ind in next_generation(pop, build_toolbox(cfg, PLUGIN), cfg, np.random.default_rng(0)):
        assert ind.rating[0] == ind[0] and ind.fitness.values == (ind[0],)


def test_tournament_selection_prefers_high_mu() -> None:
    cfg = _cfg(**{"run.elite": 0, "run.tournament_size": 3, "variation.crossover_prob": 0.0,
                  "variation.mutation_prob": 0.0})
    pop = _rated([[float(i)] * 4 for i in range(10)], [float(i) for i in range(10)]) * 200
    nxt = next_generation(pop, build_toolbox(cfg, PLUGIN), cfg, np.random.default_rng(0))
    assert np.mean([p[0] for p in nxt]) > 6.0  # E[max of 3 of 0..9] = 6.7; random: 4.5


def test_mutation_keeps_scale_genes_and_flips_them() -> None:
    cfg = _cfg(**{"variation.flip_prob": 0.25, "variation.mutation_indpb": 1.0})
    tb = build_toolbox(cfg, PLUGIN)
    seed_random(np.random.default_rng(1))
    flips = 0
    for _ in range(400):
        ind = tb.clone(_rated([[0.5, 0.5, 0.5, 1.0]], [1.0])[0])
        tb.mutate(ind)
        assert ind[3] in (-1.0, 1.0) and all(v != 0.5 for v in ind[:3])
        flips += ind[3] == -1.0
    assert 60 < flips < 140  # flip probability 0.25


def test_same_generator_state_same_offspring() -> None:
    cfg = _cfg(**{"run.population": 30})
    pop = _rated(np.random.default_rng(3).uniform(-1, 1, (30, 4)).tolist(),
                 np.linspace(20, 30, 30).tolist())
    runs = [ga.to_array(next_generation(pop, build_toolbox(cfg, PLUGIN), cfg,
                                        np.random.default_rng(9))) for _ in range(2)]
    assert np.array_equal(runs[0], runs[1])
    other = ga.to_array(next_generation(pop, build_toolbox(cfg, PLUGIN), cfg,
                                        np.random.default_rng(10)))
    assert not np.array_equal(runs[0], other)


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


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)
