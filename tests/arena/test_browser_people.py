"""Friends at the table in a real browser (issue 64): two people in two browser sessions and
two bots play a game to its end. The starter picks the friend's seat and passes the link; each
page shows only its own seat's cards, acts only for its seat, sees the other's turns in the log,
and a reload returns to the game by the link. Needs Chromium as tests/arena/test_browser.py
does (`tests.helpers.browser`)."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest

from tests.helpers.browser import Person, chromium
from tests.helpers.web import serve_lobby

STATE = "return window.riskevo.state;"
READY = ("const s = window.riskevo.state; return !window.riskevo.busy && !!s && !!s.decision && "
         "document.getElementById('decision').dataset.kind === s.decision.kind;")
# One round trip a page a poll: whether the game is over, and the state once the page asks the
# person (its controls shown for the decision).
POLL = ("const s = window.riskevo.state; if (!s) return null; const ready = !s.over && "
        "!window.riskevo.busy && !!s.decision && "
        "document.getElementById('decision').dataset.kind === s.decision.kind; "
        "return {over: s.over, s: ready ? s : null};")


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    for port, _lobby in serve_lobby(["aggressive", "bully"], seat=0, rules_text="cap=4",
                                    seed=9):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def host_driver() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture(scope="module")
def friend_driver() -> Iterator[Any]:
    yield from chromium()


def server_view(base: str, link: str) -> dict[str, Any]:
    q = parse_qs(link.split("#", 1)[1])
    url = f"{base}/api/games/{q['game'][0]}?seat={q['seat'][0]}&key={q['key'][0]}"
    with urllib.request.urlopen(url) as r:
        out: dict[str, Any] = json.load(r)
    return out


def shown_hand(me: Person) -> list[int]:
    got: list[int] = me.js("return [...document.querySelectorAll('#hand .card')]"
                           ".map(c => +c.dataset.card);")
    return got


def test_two_people_and_two_bots_play_to_the_end(base: str, host_driver: Any,
                                                 friend_driver: Any) -> None:
    shots = Path("runs/browser-test")
    shots.mkdir(parents=True, exist_ok=True)
    host, friend = Person(host_driver, base, shots), Person(friend_driver, base, shots)
    host.attacks_per_turn = friend.attacks_per_turn = 3  # fewer clicks, every kind still asked
    host_driver.get(base + "/")
    host.wait(lambda: bool(host.js("return !document.getElementById('setup').hidden;")),
              "the form")
    host.js("document.getElementById('pace').value = 0;"
            "const f = document.getElementById('friends'); f.value = '1';"
            "f.dispatchEvent(new Event('change'));")
    host.js("document.getElementById('seat').value = '0';"
            "document.getElementById('friend-seat-0').value = '2';")
    host.click("#btn-start", "start")
    host.wait(lambda: bool(host.js("return !!document.querySelector('.invite-link');")),
              "the friend's link")
    link = host.js("return document.querySelector('.invite-link').value;")
    mine = host.js("return location.hash;")
    assert "seat=2" in link and "key=" in link and "seat=0" in mine and "key=" in mine
    friend_driver.get(link)
    friend.wait(lambda: bool(friend.js("return !!(window.riskevo && window.riskevo.state);")),
                "the friend's page")
    friend.js("document.getElementById('pace').value = 0;")
    assert friend.js(STATE)["human"] == 2 and host.js(STATE)["human"] == 0

    turns = {0: 0, 2: 0}
    reloaded = False
    end = time.monotonic() + 900
    while time.monotonic() < end:
        polls = [(me, me.js(POLL)) for me in (host, friend)]
        if all(p and p["over"] for _, p in polls):
            break
        if not any(p and p["s"] for _, p in polls):
            time.sleep(0.05)  # the bots' turns
        for me, p in polls:
            if p and p["s"]:
                s = p["s"]
                seat = s["human"]
                assert s["to_move"] == seat
                srv = server_view(base, link if me is friend else base + "/" + mine)
                assert shown_hand(me) == [c["id"] for c in srv.get("hand", [])]
                me.turn(s)
                turns[seat] += 1
                if seat == 2 and turns[2] == 25 and not reloaded:  # leaves and rejoins
                    friend_driver.refresh()
                    friend.wait(lambda: bool(friend.js(
                        "return !!(window.riskevo && window.riskevo.state);")), "the rejoin")
                    friend.js("document.getElementById('pace').value = 0;")
                    reloaded = True
    else:
        pytest.fail(f"the game did not end (answers so far: {turns})")
    assert turns[0] > 10 and turns[2] > 10 and reloaded
    host.wait(lambda: host.js("return document.getElementById('end').hidden;") is False,
              "the end on the host's page")
    # Each page's log holds every line, the other person's and the bots' included.
    logs = [me.js("return document.querySelectorAll('#log li').length;") for me in (host,
                                                                                    friend)]
    assert logs[0] == logs[1] > 100
    host.shot("people-host-end.png")
    friend.shot("people-friend-end.png")


def test_hot_seat_covers_the_hand_between_turns(base: str, host_driver: Any) -> None:
    me = Person(host_driver, base, Path("runs/browser-test"))
    host_driver.get(base + "/")
    me.wait(lambda: bool(me.js("return !document.getElementById('setup').hidden;")), "the form")
    me.js("document.getElementById('pace').value = 0;"
          "const f = document.getElementById('friends'); f.value = '1';"
          "f.dispatchEvent(new Event('change'));")
    me.js("document.getElementById('seat').value = '0';"
          "document.getElementById('friend-seat-0').value = '2';"
          "document.getElementById('hotseat').checked = true;")
    me.click("#btn-start", "start")
    shown = {0: 0, 2: 0}
    end = time.monotonic() + 600
    while min(shown.values()) < 3 and time.monotonic() < end:
        if me.js("return !document.getElementById('cover').hidden;"):
            # Covered: nobody's hand, mission or question is on screen.
            assert me.js("return getComputedStyle(document.getElementById('hand'))"
                         ".visibility;") == "hidden"
            assert me.js(STATE)["decision"] is None
            who = me.js(STATE)["to_move"]
            label = "host" if who == 0 else "friend 1"
            assert f"Pass the screen to {label}" in me.js(
                "return document.getElementById('cover-text').textContent;")
            me.click("#btn-uncover", "uncover")
            me.wait(lambda: bool(me.js(READY)), "the uncovered turn")
            s = me.js(STATE)
            assert s["human"] == who == s["to_move"]
            keys = me.js("return JSON.parse(localStorage.getItem("
                         "'riskevo-seat-' + window.riskevo.gameId)).keys;")
            srv = server_view(base, f"{base}/#game={me.js('return window.riskevo.gameId;')}"
                                    f"&seat={who}&key={keys[str(who)]}")
            assert shown_hand(me) == [c["id"] for c in srv.get("hand", [])]
            assert me.js("return getComputedStyle(document.getElementById('hand'))"
                         ".visibility;") == "visible"
            shown[who] += 1
            me.turn(s)
        time.sleep(0.05)
    assert min(shown.values()) >= 3, shown
