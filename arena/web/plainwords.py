"""A linear bot's explanation (`features.explain.to_json`'s data) in a player's words: what it
chose mainly because of which two or three terms, the next best option and by how much, and the
threshold in words. The formulas stay available beside it (`features.explain.describe`)."""

from __future__ import annotations

from typing import Any

from features.explain import gene_words

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
_VERBS = {"placement": "placed here", "reinforcement": "placed here", "attack": "attacks here",
          "fortify": "fortifies here", "move-in": "moves in this many", "trade": "trades this"}


def _reasons(chosen: dict[str, Any], runner: dict[str, Any] | None) -> list[str]:
    """The terms that decided it: where the chosen option gains most over the runner-up (over
    nothing without one), in words with their signed share of the score."""
    ref = {t["gene"]: t["part"] for t in runner["terms"]} if runner else {}
    gain = sorted(chosen["terms"], key=lambda t: -(t["part"] - ref.get(t["gene"], 0.0)))
    out: list[str] = []
    for t in gain[:TOP]:
        diff = t["part"] - ref.get(t["gene"], 0.0)
        if diff <= 0 and out:
            break
        out.append(f"{words_of(t['gene'])} ({diff:+.2f})")
    return out


def plain(ex: dict[str, Any]) -> str:
    """The explanation in a few sentences, the deciding terms first."""
    options = ex.get("options") or []
    kind = str(ex.get("kind", ""))
    if not options:
        return f"It played {ex['text']}: it had no other choice to weigh." + (
            f" {ex['note']}" if ex.get("note") else "")
    best = options[0]
    chosen = best if best["action"][0] == ex["action"][0] else None
    runner = options[1] if len(options) > 1 else None
    lines = []
    if chosen is not None:
        why = _reasons(chosen, runner)
        verb = _VERBS.get(kind, "chose this")
        lines.append(f"It {verb} ({chosen['text']}) mainly because: " + "; ".join(why) + ".")
        if runner is not None:
            gap = chosen["score"] - runner["score"]
            lines.append(f"Next best: {runner['text']}, {gap:.2f} lower."
                         if gap > 0 else f"Tied with {runner['text']}: it keeps the first found.")
    bar = ex.get("bar")
    if bar is not None:
        margin = best["score"] - bar["total"]
        caution = sorted(bar["terms"], key=lambda t: -abs(t["part"]))[:2]
        said = " and ".join(words_of(t["gene"]) for t in caution if t["part"] != 0.0)
        said = f", set by {said}" if said else ""
        if bar["passed"]:
            lines.append(f"It acts only when its best option scores above its threshold "
                         f"({bar['total']:.2f}{said}); the best scored {margin:.2f} above it.")
        else:
            lines.append(f"Its best option ({best['text']}) scored {-margin:.2f} below its "
                         f"threshold ({bar['total']:.2f}{said}), so it played {ex['text']}.")
    if note := str(ex.get("note") or ""):
        lines.append(note[:1].upper() + note[1:].rstrip(".") + ".")
    return " ".join(lines)


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
