"""At the file-descriptor limit `arena web` says so in one clean line a burst and answers 503
(issue 65, W14): before, every failed request printed `riskevo web: OSError: [Errno 24] Too
many open files`, up to 18 such lines run together (print writes the text and the newline
apart, and the server's threads interleave them)."""

from __future__ import annotations

import errno
import threading
from typing import Any

import pytest

from arena.web import saves as websave
from arena.web.app import Lobby
from tests.helpers.web import Client, serve_lobby


def test_out_of_descriptors_is_one_line_a_burst_and_a_503(monkeypatch: pytest.MonkeyPatch,
                                                          capfd: Any) -> None:
    def no_descriptors(self: Lobby, body: dict[str, Any], gid: str = "",
                       dealt: int | None = None) -> Any:
        raise OSError(errno.EMFILE, "Too many open files")  # as Popen of a bot's pipes

    monkeypatch.setattr(Lobby, "new_game", no_descriptors)
    monkeypatch.setattr(websave, "_fd_warned", [-1e9])
    server = serve_lobby(["random"], seat=0, rules_text="cap=5", seed=1)
    port, _lobby = next(server)
    client = Client(port)
    got: list[tuple[int, Any]] = []

    def ask() -> None:
        got.append(client.call("POST", "/api/games", {}))

    threads = [threading.Thread(target=ask) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    next(server, None)  # shut it down
    assert len(got) == 12
    assert {status for status, _ in got} == {503}
    assert all("out of file descriptors" in body["error"] for _, body in got)
    err = capfd.readouterr().err
    assert err.splitlines() == [
        "riskevo web: out of file descriptors (Too many open files): requests get 503 until "
        "some close; raise the limit (ulimit -n) or play fewer games with "
        "package.module:Class bots"]


def test_warnings_from_many_threads_never_run_together(capfd: Any) -> None:
    def say(i: int) -> None:
        for k in range(50):
            websave.warn(f"line {i} {k}")

    threads = [threading.Thread(target=say, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lines = capfd.readouterr().err.splitlines()
    assert len(lines) == 400
    assert all(x.startswith("riskevo web: line ") and x.count("riskevo") == 1 for x in lines)
