"""The bundled champion's search and value over other greedy weights: swap.py WEIGHTS OUT.json
(WEIGHTS: `hand-set` for the hand-set genome, or a bot file whose weights to take)."""
import sys

from features.botfile import BotFile
from features.genome import hand_set_genome

bot = BotFile.read("game/bots/files/champion.json")
src = sys.argv[1]
w = hand_set_genome() if src == "hand-set" else BotFile.read(src).weights
meta = dict(bot.meta, weights_from=src)
BotFile(w, meta, bot.settings).write(sys.argv[2])
print(sys.argv[2], bot.settings.rollouts, bot.settings.top_k, bot.settings.margin)
