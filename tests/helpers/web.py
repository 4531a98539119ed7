"""A web server in a thread for a test, and a client of its API; a game against bots with the
person at seat 1, played on by a person who passes wherever the rules let them."""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator
from typing import Any

from arena.web.app import Lobby, make_lobby, make_server
from arena.web.live import LiveGame, Seat
from game.actions import parse_action
from game.bots import make_player
from game.map import classic_map
from game.rules import layout as L
from game.state import Rules


class Client:
    def __init__(self, port: int) -> None:
        self.port = port

    def call(self, method: str, path: str, body: object = None, raw: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        c.request(method, path, body=data, headers=headers or {})
        r = c.getresponse()
        payload = r.read()
        c.close()
        ctype = r.getheader("Content-Type", "")
        return r.status, json.loads(payload) if "json" in ctype else payload.decode()


def serve_lobby(bots: list[str], *, seat: int, rules_text: str, seed: int
                ) -> Iterator[tuple[int, Lobby]]:
    """(port, lobby) of a page server on a free port offering `bots`, running in a thread
    until the generator is resumed; then it is shut down."""
    lobby = make_lobby(bots, seat=seat, rules_text=rules_text, seed=seed, replay_file=None)
    srv = make_server(lobby, port=0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv.server_address[1], lobby
    srv.shutdown()
    srv.server_close()


def serving(bots: list[str]) -> Iterator[tuple[Client, Lobby]]:
    """A server offering `bots` (the person at seat 0, cap 20, seed 3) until the test ends."""
    for port, lobby in serve_lobby(bots, seat=0, rules_text="cap=20", seed=3):
        yield Client(port), lobby


def human_game(seed: int = 5, opponents: tuple[str, ...] = ("aggressive", "bully")) -> LiveGame:
    players = [Seat("human", None), *(Seat(b, make_player(b), True) for b in opponents)]
    return LiveGame(classic_map(), Rules(cap=30), players, seed, human_seat=1)


def play_to(g: LiveGame, round_: int, phase: int | None = None) -> None:
    """The person passes wherever the rules let them (placing all on their first territory)
    until `round_` starts, or until they are asked in `phase`; bots play between."""
    while not g.over:
        g.advance(10_000)
        st, d = g.state, g.decision()
        if d is None or (phase is None and st.round >= round_) or st.phase == phase:
            return
        view = g.views[g.human or 0]
        if st.phase in (L.PH_SETUP, L.PH_REINFORCE):
            mine = g.m.territories[int(next(t for t in range(42) if st.owner[t] == g.human))]
            g.act(parse_action(f"place {mine.replace(' ', '_')} {d.armies or 1}", g.m))
        elif st.phase == L.PH_TRADE:
            sets = view.sets()
            g.act(parse_action("trade " + " ".join(map(str, sets[0])), g.m) if d.compulsory
                  else parse_action("end-trade", g.m))
        elif st.phase == L.PH_OCCUPY:
            g.act(parse_action(f"move {d.lo}", g.m))
        else:
            g.act(parse_action("stop" if st.phase == L.PH_ATTACK else "skip", g.m))


def person_move(g: LiveGame) -> dict[str, Any]:
    """The person's plainest move as the page sends it: place on a territory of theirs, trade
    only when forced, the least move-in, else stop or skip."""
    st, d = g.state, g.decision()
    assert d is not None
    if st.phase in (L.PH_SETUP, L.PH_REINFORCE):
        t = next(t for t in range(g.m.n_territories) if st.owner[t] == g.human)
        return {"type": "place", "territory": t, "count": d.armies or 1}
    if st.phase == L.PH_TRADE:
        return ({"type": "trade", "cards": list(g.views[g.human or 0].sets()[0])}
                if d.compulsory else {"type": "end_trade"})
    if st.phase == L.PH_OCCUPY:
        return {"type": "move_in", "count": d.lo}
    return {"type": "stop" if st.phase == L.PH_ATTACK else "skip"}
