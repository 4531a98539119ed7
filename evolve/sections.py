"""The run configuration's schema: one frozen dataclass per section, each field with its
validation bounds (`evolve.config` reads, checks and writes it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from features.search.value import MAX_HIDDEN
from game.env.seeding import SEED_BOUND
from game.state import Rules


def _f(lo: float | None = None, hi: float | None = None, *, choices: tuple[str, ...] = (),
       doc: str = "") -> Any:
    """A required dataclass field with validation bounds kept in its metadata."""
    return field(metadata={"lo": lo, "hi": hi, "choices": choices, "doc": doc})


# Upper bounds: generous for any real run, small enough that no value passing validation
# overflows a float or asks for more memory than a machine has.
MAX_GENERATIONS = 10_000_000
MAX_JOBS = 4096  # worker processes of a run or an arena command (-1: all cores)
MAX_GAMES = 1_000_000  # evaluation, playoff and chunk sizes
MAX_RATING = 1e6  # TrueSkill mu, sigma, beta, tau: squares and sums stay far from overflow
MAX_LEAGUE_SEATS = 10_000_000  # run.population * run.games_per_individual
MAX_GENOME_ANCHORS = 64  # league.genomes: bot files read at the start of a run
MAX_ISLANDS = 1024  # run.islands: sub-populations of the GA (evolve.breeding.islands)
# What a run with islands adds to each log.jsonl line (`evolve.breeding.islands
# .island_statistics`), here for the log's reader, which needs no GA.
ISLAND_LISTS = ("island_mu_max", "island_mu_mean")  # a number per island
ISLAND_SPREAD = "island_spread"
ISLAND_KEYS = (*ISLAND_LISTS, ISLAND_SPREAD)

# DEAP operators by name (evolve.breeding.toolbox registers them; tests check both lists agree).
STRATEGIES = ("ga", "cma")
OUTCOMES = ("order", "win")  # what a league game tells TrueSkill (evolve.rating.rater.rated_places)
MATE_CHOICES = ("cxUniform", "cxOnePoint", "cxTwoPoint")
MUTATE_CHOICES = ("mutGaussian",)
SELECT_CHOICES = ("selTournament", "selBest", "selRandom")
PLAN_HORIZONS = ("attack", "round")  # features.search.player.HORIZONS (a test checks both agree)
PLAN_VALUE_FROM = ("run", "fits", "both")  # the values a run's planning step checks


@dataclass(frozen=True)
class RunSection:
    """Population size, league, selection settings and the search strategy."""

    seed: int = _f(0, SEED_BOUND - 1)
    generations: int = _f(1, MAX_GENERATIONS)
    population: int = _f(2, 100_000)
    games_per_individual: int = _f(1, 10_000)
    group_size: int = _f(2, 6)
    elite: int = _f(0, 100_000)
    tournament_size: int = _f(1, 100_000)
    strategy: str = _f(choices=STRATEGIES)
    hall_of_fame: int = _f(1, 10_000)
    restart_after: int = _f(0, MAX_GENERATIONS)
    islands: int = _f(1, MAX_ISLANDS)
    migration_every: int = _f(0, MAX_GENERATIONS)
    migrants: int = _f(1, 100_000)


@dataclass(frozen=True)
class VariationSection:
    """Genetic operators (by DEAP name) and their settings."""

    mate: str = _f(choices=MATE_CHOICES)
    mutate: str = _f(choices=MUTATE_CHOICES)
    select: str = _f(choices=SELECT_CHOICES)
    crossover_prob: float = _f(0, 1)
    crossover_indpb: float = _f(0, 1)
    mutation_prob: float = _f(0, 1)
    mutation_indpb: float = _f(0, 1)
    sigma_scale: float = _f(0, 1000)
    flip_prob: float = _f(0, 1)


@dataclass(frozen=True)
class CmaSection:
    """CMA-ES (run.strategy = "cma"): DEAP's cma.Strategy over the genes."""

    sigma: float = _f(1e-9, 1000)


@dataclass(frozen=True)
class RatingSection:
    """TrueSkill environment."""

    mu: float = _f(-MAX_RATING, MAX_RATING)
    sigma: float = _f(1e-9, MAX_RATING)
    beta: float = _f(1e-9, MAX_RATING)
    tau: float = _f(0, MAX_RATING)
    draw_probability: float = _f(0, 0.999)
    engine: str = _f(choices=("compiled", "reference"))
    outcome: str = _f(choices=OUTCOMES)


@dataclass(frozen=True)
class GameSection:
    """Board and game plug-in."""

    map: str = _f()
    plugin: str = _f()


@dataclass(frozen=True)
class EvalSection:
    """Absolute progress: the champion against baseline bots."""

    every: int = _f(0, MAX_GENERATIONS)
    games: int = _f(1, MAX_GAMES)
    opponents: tuple[str, ...] = _f()


@dataclass(frozen=True)
class LeagueSection:
    """Anchors in league games: bundled bots, fixed genomes and a hall of past champions."""

    bots: tuple[str, ...] = _f()
    genomes: tuple[str, ...] = _f()
    seats: int = _f(0, 5)
    seats_from: int = _f(0, MAX_GENERATIONS)
    hall_every: int = _f(0, MAX_GENERATIONS)
    hall_size: int = _f(0, 64)


@dataclass(frozen=True)
class ChampionSection:
    """The proven champion (champion.json): evidence and a playoff before a crowning."""

    every: int = _f(0, MAX_GENERATIONS)
    max_sigma: float = _f(1e-9, MAX_RATING)
    games: int = _f(1, MAX_GAMES)
    margin: float = _f(0.0, 10.0)
    opponents: tuple[str, ...] = _f()


@dataclass(frozen=True)
class PlanSection:
    """The planning champion made from the proven champion when a run ends (evolve.plan.planfit)."""

    games: int = _f(0, 20_000)
    check_games: int = _f(1, 100_000)
    self_share: tuple[float, ...] = _f(0, 1)
    horizon: str = _f(choices=PLAN_HORIZONS)
    rollouts: int = _f(1, 64)
    top_k: int = _f(1, 8)
    margins: tuple[float, ...] = _f(0, 100)
    refits: int = _f(0, 5)
    play_rollouts: int = _f(0, 64)
    play_top_k: int = _f(0, 8)
    play_place: int = _f(0, 8)
    net: int = _f(0, MAX_HIDDEN)
    value_from: str = _f(choices=PLAN_VALUE_FROM)


@dataclass(frozen=True)
class ValueSection:
    """The run's value, learned from the champion's games as the run goes (evolve.plan.valuefit)."""

    every: int = _f(0, MAX_GENERATIONS)
    games: int = _f(1, 100_000)
    self_share: float = _f(0, 1)
    decay: float = _f(0, 1)
    l2: float = _f(1e-9, 1e6)
    until: int = _f(0, MAX_GENERATIONS)


@dataclass(frozen=True)
class ParallelSection:
    """Where the games run."""

    n_jobs: int = _f(-1, MAX_JOBS)
    backend: str = _f(choices=("loky", "threading", "sequential", "dask"))
    scheduler: str = _f()
    chunk_games: int = _f(1, MAX_GAMES)


@dataclass(frozen=True)
class OutputSection:
    """Run folder settings."""

    runs_dir: str = _f()
    keep_checkpoints: int = _f(1, 10_000)
    checkpoint_seconds: float = _f(0, 86_400)
    genes_every: int = _f(1, MAX_GENERATIONS)
    plot_every: int = _f(0, MAX_GENERATIONS)


@dataclass(frozen=True)
class Config:
    """The effective configuration of a run."""

    run: RunSection
    variation: VariationSection
    cma: CmaSection
    rating: RatingSection
    rules: Rules  # every option of game.state.Rules (its one home), defaults from there too
    game: GameSection
    league: LeagueSection
    eval: EvalSection
    champion: ChampionSection
    plan: PlanSection
    value: ValueSection
    parallel: ParallelSection
    output: OutputSection
