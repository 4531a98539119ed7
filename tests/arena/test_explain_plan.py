"""`arena explain` on a planning bot file's attack: the plan in words, and no note that the bot
chooses otherwise where its planner played the line."""

from __future__ import annotations

from pathlib import Path

from arena.bots import make_rules, read_bot_file
from arena.explain import from_transcript
from arena.play import play_specs
from features.botfile import save_genome
from features.search.player import PlanSettings
from game.replay import read_transcript


def test_a_planning_bots_attack_is_explained_as_planned(tmp_path: Path) -> None:
    weights = read_bot_file("champion").weights
    bot = tmp_path / "planner.json"
    save_genome(bot, weights, plan=PlanSettings(rollouts=2, top_k=2).as_dict())
    path = tmp_path / "g.txt"
    play_specs([str(bot), "continent", "strategist"], 3, make_rules(None), transcript_to=path)
    lines = read_transcript(str(path))
    attacks = [i + 1 for i, x in enumerate(lines) if " attack " in x]
    planned = 0
    for no in attacks[:40]:
        try:
            _ex, _m, where = from_transcript(str(bot), str(path), no)
        except Exception:  # noqa: BLE001 - a line of another seat may not be explainable here
            continue
        if "plan" in where:
            planned += 1
            assert where["plan"].startswith(("planned:", "it goes on"))
    assert planned >= 1
