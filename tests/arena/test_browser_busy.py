"""A busy turn readable in a real browser (issue 64, item 3): two counts on one territory never
overlap (they read as one false number), no count or dice box covers a name (each moves off
the names, or is faded where it cannot), every arrow has its dark casing (visible on land of
its own colour), and every continent's label sits on that continent's land, at 1024x768 and
1280x800. Needs Chromium as tests/arena/test_browser.py does (`tests.helpers.browser`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers.browser import chromium, start
from tests.helpers.web import serve_lobby

SIZES = ((1280, 800), (1024, 768))

COUNTS_OVERLAP = """
const b = [...document.querySelectorAll('#overlay text.count')].map((e) => e.getBBox());
const out = [];
for (let i = 0; i < b.length; i++) for (let j = i + 1; j < b.length; j++) {
  const p = b[i], q = b[j];
  if (p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height)
    out.push([i, j]);
}
return [b.length, out];"""

# The counts and dice drawn over a name (a territory's or a continent's), unless faded so the
# name reads through.
NAMES_COVERED = """
const box = (e) => { const b = e.getBBox(); return [b.x, b.y, b.width, b.height]; };
const names = [...document.querySelectorAll('#labels text')].map((e) => [e.textContent, box(e)]);
const hit = (p, q) => p[0] < q[0] + q[2] && q[0] < p[0] + p[2]
  && p[1] < q[1] + q[3] && q[1] < p[1] + p[3];
const out = [];
for (const e of document.querySelectorAll('#overlay text.count, #overlay g.roll')) {
  if (e.classList.contains('faded')) continue;
  for (const [n, b] of names) if (hit(box(e), b)) out.push([e.textContent, n]);
}
return out;"""

CONTINENTS_OUTSIDE = """
const d = window.riskevo.drawn;
return d.map.continents.map((c, i) => {
  const b = document.getElementById('c-' + i).getBBox();
  return onContinent(d, c, b.x + b.width / 2, b.y + b.height / 2) ? null : c.name;
}).filter((x) => x);"""


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    for port, _lobby in serve_lobby(["aggressive", "bully", "aggressive"], seat=3,
                                    rules_text="cap=30", seed=21):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    yield from chromium()


def test_a_busy_round_reads_right(base: str, driver: Any) -> None:
    me = start(driver, base)
    me.attacks_per_turn = 1  # the bots make the rounds busy
    s = me.settled()
    busiest = 0
    for _ in range(400):
        if s["over"]:
            break
        if s["decision"]["kind"] == "reinforce" and s["round"] >= 2:
            n, pairs = me.js(COUNTS_OVERLAP)
            assert pairs == [], f"counts overlap in round {s['round']}"
            assert me.js(NAMES_COVERED) == [], f"a name covered in round {s['round']}"
            arrows = me.js("return [document.querySelectorAll('#overlay line.arrow').length,"
                           "document.querySelectorAll('#overlay line.arrow-casing').length];")
            assert arrows[0] == arrows[1]
            busiest = max(busiest, n)
            if busiest >= 8 and s["round"] >= 4:
                break
        me.turn(s)
        s = me.settled()
    assert busiest >= 8  # the check met busy rounds
    for w, h in SIZES:
        me.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                             {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": False})
        assert me.js(CONTINENTS_OUTSIDE) == [], (w, h)
        assert me.js(COUNTS_OVERLAP)[1] == []
        assert me.js(NAMES_COVERED) == [], (w, h)
        me.shot(f"busy-{w}x{h}.png")
