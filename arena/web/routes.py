"""`arena web`'s JSON API: one request answered from the lobby's games (`_route`)."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any, Protocol

from arena.web.httpd import RequestError, split_path
from arena.web.human_action import play_human
from arena.web.insight import explain_replay, game_route
from arena.web.live import ActionError, LiveGame
from arena.web.people import links
from arena.web.saves import Saves
from arena.web.views import replay_json, seat_labels
from features.why import record_json
from game.record.position import Positions
from game.record.replay import Replay, replay
from game.record.transcript import with_records


class Lobby(Protocol):
    """What a route reads of `arena.web.app.Lobby` (named here: app imports this module)."""

    bots: dict[str, str]
    replay: Replay | None
    replay_name: str
    replay_lines: list[str]
    replay_positions: Positions
    saves: Saves | None
    requests: dict[str, dict[str, Any]]

    def config(self) -> dict[str, Any]: ...
    def listing(self) -> list[dict[str, Any]]: ...
    def champions(self) -> list[str]: ...
    def new_game(self, body: dict[str, Any], gid: str = "") -> tuple[str, LiveGame]: ...
    def game(self, gid: str) -> LiveGame: ...
    def keep(self, gid: str, game: LiveGame) -> None: ...
    def seat_of(self, gid: str, game: LiveGame, query: dict[str, str]) -> int | None: ...
    def public(self, gid: str, game: LiveGame, since: int = 0,
               seat: int | None = None) -> dict[str, Any]: ...

MAX_ADVANCE = 5000  # bot decisions one request may run (a whole bot turn is far fewer)
WAIT_S = 10.0  # the longest an advance with wait holds (a page asks again then)


def _route(lobby: Lobby, method: str, path: str, body: dict[str, Any] | None
           ) -> tuple[dict[str, Any] | str, str]:
    """Answer one API request: (JSON object or text, content type)."""
    parts, query = split_path(path)
    if parts == ["api", "config"] and method == "GET":
        return lobby.config(), "json"
    if parts == ["api", "replay"] and method == "GET":
        if lobby.replay is None:
            raise RequestError("the server was started without --replay", HTTPStatus.NOT_FOUND)
        return replay_json(lobby.replay, lobby.replay_name), "json"
    if parts == ["api", "games"] and method == "GET":
        return {"games": lobby.listing()}, "json"
    if parts == ["api", "replay", "explain"] and method == "GET" and lobby.replay is not None:
        return explain_replay(lobby.bots, seat_labels(lobby.replay), lobby.replay_lines,
                              _int(query.get("line", ""), "line"), query.get("bot", ""),
                              lobby.replay_positions), "json"
    if parts == ["api", "games"] and method == "POST":
        gid, game = lobby.new_game(body or {})
        with game.lock:
            keys = lobby.requests.get(gid, {}).get("keys", {})
            invite = {"key": keys[str(game.human)], "links": links(keys, game.labels,
                                                                   game.human)} if keys else {}
            return {"id": gid, "seed": game.seed, **lobby.public(gid, game), **invite}, "json"
    if len(parts) < 3 or parts[:2] != ["api", "games"]:
        raise RequestError(f"no such API path {path[:80]!r}", HTTPStatus.NOT_FOUND)
    game = lobby.game(parts[2])
    rest = parts[3:]
    since = _int(query.get("since", "0"), "since")
    me = lobby.seat_of(parts[2], game, query)  # the person's seat the request is from
    with game.lock:
        if rest == [] and method == "GET":
            return lobby.public(parts[2], game, since, me), "json"
        if len(rest) == 1 and rest[0] in ("explain", "hint", "odds") and method == "GET":
            return game_route(game, rest[0], query, lobby.champions(), me), "json"
        if rest == ["advance"] and method == "POST":
            steps, setup = (body or {}).get("max", 1), (body or {}).get("setup_only", False)
            wait = (body or {}).get("wait", False)
            if type(steps) is not int or not 1 <= steps <= MAX_ADVANCE:
                raise RequestError(f"max must be a whole number 1..{MAX_ADVANCE}")
            for field, value in (("setup_only", setup), ("wait", wait)):
                if type(value) is not bool:
                    raise RequestError(f"{field} must be true or false")
            if lobby.saves is not None:
                lobby.saves.check_playing(parts[2])
            if game.advance(steps, setup):
                game.changed.notify_all()
            if wait:  # another person's turn: answer when they move (a long poll)
                game.wait_for_others(me, since, WAIT_S)
            lobby.keep(parts[2], game)
            return lobby.public(parts[2], game, since, me), "json"
        if rest == ["act"] and method == "POST":
            if lobby.saves is not None:
                lobby.saves.check_playing(parts[2])
            try:
                play_human(game, body or {}, me)
            except (ActionError, ValueError) as e:
                return {"error": str(e), **game.public(since, me)}, "json"
            finally:  # a refused "attack until" may have rolled before it
                game.changed.notify_all()
            lobby.keep(parts[2], game)  # applied: answered with the game, saved or stopped
            return lobby.public(parts[2], game, since, me), "json"
        if rest in (["transcript"], ["replay"]) and not game.over and game.human is not None:
            # The transcript names every card drawn and every mission: not while a person plays.
            raise RequestError("the transcript and the replay open when the game is over",
                               HTTPStatus.FORBIDDEN)
        if rest == ["transcript"] and method == "GET":
            return "\n".join(saved_transcript(game)) + "\n", "text"
        if rest == ["replay"] and method == "GET":
            you = game.you_labels(me)
            out = replay_json(replay(game.transcript(), labels=you, m=game.m, by_seat=True),
                              "this game")
            out["labels"] = you
            return out, "json"
    raise RequestError(f"no such API path {path[:80]!r}", HTTPStatus.NOT_FOUND)


def saved_transcript(game: LiveGame) -> list[str]:
    """The transcript to save: once the game is over, with the bots' decision records after
    its end (`game.record.transcript.with_records`), so a replay of it explains what was decided."""
    lines = game.transcript()
    if not game.over:
        return list(lines)
    return with_records(lines, {i + 1: record_json(w) for i, w in game.whys.items()})


def _int(text: str, name: str) -> int:
    if not text.isdigit() or len(text) > 9:
        raise RequestError(f"{name} must be a whole number >= 0, got {text[:20]!r}")
    return int(text)


__all__ = ["MAX_ADVANCE", "Lobby", "saved_transcript"]
