"""The bundled champion with only its search margin changed: margin.py MARGIN OUT.json"""
import sys

from features.botfile import BotFile
from features.search.player import PlanSettings

bot = BotFile.read("game/bots/files/champion.json")
plan = bot.plan.as_dict()
plan["margin"] = float(sys.argv[1])
meta = dict(bot.meta, margin_changed_from=bot.plan.margin)
BotFile(bot.weights, meta, PlanSettings.from_dict(plan)).write(sys.argv[2])
print(sys.argv[2], plan["rollouts"], plan["top_k"], plan["margin"], plan.get("place"))
