"""A linear bot's explanation (`features.explain.to_json`'s data) in a player's words: what it
chose mainly because of which two or three terms, the next best option and by how much, and the
threshold in words. The formulas stay available beside it (`features.explain.describe`)."""

from __future__ import annotations

from typing import Any

from features.explain import gene_words

TOP = 3  # terms named as the reasons
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
        out.append(f"{gene_words(t['gene']) or t['gene']} ({diff:+.2f})")
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
        if bar["passed"]:
            lines.append(f"It acts only when its best option scores above its threshold "
                         f"({bar['total']:.2f}); the best scored {margin:.2f} above it.")
        else:
            lines.append(f"Its best option ({best['text']}) scored {-margin:.2f} below its "
                         f"threshold ({bar['total']:.2f}), so it played {ex['text']}.")
    if ex.get("note"):
        lines.append(str(ex["note"]))
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


__all__ = ["highlight", "plain"]
