"""Game viewer: frames per turn for a short game, and an animated GIF."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from evolve.play import make_bot
from evolve.watch import board_positions, main, record_game
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
        assert gif.n_frames == len(frames)
    with Image.open(frames[1]) as im:
        assert im.size == (1400, 800)
