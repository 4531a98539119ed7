"""Lay out the board's names and draw a turn's story with the functions of an older commit and
with the checkout's, in the same page at the same moments; count the differences and time both.

    .venv/bin/python docs/experiments/2026-12-01-test-time/compare_page.py 651abd7

Plays three short games against `aggressive` and `random` by clicks (`tests.helpers.browser`)
and, at every decision of the person's, runs the old `layoutLabels` (every third decision) and
`drawEvents` (with its `countAt`), then the checkout's, and compares the labels' attributes and
the overlay's HTML."""

from __future__ import annotations

import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.helpers.browser import chromium, start  # noqa: E402
from tests.helpers.web import serve_lobby  # noqa: E402


def function(source: str, name: str) -> str:
    i = source.index(f"function {name}(")
    return source[i:source.index("\n}\n", i) + 3]


def old_functions(rev: str) -> str:
    def show(path: str) -> str:
        return subprocess.run(["git", "show", f"{rev}:{path}"], check=True, text=True,
                              capture_output=True).stdout

    board, story = show("arena/web/static/board.js"), show("arena/web/static/story.js")
    return (function(board, "layoutLabels").replace("function layoutLabels(",
                                                    "window.oldLayout = function (") + ";\n"
            + function(story, "countAt").replace("function countAt(",
                                                 "window.oldCountAt = function (") + ";\n"
            + function(story, "drawEvents").replace("function drawEvents(",
                                                    "window.oldDraw = function (")
            .replace("countAt(", "oldCountAt(") + ";\n")


LABELS = ("return [...document.querySelectorAll('#labels text')].map(t => [t.id, "
          "t.getAttribute('x'), t.getAttribute('y'), t.getAttribute('text-anchor'), "
          "[...t.querySelectorAll('tspan')].map(s => s.getAttribute('x')).join(',')]);")
OVERLAY = "return document.getElementById('overlay').innerHTML;"
TIMED = "const t0 = performance.now(); {call}; window._ms = performance.now() - t0;"


def main(rev: str) -> None:
    src = old_functions(rev)
    ms: dict[str, list[float]] = {k: [] for k in ("old layout", "new layout", "old draw",
                                                  "new draw")}
    checked, diffs = {"layout": 0, "draw": 0}, {"layout": 0, "draw": 0}
    for seed, seat, rules in ((11, 1, "cap=14"), (9, 0, "cap=10"), (5, 2, "cap=10")):
        for port, _lobby in serve_lobby(["aggressive", "random"], seat=seat, rules_text=rules,
                                        seed=seed):
            for d in chromium():
                me = start(d, f"http://127.0.0.1:{port}")
                me.attacks_per_turn = 3
                d.execute_script("(new Function(arguments[0]))();", src)
                s, n = me.settled(), 0
                while not s["over"] and n < 80:
                    for kind, old, new, read in (
                            ("layout", "oldLayout()", "layoutLabels()", LABELS),
                            ("draw", "oldDraw(shownTurns())", "drawEvents(shownTurns())",
                             OVERLAY)):
                        if kind == "layout" and n % 3:
                            continue
                        got = []
                        for who, call in (("old", old), ("new", new)):
                            got.append(me.js(TIMED.format(call=call) + read))
                            ms[f"{who} {kind}"].append(me.js("return window._ms;"))
                        checked[kind] += 1
                        diffs[kind] += got[0] != got[1]
                    me.turn(s)
                    s, n = me.settled(), n + 1
    for kind in ("layout", "draw"):
        print(f"{kind}: {checked[kind]} compared, {diffs[kind]} different; median ms "
              f"old {statistics.median(ms['old ' + kind]):.1f}, "
              f"new {statistics.median(ms['new ' + kind]):.1f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "651abd7")
