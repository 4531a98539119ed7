"""`arena explain` on a planning bot file's attack in a transcript: the plan in words, said to
be worked out again (a transcript holds no record of the decision)."""

from __future__ import annotations

from pathlib import Path

from arena.bots import make_rules, read_bot_file
from arena.explain import from_transcript
from arena.play import play_specs
from features.botfile import save_genome
from features.search.player import PlanSettings
from game.record.replay import read_transcript


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
            out, _where = from_transcript(str(bot), str(path), no)
        except Exception:  # noqa: BLE001 - a line of another seat may not be explainable here
            continue
        if out["plan"] is not None:
            planned += 1
            assert not out["recorded"] and "no record" in out["plain"]
    assert planned >= 1
