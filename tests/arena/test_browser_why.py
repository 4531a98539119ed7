"""Issue 64 in a real browser: the why?/hint panel and its highlight leave when the position
changes, and the bots wait while one is open. Needs Chromium as tests/arena/test_browser.py
does (`tests.helpers.browser`)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers.browser import Person, chromium, start
from tests.helpers.web import serve_lobby

OPEN = "return !document.getElementById('explain').hidden;"
MARKED = "return document.querySelectorAll('.territory.explained').length;"
TITLE = "return document.getElementById('explain-title').textContent;"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from features.botfile import save_genome
    from features.genome import hand_set_genome

    champ = tmp_path_factory.mktemp("why") / "champ.json"
    save_genome(champ, hand_set_genome())
    for port, _lobby in serve_lobby([str(champ), "aggressive"], seat=1, rules_text="cap=30",
                                    seed=11):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    yield from chromium()


def gone(me: Person, what: str) -> None:
    me.wait(lambda: not me.js(OPEN) and me.js(MARKED) == 0, what)


def test_the_panel_and_its_highlight_leave_when_the_position_changes(base: str,
                                                                     driver: Any) -> None:
    me = start(driver, base)
    s = me.settled()
    while s["decision"]["kind"] != "reinforce":
        me.turn(s)
        s = me.settled()
    me.click("#btn-hint", "hint")
    me.wait(lambda: me.js(TITLE).startswith("What champ would do"), "the hint", limit=300)
    assert me.js(MARKED) >= 1
    me.turn(s)  # the person moves: the hint was about the position before
    gone(me, "the hint to leave with the position")

    # A bot's line explained while the bots are paused: Resume keeps them waiting while the
    # panel is open, Step moves on and the panel goes.
    me.click("#btn-pause", "pause")
    s = me.settled()
    while s["decision"] is not None:
        me.turn(s)
        time.sleep(0.2)
        s = me.js("return window.riskevo.state;")
        if s["over"]:
            pytest.fail("the game ended before a bot's line could be asked about")
    me.click("#btn-step", "step")
    me.wait(lambda: bool(me.js("return document.querySelectorAll('#log button.why').length")),
            "a why? button")
    me.js("const b = [...document.querySelectorAll('#log button.why')].pop(); b.click();")
    me.wait(lambda: me.js(TITLE).startswith("champ on line"), "the explanation", limit=300)
    at = me.js("return window.riskevo.logNext;")
    me.click("#btn-pause", "resume")
    time.sleep(1.5)
    assert me.js(OPEN) and me.js("return window.riskevo.logNext;") == at
    assert "wait while the explanation is open" in driver.find_element("id", "decision").text
    me.click("#btn-step", "step")
    gone(me, "the explanation to leave with the next move")
    me.wait(lambda: me.js("return window.riskevo.logNext;") > at, "the bots to move on")
