"""run.islands: one island is today's GA draw for draw; more islands breed apart, migrate with
deap.tools.migRing, resume bit-identically and do not depend on n_jobs; bad values are one-line
errors."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evolve.breeding import ga
from evolve.breeding.islands import island_statistics, migrate, split
from evolve.breeding.strategy import GeneticAlgorithm
from evolve.breeding.toolbox import build_toolbox
from evolve.checkpoint import list_checkpoints, load_checkpoint
from evolve.config import Config, ConfigError, load_config
from evolve.progress import summary
from evolve.run_cmd import main as run_main
from tests.helpers.fake_run import fake_plugin, final_state, one_line, tiny_args

N = 8
ISLAND_FIELDS = ("islands", "migration_every", "migrants")
# The tiny run below as the code before run.islands existed played it (commit a4e45fc): genes,
# mu and sigma of every generation, the log's champion columns and the final champion's genes.
BEFORE_ISLANDS = "33477cabc18e63d069e4b12ed46b32a6826e47031a687a594defc5c7f5fa6a62"


def args(runs: Path, generations: int = N, *extra: str) -> list[str]:
    a = tiny_args(runs, "r", "--set", "output.genes_every=1", *extra)
    a[a.index("--generations") + 1] = str(generations)
    return a


def islands_args(runs: Path, generations: int = N, *extra: str) -> list[str]:
    """Four islands of 8 (elite 2), two migrants every other generation."""
    a = args(runs, generations, "--set", "run.islands=4", "--set", "run.migration_every=2",
             "--set", "run.migrants=2", *extra)
    a[a.index("--population") + 1] = "32"
    return a


def digest(runs: Path) -> str:
    root, h = runs / "r", hashlib.sha256()
    for p in sorted((root / "genes").iterdir()):
        with np.load(p) as z:
            for k in ("genes", "mu", "sigma"):
                h.update(np.ascontiguousarray(z[k]).tobytes())
    for line in (root / "log.jsonl").read_text().splitlines():
        r = json.loads(line)
        h.update(json.dumps([r[k] for k in ("generation", "champion_index", "champion_mu",
                                            "champion_sigma", "mu_mean",
                                            "proven_generation")]).encode())
    h.update(json.dumps(json.loads((root / "champion.json").read_text())["genes"]).encode())
    return h.hexdigest()


@pytest.mark.parametrize("extra", [(), ("--set", "run.islands=1", "--set",
                                        "run.migration_every=1", "--set", "run.migrants=5")])
def test_one_island_plays_and_rates_as_before_islands(tmp_path: Path,
                                                       extra: tuple[str, ...]) -> None:
    assert run_main(args(tmp_path, N, *extra)) == 0
    assert digest(tmp_path) == BEFORE_ISLANDS


def test_four_islands_resume_bit_identical_and_do_not_depend_on_n_jobs(tmp_path: Path) -> None:
    full, cut, two = tmp_path / "full", tmp_path / "cut", tmp_path / "two"
    assert run_main(islands_args(full)) == 0
    assert run_main(islands_args(cut, 3)) == 0  # stops before generation 4's migration
    assert run_main(islands_args(cut)) == 0
    assert final_state(cut, N) == final_state(full, N)
    a = islands_args(two, N, "--set", "parallel.backend=threading")
    a[a.index("--n-jobs") + 1] = "2"
    assert run_main(a) == 0
    assert final_state(two, N) == final_state(full, N)
    plain = tmp_path / "plain"  # the same run without migrations is another run
    assert run_main(islands_args(plain, N, "--set", "run.migration_every=0")) == 0
    assert final_state(plain, N)[1] != final_state(full, N)[1]


def _cfg(**overrides: Any) -> Config:
    return load_config([], {"game.plugin": "tests.helpers.fake_run:fake_plugin",
                            "run.population": 12, "run.islands": 3, "run.elite": 1,
                            **overrides})


def _tagged(fitness: list[float]) -> list[Any]:
    """12 rated individuals: gene c (index 2) names the island (slot // 4)."""
    genes = np.zeros((12, 4))
    genes[:, 2] = np.arange(12) // 4
    genes[:, 0] = np.arange(12) / 100  # every individual distinct
    return ga.from_arrays(genes, np.array(fitness), np.ones(12))


def test_migration_sends_each_islands_chosen_to_replace_the_next_islands_worst() -> None:
    cfg = _cfg(**{"variation.select": "selBest"})
    tb = build_toolbox(cfg, fake_plugin(cfg))
    fitness = [float(f) for f in range(12)]  # the last of each island is its best
    pop = _tagged(fitness)
    islands = split(pop, 3)
    migrate(islands, tb, 2, np.random.default_rng(0))
    for i, island in enumerate(islands):
        sender = (i - 1) % 3
        assert len(island) == 4
        came = [ind for ind in island if ind[2] == sender]
        assert sorted(ind.fitness.values[0] for ind in came) == fitness[4 * sender + 2:
                                                                        4 * sender + 4]
        stayed = sorted(ind.fitness.values[0] for ind in island if ind[2] == i)
        assert stayed == fitness[4 * i + 2:4 * i + 4]  # its two worst were replaced
        assert not any(ind is orig for ind in came for orig in pop)  # copies, not shared


def test_islands_breed_apart_until_a_migration() -> None:
    cfg = _cfg(**{"run.migration_every": 5, "run.migrants": 1, "variation.mutation_prob": 0.0})
    strategy = GeneticAlgorithm(cfg, fake_plugin(cfg))
    fitness = [10.0 * (3 - i // 4) + i % 4 for i in range(12)]  # island 0 the strongest
    for g, migrated in ((4, False), (5, True)):
        children = strategy.ask(_tagged(fitness), np.random.default_rng(g), g)
        tags = [sorted({ind[2] for ind in island}) for island in split(children, 3)]
        if migrated:  # island 0's best reached island 1 and stays there as its elite
            assert 0.0 in tags[1], tags
        else:
            assert tags == [[0.0], [1.0], [2.0]]


@pytest.mark.parametrize(("overrides", "field"), [
    ({"run.islands": 0}, "run.islands"),
    ({"run.islands": "four"}, "run.islands"),
    ({"run.islands": 7}, "run.islands"),  # 512 is not 7 equal islands
    ({"run.islands": 64}, "run.islands"),  # islands of 8 cannot hold more than the elite of 8
    ({"run.islands": 4, "run.strategy": "cma"}, "run.islands"),
    ({"run.islands": 4, "run.migrants": 128}, "run.migrants"),
    ({"run.migration_every": -1}, "run.migration_every"),
])
def test_bad_island_settings_are_one_line_errors(overrides: dict[str, Any], field: str) -> None:
    with pytest.raises(ConfigError, match=field.replace(".", r"\.")) as e:
        load_config([], overrides)
    assert "\n" not in str(e.value)


def test_a_bad_islands_value_on_the_command_line(tmp_path: Path, capsys: Any) -> None:
    capsys.readouterr()
    assert run_main(args(tmp_path, N, "--set", "run.islands=many")) == 2
    err = one_line(capsys.readouterr().err)
    assert "run.islands" in err and "an integer in [1, 1024]" in err


def test_a_run_from_before_islands_resumes_as_it_was(tmp_path: Path) -> None:
    """A run folder whose config.toml and checkpoints lack the island fields resumes as one
    population (no BEFORE_ADDED entry: the default plays as before)."""
    full, old = tmp_path / "full", tmp_path / "old"
    assert run_main(args(full)) == 0
    assert run_main(args(old, 4)) == 0
    root = old / "r"
    text = (root / "config.toml").read_text()
    (root / "config.toml").write_text("".join(
        x for x in text.splitlines(True) if not x.startswith(tuple(f"{f} = "
                                                                   for f in ISLAND_FIELDS))))
    for _, p in list_checkpoints(root / "checkpoints"):
        ck = load_checkpoint(p)
        for f in ISLAND_FIELDS:
            del ck.config[f"run.{f}"]
        p.write_bytes(ck.to_bytes())
    assert run_main(args(old)) == 0
    assert final_state(old, N) == final_state(full, N)


def test_island_statistics_by_hand() -> None:
    genes = np.array([[0.0, 1.0], [0.0, 3.0], [2.0, 1.0], [2.0, 3.0]])
    mu = np.array([20.0, 24.0, 30.0, 22.0])
    st = island_statistics(genes, mu, 2)
    assert st["island_mu_max"] == [24.0, 30.0] and st["island_mu_mean"] == [22.0, 26.0]
    # island means (0, 2) and (2, 2): the genes' spreads 1 and 0
    assert st["island_spread"] == pytest.approx(0.5)
    assert island_statistics(genes[[0, 3, 2, 1]], mu, 2)["island_spread"] == 0.0  # alike


def test_the_log_and_the_progress_line_show_each_island(tmp_path: Path) -> None:
    assert run_main(islands_args(tmp_path, 3)) == 0
    log = [json.loads(x) for x in (tmp_path / "r" / "log.jsonl").read_text().splitlines()]
    for r in log:
        assert len(r["island_mu_max"]) == 4 and max(r["island_mu_max"]) == r["mu_max"]
        assert np.mean(r["island_mu_mean"]) == pytest.approx(r["mu_mean"])
        assert r["island_spread"] > 0
        line = summary(r, 3)
        assert f"4 islands: best {min(r['island_mu_max']):.2f}..{r['mu_max']:.2f}" in line
    assert run_main(args(tmp_path / "one", 2)) == 0
    one = json.loads((tmp_path / "one" / "r" / "log.jsonl").read_text().splitlines()[-1])
    assert "island_mu_max" not in one and "islands" not in summary(one, 2)
