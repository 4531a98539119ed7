"""The web page's first Start on a fresh clone (issue 53): the set-up step compiles the first
game's kernels ahead, and the server's background compile stays the fallback."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.bots import make_rules
from arena.play import labels_for
from arena.web import warm
from arena.web.app import make_lobby
from arena.web.live import LiveGame, Seat
from game.bots import make_player
from game.map import classic_map
from game.state import Rules

ROOT = Path(__file__).resolve().parents[2]


def test_the_set_up_every_target_needs_compiles_the_first_game_ahead() -> None:
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = make.split("$(STAMP): pyproject.toml\n", 1)[1].split("\n\n", 1)[0]
    steps = [line.strip() for line in recipe.splitlines()]
    warm_at = next(i for i, s in enumerate(steps) if s.startswith("$(PY) -m arena.warmup"))
    install = next(i for i, s in enumerate(steps) if "pip install" in s and "-e" in s)
    assert install < warm_at < steps.index("@touch $(STAMP)")
    for target in ("play", "evolve", "lint"):  # test runs lint first
        assert f"\n{target}: $(STAMP)" in make


def test_ahead_it_compiles_the_bots_and_rules_the_page_starts_with(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # a fresh clone: no runs/
    seen: list[tuple[Rules, list[str]]] = []
    monkeypatch.setattr(warm, "compile_game",
                        lambda m, rules, specs, procs=None: seen.append((rules, list(specs))))
    assert warm.main([]) == 0
    lobby = make_lobby([], seat=None, rules_text=None, seed=None, replay_file=None)
    assert seen == [(make_rules(None), [lobby.bots[b] for b in lobby.defaults])]
    assert seen[0][1][0] == "champion" and lobby.defaults == labels_for(seen[0][1])
    assert "first game compiled (champion, strategist, continent)" in capsys.readouterr().err

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("warming champion: boom")

    monkeypatch.setattr(warm, "compile_game", broken)
    assert warm.main([]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not compiled ahead" in err and "boom" in err
    assert "compiles them as it starts" in err


def test_make_venv_compiles_the_game_the_page_starts_with(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from arena import warmup

    monkeypatch.chdir(tmp_path)  # a fresh clone: no runs/
    seen: list[tuple[Rules, list[str]]] = []
    monkeypatch.setattr(warm, "first_game", lambda m, rules, specs: seen.append((rules, specs)))
    warmup.web()
    lobby = make_lobby([], seat=None, rules_text=None, seed=None, replay_file=None)
    assert seen == [(make_rules(None), [lobby.bots[b] for b in lobby.defaults])]
    assert [p for stage in warmup.STAGES for lane in stage for p in lane][-1] == "web"


def test_a_bot_whose_warm_up_fails_is_named(tmp_path: Path) -> None:
    missing = str(tmp_path / "gone.json")
    with pytest.raises(RuntimeError, match="gone.json"):
        warm.compile_game(classic_map(), Rules(), [missing])


def test_the_warm_up_game_seats_a_person_who_passes_to_the_end() -> None:
    """The person's side of the page (its view at each decision) is compiled too."""
    players = [Seat("you", None), Seat("bully", make_player("bully"), True),
               Seat("random", make_player("random"), True)]
    game = LiveGame(classic_map(), Rules(cap=3, missions=True), players, 4, human_seat=1)
    asked = []
    real = game.act
    game.act = lambda a: (asked.append(a), real(a))[1]  # type: ignore[method-assign]
    warm.play_through(game)
    assert game.over and len(asked) > 3


def test_the_page_says_compiling_only_when_the_engine_really_is(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    """Every start warms up in the background; with a warm cache that only loads the kernels
    (a few seconds), and the page must not say "compiling, first run only" then (issue 64)."""
    import time

    from arena.web import views as web_app

    monkeypatch.chdir(tmp_path)
    lobby = make_lobby(["random"], seat=None, rules_text=None, seed=None, replay_file=None)
    assert lobby.config()["engine"] == {"ready": True, "seconds": 0, "error": "",
                                        "compiling": False}
    for spent, compiling in ((2, False), (web_app.LOADING_SECONDS - 1, False),
                             (web_app.LOADING_SECONDS + 5, True)):
        lobby.engine.started, lobby.engine.finished = time.monotonic() - spent, None
        e = lobby.config()["engine"]
        assert not e["ready"] and e["compiling"] is compiling, spent
    page = (ROOT / "arena/web/static/setup.js").read_text(encoding="utf-8")
    words = [ln for ln in page.splitlines() if "compiling, first run only" in ln
             or "still compiling" in ln]
    assert words and all("e.compiling ?" in ln for ln in words)
