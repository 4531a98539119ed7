"""docs/env.md's example runs as written; arena.envs seats bots by name or bot file."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

ROOT = Path(__file__).resolve().parents[2]


def _docs_example() -> Any:
    text = (ROOT / "docs" / "env.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S)
    assert code is not None
    ns: dict[str, Any] = {}
    exec(compile(code.group(1), "docs/env.md", "exec"), ns)
    return ns["play"]


def test_docs_example_runs_against_strategist_and_a_champion_file(tmp_path: Path) -> None:
    from features.botfile import save_genome
    from features.genome import hand_set_genome

    play = _docs_example()
    rewards = play(games=2, seed=0)
    assert len(rewards) == 2 and all(-1 <= r <= 1 for r in rewards)
    champion = tmp_path / "champion.json"
    save_genome(champion, hand_set_genome())
    assert len(play(str(champion), games=1, seed=1)) == 1


def test_seat_env_by_names() -> None:
    from arena.bots import BotSpecError
    from arena.envs import seat_env

    e = seat_env(["random", "continent"], learner=1, rules="missions,cap=20")
    obs, info = e.reset(seed=3)
    assert obs.shape == e.observation_space.shape and info["action_mask"].any()
    assert e.session.rules.missions and e.session.rules.cap == 20
    with pytest.raises(BotSpecError):
        seat_env(["no-such-bot"])


def test_bench_env_measures() -> None:
    from evolve.bench.benchenv import bench_aec, bench_loop, bench_seat

    steps, seconds = bench_aec(1, 0, n_players=3)
    assert steps > 0 and seconds > 0
    assert bench_loop(1, 0, n_players=3)[0] > 0
    learner, actions, _ = bench_seat(1, 0, bot="continent")
    assert 0 < learner < actions
