"""How many legal attacks the bundled champion's attack decisions offer (the search ranks at most
`top_k` of them): 20 Python-engine games against strategist, continent and aggressive.

    .venv/bin/python docs/experiments/2026-12-01-search-width/legal.py
"""
import numpy as np

from features.botfile import BotFile
from game.bots import make_player
from game.decision import DecisionKind
from game.engine import play_game
from game.map import classic_map
from game.state import Rules

adj = np.asarray(classic_map().adjacency)
bot = BotFile.read("game/bots/files/champion.json")
counts: list[int] = []


def counted(p):  # type: ignore[no-untyped-def]
    act = p.act

    def wrapped(view, decision):  # type: ignore[no-untyped-def]
        if decision.kind is DecisionKind.ATTACK:
            own, arm = np.asarray(view.state.owner), np.asarray(view.state.armies)
            src = (own == view.seat) & (arm >= 2)
            counts.append(int((adj[src] & (own != view.seat)[None, :]).sum()))
        return act(view, decision)

    p.act = wrapped
    return p


for g in range(20):
    others = [make_player(n) for n in ("strategist", "continent", "aggressive")]
    play_game([counted(bot.player("bot")), *others], seed=900 + g, rules=Rules())
c = np.array(counts)
print(f"{c.size} attack decisions; legal attacks 50/75/90/99%: {np.percentile(c, [50, 75, 90, 99])}; "
      f"more than 8: {(c > 8).mean():.3f}")
