"""The compiled TrueSkill against the `trueskill` package: the same numbers, bit for bit."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import trueskill

from evolve.config import RatingSection, load_config
from evolve.rating import trueskill_kernel as tk
from evolve.rating.league import draw_groups
from evolve.rating.rater import (
    Rater,
    RatingError,
    environment,
    kernel_params,
    rate_reference,
    rated_places,
)

RATING = load_config().rating


def _random_case(rng: np.random.Generator) -> tuple[RatingSection, np.ndarray, np.ndarray,
                                                      np.ndarray]:
    """Non-default beta, tau and draw probability; wide mu/sigma; 2-6 players; ranks with ties."""
    cfg = dataclasses.replace(RATING, beta=float(rng.uniform(0.2, 15)),
                              tau=float(rng.choice([0.0, rng.uniform(0, 2)])),
                              draw_probability=float(rng.uniform(0, 0.8)))
    k = int(rng.integers(2, 7))
    mu = rng.uniform(-40, 90, k)
    sigma = np.exp(rng.uniform(np.log(0.05), np.log(40), k))
    ranks = rng.integers(1, rng.integers(2, k + 2), k).astype(np.int32)  # many ties
    return cfg, mu, sigma, ranks


def _compare(n_cases: int, seed: int) -> tuple[int, float, int]:
    """(cases rated, max abs difference, cases both engines reject)."""
    rng = np.random.default_rng(seed)
    rated, worst, rejected = 0, 0.0, 0
    for _ in range(n_cases):
        cfg, mu, sigma, ranks = _random_case(rng)
        env = environment(cfg)
        k = len(mu)
        groups, pl, fixed = np.arange(k)[None], ranks[None], np.zeros(k, dtype=np.bool_)
        m1, s1, m2, s2 = mu.copy(), sigma.copy(), mu.copy(), sigma.copy()
        bad1 = tk.rate_games(m1, s1, fixed, groups, pl, kernel_params(env))
        bad2 = rate_reference(env, m2, s2, fixed, groups, pl)
        assert bad1 == bad2, (mu, sigma, ranks, cfg)
        if bad1 >= 0:
            rejected += 1
            continue
        rated += 1
        worst = max(worst, float(np.abs(m1 - m2).max()), float(np.abs(s1 - s2).max()))
        # Same numbers, not merely close: a run may switch engines when it resumes.
        assert np.array_equal(m1, m2) and np.array_equal(s1, s2), (mu, sigma, ranks, cfg)
    return rated, worst, rejected


def test_compiled_equals_reference_on_random_games() -> None:
    rated, worst, _rejected = _compare(1500, seed=0)
    assert rated >= 1400 and worst == 0.0


@pytest.mark.slow
def test_compiled_equals_reference_on_many_random_games() -> None:
    rated, worst, rejected = _compare(12000, seed=1)
    assert rated >= 10000 and worst <= 1e-9
    print(f"{rated} cases equal (max difference {worst}), {rejected} rejected by both")


def test_equals_trueskill_rate_called_directly() -> None:
    env = trueskill.TrueSkill(mu=25.0, sigma=25 / 3, beta=25 / 6, tau=25 / 300,
                              draw_probability=0.1)
    mu = np.array([25.0, 30.0, 20.0, 25.0])
    sigma = np.array([8.0, 2.0, 5.0, 8.333])
    ranks = [2, 1, 2, 4]
    new = env.rate([(trueskill.Rating(float(m), float(s)),) for m, s in zip(mu, sigma,
                                                                            strict=True)],
                   ranks=ranks)
    r = Rater(dataclasses.replace(RATING, beta=25 / 6, tau=25 / 300), 4)
    r.set_population(mu, sigma)
    r.rate(np.array([[0, 1, 2, 3]]), np.array([ranks]))
    assert r.mu.tolist() == [x.mu for (x,) in new]
    assert r.sigma.tolist() == [x.sigma for (x,) in new]


def test_a_generation_rated_both_ways_gives_the_same_arrays() -> None:
    rng = np.random.default_rng(4)
    groups = draw_groups(64, 16, 4, rng)
    placements = np.array([rng.permutation(4) + 1 for _ in groups], dtype=np.int32)
    placements[::5, 2] = placements[::5, 3]  # ties
    out = []
    for engine in ("compiled", "reference"):
        r = Rater(RATING, 64, engine)
        r.set_population(rng.uniform(15, 35, 64) * 0 + np.linspace(18, 32, 64),
                         np.linspace(2, 8.3, 64))
        for a in range(0, len(groups), 50):  # in chunks, as the league delivers them
            r.rate(groups[a:a + 50], placements[a:a + 50])
        out.append((r.mu, r.sigma))
    assert np.array_equal(out[0][0], out[1][0]) and np.array_equal(out[0][1], out[1][1])
    assert len(set(out[0][0].tolist())) == 64  # really rated


def test_full_order_and_ties() -> None:
    r = Rater(RATING, 4)
    r.rate(np.array([[0, 1, 2, 3]]), np.array([[1, 2, 3, 4]]))
    assert r.mu[0] > r.mu[1] > r.mu[2] > r.mu[3]
    r = Rater(RATING, 4)
    r.rate(np.array([[0, 1, 2, 3]]), np.array([[1, 2, 2, 4]]))
    # Tied players end (nearly: the factor graph is approximate) level, between 1st and 4th.
    assert r.mu[1] == pytest.approx(r.mu[2], abs=0.05)
    assert r.mu[0] > r.mu[1] + 1 and r.mu[2] > r.mu[3] + 1


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_fixed_anchors_keep_their_rating_and_still_count(engine: str) -> None:
    r = Rater(RATING, 3, engine)
    anchors = r.add_anchors(np.array([40.0, 10.0]), np.array([1.0, 1.0]))
    assert anchors.tolist() == [3, 4] and r.fixed.tolist() == [False] * 3 + [True] * 2
    r.rate(np.array([[0, 3], [1, 4], [2, 3]]), np.array([[1, 2], [1, 2], [2, 1]]))
    assert r.mu[3:].tolist() == [40.0, 10.0] and r.sigma[3:].tolist() == [1.0, 1.0]
    # Beating a strong anchor is worth more than beating a weak one.
    assert r.mu[0] - 25 > r.mu[1] - 25 > 0 > r.mu[2] - 25
    mu, _sigma = r.population
    assert mu.shape == (3,) and np.array_equal(mu, r.mu[:3])


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_unratable_game_is_a_rating_error(engine: str) -> None:
    r = Rater(dataclasses.replace(RATING, tau=0.0, draw_probability=0.0), 4, engine)
    r.set_population(np.array([25.0, 25.0, -3000.0, 3000.0]), np.array([8.0, 8.0, 0.01, 0.01]))
    with pytest.raises(RatingError, match="game 1 "):
        r.rate(np.array([[0, 1], [2, 3]]), np.array([[1, 2], [1, 2]]))
    assert r.mu[0] > 25 > r.mu[1]  # the games before it count


def test_bad_shapes_and_engine_are_errors() -> None:
    with pytest.raises(ValueError, match="engine"):
        Rater(RATING, 2, "fast")
    with pytest.raises(ValueError, match="match"):
        Rater(RATING, 8).rate(np.zeros((1, 7), dtype=np.int64), np.ones((1, 7)))


# rating.outcome: (placements, capped, outcome) -> the places TrueSkill rates.
OUTCOME_CASES = [
    ([[1, 2, 3, 4]], [False], "order", [[1, 2, 3, 4]]),
    ([[3, 1, 4, 2]], [False], "win", [[2, 1, 2, 2]]),
    ([[1, 2, 3, 4]], [True], "order", [[1, 2, 3, 4]]),  # the territory leader of a capped game
    ([[1, 2, 3, 4]], [True], "win", [[1, 1, 1, 1]]),  # ... wins nothing
    ([[2, 1, 3, 4], [1, 2, 2, 4]], [False, True], "win", [[2, 1, 2, 2], [1, 1, 1, 1]]),
]


@pytest.mark.parametrize(("places", "capped", "outcome", "rated"), OUTCOME_CASES)
def test_rated_places(places: list[list[int]], capped: list[bool], outcome: str,
                      rated: list[list[int]]) -> None:
    out = rated_places(np.array(places, np.int32), np.array(capped), outcome)
    assert out.dtype == np.int32 and out.tolist() == rated


def test_win_outcome_rates_every_loser_alike() -> None:
    r = Rater(RATING, 4)
    places = np.array([[1, 2, 3, 4]], np.int32)
    r.rate(np.array([[0, 1, 2, 3]]), rated_places(places, np.array([False]), "win"))
    assert r.mu[0] > r.mu[1] + 1
    assert r.mu[1] == pytest.approx(r.mu[2], abs=0.05) == pytest.approx(r.mu[3], abs=0.05)


def test_unknown_outcome_is_an_error() -> None:
    with pytest.raises(ValueError, match="rating.outcome 'elo': allowed order, win"):
        rated_places(np.ones((1, 4), np.int32), np.zeros(1, bool), "elo")
