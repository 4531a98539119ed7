"""How often the move-in or card search has a choice, and how often it leaves the greedy one.

    PYTHONPATH=TREE .venv/bin/python docs/experiments/2026-12-02-beyond-attacks/decisions.py \
        occupy|trade FILE [GAMES]
Seeded Python-engine games (seeds 900..) of FILE against strategist, continent and aggressive, as
the latency scripts play them; TREE holds `occupy.patch` or `trade.patch`. occupy: per decision
the legal range, whether the search weighed options beside the greedy count, and whether it
moved another one (the least, the most). trade: whether a set was optional, whether the greedy
player would trade it, and whether the search chose the other.
"""

from __future__ import annotations

import sys
from typing import Any

from features.botfile import BotFile
from game.bots import make_player
from game.engine import play_game
from game.rules import layout as L
from game.state import Rules

counts: dict[str, int] = {}


def add(key: str, yes: bool = True) -> None:
    counts[key] = counts.get(key, 0) + int(yes)


def occupy(s: Any, out: Any, work: Any, pw: Any) -> None:
    add("decisions")
    lo, hi = int(s.sc[L.S_MIN_MOVE]), int(s.armies[s.sc[L.S_SRC]]) - 1
    add("free", hi > lo)
    n = int(pw.last[0]) if int(pw.last[3]) == 3 else 0  # the patch's P_OCCUPY
    add("weighed", n > 0)
    moved = int(getattr(out, "count", out))  # the protocol answers an occupy with its count
    left = n > 0 and moved in [int(x) for x in work.opt_a[:n]]  # the options exclude greedy's
    add("left", left)
    add("left_least", left and moved == lo)
    add("left_most", left and moved == hi)


def trade(s: Any, out: Any, work: Any, pw: Any) -> None:
    add("decisions")
    if int(pw.last[3]) == 4 and int(pw.last[0]) == 1:  # the patch's P_TRADE, one option
        add("weighed")
        greedy_trades = int(work.opt_a[0]) < 0  # then the other option is keeping
        traded = type(out).__name__ == "Trade"
        add("greedy_trades", greedy_trades)
        add("kept_instead", greedy_trades and not traded)
        add("traded_instead", not greedy_trades and traded)


def counted(player: Any, phase: int, count: Any) -> Any:
    act = player.act

    def wrapped(view: Any, decision: Any) -> Any:
        s = view.kernel_state().kernel
        here = int(s.sc[L.S_PHASE]) == phase
        out = act(view, decision)
        if here:
            work, pw = player._scratch
            count(s, out, work, pw)
        return out

    player.act = wrapped
    return player


mode, path = sys.argv[1], sys.argv[2]
games = int(sys.argv[3]) if len(sys.argv) > 3 else 20
phase, count = {"occupy": (L.PH_OCCUPY, occupy), "trade": (L.PH_TRADE, trade)}[mode]
bot = BotFile.read(path)
for g in range(games):
    others = [make_player(n) for n in ("strategist", "continent", "aggressive")]
    play_game([counted(bot.player("bot"), phase, count), *others], seed=900 + g, rules=Rules())
print(mode, path, games, "games:", counts)
