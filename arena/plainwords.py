"""A linear bot's decision in a board-game player's words: the territories, armies, cards and
odds of the move, the one or two terms that decided it said as a player would, the next choice.
The numbers and formulas stay behind "the arithmetic" (`features.explain.describe`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from features.explain import gene_words
from features.why import GREEDY_PLACE, PlanExplanation
from game.map import Map
from game.rules import layout as L
from game.state import State

TOP = 3  # terms named as the reasons
# What each gene weighs, as a player would say it (the formulas are `gene_words`').
PLAIN = {
    "reinforce.army_vantage": "enemy armies crowd around it",
    "reinforce.territory_vantage": "many of its neighbours are enemies",
    "reinforce.continent_share": "it owns much of this continent",
    "reinforce.continent_bonus": "it holds, or nearly holds, this continent's bonus",
    "reinforce.border": "it borders an enemy",
    "reinforce.continent_value": "the continent's bonus is worth a lot for its borders",
    "reinforce.enemy_strength": "the largest enemy army next door is big",
    "reinforce.mission": "it serves its secret mission",
    "reinforce.need": "it is short of the armies its border needs",
    "reinforce.guard_need": "it guards a continent it holds",
    "reinforce.leader_adjacent": "it borders the leader",
    "reinforce.plan_need": "it is the stack for the continent it plans to take",
    "reinforce.elim_need": "it is the stack for a player it plans to eliminate",
    "attack.win_prob": "the chance of conquering",
    "attack.armies_ratio": "its armies outnumber the defenders",
    "attack.completes_continent": "it completes a continent",
    "attack.breaks_continent": "it breaks an enemy's continent",
    "attack.target_share": "the defender owns much of the world",
    "attack.eliminates": "it eliminates the defender",
    "attack.first_conquest": "a first conquest this turn earns a card",
    "attack.exposure": "the conquered territory would be exposed",
    "attack.mission": "it serves its secret mission",
    "attack.target_strength": "the defender is strong",
    "attack.breaks_leader": "it breaks the leader's continent",
    "attack.target_cards": "the defender holds many cards",
    "attack.elim_cards": "eliminating the defender would win its cards",
    "attack.left_behind": "the source would be left facing enemies",
    "attack.source_guard": "the source guards a continent it holds",
    "attack.continent_share": "it builds up a continent it is taking",
    "attack.continent_value": "the continent's bonus is worth a lot for its borders",
    "attack.plan": "its stack can sweep the planned continent",
    "attack.elim_plan": "its stack can eliminate the planned victim",
    "attack.threshold": "its base caution",
    "attack.threshold_pressure": "pressure from the strongest opponent",
    "attack.threshold_cards": "cards it must trade soon",
    "attack.threshold_conquered": "its card for this turn is already earned",
    "attack.threshold_thin": "many thin borders of its own",
    "fortify.threat_gain": "it moves armies towards the danger",
    "fortify.interior_source": "the source has no enemy neighbour",
    "fortify.movable": "many armies can move",
    "fortify.dest_border": "the destination borders an enemy",
    "fortify.dest_need": "the destination is short of armies",
    "fortify.dest_guard": "the destination guards a continent it holds",
    "fortify.threshold": "its base caution",
    "fortify.share": "the share of armies it moves",
    "occupy.share": "the share of armies it moves in",
    "occupy.threat": "the conquered territory faces more enemies than the source",
    "occupy.guard": "the source still faces a big enemy army",
    "occupy.continent_guard": "the source guards a continent it holds",
    "cards.trade_at": "its wish to keep cards for a bigger set",
    "cards.income": "the set is worth a lot against its income",
    "cards.pressure": "pressure from the strongest opponent",
    "cards.continent": "the armies could take a continent",
    "cards.forced_next": "it would have to trade next turn anyway",
}


def words_of(gene: str) -> str:
    """A gene's meaning in a player's words (its formula's words when there are none)."""
    return PLAIN.get(gene) or gene_words(gene) or gene
# What each value term of a plan weighs, as a player would say it.
VALUE_WORDS = {
    "value.income": "a bigger share of the income", "value.rival_income": "a weaker best rival",
    "value.territories": "more territories", "value.armies": "more of the armies",
    "value.card": "a card at the end of its turn", "value.hand": "more cards in hand",
    "value.exposure": "safer borders", "value.continent_exposure": "safer continents",
    "value.bonus": "more continent bonuses", "value.rivals": "fewer rivals left",
    "value.thin": "fewer borders held by one army", "value.won": "winning the game",
    "value.income_lead": "a bigger lead in income", "value.armies_lead": "a bigger lead in armies",
    "value.territories_lead": "a bigger lead in territories",
    "value.rival_armies": "more armies for the strongest rival",
    "value.rival_territories": "more territories for the biggest rival",
    "value.weakest_rival": "the weakest rival holding more", "value.leader": "being the strongest",
    "value.last": "being the weakest", "value.duel": "one rival left",
    "value.growth": "a high income for its armies", "value.income_sq": "a big share of the income",
    "value.armies_sq": "a big share of the armies", "value.income_armies": "income and armies both",
    "value.continents": "more continents held", "value.near_bonus": "continents nearly taken",
    "value.half_bonus": "half of a continent or more",
    "value.continent_share": "most of some continents",
    "value.rival_bonus": "the rivals' continent bonuses",
    "value.rival_near": "a rival close to a continent",
    "value.safe_bonus": "continents well guarded",
    "value.border_share": "more territories on the front", "value.idle": "armies behind the front",
    "value.max_stack": "one big stack", "value.front": "strong fronts",
    "value.max_gap": "one weak border", "value.hostile_near": "rival armies next to it",
    "value.threat": "a rival massed next to it", "value.hand3": "three cards or more",
    "value.hand5": "five cards or more", "value.rival_hand": "rivals holding many cards",
    "value.set_value": "sets worth more", "value.own_trade": "a valuable set to trade",
    "value.rival_trade": "a rival's valuable set", "value.bounty": "a weak rival's cards in reach",
    "value.prey": "a weak rival next to it", "value.round": "a later round",
    "value.net": "the position as a whole, as its games taught it"}
_EPS = 0.005  # a gain that rounds to nothing is no reason


def _odds(a: int, d: int) -> str:
    """'6 against 3, about 9 in 10 to take it' (attacking until won)."""
    from game.rules.odds import attack_odds

    p = attack_odds(max(a, 1), max(d, 1)).conquer if a >= 2 else 0.0
    tenths = round(p * 10)
    chance = ("almost sure to take it" if p >= 0.95 else "little chance to take it" if p < 0.05
              else f"about {tenths} in 10 to take it")
    return f"{a} against {d}, {chance}"


def _reasons(chosen: dict[str, Any], runner: dict[str, Any] | None) -> list[str]:
    """The terms that decided it, in words: where the chosen option gains most over the
    runner-up (over nothing without one); none that rounds to nothing."""
    ref = {t["gene"]: t["part"] for t in runner["terms"]} if runner else {}
    gain = sorted(chosen["terms"], key=lambda t: -(t["part"] - ref.get(t["gene"], 0.0)))
    return [words_of(t["gene"]) for t in gain[:TOP]
            if t["part"] - ref.get(t["gene"], 0.0) > _EPS][:2]


def _because(why: list[str], fallback: str) -> str:
    return ": " + (" and ".join(why) if why else fallback)


def _where(m: Map, act: Sequence[int]) -> tuple[str, str]:
    return m.territories[int(act[1])], m.territories[int(act[2])]


def _attack(m: Map, st: State, act: Sequence[int]) -> str:
    src, dst = int(act[1]), int(act[2])
    return (f"{m.territories[dst]} from {m.territories[src]}: "
            f"{_odds(int(st.armies[src]), int(st.armies[dst]))}")


def _plan(ex: dict[str, Any], plan: PlanExplanation, m: Map, st: State) -> str:
    """The search's decision in the player's words."""
    act = ex["action"]
    if plan.options and plan.options[-1].placement:
        return _placement(act, plan, m)
    if not plan.options:
        if act[0] != L.A_ATTACK:
            return "Stops attacking: it has no attack to make."
        return (f"Keeps attacking {_attack(m, st, act)}: the battle it chose this turn, fought on "
                "while it outnumbers the defenders.")
    ranked = plan.ranked()
    best = ranked[0]
    if plan.kept_greedy():
        own = "Stops attacking" if act[0] != L.A_ATTACK else f"Attacks {_attack(m, st, act)}"
        alt = ("stopping" if best.stop else
               f"attacking {m.territories[best.target]} from {m.territories[best.source]}")
        return (f"{own}, its first instinct: looking ahead, {alt} seemed only slightly better, "
                "not enough to change its mind.")
    top = sorted(best.terms, key=lambda t: -abs(t[1] * t[2]))
    good = [VALUE_WORDS.get(n, n) for n, w, x in top if w * x > _EPS][:2]
    gains = f" ({', '.join(good)})" if good else ""
    tried = (f"of its {len(plan.options) - 1} best attacks, each played out {plan.rollouts} "
             "times to the end of its turn")
    nxt = ranked[1] if len(ranked) > 1 else None
    alt = "" if nxt is None else ("stopping" if nxt.stop else
                                  f"attacking {m.territories[nxt.target]} from "
                                  f"{m.territories[nxt.source]}")
    if best.stop:
        return (f"Stops attacking: {tried}, none left a better position than standing still"
                f"{gains}" + (f"; {alt} came next." if alt else "."))
    return (f"Attacks {_attack(m, st, act)}; {tried}, this one left the best position{gains}"
            + (f", ahead of {alt}." if alt else "."))


def _placement(act: Sequence[int], plan: PlanExplanation, m: Map) -> str:
    """The search's placement in the player's words."""
    best, own = plan.ranked()[0], plan.options[-1]
    n, where = int(act[2]), m.territories[int(act[1])]
    until = "its next turn" if plan.horizon == "round" else "the end of its attacks"
    spread = " or spread as it usually does" if own.source == GREEDY_PLACE else ""
    tried = (f"it played each way to place them out {plan.rollouts} times to {until}, all on "
             f"one of its best territories{spread}")
    if plan.kept_greedy() or best is own:
        other = ("putting every army on one territory was not" if own.source == GREEDY_PLACE
                 else "no other territory was")
        return f"Places {n} on {where}, as it usually would; {tried}, and {other} clearly better."
    return f"Places all {n} on {where}; {tried}, and this left the best position."


def plain(ex: dict[str, Any], st: State, m: Map, plan: PlanExplanation | None = None) -> str:
    """The decision in one or two sentences a board-game player uses: territories, armies,
    cards and odds; the numbers behind them stay in the arithmetic."""
    kind, act = str(ex.get("kind", "")), ex["action"]
    if plan is not None:
        return _plan(ex, plan, m, st)
    options = ex.get("options") or []
    chosen = options[0] if options and options[0]["action"][0] == act[0] else None
    runner = options[1] if chosen is not None and len(options) > 1 else None
    why = _reasons(chosen, runner) if chosen is not None else []
    first = "it ranks first of the choices it weighed"
    if kind in ("placement", "reinforcement"):
        t = m.territories[int(act[1])]
        n = int(act[2])
        head = (f"Places an army on {t}" if kind == "placement" or n == 1
                else f"Places {n} armies on {t}")
        nxt = f" Its next choice was {m.territories[int(runner['action'][1])]}." if runner else ""
        return head + _because(why, first) + "." + nxt
    if kind == "attack":
        if act[0] == L.A_ATTACK:
            nxt = ""
            if runner and runner["action"][0] == L.A_ATTACK:
                r_s, r_d = _where(m, runner["action"])
                nxt = f" Its next choice was attacking {r_d} from {r_s}."
            return f"Attacks {_attack(m, st, act)}" + _because(why, first) + "." + nxt
        if not options:
            return "Stops attacking: it has no attack to make."
        bar = ex.get("bar") or {}
        caution = [words_of(t["gene"]) for t in sorted(bar.get("terms", []),
                                                         key=lambda t: -abs(t["part"]))
                   if abs(t["part"]) > _EPS][:2]
        return (f"Stops attacking: its best chance, {_attack(m, st, options[0]['action'])}, was "
                "not worth the risk" + (f" ({' and '.join(caution)})" if caution else "") + ".")
    if kind == "move-in":
        src, dst = int(st.sc[L.S_SRC]), int(st.sc[L.S_DST])
        n, left = int(act[1]), int(st.armies[src]) - int(act[1])
        return (f"Moves {n} armies into {m.territories[dst]}, leaving {left} in "
                f"{m.territories[src]}: " + _occupy_reason(ex, m, src, dst) + ".")
    if kind == "fortify":
        if act[0] != L.A_FORTIFY:
            return "Does not fortify: no move was worth making."
        s_, d_ = _where(m, act)
        nxt = ""
        if runner:
            r_s, r_d = _where(m, runner["action"])
            nxt = f" Its next choice was moving from {r_s} to {r_d}."
        return f"Moves {int(act[3])} armies from {s_} to {d_}" + _because(why, first) + "." + nxt
    return _trade(ex, m, chosen)


def _occupy_reason(ex: dict[str, Any], m: Map, src: int, dst: int) -> str:
    terms = {t["gene"]: t for t in (ex.get("options") or [{}])[0].get("terms", [])}
    threat = terms.get("occupy.threat", {"value": 0.0, "weight": 0.0})
    s_, d_ = m.territories[src], m.territories[dst]
    if threat["value"] > 0:
        return f"{d_} faces more enemies than {s_}"
    if threat["value"] < 0:
        return f"{s_} faces more enemies than {d_}"
    if terms.get("occupy.guard", {}).get("part", 0.0):
        return f"{s_} still faces a big enemy army"
    return "both face the enemy alike, so it splits them as it usually does"


def _trade(ex: dict[str, Any], m: Map, chosen: dict[str, Any] | None) -> str:
    from game.record.replay_board import card_text

    act = ex["action"]
    if act[0] == L.A_TRADE:
        cards = [card_text(m, int(c)) for c in act[1:4]]
        armies = int(chosen["score"]) if chosen else 0
        must = ex.get("bar") is None
        return (f"Trades {cards[0]}, {cards[1]} and {cards[2]} for {armies} armies: "
                + ("it must trade now." if must else "the armies are worth more now than a "
                   "bigger set later."))
    options = ex.get("options") or []
    if not options:
        return "Keeps its cards: it holds no set."
    return (f"Keeps its cards: its best set would give {int(options[0]['score'])} armies, and it "
            "waits for a bigger one.")


def highlight(ex: dict[str, Any]) -> list[int]:
    """The territories the explained move names (to mark on the board)."""
    text = str(ex.get("text", ""))
    _kind, a, b, _c = ex["action"]
    if text.startswith("place "):
        return [int(a)]
    if text.startswith(("attack ", "fortify ")):
        return [int(a), int(b)]
    return []


__all__ = ["PLAIN", "highlight", "plain", "words_of"]
