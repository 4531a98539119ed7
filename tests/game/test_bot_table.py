"""The one bot table: every list of bots reads off its rows, and a `file` row finds its file."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from arena.bots import BotSpecError, bot_file_path, is_bot_file
from arena.web import app as web
from game.bots import RandomBot, table
from game.bots.table import (
    BOTS,
    COMPILED_BOTS,
    GAUNTLET,
    ROWS,
    WEB_BOTS,
    BotRow,
    CompiledBot,
    bot_file,
)

REPO = Path(__file__).resolve().parents[2]


def test_every_list_derives_from_the_rows() -> None:
    assert list(BOTS) == [r.name for r in ROWS if r.kind != "file"]
    assert set(COMPILED_BOTS) == {r.name for r in ROWS if r.kind == "compiled"}
    assert set(GAUNTLET) == {r.name for r in ROWS if r.gauntlet}
    assert web.BUNDLED == WEB_BOTS == tuple(
        sorted((r.name for r in ROWS if r.web), key=lambda n: next(r.web for r in ROWS
                                                                     if r.name == n)))
    assert len({r.name for r in ROWS}) == len(ROWS)


def test_gauntlet_and_page_keep_their_order() -> None:
    # The gauntlet's order seats its seeded games; the page lists the strongest first.
    assert GAUNTLET == ("continent", "planner", "hunter", "distributor", "bully", "strategist")
    assert WEB_BOTS[:2] == ("champion", "strategist")


def test_compiled_codes_are_distinct_and_dispatched() -> None:
    codes = list(COMPILED_BOTS.values())
    assert len(set(codes)) == len(codes) and 0 not in codes
    for name, code in COMPILED_BOTS.items():
        assert issubclass(BOTS[name], CompiledBot) and BOTS[name].code == code  # type: ignore[attr-defined]


def test_no_module_or_name_says_sparring() -> None:
    names = [p.stem for p in (REPO / "game" / "bots").glob("*.py")]
    assert not [n for n in names if "sparring" in n]
    assert not [n for n in dir(table) if "sparring" in n]


@pytest.mark.parametrize(("kind", "player", "file", "needs"), [
    ("file", None, "", "a file name and no player class"),
    ("file", RandomBot, "x.json", "a file name and no player class"),
    ("compiled", RandomBot, "", "a CompiledBot class"),
    ("python", None, "", "a player class and no file"),
    ("wasm", RandomBot, "", "python, compiled, file"),
])
def test_a_malformed_row_is_one_line(kind: str, player: type | None, file: str,
                                     needs: str) -> None:
    with pytest.raises(ValueError, match=needs):
        BotRow("x", kind, player, file)  # type: ignore[arg-type]


def test_a_file_row_resolves_through_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    # A `file` row names a file under game/bots/files/; arena's bot specs load it by name.
    monkeypatch.setitem(table.BOT_FILES, "shipped", "shipped.json")
    with pytest.raises(ValueError, match=r"shipped.json is missing from game/bots/files"):
        bot_file("shipped")
    assert is_bot_file("shipped")
    with pytest.raises(BotSpecError, match="shipped.json is missing"):
        bot_file_path("shipped")
    with pytest.raises(ValueError, match=r"unknown packaged bot file 'nope'"):
        bot_file("nope")
    assert bot_file_path("some/bot.json") == "some/bot.json"


def test_file_rows_ship_their_files() -> None:
    for row in ROWS:
        if row.kind == "file":
            assert bot_file(row.name).is_file()


def test_compiled_classes_are_named_and_pickle() -> None:
    for name in COMPILED_BOTS:
        cls = BOTS[name]
        assert cls.__module__ == "game.bots.table" and getattr(table, cls.__qualname__) is cls
        assert type(pickle.loads(pickle.dumps(cls()))) is cls
    assert BOTS["border_patrol"].__name__ == "BorderPatrolBot"
    assert table.compiled_bot("border_patrol", 9, "x").__name__ == "BorderPatrolBot"
