"""Behaviour diagnostics: figures that bots of known behaviour must show, and consistent counts."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from arena.behaviour import Watcher
from arena.measure.diagnose import diagnose, main
from game.bots import AggressiveBot, DistributorBot
from game.engine import play_game
from game.map import classic_map


def _row(labels: list[str], table: list[tuple[str, str, list[float]]], metric: str
         ) -> dict[str, float]:
    vals = next(v for name, _d, v in table if name == metric)
    return dict(zip(labels, vals, strict=True))


class NeverFortifies(AggressiveBot):
    """Aggressive's play, and it never fortifies."""

    name = "never_fortifies"

    def fortify(self, view, /):  # type: ignore[no-untyped-def]
        return None


def test_known_behaviours_show(monkeypatch: pytest.MonkeyPatch) -> None:
    # This file's own class counts as trusted here: it plays in this process, not isolated
    # (isolated bots in diagnose are tests/arena/test_trust.py's), at a game's speed.
    import arena.bots
    import arena.play

    for module in (arena.bots, arena.play):
        monkeypatch.setattr(module, "trusted", lambda spec: True)
    labels, table = diagnose("aggressive", ["distributor", "test_diagnose:NeverFortifies"],
                             12, seed=3)
    assert labels == ["aggressive", "distributor", "NeverFortifies"]
    conc = _row(labels, table, "reinforce_concentration")
    # Aggressive puts a turn's reinforcements on one territory (a second placement comes only
    # from cards taken mid-turn by an elimination); distributor spreads them.
    assert conc["aggressive"] > 0.99 and conc["distributor"] < 0.9
    fort = _row(labels, table, "fortifies_per_turn")
    assert fort["NeverFortifies"] == 0.0 and fort["distributor"] > 0.0
    kept = _row(labels, table, "continent_kept")
    assert all(0.0 <= v <= 1.0 for v in kept.values() if v == v)
    won = _row(labels, table, "battle_win_rate")
    assert all(0.0 < v <= 1.0 for v in won.values())


def test_counts_agree_with_the_game() -> None:
    m = classic_map()
    for seed in range(4):
        players = [AggressiveBot(), DistributorBot(), AggressiveBot()]
        w = Watcher(m, 3)
        out = play_game(players, map=m, seed=seed, observer=w)
        seat_of = {p: s for s, p in enumerate(out.seats)}
        counts = w.finish(None if out.winner is None else seat_of[out.winner])
        for i, st in enumerate(out.stats):
            c = counts[seat_of[i]]
            assert c.conquests == st.conquests == c.battles_won
            assert c.defend_losses <= st.lost  # defending is part of all battle losses
            assert c.eliminated == (out.placements[i] > 1 and not out.capped)
        assert sum(c.wins for c in counts) == (0 if out.winner is None else 1)
        assert sum(c.defend_losses for c in counts) > 0


def test_cli_writes_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["aggressive", "bully", "bully", "--games", "3", "--jobs", "1",
                 "--out", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "reinforce_concentration" in text
    rows = list(csv.reader((tmp_path / "diagnose.csv").open()))
    assert rows[0][:3] == ["metric", "aggressive", "bully"] and len(rows) == 16
    assert (tmp_path / "diagnose.png").stat().st_size > 0
    assert main(["aggressive", "nosuchbot", "--out", str(tmp_path)]) == 2
    assert "nosuchbot" in capsys.readouterr().err
