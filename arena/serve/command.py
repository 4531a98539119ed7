"""`python -m arena serve BOT`: the bot protocol's command line (stdin/stdout or TCP, limits,
recording); the session logic is `arena.serve.server.Server`."""

from __future__ import annotations

import json
import os
import sys

from arena.bots import BotSpecError, add_timeout_argument
from arena.bots import make_bot as make_any
from arena.serve.lines import serve
from arena.serve.recorder import MAX_BYTES, MAX_GAMES, RECORD_ENV, Recorder
from arena.serve.server import _one_line
from arena.serve.tcp import IDLE_TIMEOUT_S, MAX_SESSIONS, parse_address, serve_tcp
from arena.wire.protocol import PROTOCOL
from evolve.cli import ArgumentParser
from game.protocol import Player


def main(argv: list[str]) -> int:
    """`python -m arena serve BOT [--tcp HOST:PORT] [--record DIR]`: answer protocol requests."""
    ap = ArgumentParser(prog="python -m arena serve", description=main.__doc__)
    ap.add_argument("bot", help="bot file, baseline name or package.module:Class")
    ap.add_argument("--tcp", metavar="HOST:PORT",
                    help="serve over TCP instead of stdin/stdout (host 127.0.0.1 unless given; "
                         "port 0 picks a free one); one game session per connection")
    ap.add_argument("--max-sessions", type=int, default=MAX_SESSIONS,
                    help=f"TCP sessions at once (default {MAX_SESSIONS})")
    ap.add_argument("--idle-timeout", type=float, default=IDLE_TIMEOUT_S, metavar="S",
                    help=f"close a TCP session silent this long (default {IDLE_TIMEOUT_S:g} s)")
    add_timeout_argument(ap)
    # An environment default: engines that build the serve command line (Domination's bridge)
    # record without a change on their side.
    ap.add_argument("--record", metavar="DIR", default=os.environ.get(RECORD_ENV) or None,
                    help="keep what the bot saw and answered, one JSON-lines file per game in "
                         f"DIR (default: ${RECORD_ENV} if set); read with "
                         "`python -m arena diagnose --records DIR`")
    ap.add_argument("--record-games", type=int, default=MAX_GAMES, metavar="N",
                    help=f"at most N game files per run (default {MAX_GAMES})")
    ap.add_argument("--record-mib", type=int, default=MAX_BYTES // 2**20, metavar="M",
                    help=f"at most M MiB recorded per run (default {MAX_BYTES // 2**20})")
    args = ap.parse_args(argv)
    from evolve.cli import error

    def make_bot(spec: str) -> Player:
        return make_any(spec, isolate=False)  # this process is the bot's own

    try:
        make_bot(args.bot)
    except BotSpecError as e:
        print(json.dumps({"id": None, "error": str(e)}), flush=True)
        return 2
    except Exception as e:  # noqa: BLE001 - whatever a bot module's import raises: one line
        print(json.dumps({"id": None, "error": _one_line(f"bot {args.bot}: {type(e).__name__}: "
                                                         f"{e}")}), flush=True)
        return 2
    limit = args.decision_timeout
    for option, value, ok, allowed in (
            ("--decision-timeout", limit, 0 < limit <= 86_400, "more than 0, at most 86400 s"),
            ("--idle-timeout", args.idle_timeout, 0 < args.idle_timeout <= 86_400,
             "more than 0, at most 86400 s"),
            ("--max-sessions", args.max_sessions, 1 <= args.max_sessions <= 10_000, "1..10000"),
            ("--record-games", args.record_games, 1 <= args.record_games <= MAX_GAMES * 100,
             f"1..{MAX_GAMES * 100}"),
            ("--record-mib", args.record_mib, 1 <= args.record_mib <= 1 << 20, "1..1048576")):
        if not ok:
            return error(f"{option} must be {allowed}, got {value}")
    recorder = None
    if args.record is not None:
        try:
            recorder = Recorder(args.record, max_games=args.record_games,
                                max_bytes=args.record_mib * 2**20)
        except OSError as e:
            return error(f"--record {args.record}: cannot create the folder "
                         f"({e.strerror or e})")
    if args.tcp is None:
        serve(lambda: make_bot(args.bot), sys.stdin.buffer, sys.stdout, decision_timeout=limit,
              recorder=recorder)
        return 0
    try:
        host, port = parse_address(args.tcp)
    except ValueError as e:
        return error(str(e))

    def ready(h: str, p: int) -> None:
        print(f"serving {PROTOCOL} on {h}:{p}", file=sys.stderr, flush=True)

    try:
        serve_tcp(lambda: make_bot(args.bot), host, port, ready, args.max_sessions,
                  args.idle_timeout, limit, recorder)
    except OSError as e:
        return error(f"--tcp {args.tcp}: {e.strerror or e}")
    except KeyboardInterrupt:
        pass
    return 0
