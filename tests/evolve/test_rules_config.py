"""One home for the rules: a run's `[rules]` section is `game.state.Rules`, every option of it
reaches the run's games, and transcripts name the options that differ from the standard game."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import features.compiled as fc
from evolve.config import SCHEMA, ConfigError, load_config, to_toml
from evolve.run_cmd import main as run_main
from features.botfile import load_genome
from features.linear import LinearPlayer
from game.decision import Decision, DecisionKind
from game.engine import play_game
from game.state import Rules
from game.view import GameView

RULES = Rules(bonus_every_set=True, trade_at=4)


def test_rules_section_is_every_option_of_rules() -> None:
    assert list(SCHEMA["rules"]) == [f.name for f in dataclasses.fields(Rules)]
    assert load_config().rules == Rules()


def test_every_option_can_be_set_and_is_checked() -> None:
    cfg = load_config(overrides={"rules.trade_at": 4, "rules.bonus_every_set": True})
    assert cfg.rules == RULES
    with pytest.raises(ConfigError, match="rules.trade_at"):
        load_config(overrides={"rules.trade_at": 11})
    with pytest.raises(ConfigError, match="rules.bonus_every_set"):
        load_config(overrides={"rules.bonus_every_set": "yes"})


def test_a_config_without_the_newer_options_loads_with_their_defaults(tmp_path: Path) -> None:
    text = to_toml(load_config())
    old = "\n".join(ln for ln in text.splitlines()
                    if not ln.startswith(("bonus_every_set", "trade_at")))
    path = tmp_path / "config.toml"
    path.write_text(old, encoding="utf-8")
    assert load_config([path]).rules == Rules()


class _HandSizes(LinearPlayer):
    """A linear player noting the hand size at every compulsory trade it is asked for."""

    def __init__(self, weights: np.ndarray, sizes: list[int]) -> None:
        super().__init__(weights)
        self.sizes = sizes

    def act(self, view: GameView, decision: Decision) -> Any:
        if decision.kind is DecisionKind.TRADE and decision.compulsory:
            self.sizes.append(len(view.hand))
        return super().act(view, decision)


def test_a_run_plays_its_games_under_every_rules_option(tmp_path: Path, monkeypatch: Any,
                                                         capsys: Any) -> None:
    seen: list[Rules | None] = []
    real = fc.play_linear_games

    def spy(weights: np.ndarray, seeds: Any, rules: Rules | None = None, map: Any = None) -> Any:
        seen.append(rules)
        return real(weights, seeds, rules, map)

    monkeypatch.setattr(fc, "play_linear_games", spy)
    args = ["--name", "r", "--runs-dir", str(tmp_path), "--population", "8", "--games", "4",
            "--generations", "2", "--seed", "3", "--n-jobs", "1", "--eval-every", "0",
            "--set", "champion.every=0", "--set", "output.plot_every=0", "--set", "run.elite=1",
            "--set", "parallel.backend=sequential", "--set", "plan.games=0",
            "--set", "value.games=8",
            "--set", "rules.bonus_every_set=true", "--set", "rules.trade_at=4"]
    assert run_main(args) == 0, capsys.readouterr().err
    assert seen and all(r == RULES for r in seen)
    assert load_config([tmp_path / "r" / "config.toml"]).rules == RULES
    # The champion's games under those rules: a hand of 4 must trade.
    weights, _ = load_genome(tmp_path / "r" / "champion.json")
    sizes: list[int] = []
    for seed in range(3):
        out = play_game([_HandSizes(weights, sizes) for _ in range(4)], rules=RULES, seed=seed,
                        transcript=True)
        assert out.transcript is not None
        rules_line = next(x for x in out.transcript if x.startswith("rules "))
        assert "bonus_every_set=1 trade_at=4" in rules_line
    assert 4 in sizes and min(sizes) >= 4
