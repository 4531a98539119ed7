"""Helpers of the browser tests: find Chromium, drive it as a person would, check the page."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import time
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, NoReturn

import pytest

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


def chromium() -> Iterator[Any]:
    """A headless Chromium, or the test not run (`not_run`)."""
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
        # Attacks a turn before the person stops (None: while one is worth it): a shorter game,
        # as a click through chromedriver is slow.
        self.attacks_per_turn: int | None = None
        self._this_turn = 0

    def js(self, code: str) -> Any:
        return self.d.execute_script(code)

    def wait(self, cond: Callable[[], bool], what: str, limit: float = 60) -> None:
        end = time.monotonic() + limit
        while not cond():
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {what}")
            time.sleep(0.02)

    def settled(self) -> dict[str, Any]:
        """Wait until the person must act or the game is over; the page's state (one round
        trip through chromedriver a poll)."""
        got: dict[str, Any] = {}

        def ready() -> bool:
            got["s"] = self.js(
                "const s = window.riskevo.state; return !window.riskevo.busy && s && "
                "(s.over || (s.decision && document.getElementById('decision').dataset.kind "
                "=== s.decision.kind)) ? s : null;")
            return got["s"] is not None

        self.wait(ready, "the person's turn")
        state: dict[str, Any] = got["s"]
        return state

    def check_page(self) -> None:
        """The board and players table show exactly what the server holds."""
        page = self.js(
            "return {gid: window.riskevo.gameId, shown: [...document.querySelectorAll("
            "'.territory')].map(g => [+g.dataset.owner, +g.dataset.armies, "
            "g.querySelector('text.armies').textContent]), rows: [...document.querySelectorAll("
            "'#players tbody tr')].map(r => [...r.children].map(c => c.textContent)), "
            "hand: [...document.querySelectorAll('#hand .card')].map(c => +c.dataset.card)};")
        with urllib.request.urlopen(f"{self.base}/api/games/{page['gid']}") as r:
            srv = json.load(r)
        shown, rows = page["shown"], page["rows"]
        assert [o for o, _, _ in shown] == srv["owner"]
        assert [a for _, a, _ in shown] == srv["armies"]
        assert [int(t) for _, _, t in shown] == srv["armies"]
        assert [int(r[2]) for r in rows] == [p["territories"] for p in srv["players"]]
        assert [int(r[5]) for r in rows] == [p["cards"] for p in srv["players"]]
        assert page["hand"] == [c["id"] for c in srv.get("hand", [])]
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
        if kind in ("reinforce", "trade"):  # a turn starts
            self._this_turn = 0
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
            if not opts or self._this_turn == self.attacks_per_turn:
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
            self._this_turn += 1
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


