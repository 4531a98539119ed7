"""Things said once: each has one home, and the copies the reviews found are gone."""

from __future__ import annotations

import importlib
import re

import numpy as np
import pytest

from arena import play
from arena.measure import diagnose, gauntlet, tournament
from arena.web import app as web
from arena.web.httpd import MAX_QUERY_FIELDS, RequestError, split_path
from arena.wire.protocol import ProtocolError
from arena.wire.subprocess_player import SubprocessPlayer
from evolve.breeding import ga
from evolve.config import load_config
from evolve.plugin import default_plugin
from features.genome import LAYOUT, random_genomes
from game.rules import layout as L
from game.state import MAX_CAP, Rules


@pytest.mark.parametrize(("module", "name"), [
    ("game.referee", "decision_of"), ("features.kernels", "jit_kernel"),
    ("evolve.plugin", "_scale_mask"), ("evolve.report.export", "load_bot"),
    ("game.state", "CAP_MAX"),
    ("game.record.replay", "KIND_NAMES"), ("arena.web.live", "PHASES"),
    # one bot file reader, features.botfile
    ("features.genome", "load_bot_file"), ("features.genome", "load_genome"),
    ("features.genome", "save_genome"), ("features.search.player", "read_bot"),
])
def test_the_copies_are_gone(module: str, name: str) -> None:
    assert not hasattr(importlib.import_module(module), name)


def test_the_query_string_is_decoded_by_urllib() -> None:
    assert split_path("/api/replay/explain?bot=my%20bot&line=3") == (
        ["api", "replay", "explain"], {"bot": "my bot", "line": "3"})
    assert split_path("/api/games") == (["api", "games"], {})
    with pytest.raises(RequestError, match=f"at most {MAX_QUERY_FIELDS} fields"):
        split_path("/api/games?" + "&".join(f"k{i}=1" for i in range(MAX_QUERY_FIELDS + 1)))


@pytest.mark.parametrize(("reply", "says"), [
    ('{"id": 1, ', "bot reply to start: not valid JSON (line "),
    ("[" * 100_000 + "]" * 100_000, "bot reply to start: not valid JSON (nested too deep)"),
])
def test_bot_replies_go_through_parse_json(reply: str, says: str) -> None:
    player = SubprocessPlayer(None)
    player.exchange = lambda line: reply + "\n"  # type: ignore[method-assign]
    with pytest.raises(ProtocolError, match=re.escape(says)):
        player.request("start")


def test_phase_labels_stand_beside_the_names() -> None:
    assert len(L.PHASE_LABELS) == len(L.PHASE_NAMES)
    assert L.PHASE_LABELS[L.PH_SETUP] == "initial placement"
    assert L.PHASE_LABELS[L.PH_OVER] == "game over"


def test_one_round_cap_bound_for_rules_and_the_run_config() -> None:
    field = next(f for f in Rules.__dataclass_fields__.values() if f.name == "cap")
    assert field.metadata["hi"] == MAX_CAP
    Rules(cap=MAX_CAP)
    with pytest.raises(ValueError, match=f"1..{MAX_CAP}"):
        Rules(cap=MAX_CAP + 1)


def test_a_run_starts_from_the_one_random_genome_generator() -> None:
    plugin = default_plugin(load_config())
    pop = ga.random_population(plugin, 5, np.random.default_rng(7))
    assert np.array_equal(ga.to_array(pop), random_genomes(LAYOUT, 5, np.random.default_rng(7)))


def test_the_rules_help_is_written_once(capsys: pytest.CaptureFixture[str]) -> None:
    helps = [web.parser().format_help()]
    for command in (diagnose, gauntlet, tournament, play):
        with pytest.raises(SystemExit):
            command.main(["--help"])
        helps.append(capsys.readouterr().out)
    assert all("missions,fixed_cards,cap=50" in " ".join(h.split()) for h in helps)
