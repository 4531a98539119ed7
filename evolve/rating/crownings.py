"""A run's crowning evidence in words: each playoff's margin beside its noise, and each
champion's reign with its pooled evaluation, so that a user can see whether the later hours
of a run still find players the run can tell are stronger (docs/evolution.md).

The noise of a playoff is the 95% half-width of the paired difference: the candidate and the
incumbent play the same seeded games, so only the games exactly one of them won ("discordant")
carry information, and their difference has standard deviation sqrt(discordant).

The candidates' own playoff wins, pooled over stretches of the run, show whether the population
still gets stronger when the champion stays: every candidate meets the same opponents, and on
the runs measured against Domination's `hard` this measure ranked held-out players at Spearman
+0.82 (docs/experiments/2026-11-27-selection.md).
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from evolve.stats import wilson_interval

__all__ = ["Reign", "Stretch", "beyond_noise", "candidate_trend", "closing_words", "noise",
           "playoff_words", "reigns", "section_html", "trend_html", "trend_words", "verdict"]

Z95 = 1.96
TREND_PARTS = 8  # stretches of the candidate trend: few enough to read, each ~1/8 of the run


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
    if not clear and len(rs) == 1:
        how = ("the run's first, with no incumbent to beat" if rs[0].playoff["incumbent_wins"] < 0
               else "within the noise of its playoff")
        return (f"One champion so far, crowned in generation {rs[0].born} as {how} (the log "
                f"runs to generation {last}).")
    if not clear:
        head = (f"No crowning so far was beyond the noise of its playoff: the {len(rs)} "
                f"champions since generation {rs[0].born} are players the run cannot tell apart")
        return head + f" (the log runs to generation {last})."
    c = clear[-1]
    after = [r for r in playoffs if r["generation"] > c.born]
    within = [int(r["generation"]) for r in after if r["playoff"]["crowned"]]
    crowned = (f"{len(within)} crowning{'s' if len(within) != 1 else ''} within the noise "
               f"(the last at generation {within[-1]})" if within else "no crowning")
    return (f"Last crowning beyond the noise: generation {c.born}, "
            f"{playoff_words(c.playoff)}; since then, to generation {last}, {len(after)} "
            f"playoff{'s' if len(after) != 1 else ''} and {crowned}.")


@dataclass(frozen=True)
class Stretch:
    """The playoff candidates of consecutive playoffs: their outright wins pooled."""

    first: int  # generation of the stretch's first playoff
    last: int
    playoffs: int
    wins: int
    games: int

    @property
    def rate(self) -> float:
        return self.wins / self.games

    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)


def candidate_trend(log: Sequence[dict[str, Any]], parts: int = TREND_PARTS) -> list[Stretch]:
    """The candidates' playoff wins in `parts` stretches holding equal numbers of playoffs
    (fewer stretches when there are fewer playoffs)."""
    pos = [(int(r["generation"]), r["playoff"]) for r in log if r.get("playoff")]
    k = min(parts, len(pos))
    out = []
    for i in range(k):
        chunk = pos[i * len(pos) // k:(i + 1) * len(pos) // k]
        out.append(Stretch(chunk[0][0], chunk[-1][0], len(chunk),
                           sum(int(p["candidate_wins"]) for _, p in chunk),
                           sum(int(p["games"]) for _, p in chunk)))
    return out


def _change(a: Stretch, b: Stretch) -> tuple[float, bool]:
    """b's rate minus a's, and whether it clears the 95% noise of two independent rates."""
    se = math.sqrt(a.rate * (1 - a.rate) / a.games + b.rate * (1 - b.rate) / b.games)
    d = b.rate - a.rate
    return d, abs(d) > Z95 * se


def trend_words(trend: Sequence[Stretch]) -> str:
    """One sentence: the last stretch's candidates against the first stretch's and the one
    before ("" with fewer than two stretches)."""
    if len(trend) < 2:
        return ""
    a, p, b = trend[0], trend[-2], trend[-1]
    d, clear = _change(a, b)
    dp, clear_p = _change(p, b)
    lo, hi = b.interval()
    way = ("stronger" if d > 0 else "weaker") if clear else "no clearly different"
    return (f"The playoff candidates of generations {b.first}-{b.last} won {b.rate:.3f} "
            f"[{lo:.3f}, {hi:.3f}]: {d:+.3f} compared with those of generations "
            f"{a.first}-{a.last} ({'beyond' if clear else 'within'} the noise: {way} "
            f"candidates than at the start) and {dp:+.3f} compared with the stretch before "
            f"({'beyond' if clear_p else 'within'} the noise).")


def closing_words(log: Sequence[dict[str, Any]]) -> str:
    """What a run prints when it stops or ends: the verdict and the candidate trend."""
    trend = trend_words(candidate_trend(log))
    return verdict(log) + (" " + trend if trend else "")


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
    return f"<p>{html.escape(verdict(log))}</p>{table}{trend_html(log)}"


def trend_html(log: Sequence[dict[str, Any]]) -> str:
    """The candidate trend: its sentence and one row per stretch ("" before two playoffs)."""
    trend = candidate_trend(log)
    if len(trend) < 2:
        return ""
    rows = "".join(
        f"<tr><td class='n'>{t.first}-{t.last}</td><td class='n'>{t.playoffs}</td>"
        f"<td>{t.rate:.3f} [{t.interval()[0]:.3f}, {t.interval()[1]:.3f}] of {t.games}</td></tr>"
        for t in trend)
    return (f"<p>{html.escape(trend_words(trend))}</p><table><tr><th>generations</th>"
            f"<th>playoffs</th><th>candidates' wins [95%]</th></tr>{rows}</table>")
