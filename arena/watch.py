"""Game viewer: play one game and render the board per turn as PNG frames plus an animated GIF."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from evolve.cli import ArgumentParser
from evolve.report.plots import plt, save_figure
from game.atomic import atomic_file
from game.decision import Decision, ask
from game.map import Map, board_positions, classic_map
from game.rules.layout import S_TURNS
from game.view import GameView

__all__ = [
    "Frame", "board_positions", "caption", "main", "record_game", "render_frames", "write_gif",
]

COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b")
CONTINENT_SHADE = ("#f6e8c3", "#c7eae5", "#dfe6f7", "#f4d6c6", "#e5f5e0", "#f2e1f5")


@dataclass(frozen=True)
class Frame:
    """The board at the start of one turn (turn 0: after the deal; seat -1: the end)."""

    owner: np.ndarray  # seat per territory
    armies: np.ndarray
    round: int
    turn: int
    seat: int  # seat to move, -1 when the game is over


class _Recorder:
    """Wraps a player: snapshots the board the first time each new turn asks anything."""

    def __init__(self, player: Any, frames: list[Frame], last: list[Any]) -> None:
        # `last` is shared by all recorders: [turn of the last frame, last view seen]
        self.p, self.frames, self.last = player, frames, last

    def _see(self, view: GameView) -> None:
        s = view.full_state()  # the referee view of the board: watch renders it all
        self.last[1] = view
        turn = int(s.sc[S_TURNS])
        if turn != self.last[0]:
            self.last[0] = turn
            self.frames.append(Frame(s.owner.copy(), s.armies.copy(), s.round, turn, s.current))

    def start_game(self, view: GameView, rng: np.random.Generator) -> None:
        """Snapshot the deal once, then pass on."""
        self._see(view)
        self.p.start_game(view, rng)

    def act(self, view: GameView, decision: Decision) -> Any:
        """Snapshot, then the wrapped player's answer."""
        self._see(view)
        return ask(self.p, view, decision)


def record_game(players: list[Any], seed: int, rules: Any = None,
                m: Map | None = None) -> tuple[Map, list[Frame], Any]:
    """Play one game; return (map, frames: deal, one per turn, final board; outcome)."""
    from game.engine import play_game

    m = m if m is not None else classic_map()
    frames: list[Frame] = []
    last: list[Any] = [-1, None]
    wrapped = [_Recorder(p, frames, last) for p in players]
    # Class-path bots inside the recorders play isolated (they never see these views).
    out = play_game(wrapped, map=m, rules=rules, seed=seed,
                    forfeits=True)
    s = last[1].full_state()  # views follow the game: this is the final board
    frames.append(Frame(s.owner.copy(), s.armies.copy(), out.rounds, int(s.sc[S_TURNS]), -1))
    return m, frames, out


def caption(f: Frame, seat_labels: dict[int, str], end_text: str) -> str:
    """Title line of a frame."""
    if f.seat < 0:
        return end_text
    if f.round == 0:
        return "territories dealt; initial placement"
    return f"round {f.round}, turn {f.turn}: seat {f.seat} ({seat_labels.get(f.seat, '?')}) to move"


def render_frames(m: Map, frames: list[Frame], seat_labels: dict[int, str], end_text: str,
                  out_dir: Path) -> list[Path]:
    """Draw every frame as `frame_NNNN.png` in out_dir (one figure, artists updated per frame)."""
    pos = board_positions(m)
    fig, ax = plt.subplots(figsize=(14, 8), layout="constrained")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.12, 1.0)
    ax.axis("off")
    ii, jj = np.nonzero(np.triu(m.adjacency))
    for i, j in zip(ii, jj, strict=True):
        (x1, y1), (x2, y2) = pos[i], pos[j]
        if abs(x1 - x2) > 0.5:  # a border across the date line: two stubs off the edges
            a, b = (i, j) if x1 < x2 else (j, i)
            ax.plot([pos[a][0], -0.02], [pos[a][1], pos[a][1]], ":", color="grey", lw=1.2)
            ax.plot([pos[b][0], 1.02], [pos[b][1], pos[b][1]], ":", color="grey", lw=1.2)
        else:
            ax.plot([x1, x2], [y1, y2], "-", color="#bbbbbb", lw=1.2, zorder=1)
    shade = [CONTINENT_SHADE[c % len(CONTINENT_SHADE)] for c in range(m.n_continents)]
    dots = ax.scatter(pos[:, 0], pos[:, 1], s=650, c="white", zorder=2,
                      edgecolors=[shade[c] for c in m.continent_of], linewidths=4)
    counts = [ax.text(x, y, "", ha="center", va="center", fontsize=9, fontweight="bold",
                      color="white", zorder=3) for x, y in pos]
    for t, (x, y) in enumerate(pos):
        ax.text(x, y - 0.034, m.territories[t], ha="center", va="top", fontsize=6.5, zorder=3)
    for c, name in enumerate(m.continents):
        idx = np.flatnonzero(m.continent_of == c)
        x, y = pos[idx, 0].mean(), pos[idx, 1].max() + 0.04
        near = ((np.abs(pos[:, 0] - x) < 0.08) & (np.abs(pos[:, 1] - y) < 0.08)
                & (m.continent_of != c))
        if near.any():  # another territory sits where the label would go: put it underneath
            y = pos[idx, 1].min() - 0.085
        ax.text(x, y, f"{name} (+{int(m.bonus[c])})", ha="center", fontsize=9,
                color="#444444", style="italic", bbox={"facecolor": shade[c], "lw": 0})
    title = ax.set_title("", fontsize=13)
    n_seats = len(seat_labels)
    rows = [ax.text(0.34 * (k // 3), 0.06 - 0.04 * (k % 3), "", fontsize=9, zorder=4,
                    family="monospace", color=COLOURS[k % len(COLOURS)], fontweight="bold")
            for k in range(n_seats)]
    out_dir.mkdir(parents=True, exist_ok=True)
    files = []
    for k, f in enumerate(frames):
        dots.set_facecolor([COLOURS[o % len(COLOURS)] for o in f.owner])
        for t, txt in enumerate(counts):
            txt.set_text(str(int(f.armies[t])))
        title.set_text(caption(f, seat_labels, end_text))
        for seat, row in enumerate(rows):
            mine = f.owner == seat
            mark = ">" if seat == f.seat else " "
            row.set_text(f"{mark} seat {seat} {seat_labels.get(seat, '?')[:16]:<16} "
                         f"{int(mine.sum()):2d} terr. {int(f.armies[mine].sum()):4d} armies")
        files.append(save_figure(fig, out_dir / f"frame_{k:04d}.png", close=False))
    plt.close(fig)
    return files


def write_gif(frames: list[Path], out: Path, ms_per_frame: int = 400, width: int = 980) -> Path:
    """Assemble PNG frames into an animated GIF (atomically), scaled to `width` pixels."""
    from PIL import Image

    imgs = []
    for f in frames:
        with Image.open(f) as im:
            h = round(im.height * width / im.width)
            imgs.append(im.convert("RGB").resize((width, h), Image.Resampling.LANCZOS)
                        .quantize(colors=64))
    durations = [ms_per_frame] * len(imgs)
    durations[-1] = max(ms_per_frame, 3000)  # linger on the result
    with atomic_file(out) as fh:
        imgs[0].save(fh, format="GIF", save_all=True, append_images=imgs[1:],
                     duration=durations, loop=0)
    return out


def main(argv: list[str]) -> int:
    """`python -m arena watch BOTS... --seed S --out DIR`: PNG per turn and game.gif."""
    from arena.bots import GameArgError, close_bot, game_seed
    from arena.play import add_game_arguments, game_setup, labels_for
    from evolve.cli import error

    ap = ArgumentParser(prog="python -m arena watch", description=main.__doc__)
    add_game_arguments(ap)
    ap.add_argument("--out", required=True, help="folder for frame_NNNN.png and game.gif")
    ap.add_argument("--every", type=int, default=1, help="keep every k-th turn (default 1)")
    ap.add_argument("--ms", type=int, default=400, help="GIF milliseconds per frame")
    args = ap.parse_args(argv)
    out_dir = Path(args.out)
    try:
        players, rules = game_setup(args.bots, args.seed, args.rules, args.cap)
        if args.every < 1:
            raise GameArgError(f"--every must be >= 1, got {args.every}")
        if not 1 <= args.ms <= 655_350:  # a GIF frame's delay: 16 bits of 10 ms
            raise GameArgError(f"--ms must be 1..655350, got {args.ms}")
        out_dir.mkdir(parents=True, exist_ok=True)  # before the game: fail fast
    except GameArgError as e:
        return error(e)
    except OSError as e:
        return error(f"--out {out_dir}: cannot create the folder ({e.strerror or e})")
    labels = labels_for(args.bots)
    try:
        m, frames, out = record_game(players, game_seed(args.seed, args.bots), rules)
    finally:
        for p in players:
            close_bot(p)
    seat_labels = {seat: labels[p] for seat, p in enumerate(out.seats)}
    winner = "nobody (round cap)" if out.winner is None else labels[out.winner]
    end_text = f"game over after {out.rounds} rounds: winner {winner}"
    keep = frames[:1] + frames[1:-1][:: args.every] + frames[-1:]
    try:
        for old in out_dir.glob("frame_*.png"):
            old.unlink()  # frames of an earlier, longer game would otherwise linger
        files = render_frames(m, keep, seat_labels, end_text, out_dir)
        gif = write_gif(files, out_dir / "game.gif", args.ms)
    except OSError as e:
        return error(f"--out {out_dir}: cannot write the frames ({e.strerror or e})")
    print(f"{len(files)} frames in {out_dir}; {gif}")
    print(end_text + ("" if not out.capped else " (capped)"))
    for i, why in enumerate(out.forfeits):
        if why:
            print(f"  {labels[i]} forfeited ({why})")
    return 0
