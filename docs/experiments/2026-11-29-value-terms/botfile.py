"""The bundled champion with another value: botfile.py VALUES.json OUT.json [ROLLOUTS TOP_K]"""
import json
import sys

from features.botfile import BotFile
from features.search.player import PlanSettings

bot = BotFile.read("game/bots/files/champion.json")
plan = bot.plan.as_dict()
plan["value"] = json.load(open(sys.argv[1]))
if len(sys.argv) > 3:
    plan["rollouts"], plan["top_k"] = int(sys.argv[3]), int(sys.argv[4])
meta = dict(bot.meta, value_fit=sys.argv[1])
BotFile(bot.weights, meta, PlanSettings.from_dict(plan)).write(sys.argv[2])
print(sys.argv[2], plan["rollouts"], plan["top_k"], plan["margin"])
