"""The cost of isolation: Python loop games/s of an untrusted random bot (class path) against
three in-process random bots, imported into the engine (before) and isolated (after).

    .venv/bin/python tests/arena/isolation_cost.py [GAMES]
"""

from __future__ import annotations

import sys
import time

from arena.bots import close_bot, make_bot
from game.bots import RandomBot
from game.bots.loader import make_player
from game.engine import play_game
from game.state import Rules

SPEC = "game.bots.random_bot:RandomBot"  # a class path: untrusted, as a third-party bot


def main(n: int) -> None:
    """Print games/s both ways over the same seeds."""
    rules = Rules(cap=100)
    for mode in ("in-process (before)", "isolated (after)"):
        t = time.perf_counter()
        for g in range(n):
            bot = make_player(SPEC) if mode.startswith("in") else make_bot(SPEC)
            play_game([bot, RandomBot(), RandomBot(), RandomBot()], seed=g, rules=rules,
                      forfeits=True)
            close_bot(bot)
        dt = time.perf_counter() - t
        print(f"{mode}: {n} games in {dt:.2f} s = {n / dt:.2f} games/s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
