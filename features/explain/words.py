"""An `Explanation` (features.explain) in words and as JSON data: the chosen option and the best
runner-ups with their largest terms named, the rest summed, and the bar it had to clear."""

from __future__ import annotations

from typing import Any

from features.explain.model import Explanation, Option, Term
from features.genome import LAYOUT
from game.map import Map
from game.protocol import Action4
from game.rules import layout as L

TOP_TERMS = 4  # terms shown by name per option; the rest are summed
RUNNERS = 2  # runner-ups shown after the chosen option
_WORDS_MAX = 64  # characters of a gene's meaning shown beside it


def gene_words(gene: str) -> str:
    """What a gene weighs, in a few words (its layout doc, shortened)."""
    if gene not in LAYOUT.names:
        return ""
    doc = LAYOUT.docs[LAYOUT.index(gene)]
    for prefix in ("weight of ", "threshold term: ", "trade term: ", "move-in term: "):
        doc = doc.removeprefix(prefix)
    return doc if len(doc) <= _WORDS_MAX else doc[:_WORDS_MAX - 3].rstrip() + "..."


def action_words(m: Map, action: Action4) -> str:
    """An action (kind, a, b, c) in words, with territory names."""
    kind, a, b, c = action
    name = m.territories
    if kind == L.A_PLACE:
        return f"place {b} on {name[a]}"
    if kind == L.A_ATTACK:
        return f"attack {name[b]} from {name[a]}"
    if kind == L.A_MOVE:
        return f"move {a} in"
    if kind == L.A_FORTIFY:
        return f"fortify {name[b]} from {name[a]}" + (f" with {c}" if c else "")
    if kind == L.A_TRADE:
        return f"trade cards {a}, {b}, {c}"
    return {L.A_STOP: "stop attacking", L.A_SKIP: "do not fortify",
            L.A_END_TRADE: "end trading"}.get(kind, "no action")


def largest(terms: tuple[Term, ...], top: int = TOP_TERMS) -> tuple[list[Term], float, int]:
    """The `top` terms of largest size (ties in gene order), and the sum and count of the rest."""
    order = sorted(range(len(terms)), key=lambda i: -abs(terms[i].part))
    shown = sorted(order[:top])
    rest = [terms[i] for i in order[top:]]
    return [terms[i] for i in shown], sum(t.part for t in rest), len(rest)


def _term_line(t: Term) -> str:
    return (f"      {t.part:+.4f}  {t.gene} = {t.weight:.4f} x {t.value:.4f}"
            f"  ({gene_words(t.gene)})")


def _option_lines(m: Map, o: Option, head: str) -> list[str]:
    lines = [f"  {head} {action_words(m, o.action)}: score {o.score:.4f}"]
    shown, rest, n_rest = largest(o.terms)
    lines += [_term_line(t) for t in shown]
    if n_rest:
        lines.append(f"      {rest:+.4f}  the other {n_rest} terms")
    return lines


def _runner_lines(m: Map, o: Option, best: Option, i: int) -> list[str]:
    """A runner-up with the terms that differ most from the chosen option's: why it lost."""
    gap = best.score - o.score
    why = f"{gap:.4f} below" if gap > 0 else "tied: the decision keeps the first it scanned"
    lines = [f"  runner-up {i} ({why}): {action_words(m, o.action)}: score {o.score:.4f}"]
    ref = {t.gene: t for t in best.terms}
    differ = [t for t in o.terms if t.gene not in ref or t.part != ref[t.gene].part]
    differ.sort(key=lambda t: -abs(t.part - (ref[t.gene].part if t.gene in ref else 0.0)))
    for t in differ[:TOP_TERMS]:
        was = f"; chosen: {ref[t.gene].value:.4f}" if t.gene in ref else ""
        lines.append(_term_line(t) + was)
    rest = [t for t in o.terms if t not in differ[:TOP_TERMS]]
    if rest:
        same = "" if len(differ) > TOP_TERMS else ", as the chosen's"
        lines.append(f"      {sum(t.part for t in rest):+.4f}  the other {len(rest)} "
                     f"terms{same}")
    return lines


def describe(ex: Explanation, m: Map, who: str = "") -> str:
    """The explanation as text: the chosen option, the best runner-ups, the bar and the note."""
    who = who or f"seat {ex.seat}"
    lines = [f"{who}, {ex.kind}: {action_words(m, ex.action)}"]
    chosen = ex.options[0] if ex.options and ex.options[0].action[0] == ex.action[0] else None
    best = ex.options[0] if ex.options else None
    if best is not None:
        lines += _option_lines(m, best, "chosen" if chosen is not None else "best option")
        for i, o in enumerate(ex.options[1:1 + RUNNERS], 1):
            lines += _runner_lines(m, o, best, i)
        if len(ex.options) > 1 + RUNNERS:
            lines.append(f"  ... {len(ex.options) - 1 - RUNNERS} more options, lower")
    if ex.bar is not None and best is not None:
        parts = " + ".join(f"{t.gene} {t.weight:.4f} x {t.value:.4f}" for t in ex.bar.terms
                           if t.part != 0.0) or "0"
        verb = ">=" if ex.kind == "trade" else ">"
        sign = verb if ex.bar.passed else ("<" if ex.kind == "trade" else "<=")
        lines.append(f"  threshold {ex.bar.total:.4f} = {parts}")
        lines.append(f"  best {best.score:.4f} {sign} threshold {ex.bar.total:.4f}: "
                     f"{action_words(m, ex.action)}")
    if ex.note:
        lines.append(f"  {ex.note}")
    return "\n".join(lines)


def _term_json(t: Term) -> dict[str, Any]:
    return {"gene": t.gene, "weight": t.weight, "value": t.value, "part": t.part}


def to_json(ex: Explanation, m: Map) -> dict[str, Any]:
    """The whole explanation as JSON data (every option and term; names for the page)."""
    def option(o: Option) -> dict[str, Any]:
        return {"action": list(o.action), "text": action_words(m, o.action), "score": o.score,
                "terms": [_term_json(t) for t in o.terms]}

    bar = None if ex.bar is None else {
        "terms": [_term_json(t) for t in ex.bar.terms], "total": ex.bar.total,
        "passed": ex.bar.passed}
    return {"kind": ex.kind, "seat": ex.seat, "action": list(ex.action),
            "text": action_words(m, ex.action), "options": [option(o) for o in ex.options],
            "bar": bar, "note": ex.note}


__all__ = ["RUNNERS", "TOP_TERMS", "action_words", "describe", "gene_words", "largest",
           "to_json"]
