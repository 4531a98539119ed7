"""A run's crowning evidence in words: each playoff's margin beside its noise, and each
champion's reign with its pooled evaluation, so that a user can see whether the later hours
of a run still find players the run can tell are stronger (docs/evolution.md).

The noise of a playoff is the 95% half-width of the paired difference: the candidate and the
incumbent play the same seeded games, so only the games exactly one of them won ("discordant")
carry information, and their difference has standard deviation sqrt(discordant).
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from evolve.stats import wilson_interval

__all__ = ["Reign", "beyond_noise", "noise", "playoff_words", "reigns", "section_html", "verdict"]

Z95 = 1.96


def noise(discordant: int) -> float:
    """95% half-width of the paired win difference over `discordant` games."""
    return Z95 * math.sqrt(max(discordant, 0))


def beyond_noise(po: dict[str, Any]) -> bool:
    """A crowning whose margin clears its noise (the first champion has no rival: False)."""
    if po["incumbent_wins"] < 0:
        return False
    return po["candidate_wins"] - po["incumbent_wins"] > noise(po["discordant"])


def playoff_words(po: dict[str, Any]) -> str:
    """'684 vs 667 of 1000 (+17, noise ±39)'; a first crowning: '684 of 1000'."""
    if po["incumbent_wins"] < 0:
        return f"{po['candidate_wins']} of {po['games']}"
    diff = po["candidate_wins"] - po["incumbent_wins"]
    return (f"{po['candidate_wins']} vs {po['incumbent_wins']} of {po['games']} "
            f"({diff:+d}, noise ±{noise(po['discordant']):.0f})")


@dataclass(frozen=True)
class Reign:
    """One proven champion: when and how it was crowned, how long it held, its evaluations."""

    born: int
    playoff: dict[str, Any]
    until: int | None  # generation of the playoff that dethroned it (None: still champion)
    eval_wins: int
    eval_games: int

    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.eval_wins, self.eval_games) if self.eval_games else (0.0, 0.0)


def reigns(log: Sequence[dict[str, Any]]) -> list[Reign]:
    """Every crowning of the log, in order, with the evaluations pooled over its reign."""
    out: list[Reign] = []
    wins = games = 0
    for rec in log:
        po = rec.get("playoff")
        if po and po.get("crowned"):
            if out:
                out[-1] = Reign(out[-1].born, out[-1].playoff, int(rec["generation"]), wins,
                                games)
            out.append(Reign(int(rec["generation"]), po, None, 0, 0))
            wins = games = 0
        ev = rec.get("eval")
        if ev and out and ev.get("champion_generation", out[-1].born) == out[-1].born:
            wins, games = wins + int(ev["wins"]), games + int(ev["games"])
    if out:
        out[-1] = Reign(out[-1].born, out[-1].playoff, None, wins, games)
    return out


def verdict(log: Sequence[dict[str, Any]]) -> str:
    """One sentence: the last crowning the run could tell from noise, and what came after."""
    rs = reigns(log)
    playoffs = [r for r in log if r.get("playoff")]
    restarts = [int(r["generation"]) for r in log if r.get("restart")]
    tail = (f" The population restarted {len(restarts)} time{'s' if len(restarts) != 1 else ''}"
            f", last after generation {restarts[-1]}." if restarts else "")
    return _verdict(log, rs, playoffs) + tail


def _verdict(log: Sequence[dict[str, Any]], rs: list[Reign],
             playoffs: list[dict[str, Any]]) -> str:
    if not rs:
        return "No champion crowned yet."
    clear = [r for r in rs if beyond_noise(r.playoff)]
    last = log[-1].get("generation", rs[-1].born)
    if not clear:
        head = (f"No crowning so far was beyond the noise of its playoff: the {len(rs)} "
                f"champions since generation {rs[0].born} are players the run cannot tell apart")
        return head + f" (last generation {last})."
    c = clear[-1]
    after = [r for r in playoffs if r["generation"] > c.born]
    within = sum(1 for r in after if r["playoff"]["crowned"])
    return (f"Last crowning beyond the noise: generation {c.born}, "
            f"{playoff_words(c.playoff)}; since then {len(after)} playoffs, {within} "
            f"crowning{'s' if within != 1 else ''} within the noise (last generation {last}).")


def section_html(log: Sequence[dict[str, Any]]) -> str:
    """The report's crowning section: the verdict and one row per reign."""
    rs = reigns(log)
    rows = []
    for r in rs:
        lo, hi = r.interval()
        ev = (f"{r.eval_wins / r.eval_games:.3f} [{lo:.3f}, {hi:.3f}] of {r.eval_games}"
              if r.eval_games else "")
        clear = ("first" if r.playoff["incumbent_wins"] < 0 else
                 "yes" if beyond_noise(r.playoff) else "no")
        rows.append(f"<tr><td class='n'>{r.born}</td>"
                    f"<td>{html.escape(playoff_words(r.playoff))}</td><td>{clear}</td>"
                    f"<td class='n'>{'' if r.until is None else r.until}</td><td>{ev}</td></tr>")
    table = ("<table><tr><th>crowned in</th><th>playoff (candidate vs incumbent)</th>"
             "<th>beyond noise?</th><th>until</th><th>evaluation over its reign [95%]</th>"
             f"</tr>{''.join(rows)}</table>") if rows else ""
    return f"<p>{html.escape(verdict(log))}</p>{table}"
