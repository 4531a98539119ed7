"""`python -m arena web`: play against bots, or replay a game, in a browser.

The server is the standard library's `http.server`: the page is a local tool for one person,
so a framework would add a dependency and nothing it needs. The page ships in `arena/web/static/`
(no build step, nothing fetched). Every game is an `arena.web.live.LiveGame`, refereed by the rule
kernel; the page only proposes actions. Bots move only while a page asks them to (`advance`),
so an idle or closed tab costs no CPU, and idle games expire.
"""

from __future__ import annotations

import argparse
import secrets
import threading
import time
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

from arena.bots import (
    BotSpecError,
    GameArgError,
    add_rules_argument,
    bot_file_path,
    check_bot,
    close_bot,
    game_seed,
    make_bot,
    make_rules,
    trusted,
)
from arena.play import labels_for
from arena.web.champ import HOW_TO, default_bots, newest_champion
from arena.web.handler import Handler
from arena.web.httpd import BoundedHTTPServer, RequestError
from arena.web.insight import can_explain
from arena.web.live import LiveGame, Seat, random_seed
from arena.web.people import friend_label, new_keys, parse_people, saved_keys, viewer
from arena.web.routes import _route  # noqa: F401 - the API, called as app._route (tests)
from arena.web.saves import Saved, SaveError, Saves, resume, warn
from arena.web.views import engine_state, map_json
from arena.web.warm import Engine
from evolve.cli import ArgumentParser, error
from game.bots import WEB_BOTS
from game.env.seeding import SEED_BOUND
from game.map import Map, classic_map
from game.record.position import Positions
from game.record.replay import Replay, ReplayError, read_transcript, replay
from game.state import Rules, RulesError

MAX_GAMES = 32
MAX_BOT_PROCESSES = 16  # package.module:Class bots (one process each) in live games at once
IDLE_SECONDS = 30 * 60
BUNDLED = WEB_BOTS  # the bot table's web column (game.bots.table), `champion` among them


@dataclass
class Lobby:
    """What the server offers: its bots (label -> spec), the board, the default game."""

    bots: dict[str, str]
    defaults: list[str]
    map: Map
    rules: Rules
    seat: int | None
    seed: int | None
    replay: Replay | None = None
    replay_name: str = ""
    replay_lines: list[str] = field(default_factory=list)
    replay_positions: Positions = field(default_factory=Positions)  # its why?s, stepping on
    saves: Saves | None = None  # where live games are saved as they go (`arena.web.saves`)
    requests: dict[str, dict[str, Any]] = field(default_factory=dict)  # what started each
    games: dict[str, LiveGame] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    isolated: dict[str, int] = field(default_factory=dict)  # game id -> its isolated bots
    starting: int = 0  # games between their cap check and their start
    starting_isolated: int = 0  # their package.module:Class bots
    engine: Engine = field(default_factory=Engine)  # the kernels compiled in the background
    resuming: set[str] = field(default_factory=set)  # saved games being played on (`resume_saved`)
    resume_pending: bool = False  # saved games are played on in the background still

    def new_game(self, body: dict[str, Any], gid: str = "",
                 dealt: int | None = None) -> tuple[str, LiveGame]:
        """Start a game from a page request {opponents, seat, seed, rules} (`gid`: resumed,
        `dealt`: the seed its deal came from, saved with it)."""
        opponents = body.get("opponents", self.defaults)
        if (not isinstance(opponents, list) or not 1 <= len(opponents) <= 5
                or not all(isinstance(o, str) for o in opponents)):
            raise RequestError("opponents must be a list of 1..5 bot names")
        unknown = [o for o in opponents if o not in self.bots]
        if unknown:
            raise RequestError(f"unknown bot {unknown[0]!r} (allowed: {', '.join(self.bots)})")
        seat = body.get("seat", self.seat)
        people, hot = parse_people(body, len(opponents), seat if type(seat) is int else None)
        if seat is not None and (type(seat) is not int
                                 or not 0 <= seat <= len(opponents) + len(people)):
            raise RequestError(f"seat must be 0..{len(opponents) + len(people)} or null, got "
                               f"{seat!r}")
        seed = body.get("seed", self.seed)
        if seed is None:
            seed = random_seed()
        if type(seed) is not int or not 0 <= seed < SEED_BOUND:
            raise RequestError(f"seed must be a whole number 0..{SEED_BOUND - 1}, got {seed!r}")
        rules = self.rules
        if "rules" in body:
            if not isinstance(body["rules"], str) or len(body["rules"]) > 200:
                raise RequestError("rules must be text such as 'missions,cap=50'")
            try:
                rules = make_rules(body["rules"])
            except GameArgError as e:
                raise RequestError(str(e)) from None
        specs = [self.bots[o] for o in opponents]
        names = labels_for(opponents)
        isolated = sum(not trusted(spec) for spec in specs)
        if gid and dealt is None and isolated:
            raise RequestError("saved without its dealt seed (by an older riskevo): a game with "
                               "a package.module:Class bot cannot be dealt again")
        with self.lock:  # the caps first: a refused request starts no bot process
            self._expire()
            live = sum(self.isolated.get(g, 0) for g, game in self.games.items() if not game.over)
            if len(self.games) + self.starting >= MAX_GAMES:
                raise RequestError(f"too many live games (at most {MAX_GAMES}); close a tab or "
                                   f"wait {IDLE_SECONDS // 60} minutes for idle ones to expire",
                                   HTTPStatus.SERVICE_UNAVAILABLE)
            if live + self.starting_isolated + isolated > MAX_BOT_PROCESSES:
                raise RequestError(f"too many bot processes (at most {MAX_BOT_PROCESSES} "
                                   "package.module:Class bots in live games); finish a game "
                                   "first", HTTPStatus.SERVICE_UNAVAILABLE)
            self.starting += 1
            self.starting_isolated += isolated
        try:
            self.engine.wait()
            deal = game_seed(seed, specs) if dealt is None else dealt
            game = self._start(rules, names, specs, deal, seat, people)
            keys = saved_keys(body.get("keys"), game.people) if gid and people else new_keys(
                game.people)
            with self.lock:
                gid = gid or secrets.token_urlsafe(9)
                self.requests[gid] = {"opponents": opponents, "seat": seat, "seed": seed,
                                      "rules": body.get("rules", self.rules_text())}
                if people:  # saved with the game: a restart takes the same links
                    self.requests[gid].update(people=people, hotseat=hot, keys=keys)
                self.games[gid], self.isolated[gid] = game, isolated
        finally:
            with self.lock:
                self.starting -= 1
                self.starting_isolated -= isolated
        return gid, game

    def _start(self, rules: Rules, names: list[str], specs: list[str], seed: int,
               seat: int | None, people: list[int]) -> LiveGame:
        """A new game with fresh bots (every bot closed again if it cannot start)."""
        players = [Seat("host" if people else "human", None),
                   *(Seat(friend_label(k), None) for k in range(len(people)))]
        try:
            for name, spec in zip(names, specs, strict=True):
                players.append(Seat(name, make_bot(spec), trusted(spec), spec))
            return LiveGame(self.map, rules, players, seed, human_seat=seat, more_seats=people)
        except (BotSpecError, GameArgError, RulesError, ValueError) as e:
            for p in players:
                if p.bot is not None:
                    close_bot(p.bot)
            raise RequestError(str(e)) from None

    def _expire(self) -> None:
        now = time.monotonic()
        for gid in [g for g, game in self.games.items() if now - game.touched > IDLE_SECONDS]:
            self.drop(gid)
            if self.saves is not None:  # a restart does not bring it back
                self.saves.expired(gid)

    def drop(self, gid: str) -> None:
        """End live game `gid`."""
        self.games.pop(gid).close()
        self.isolated.pop(gid, None)

    def game(self, gid: str) -> LiveGame:
        """A live game by id (404 when unknown or expired)."""
        with self.lock:
            self._expire()
            game = self.games.get(gid)
            if gid in self.resuming or (game is None and self.resume_pending):
                raise RequestError("resuming: the saved games are being played on after the "
                                   "restart; try again in a moment",
                                   HTTPStatus.SERVICE_UNAVAILABLE)
        if game is None:
            game = self._reopen(gid)
        if game is None:
            raise RequestError(f"no live game {gid[:40]!r} (unknown or expired)",
                               HTTPStatus.NOT_FOUND)
        game.touched = time.monotonic()
        return game

    def _reopen(self, gid: str) -> LiveGame | None:
        """A finished game saved before a restart, played again from its file to be read."""
        item = self.saves.finished(gid) if self.saves is not None else None
        if item is None:
            return None
        try:
            game = self.new_game(item.request, gid, item.dealt)[1]
        except (RequestError, ValueError) as e:
            warn(f"{item.path}: not reopened: {e}")
            return None
        try:
            resume(game, item.lines)
        except SaveError as e:
            warn(f"{item.path}: not reopened: {e}")
            with self.lock:
                self.drop(gid)
            return None
        return game

    def keep(self, gid: str, game: LiveGame) -> None:
        """Save the game to the lobby's folder, if it has one (`Saves.keep`)."""
        if self.saves is not None and gid in self.requests:
            self.saves.keep(gid, self.requests[gid], game)

    def seat_of(self, gid: str, game: LiveGame, query: dict[str, str]) -> int | None:
        """The person's seat a request about game `gid` acts and sees as (`people.viewer`)."""
        return viewer(self.requests.get(gid, {}).get("keys", {}), game.human, query)

    def public(self, gid: str, game: LiveGame, since: int = 0,
               seat: int | None = None) -> dict[str, Any]:
        """The game as person `seat` (default the first) sees it, and why it stopped if it
        did (`Saves.keep`)."""
        out = game.public(since, seat)
        out["id"], out["seed"] = gid, game.seed  # the header's "game ID, seed S", on a reload too
        out["hotseat"] = bool(self.requests.get(gid, {}).get("hotseat"))
        if self.saves is not None and gid in self.saves.stopped:
            out.update(stopped=self.saves.stopped[gid], decision=None)
        return out

    def resume_saved(self, folder: Path, background: bool = False) -> None:
        """Save games to `folder` (locked for this server, now), playing on its unfinished ones
        (a warning naming the file of each that cannot be); `background`: later, in the thread
        `resume_in_background` starts once the server listens (issue 65, H3: 141 s of replays
        against a slow bot, the page down), each game answering "resuming" (503) till ready."""
        self.saves = Saves(folder, [bot_file_path(s) for s in self.champions()])
        if background:
            self.resume_pending = True
        else:
            self._resume_all()

    def resume_in_background(self) -> None:
        """Play on the saved games `resume_saved(background=True)` left, in a thread."""
        if self.resume_pending:
            threading.Thread(target=self._resume_all, daemon=True,
                             name="riskevo-web-resume").start()

    def _resume_all(self) -> None:
        assert self.saves is not None  # noqa: S101 - set by resume_saved

        def start(item: Saved) -> LiveGame:
            with self.lock:
                self.resuming.add(item.gid)
            return self.new_game(item.request, item.gid, item.dealt)[1]

        def done(gid: str) -> None:
            with self.lock:
                self.resuming.discard(gid)

        try:
            self.saves.resume_all(IDLE_SECONDS, MAX_GAMES, start, self.drop, done)
        finally:
            self.resume_pending = False

    def listing(self) -> list[dict[str, Any]]:
        """The live games, for the page's list (reattach by id)."""
        with self.lock:
            self._expire()
            return [{"id": g, "labels": game.labels, "human": game.human, "over": game.over,
                     "round": int(game.state.round)} for g, game in self.games.items()
                    if g not in self.resuming]

    def champions(self) -> list[str]:
        """The bot files the server offers (the first explains the replay's lines)."""
        return [spec for spec in self.bots.values() if can_explain(spec)]

    def config(self) -> dict[str, Any]:
        """What the page needs before a game: bots, defaults, the board, a replay if any."""
        return {"bots": list(self.bots), "defaults": self.defaults, "map": map_json(self.map),
                "rules": self.rules_text(), "seat": self.seat, "seed": self.seed,
                "replay": self.replay_name or None,
                "explainers": (ex := [b for b, spec in self.bots.items() if can_explain(spec)]),
                "champion_note": "" if ex else HOW_TO, "engine": engine_state(self.engine)}

    def rules_text(self) -> str:
        return self.rules.text()


def make_server(lobby: Lobby, host: str = "127.0.0.1", port: int = 8000) -> ThreadingHTTPServer:
    """A server bound to (host, port) serving `lobby` (port 0: any free port)."""
    handler = type("LobbyHandler", (Handler,), {"lobby": lobby})
    return BoundedHTTPServer((host, port), handler)


def make_lobby(bots: list[str], seat: int | None, rules_text: str | None, seed: int | None,
               replay_file: str | None, games_dir: str | None = None,
               background: bool = False) -> Lobby:
    """The lobby for the command line's arguments (GameArgError/ReplayError on bad ones);
    `background`: its saved games are played on in a thread (`Lobby.resume_saved`)."""
    specs = list(bots) or default_bots()
    offered: dict[str, str] = {}
    for label, spec in zip(labels_for(specs), specs, strict=True):
        check_bot(spec)  # a bad spec fails now, with its message, not in the page
        offered[label] = spec
    for name in BUNDLED:
        offered.setdefault(name, name)
    if not 1 <= len(specs) <= 5:
        raise GameArgError(f"a game needs 1..5 bots besides you, got {len(specs)}")
    rules = make_rules(rules_text)
    m = classic_map()
    rules.check(m, len(specs) + 1)
    lobby = Lobby(offered, labels_for(specs), m, rules, seat, seed)
    if replay_file:
        lobby.replay_lines = read_transcript(replay_file)
        lobby.replay = replay(lobby.replay_lines)
        lobby.replay_name = Path(replay_file).name
    if games_dir:
        lobby.resume_saved(Path(games_dir), background)
    return lobby


def parser() -> argparse.ArgumentParser:  # `python -m arena web`'s options
    ap = ArgumentParser(prog="python -m arena web", description=main.__doc__)
    ap.add_argument("bots", nargs="*", help="bot file, baseline name or package.module:Class")
    ap.add_argument("--seat", type=int, default=None, help="your seat 0..n-1 (0 moves first)")
    add_rules_argument(ap)
    ap.add_argument("--seed", type=int, default=None, help="the first game's seed")
    ap.add_argument("--replay", default=None, metavar="FILE", help="a transcript to replay")
    ap.add_argument("--games", default="runs/web-games", metavar="DIR", help="live games are "
                    "saved here as they go; a restart plays them on ('' keeps none)")
    ap.add_argument("--host", default="127.0.0.1", help="bind address (default 127.0.0.1)")
    ap.add_argument("--port", type=int, default=8000, help="port (0: any free port)")
    return ap


def main(argv: list[str]) -> int:
    """`python -m arena web [BOTS...] [--seat N] [--rules R] [--seed S] [--port P]`: play
    against 1..5 bots (default: the newest run's champion, strategist, continent) in a browser,
    or `--replay FILE` to step through a recorded game."""
    args = parser().parse_args(argv)
    if not 0 <= args.port <= 65535:
        return error(f"--port must be 0..65535, got {args.port}")
    if not args.host.strip():  # "" binds every interface: say so with 0.0.0.0 instead
        return error("--host must name an address (default 127.0.0.1; 0.0.0.0 for every "
                     "interface)")
    if args.seed is not None and not 0 <= args.seed < SEED_BOUND:
        return error(f"--seed must be 0..{SEED_BOUND - 1}, got {args.seed}")
    try:
        lobby = make_lobby(args.bots, args.seat, args.rules, args.seed, args.replay, args.games,
                           background=True)
    except (GameArgError, ReplayError, RulesError, SaveError, OSError) as e:
        return error(e)
    if args.seat is not None and not 0 <= args.seat <= len(lobby.defaults):
        return error(f"--seat must be 0..{len(lobby.defaults)}, got {args.seat}")
    lobby.engine.warm(lobby.map, lobby.rules, [lobby.bots[b] for b in lobby.defaults])
    try:
        server = make_server(lobby, args.host, args.port)
    except OSError as e:
        return error(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}")
    host, port = str(server.server_address[0]), int(server.server_address[1])
    page = "#replay" if args.replay else ""
    print(f"riskevo web: open http://{host}:{port}/{page}  (Ctrl-C stops)", flush=True)
    lobby.resume_in_background()  # listening first: a slow bot's replay keeps no page down
    try:
        server.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        print("stopped")
    finally:
        server.server_close()
        if lobby.saves is not None:
            lobby.saves.close()
        lobby.engine.stop()
    return 0


__all__ = ["Handler", "Lobby", "RequestError", "main", "make_lobby", "make_server", "map_json",
           "newest_champion"]
