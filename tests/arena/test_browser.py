"""A person's whole game in a real browser: headless Chromium clicks through `arena web`.

Needs Debian's `chromium` and `chromium-driver` and selenium (the dev extra). Without them the
test is reported as NOT RUN with the install command (pytest's `-rs` summary), unless
$RISKEVO_REQUIRE_BROWSER is 1 (`.ci/run` sets it after installing them): then it fails.
Screenshots go to runs/browser-test/ (or $RISKEVO_SCREENSHOTS).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.browser import REQUIRE, chromium, find_browser, not_run, start
from tests.helpers.web import serve_lobby


@pytest.mark.parametrize("env, outcome, said", [
    ({}, pytest.skip.Exception, "NOT RUN, the"),
    ({REQUIRE: "0"}, pytest.skip.Exception, "NOT RUN, the"),
    ({REQUIRE: "1"}, pytest.fail.Exception, f"{REQUIRE}=1 but the"),
])
def test_a_missing_browser_is_skipped_visibly_or_fails_where_required(
        env: dict[str, str], outcome: type[BaseException], said: str) -> None:
    found = find_browser(("/nonexistent/chromium-riskevo",), ("/nonexistent/chromedriver-riskevo",),
                         selenium=True)
    assert found == ["chromium", "chromedriver"]
    with pytest.raises(outcome, match=said + " browser test needs chromium, chromedriver: apt"):
        not_run(found, env)


def test_a_present_browser_is_found(tmp_path: Path) -> None:
    (tmp_path / "chromium").touch()
    (tmp_path / "chromedriver").touch()
    found = find_browser((str(tmp_path / "chromium"),), (str(tmp_path / "chromedriver"),),
                         selenium=True)
    assert found == (str(tmp_path / "chromium"), str(tmp_path / "chromedriver"))
    assert find_browser((str(tmp_path / "chromium"),), (str(tmp_path / "chromedriver"),),
                        selenium=False) == ["selenium"]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    for port, _lobby in serve_lobby(["aggressive", "random"], seat=1, rules_text="cap=14",
                                    seed=11):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    yield from chromium()


def test_a_whole_game_by_clicks_then_its_replay(server: str, driver: Any) -> None:
    me = start(driver, server)
    me.attacks_per_turn = 3
    shots = me.shots
    s = me.settled()
    me.shot("1-start.png")
    while not s["over"]:
        me.check_page()
        me.turn(s)
        s = me.settled()
    me.check_page()
    for kind in ("place_initial", "reinforce", "trade", "attack", "move_in", "fortify"):
        assert me.done.get(kind, 0) > 0, f"the game never asked for {kind}: {me.done}"
    assert driver.find_element("id", "end").is_displayed()
    # Bug 13: nothing of the bots' pace or their last roll stays once the game is over.
    assert not driver.find_element("id", "bot-controls").is_displayed()
    assert driver.find_elements("id", "last-roll") == []
    me.click("#t-0", "late")  # a click with nothing to decide is answered, not ignored
    assert driver.find_element("id", "message").text == "The game is over."
    banner = driver.find_element("id", "banner").text
    assert banner == "You won!" or banner.startswith("Game over: you finished")
    rows = me.js("return [...document.querySelectorAll('#players tbody tr')].map(r => "
                 "r.children[1].textContent);")
    assert rows[s["human"]] == "you"
    log_text = me.js("return document.getElementById('log').textContent;")
    assert "human" not in log_text and "you places" not in log_text  # bug 10
    assert "you (place" in driver.find_element("id", "placements").text
    placed = driver.find_elements("css selector", "#placements li")
    assert len(placed) >= 3

    # The replay steps forward and back and shows each frame's board.
    me.click("#btn-replay", "replay")
    me.wait(lambda: bool(me.js("return !!window.riskevo.replay;")), "the replay")
    n = me.js("return window.riskevo.replay.frames.length;")
    assert not driver.find_element("id", "banner").is_displayed()  # bug 13: not over frame 1
    assert n > 50
    assert driver.find_element("id", "pace").is_displayed()  # the replay's speed
    assert "trade at" in driver.find_element("id", "set-value").text
    for css, expect in (("#btn-next", 1), ("#btn-next", 2), ("#btn-prev", 1),
                        ("#btn-next-turn", None), ("#btn-last", n - 1), ("#btn-prev-turn", None),
                        ("#btn-first", 0)):
        before = me.js("return window.riskevo.frame;")
        me.click(css, "replay")
        i = me.js("return window.riskevo.frame;")
        if expect is not None:
            assert i == expect, css
        elif css == "#btn-next-turn":
            assert i > before
        else:
            assert i < before
        frame = me.js(f"return window.riskevo.replay.frames[{i}];")
        shown = me.js("return [...document.querySelectorAll('.territory')].map(g => "
                      "[+g.dataset.owner, +g.dataset.armies]);")
        assert [o for o, _ in shown] == frame["owner"]
        assert [a for _, a in shown] == frame["armies"]
        # the counter numbers frames as the log numbers its lines
        assert driver.find_element("id", "frame-index").text == f"{i + 1} / {n}"
    me.js("window.riskevo.frame = 0;")
    me.click("#btn-next-turn", "replay")
    me.click("#btn-next-turn", "replay")
    me.shot("3-replay.png")
    clicks = sum(v for k, v in me.done.items() if k != "attack_shot")
    (shots / "actions.txt").write_text(f"clicks {clicks}\npage checks {me.checks}\n"
                                       f"by kind {json.dumps(me.done)}\n")
    print(f"browser test: {clicks} clicks, {me.checks} page checks, {me.done}")


@pytest.fixture(scope="module")
def champ_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any, Path]]:
    from features.botfile import save_genome
    from features.genome import hand_set_genome

    champ = tmp_path_factory.mktemp("bots") / "champ.json"
    save_genome(champ, hand_set_genome())
    for port, lobby in serve_lobby([str(champ), "random"], seat=2, rules_text="cap=30", seed=5):
        yield f"http://127.0.0.1:{port}", lobby, champ


def test_the_board_tells_the_story_explains_and_survives_a_reload(
        champ_server: tuple[str, Any, Path], driver: Any, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    from arena import explain as cli
    from game.rules.odds import attack_odds

    base, lobby, champ = champ_server
    me = start(driver, base)
    s = me.settled()
    assert me.js("return window.sawStarting;")  # Start was disabled, the wait said, meanwhile
    assert not me.js("return document.getElementById('btn-start').disabled;")
    gid = me.js("return window.riskevo.gameId;")
    assert driver.current_url.endswith(f"#game={gid}")
    # Initial placement: several armies at once, the count left said.
    left = s["decision"]["left"]
    assert f"{left} armies left" in driver.find_element("id", "decision").text
    mine = s["owner"].index(s["human"])
    me.js("document.getElementById('amount').value = 3;")
    me.click(f"#t-{mine}", "place_initial")
    s = me.settled()
    assert s["decision"]["kind"] != "place_initial" or s["decision"]["left"] == left - 3
    # Play on until the person's turn starts after a bot's attack: its arrow and dice show.
    game = lobby.games[gid]
    while True:
        ev = me.js("return story.turns.flatMap(t => t.events)"
                   ".filter(e => e.kind === 'attack').pop() || null;")
        if ev is not None and s["decision"] and s["since_last_turn"]:
            break
        me.turn(s)
        s = me.settled()
        assert not s["over"]
    pair = f"{ev['src']}-{ev['dst']}"
    arrow = f"#overlay .arrow.attack[data-pair='{pair}']"
    assert me.js(f"return !!document.querySelector(\"{arrow}\");")
    dice = me.js("return [...document.querySelectorAll('#overlay .roll rect.die')]"
                 ".map(r => r.getAttribute('class'));")
    assert dice == ["die a"] * len(ev["att"]) + ["die d"] * len(ev["dfn"])
    # Bug 9: the bots' last roll gives way when the person's turn starts (its dice stay drawn).
    assert ev["seat"] != s["human"] and driver.find_elements("id", "last-roll") == []
    assert driver.find_element("id", "summary").is_displayed()
    me.shot("4-bot-attack-and-summary.png")

    # A champion's log line explained on the page, as `arena explain` prints it.
    lines = game.transcript()
    seat = game.labels.index("champ")
    whys = me.js("return [...document.querySelectorAll('#log button.why')]"
                 ".map(b => +b.dataset.line);")
    no = next(n for n in reversed(whys) if lines[n - 1].split()[1] == f"s{seat}"
              and lines[n - 1].split()[2] not in ("trade", "end-trade"))
    driver.find_element("css selector", f"#log button.why[data-line='{no}']").click()
    me.wait(lambda: me.js("return document.getElementById('explain-title').textContent;")
            .startswith("champ on line"), "the explanation", limit=300)
    path = tmp_path / "t.txt"
    path.write_text("\n".join(lines) + "\n")
    assert cli.main([str(champ), "--transcript", str(path), "--line", str(no)]) == 0
    printed = capsys.readouterr().out.splitlines()[2:]  # after the head and "in words:"
    shown = me.js("return document.getElementById('explain-text').textContent;")
    assert shown.splitlines() == printed
    me.shot("5-explanation.png")

    # The odds of the person's attack, before rolling.
    while s["decision"]["kind"] != "attack" or not s["decision"]["options"]:
        me.turn(s)
        s = me.settled()
    src, dst = max(s["decision"]["options"], key=lambda o: (s["armies"][o[1]], s["armies"][o[0]]))
    me.click(f"#t-{src}", "select")
    me.click(f"#t-{dst}", "select")
    me.wait(lambda: "P(conquer)" in driver.find_element("id", "odds").text, "the odds")
    want = attack_odds(s["armies"][src], s["armies"][dst], 1)
    assert f"P(conquer) {100 * want.conquer:.1f}%" in driver.find_element("id", "odds").text
    me.shot("6-odds.png")
    me.click("#btn-hint", "hint")
    me.wait(lambda: "What champ would do" in me.js(
        "return document.getElementById('explain-title').textContent;"), "the hint", limit=120)

    # A reload returns to the game.
    driver.refresh()
    me.wait(lambda: bool(me.js("return !!(window.riskevo && window.riskevo.state);")),
            "the game after a reload")
    assert me.js("return window.riskevo.gameId;") == gid
    me.settled()
    me.check_page()

    # "New game" mid-game asks first; once confirmed, nothing of the old game stays.
    me.click("#btn-new-game", "new")
    driver.switch_to.alert.dismiss()
    assert me.js("return window.riskevo.gameId;") == gid
    me.click("#btn-new-game", "new")
    driver.switch_to.alert.accept()
    assert me.js("return window.riskevo.gameId;") is None
    assert driver.find_element("id", "setup").is_displayed()
    for css in ("#log li", "#players tbody tr", "#controls *", "#overlay *"):
        assert driver.find_elements("css selector", css) == [], css
    assert not driver.current_url.endswith(gid)
    me.wait(lambda: bool(driver.find_elements("css selector", f".rejoin[data-id='{gid}']")),
            "the live game in the list")
