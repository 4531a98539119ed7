"""Saved web games survive bad files, kills, full disks and a second server (issue 55, cases
2-9 and 15): each bad file is skipped with its name, abandoned games expire on disk, one
server per folder, an applied move is never answered as a failure, isolated bots resume."""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from arena.web import app as web
from arena.web import saves as websave
from arena.web.app import Lobby, make_lobby
from arena.web.httpd import RequestError
from features.botfile import save_genome
from features.genome import hand_set_genome
from tests.helpers.web import person_move

BOTS = ["aggressive", "bully"]
CLASS_BOT = "game.bots:RandomBot"  # a class path: plays isolated, dealt from a secret


def lobby_on(folder: Path, bots: list[str] | None = None) -> Lobby:
    return make_lobby(bots or BOTS, seat=1, rules_text="cap=12", seed=None, replay_file=None,
                      games_dir=str(folder))


def close(lobby: Lobby) -> None:
    """What a stopped server does: its games end, its folder's lock goes."""
    for game in lobby.games.values():
        game.close()
    assert lobby.saves is not None
    lobby.saves.close()


def moves(lobby: Lobby, gid: str, n: int) -> None:
    """The person makes `n` moves through the API (placing on a territory of theirs, else
    passing), the bots playing between; each is saved."""
    game = lobby.games[gid]
    for _ in range(n):
        web._route(lobby, "POST", f"/api/games/{gid}/advance", {"max": 5000})
        if game.over:
            return
        web._route(lobby, "POST", f"/api/games/{gid}/act", person_move(game))



@pytest.fixture
def one_saved(tmp_path: Path) -> tuple[Path, str, tuple[str, ...]]:
    """A saves folder holding one unfinished game (its id and transcript); no server on it."""
    folder = tmp_path / "games"
    lobby = lobby_on(folder)
    gid, game = lobby.new_game({})
    moves(lobby, gid, 3)
    lines = game.transcript()
    close(lobby)
    return folder, gid, lines


def test_saves_are_owner_only_and_name_the_dealt_seed(
        one_saved: tuple[Path, str, tuple[str, ...]]) -> None:
    """Case 2: a save names every mission and card: 0600 in a 0700 folder."""
    folder, gid, _ = one_saved
    assert stat.S_IMODE(os.stat(folder / f"{gid}.json").st_mode) == 0o600
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    assert isinstance(json.loads((folder / f"{gid}.json").read_text())["dealt"], int)


def test_a_saves_folder_holding_a_bot_file_is_refused(tmp_path: Path) -> None:
    bot = tmp_path / "bots" / "champ.json"
    bot.parent.mkdir()
    save_genome(bot, hand_set_genome())
    with pytest.raises(websave.SaveError, match="--games .*holds the bot file"):
        lobby_on(tmp_path, [str(bot), "random"])


def test_bad_files_are_skipped_by_name_and_the_good_games_resume(
        one_saved: tuple[Path, str, tuple[str, ...]], capsys: pytest.CaptureFixture[str]) -> None:
    """Cases 4 and 6: truncated JSON, a folder, a FIFO, a link to /dev/zero, an oversized
    file: each a one-line warning naming it, startup does not hang, the good game resumes."""
    folder, gid, lines = one_saved
    good = (folder / f"{gid}.json").read_bytes()
    (folder / "trunc.json").write_bytes(good[:len(good) // 2])
    (folder / "x.json").mkdir()
    os.mkfifo(folder / "a.json")
    (folder / "zero.json").symlink_to("/dev/zero")
    with open(folder / "big.json", "wb") as f:
        f.truncate(websave.MAX_SAVE_BYTES + 1)  # sparse: costs no disk
    out: list[Lobby] = []
    t = threading.Thread(target=lambda: out.append(lobby_on(folder)), daemon=True)
    t.start()
    t.join(120)
    assert not t.is_alive(), "startup hangs on a bad file"
    assert out, "startup failed"
    lobby = out[0]
    assert lobby.games[gid].transcript() == lines
    err = capsys.readouterr().err.splitlines()
    for name in ("trunc", "x", "a", "zero", "big"):
        said = [x for x in err if f"{folder / name}.json: not resumed" in x]
        assert len(said) == 1, (name, err)
    assert "symbolic link" in "\n".join(err) and "larger than" in "\n".join(err)
    close(lobby)


def test_abandoned_games_expire_on_disk_and_keep_their_clock(
        one_saved: tuple[Path, str, tuple[str, ...]], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Case 5: a save idle beyond the limit moves to old/ instead of coming back with a fresh
    clock; the others come back with the time they had left; one over the cap is named."""
    folder, gid, _ = one_saved
    monkeypatch.setattr(web, "MAX_GAMES", 2)
    src = folder / f"{gid}.json"
    now = time.time()
    names = {"aaaold": now - web.IDLE_SECONDS - 60, "bbfresh": now - 600, "ccfresh": now - 300,
             "ddfresh": now - 900}
    for name, mtime in names.items():
        shutil.copy(src, folder / f"{name}.json")
        os.utime(folder / f"{name}.json", (mtime, mtime))
    os.utime(src, (now - 60, now - 60))
    lobby = lobby_on(folder)
    assert (folder / websave.OLD / "aaaold.json").is_file()
    assert not (folder / "aaaold.json").exists()
    assert sorted(lobby.games) == sorted([gid, "ccfresh"])  # the newest two
    assert abs(time.monotonic() - lobby.games["ccfresh"].touched - 300) < 60
    err = capsys.readouterr().err
    assert f"{folder / 'bbfresh.json'}: not resumed: 2 games were resumed already" in err
    assert f"{folder / 'ddfresh.json'}: not resumed" in err
    # In a running server an expired game's file moves aside too.
    lobby.games[gid].touched -= web.IDLE_SECONDS + 1
    lobby.listing()
    assert (folder / websave.OLD / f"{gid}.json").is_file() and gid not in lobby.games
    close(lobby)


def test_one_server_per_saves_folder(tmp_path: Path) -> None:
    """Case 7: a second server on the same folder refuses with one line naming the holder."""
    lobby = lobby_on(tmp_path / "g")
    with pytest.raises(websave.SaveError, match=f"in use by process {os.getpid()}"):
        lobby_on(tmp_path / "g")
    close(lobby)
    close(lobby_on(tmp_path / "g"))  # released when the first stops


def test_a_failed_save_stops_the_game_and_applies_nothing_twice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Case 8: disk full after an applied move: the move is answered with the game (not an
    error), the game stops with a clear message, a retry is refused and applies nothing."""
    lobby = lobby_on(tmp_path / "g")
    gid, game = lobby.new_game({})
    moves(lobby, gid, 2)
    web._route(lobby, "POST", f"/api/games/{gid}/advance", {"max": 5000})
    saved = (tmp_path / "g" / f"{gid}.json").read_bytes()

    def full(*_: Any, **__: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(websave, "atomic_write_bytes", full)
    body = person_move(game)
    before = len(game.transcript())
    out, _ = web._route(lobby, "POST", f"/api/games/{gid}/act", body)
    assert isinstance(out, dict) and "error" not in out
    assert "stopped" in str(out["stopped"]) and "No space left" in str(out["stopped"])
    assert out["decision"] is None and len(game.transcript()) > before
    after = len(game.transcript())
    with pytest.raises(RequestError, match="stopped") as e:
        web._route(lobby, "POST", f"/api/games/{gid}/act", body)
    assert e.value.status == 409 and len(game.transcript()) == after
    with pytest.raises(RequestError, match="stopped"):
        web._route(lobby, "POST", f"/api/games/{gid}/advance", {"max": 5})
    assert (tmp_path / "g" / f"{gid}.json").read_bytes() == saved  # the last position saved
    close(lobby)


@pytest.mark.parametrize("where", ["/proc/1", "file"])
def test_games_must_be_a_writable_folder(where: str, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Case 9: one line naming --games and saying it must be a writable folder."""
    path = where if where.startswith("/") else str(tmp_path / where)
    if where == "file":
        Path(path).write_text("x")
    assert web.main(["random", "--games", path, "--port", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert err.startswith(f"error: --games {path}: must be a writable folder")


def test_games_with_an_isolated_bot_resume_in_a_new_server_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Case 3: the deal came from a secret of the first server process; its dealt seed is in
    the (owner-only) save, so a server with a fresh secret plays the game on."""
    from arena.isolation import sandbox as iso

    folder = tmp_path / "g"
    lobby = lobby_on(folder, [CLASS_BOT, "bully"])
    gid, game = lobby.new_game({})
    moves(lobby, gid, 3)
    lines = game.transcript()
    close(lobby)
    monkeypatch.setattr(iso, "_SECRET", None)  # what a new server process draws
    again = lobby_on(folder, [CLASS_BOT, "bully"])
    assert again.games[gid].transcript() == lines
    close(again)


@pytest.mark.parametrize("refused", [None, "requests from 'http://evil' are refused"])
def test_a_client_gone_before_its_answer_prints_nothing(
        refused: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    """Case 15: no 'BrokenPipeError' line, no exception out of the handler, for an answer (or
    a refusal) to a client that left."""
    lobby = make_lobby(BOTS, seat=1, rules_text=None, seed=None, replay_file=None)
    handler: Any = type("H", (web.Handler,), {"lobby": lobby})
    h = handler.__new__(handler)
    h.path, h.command, h.close_connection = "/api/config", "GET", False

    def gone(*_: Any) -> None:
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    h._send, h.request_in, h.foreign = gone, lambda: None, lambda: refused
    h._handle("GET")
    assert "BrokenPipe" not in capsys.readouterr().err and h.close_connection
