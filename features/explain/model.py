"""What an explanation holds: each option's score and its gene x feature terms, the bar the best
option had to clear, and the decision's kind (made by `features.explain.options`)."""

from __future__ import annotations

from dataclasses import dataclass

from game.protocol import Action4

KINDS = ("placement", "reinforcement", "trade", "attack", "move-in", "fortify")


class ExplainError(ValueError):
    """No decision to explain here, or an explanation that disagrees with the decision."""


@dataclass(frozen=True)
class Term:
    """One gene's part of a score: weight x value."""

    gene: str
    weight: float
    value: float

    @property
    def part(self) -> float:
        """weight x value."""
        return self.weight * self.value


@dataclass(frozen=True)
class Option:
    """One option: the action it plays, its score as the decision computed it, and its terms."""

    action: Action4
    score: float
    terms: tuple[Term, ...]


@dataclass(frozen=True)
class Bar:
    """What the best option had to clear: its terms, their total as the decision adds them, and
    whether the decision went on (attack: best > total; fortify: best > total; trade: best >=
    total)."""

    terms: tuple[Term, ...]
    total: float
    passed: bool


@dataclass(frozen=True)
class Explanation:
    """A decision of `seat`: what it plays, every option best first as the decision ranks them
    (`options[0]` is the best; ties in the scan order, sets of equal armies fewer wilds first),
    the bar and a note."""

    kind: str  # one of KINDS
    seat: int
    action: Action4  # what the player plays: `decide`'s own answer
    options: tuple[Option, ...]
    bar: Bar | None
    note: str


__all__ = ["KINDS", "Bar", "ExplainError", "Explanation", "Option", "Term"]
