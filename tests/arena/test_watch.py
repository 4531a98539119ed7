"""Game viewer: frames per turn for a short game, and an animated GIF."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from arena.bots import make_bot
from arena.play import main as play_main
from arena.watch import board_positions, main, record_game
from game.map import classic_map
from game.state import Rules


def test_positions_cover_the_classic_board() -> None:
    pos = board_positions(classic_map())
    assert pos.shape == (42, 2)
    assert (pos >= 0).all() and (pos <= 1).all()
    d = np.linalg.norm(pos[:, None] - pos[None], axis=-1) + np.eye(42)
    assert d.min() > 0.05  # no two territories drawn on top of each other


def test_one_frame_per_turn() -> None:
    players = [make_bot("random") for _ in range(3)]
    _, frames, out = record_game(players, seed=1, rules=Rules(cap=2))
    turns = [f.turn for f in frames[1:-1]]
    assert frames[0].round == 0  # the deal
    assert turns == list(range(1, len(turns) + 1)) and len(turns) >= 3 * 2
    assert frames[-1].seat == -1 and out.capped
    assert all(int(f.armies.sum()) > 0 for f in frames)


def test_cli_writes_frames_and_gif(tmp_path: Path) -> None:
    out = tmp_path / "w"
    assert main(["random", "random", "--seed", "3", "--cap", "1", "--out", str(out)]) == 0
    frames = sorted(out.glob("frame_*.png"))
    assert len(frames) >= 3
    with Image.open(out / "game.gif") as gif:
        assert gif.n_frames == len(frames)  # type: ignore[attr-defined]  # GIF plugin only
    with Image.open(frames[1]) as im:
        assert im.size == (1400, 800)


def _one_line_error(capsys: pytest.CaptureFixture[str], *parts: str) -> None:
    cap = capsys.readouterr()
    err = cap.err.strip()
    assert err.startswith("error: ") and "\n" not in err and cap.out == ""
    for p in parts:
        assert p in err


def test_cli_errors_are_one_line_on_stderr(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "w")
    assert main(["random", "random", "--seed", "-1", "--out", out]) == 2
    _one_line_error(capsys, "--seed", "-1")
    assert main(["random", "random", "--out", "/proc/nope"]) == 2
    _one_line_error(capsys, "--out", "/proc/nope")
    assert main(["random", "random", "--every", "0", "--out", out]) == 2
    _one_line_error(capsys, "--every")
    assert main(["random", "--out", out]) == 2
    _one_line_error(capsys, "2..6 bots")
    assert not (tmp_path / "w").exists()


def test_play_errors_are_one_line_on_stderr(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert play_main(["random", "random", "--seed", "-1"]) == 2
    _one_line_error(capsys, "--seed")
    assert play_main(["random"] * 7) == 2
    _one_line_error(capsys, "2..6 bots, got 7")
    assert play_main(["random", "random", "--rules", "fog"]) == 2
    _one_line_error(capsys, "fog")
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert play_main([str(bad), "random"]) == 2
    err = capsys.readouterr().err
    assert err.count(str(bad)) == 1 and "not valid JSON" in err  # the path said once
    assert play_main(["random", "random", "--cap", "2", "--seed", "4"]) == 0
    assert "winner:" in capsys.readouterr().out
