"""A person's whole game in a real browser: headless Chromium clicks through `arena web`.

Needs Debian's `chromium` and `chromium-driver` and selenium (the dev extra). Without them the
test is reported as NOT RUN with the install command (pytest's `-rs` summary), unless
$RISKEVO_REQUIRE_BROWSER is 1 (`.ci/run` sets it after installing them): then it fails.
Screenshots go to runs/browser-test/ (or $RISKEVO_SCREENSHOTS).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, NoReturn

import pytest

from arena.web import make_lobby, make_server

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
DRIVER = ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")
REQUIRE = "RISKEVO_REQUIRE_BROWSER"  # "1": a missing browser fails the test instead of skipping
INSTALL = ("apt-get install -y chromium chromium-driver && .venv/bin/pip install -e '.[dev]' "
           "(selenium)")


def _first(paths: tuple[str, ...]) -> str | None:
    return next((p for p in paths if Path(p).exists()), shutil.which(Path(paths[0]).name))


def find_browser(chromium: tuple[str, ...] = CHROMIUM, driver: tuple[str, ...] = DRIVER,
                 selenium: bool | None = None) -> tuple[str, str] | list[str]:
    """(browser, driver) paths when the test can run, else the names of what is missing."""
    if selenium is None:
        selenium = importlib.util.find_spec("selenium") is not None
    browser, drv = _first(chromium), _first(driver)
    missing = [name for name, found in (("chromium", browser), ("chromedriver", drv),
                                        ("selenium", selenium)) if not found]
    return missing if missing or browser is None or drv is None else (browser, drv)


def not_run(missing: list[str], environ: Mapping[str, str]) -> NoReturn:
    """Skip with the install command, or fail when the environment requires the browser test."""
    why = f"the browser test needs {', '.join(missing)}: {INSTALL}"
    if environ.get(REQUIRE) == "1":
        pytest.fail(f"{REQUIRE}=1 but {why}")
    pytest.skip(f"NOT RUN, {why}")


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
    lobby = make_lobby(["aggressive", "random"], seat=1, rules_text="cap=14", seed=11,
                       replay_file=None)
    srv = make_server(lobby, port=0)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    found = find_browser()
    if isinstance(found, list):
        not_run(found, os.environ)
    browser, drv = found
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = browser
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
              "--window-size=1400,1000"):
        opts.add_argument(a)
    d = webdriver.Chrome(service=Service(executable_path=drv), options=opts)
    try:
        yield d
    finally:
        d.quit()


class Person:
    """Plays the human seat by clicking, and checks the page against the server each step."""

    def __init__(self, d: Any, base: str, shots: Path) -> None:
        self.d, self.base, self.shots = d, base, shots
        self.done: dict[str, int] = {}
        self.checks = 0

    def js(self, code: str) -> Any:
        return self.d.execute_script(code)

    def wait(self, cond: Callable[[], bool], what: str, limit: float = 60) -> None:
        end = time.monotonic() + limit
        while not cond():
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {what}")
            time.sleep(0.02)

    def settled(self) -> dict[str, Any]:
        """Wait until the person must act or the game is over; the page's state."""
        self.wait(lambda: bool(self.js(
            "const s = window.riskevo.state; return !window.riskevo.busy && s && "
            "(s.over || (s.decision && document.getElementById('decision').dataset.kind "
            "=== s.decision.kind));")), "the person's turn")
        state: dict[str, Any] = self.js("return window.riskevo.state;")
        return state

    def check_page(self) -> None:
        """The board and players table show exactly what the server holds."""
        gid = self.js("return window.riskevo.gameId;")
        with urllib.request.urlopen(f"{self.base}/api/games/{gid}") as r:
            srv = json.load(r)
        shown = self.js(
            "return [...document.querySelectorAll('.territory')].map(g => "
            "[+g.dataset.owner, +g.dataset.armies, g.querySelector('text.armies').textContent]);")
        assert [o for o, _, _ in shown] == srv["owner"]
        assert [a for _, a, _ in shown] == srv["armies"]
        assert [int(t) for _, _, t in shown] == srv["armies"]
        rows = self.js("return [...document.querySelectorAll('#players tbody tr')].map(r => "
                       "[...r.children].map(c => c.textContent));")
        assert [int(r[2]) for r in rows] == [p["territories"] for p in srv["players"]]
        assert [int(r[5]) for r in rows] == [p["cards"] for p in srv["players"]]
        hand = self.js("return [...document.querySelectorAll('#hand .card')]"
                       ".map(c => +c.dataset.card);")
        assert hand == [c["id"] for c in srv.get("hand", [])]
        self.checks += 1

    def click(self, css: str, kind: str) -> None:
        self.d.find_element("css selector", css).click()
        self.done[kind] = self.done.get(kind, 0) + 1

    def shot(self, name: str) -> None:
        self.d.save_screenshot(str(self.shots / name))

    def turn(self, s: dict[str, Any]) -> None:
        """One decision, chosen as a plain player would."""
        d, me, armies, owner = s["decision"], s["human"], s["armies"], s["owner"]
        kind = d["kind"]
        if kind == "place_initial" or kind == "reinforce":
            mine = [t for t, o in enumerate(owner) if o == me]
            t = max(mine, key=lambda t: (armies[t], -t))
            self.click(f"#t-{t}", kind)
        elif kind == "trade":
            if "trade" not in self.done:
                self.shot("2b-trade.png")
            self.click("#btn-set-0", "trade")
        elif kind == "attack":
            opts = [o for o in d["options"] if armies[o[0]] > armies[o[1]] + 1]
            if not opts:
                self.click("#btn-stop", "stop")
                return
            src, dst = max(opts, key=lambda o: (armies[o[0]] - armies[o[1]], -o[0]))
            self.click(f"#t-{src}", "select")
            self.click(f"#t-{dst}", "select")
            if "attack" in self.done and "attack_shot" not in self.done:
                self.done["attack_shot"] = 1
                self.shot("2-attack.png")
            button = "#btn-until-down" if self.done.get("attack", 0) % 3 == 2 else "#btn-roll"
            self.click(button, "attack")
        elif kind == "move_in":
            self.click("#btn-move", "move_in")
        elif kind == "fortify":
            if d["options"] and self.done.get("fortify", 0) < 3:
                src, dst = d["options"][0]
                self.click(f"#t-{src}", "select")
                self.click(f"#t-{dst}", "select")
                self.click("#btn-fortify", "fortify")
            else:
                self.click("#btn-end-turn", "skip")


def start(driver: Any, base: str) -> Person:
    """The page opened at `base`, a game started from its form at the fastest pace."""
    shots = Path(os.environ.get("RISKEVO_SCREENSHOTS", "runs/browser-test"))
    shots.mkdir(parents=True, exist_ok=True)
    me = Person(driver, base, shots)
    driver.get(base + "/")
    me.wait(lambda: bool(me.js("return !document.getElementById('setup').hidden;")), "the form")
    me.js("document.getElementById('pace').value = 0;")
    me.js("const b = document.getElementById('btn-start'); window.sawStarting = false;"
          "new MutationObserver(() => { if (b.disabled && !document.getElementById('starting')"
          ".hidden) window.sawStarting = true; }).observe(b, {attributes: true});")
    me.click("#btn-start", "start")
    return me


def test_a_whole_game_by_clicks_then_its_replay(server: str, driver: Any) -> None:
    me = start(driver, server)
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
    me.click("#t-0", "late")  # a click with nothing to decide is answered, not ignored
    assert driver.find_element("id", "message").text == "The game is over."
    banner = driver.find_element("id", "banner").text
    assert banner == "You won!" or banner.startswith("Game over: you finished")
    rows = me.js("return [...document.querySelectorAll('#players tbody tr')].map(r => "
                 "r.children[1].textContent);")
    assert rows[s["human"]] == "you"
    placed = driver.find_elements("css selector", "#placements li")
    assert len(placed) >= 3

    # The replay steps forward and back and shows each frame's board.
    me.click("#btn-replay", "replay")
    me.wait(lambda: bool(me.js("return !!window.riskevo.replay;")), "the replay")
    n = me.js("return window.riskevo.replay.frames.length;")
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
    from features.genome import hand_set_genome, save_genome

    champ = tmp_path_factory.mktemp("bots") / "champ.json"
    save_genome(champ, hand_set_genome())
    lobby = make_lobby([str(champ), "random"], seat=2, rules_text="cap=30", seed=5,
                       replay_file=None)
    srv = make_server(lobby, port=0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}", lobby, champ
    srv.shutdown()
    srv.server_close()


def test_the_board_tells_the_story_explains_and_survives_a_reload(
        champ_server: tuple[str, Any, Path], driver: Any, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    from arena import explain as cli
    from game.odds import attack_odds

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
        ev = me.js("return story.events.filter(e => e.kind === 'attack').pop() || null;")
        if ev is not None and s["decision"] and s["since_last_turn"]:
            break
        me.turn(s)
        s = me.settled()
        assert not s["over"]
    pair = f"{ev['src']}-{ev['dst']}"
    arrow = f"#overlay .arrow.attack[data-pair='{pair}']"
    assert me.js(f"return !!document.querySelector(\"{arrow}\");")
    dice = me.js("return [...document.querySelectorAll('#overlay .roll rect')]"
                 ".map(r => r.getAttribute('class'));")
    assert dice == ["die a"] * len(ev["att"]) + ["die d"] * len(ev["dfn"])
    assert ev["seat"] != s["human"] and driver.find_element("id", "last-roll").text.startswith(
        f"last roll, {s['players'][s['dice']['seat']]['label']}")
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
    me.wait(lambda: me.js("return document.getElementById('explain-title').textContent;") != "",
            "the explanation", limit=300)
    path = tmp_path / "t.txt"
    path.write_text("\n".join(lines) + "\n")
    assert cli.main([str(champ), "--transcript", str(path), "--line", str(no)]) == 0
    printed = capsys.readouterr().out.splitlines()[1:]
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
