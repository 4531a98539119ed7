"""Seeded games as readable text traces: one line per decision (like python-chess's perft
files), so that a changed game shows as a diff whose first line is the first move that
changed."""

from __future__ import annotations

import difflib
from pathlib import Path

import numpy as np

from game.map import Map
from game.rules import layout as L

_WORDS = {L.A_PLACE: "place", L.A_TRADE: "trade", L.A_END_TRADE: "end-trade",
          L.A_ATTACK: "attack", L.A_STOP: "stop", L.A_MOVE: "move", L.A_FORTIFY: "fortify",
          L.A_SKIP: "skip"}
_KINDS = {w: k for k, w in _WORDS.items()}
# Which of (a, b, c) name a territory, per kind; the others are numbers.
_TERRITORIES = {L.A_PLACE: (0,), L.A_ATTACK: (0, 1), L.A_FORTIFY: (0, 1)}


def trace_lines(trace: np.ndarray, m: Map) -> list[str]:
    """Rows (seat, kind, a, b, c) of a compiled game's trace as lines `s<seat> <kind> a b c`,
    territories by name (spaces as _)."""
    out = []
    for seat, kind, *abc in trace.tolist():
        words = [m.territories[v].replace(" ", "_") if i in _TERRITORIES.get(kind, ())
                 else str(v) for i, v in enumerate(abc)]
        out.append(f"s{seat} {_WORDS[kind]} {' '.join(words)}")
    return out


def trace_rows(lines: list[str], m: Map) -> np.ndarray:
    """The inverse of `trace_lines` (rows int64[n, 5])."""
    names = {t.replace(" ", "_"): i for i, t in enumerate(m.territories)}
    rows = []
    for line in lines:
        seat, word, *abc = line.split()
        rows.append([int(seat[1:]), _KINDS[word],
                     *(names[v] if v in names else int(v) for v in abc)])
    return np.array(rows, dtype=np.int64).reshape(-1, 5)


def first_change(expected: list[str], got: list[str], name: str) -> str:
    """'' when equal, else the first line that changed and a short diff around it."""
    if got == expected:
        return ""
    line = next((i for i, (a, b) in enumerate(zip(expected, got, strict=False)) if a != b),
                min(len(expected), len(got)))
    diff = list(difflib.unified_diff(expected, got, name, "now", lineterm="", n=2))[:24]
    return f"{name}: the first changed move is line {line + 1}\n" + "\n".join(diff)


def read_trace_file(path: Path) -> dict[str, list[str]]:
    """{header: lines} of a trace file: a game starts at a line `game <header>`."""
    games: dict[str, list[str]] = {}
    current: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("game "):
            current = games.setdefault(line[5:], [])
        elif line and not line.startswith("#"):
            current.append(line)
    return games
