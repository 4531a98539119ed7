"""Bugs of issue 64 still open after round 2, each pinned in a real browser (Chromium, as
tests/arena/test_browser.py): a reload keeps "since your last turn" and the header's game and
seed; an edited `#game=` opens that game; controls show only where they do something; the
key boxes and the players' cards column fit the side panel at 1280x800 and 1024x768; with the
person out, only the latest round stays drawn."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers.browser import chromium, start
from tests.helpers.web import serve_lobby

SHOWN = "return !!document.getElementById('{}').offsetParent;"

# The key boxes: each shown one ends inside the side panel's window, no scrolling needed.
BELOW_FOLD = """
const limit = document.querySelector('aside').getBoundingClientRect().bottom;
return ['decision', 'controls', 'summary', 'players', 'mission', 'hand'].filter((id) => {
  const e = document.getElementById(id);
  return e.offsetParent && e.textContent.trim() && e.getBoundingClientRect().bottom > limit + 1;
});"""

CLIPPED = """
const t = document.getElementById('players'), a = document.querySelector('aside');
const right = a.getBoundingClientRect().right - 8;
return [...t.querySelectorAll('tr')]
  .some((r) => r.lastElementChild.getBoundingClientRect().right > right)
  || t.scrollWidth > t.clientWidth;"""


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    for port, _lobby in serve_lobby(["aggressive", "bully"], seat=2,
                                    rules_text="missions,cap=30", seed=12):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    yield from chromium()


def size(d: Any, w: int, h: int) -> None:
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": False})


def test_reload_hash_and_controls(base: str, driver: Any) -> None:
    size(driver, 1280, 800)
    driver.get(base + "/")
    me = start(driver, base)
    s = me.settled()
    gid = me.js("return window.riskevo.gameId;")
    info = f"game {gid}, seed 12"
    assert driver.find_element("id", "game-info").text == info
    # Step and Skip do nothing at the person's own decision; Pause (for after it) does.
    assert me.js(SHOWN.format("btn-pause")) and not me.js(SHOWN.format("btn-step"))
    assert not me.js(SHOWN.format("btn-skip"))
    while not (s["decision"]["kind"] == "reinforce" and s["round"] >= 2
               and s.get("since_last_turn")):
        me.turn(s)
        s = me.settled()
    summary = driver.find_element("id", "summary-text").text
    assert summary.startswith("Since your last turn")
    me.turn(s)  # the person places: a reload now comes in the middle of their turn
    s = me.settled()
    driver.refresh()
    me.wait(lambda: bool(me.js("const s = window.riskevo.state; return s && s.log_next > 0;")),
            "the game after the reload")
    me.settled()
    assert driver.find_element("id", "game-info").text == info
    assert me.js(SHOWN.format("summary"))
    assert driver.find_element("id", "summary-text").text == summary
    for w, h in ((1280, 800), (1024, 768)):
        size(driver, w, h)
        me.shot(f"round3-{w}x{h}.png")
        assert me.js(BELOW_FOLD) == [], (w, h)
        assert not me.js(CLIPPED), (w, h)
    size(driver, 1280, 800)
    # An address edited in the open tab opens the game it names.
    body = {"opponents": ["bully"], "seat": 0, "seed": 4}
    req = urllib.request.Request(base + "/api/games", method="POST",
                                 data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        other = json.load(r)["id"]
    me.js(f"location.hash = '#game={other}';")
    me.wait(lambda: me.js("return window.riskevo.gameId;") == other, "the edited game")
    me.wait(lambda: driver.find_element("id", "game-info").text == f"game {other}, seed 4",
            "its header")
    # The new-game form: no bot controls, nothing to pace.
    me.js("window.confirm = () => true;")
    me.click("#btn-new-game", "new")
    assert not me.js(SHOWN.format("bot-controls")) and not me.js(SHOWN.format("pace-box"))


def test_with_the_person_out_only_the_latest_round_is_drawn(base: str, driver: Any) -> None:
    driver.get(base + "/")
    start(driver, base).settled()
    seats = driver.execute_script("""
storyReset();
for (let round = 0; round < 5; round++) for (const seat of [0, 1]) for (let k = 0; k < 3; k++)
  storyAdd({ ev: { kind: "place", seat, dst: seat, count: 1 } }, 2);
drawEvents(shownTurns());
return [story.turns.map((t) => t.seat),
  document.querySelectorAll('#overlay text.count').length];""")
    assert seats == [[0, 1], 2]
