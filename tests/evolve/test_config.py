"""Configuration: defaults, layering, round trip, and one-line errors naming the field."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from evolve.config import (
    ConfigError,
    fingerprint,
    from_dict,
    load_config,
    parse_override,
    to_toml,
)

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_are_valid_and_sized_for_a_laptop_night() -> None:
    cfg = load_config()
    assert cfg.run.group_size == 4 and cfg.run.games_per_individual >= 12
    assert cfg.parallel.backend == "loky" and cfg.game.plugin == "evolve.plugin:default_plugin"
    assert cfg.run.population * cfg.run.generations >= 100_000


def test_layering_file_then_overrides(tmp_path: Path) -> None:
    f = tmp_path / "c.toml"
    f.write_text("[run]\npopulation = 64\nseed = 3\n[rules]\ncap = 50\n")
    cfg = load_config([f], {"run.seed": 9})
    assert (cfg.run.population, cfg.run.seed, cfg.rules.cap) == (64, 9, 50)
    assert cfg.run.games_per_individual == load_config().run.games_per_individual


def test_toml_round_trip(tmp_path: Path) -> None:
    cfg = load_config(overrides={"eval.opponents": ["random"], "rating.tau": 0.1})
    f = tmp_path / "eff.toml"
    f.write_text(to_toml(cfg))
    assert load_config([f]) == cfg


@pytest.mark.parametrize(("override", "field"), [
    ({"run.group_size": 600}, "run.group_size"),  # larger than the population
    ({"run.games_per_individual": 0}, "run.games_per_individual"),
    ({"run.population": "many"}, "run.population"),
    ({"rules.no_such_rule": True}, "rules.no_such_rule"),
    ({"rules.missions": 1}, "rules.missions"),
    ({"parallel.backend": "mpi"}, "parallel.backend"),
    ({"variation.flip_prob": 1.5}, "variation.flip_prob"),
    ({"run.elite": 512}, "run.elite"),
    ({"parallel.scheduler": "tcp://x:1"}, "parallel.scheduler"),  # only with dask
    ({"nosuch.field": 1}, "nosuch"),
    ({"plan.margins": []}, "plan.margins"),
    ({"plan.margins": [0.1, -1]}, "plan.margins"),
    ({"plan.margins": ["wide"]}, "plan.margins"),
    ({"plan.horizon": "game"}, "plan.horizon"),
])
def test_invalid_values_name_the_field(override: dict[str, object], field: str) -> None:
    with pytest.raises(ConfigError) as e:
        load_config(overrides=override)
    msg = str(e.value)
    assert field in msg and "\n" not in msg


def test_error_says_what_is_allowed() -> None:
    with pytest.raises(ConfigError, match=r"one of 'loky', 'threading', 'sequential', 'dask'"):
        load_config(overrides={"parallel.backend": "mpi"})
    with pytest.raises(ConfigError, match=r"rating.outcome.*one of 'order', 'win'"):
        load_config(overrides={"rating.outcome": "elo"})
    with pytest.raises(ConfigError, match=r"allowed: missions, fixed_cards, path_fortify, cap"):
        load_config(overrides={"rules.fog": True})


def test_bad_toml_file(tmp_path: Path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text("[run\npopulation = 3")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config([f])


def test_parse_override() -> None:
    assert parse_override("run.seed=5") == ("run.seed", 5)
    assert parse_override("game.map=maps/x.json") == ("game.map", "maps/x.json")
    assert parse_override("eval.opponents=['random']") == ("eval.opponents", ["random"])
    with pytest.raises(ConfigError):
        parse_override("seed5")


def test_fingerprint_ignores_run_control_only() -> None:
    a = load_config()
    b = load_config(overrides={"run.generations": 5, "parallel.n_jobs": 1, "eval.every": 3})
    c = load_config(overrides={"run.seed": 2})
    assert fingerprint(a) == fingerprint(b) and fingerprint(a) != fingerprint(c)


def test_cli_error_is_one_line(tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "evolve", "run", "--name", "x", "--runs-dir",
                        str(tmp_path), "--games", "0"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 2
    assert p.stderr.strip().count("\n") == 0 and "run.games_per_individual" in p.stderr


@pytest.mark.parametrize("address", ["127.0.0.1:8786", "tcp://host", "tcp://host:port",
                                     "tcp://host:0", "tcp://host:70000", "tls://host:8786",
                                     "tcp://:8786", "tcp://a b:1"])
def test_scheduler_address_form(address: str) -> None:
    with pytest.raises(ConfigError) as e:
        load_config(overrides={"parallel.backend": "dask", "parallel.scheduler": address})
    assert "parallel.scheduler" in str(e.value) and "tcp://HOST:PORT" in str(e.value)


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:8786", "tcp://node-1.lab:1",
                                     "tcp://[::1]:8786"])
def test_scheduler_address_accepted(address: str) -> None:
    cfg = load_config(overrides={"parallel.backend": "dask", "parallel.scheduler": address})
    assert cfg.parallel.scheduler == address


def test_a_list_of_numbers_reads_back_from_the_run_file() -> None:
    cfg = load_config(overrides={"plan.margins": [0.2, 1]})
    assert cfg.plan.margins == (0.2, 1.0)
    assert from_dict(tomllib.loads(to_toml(cfg))).plan.margins == (0.2, 1.0)
