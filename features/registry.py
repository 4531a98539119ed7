"""Feature registry: every feature's name, the rank it serves and its formula, in kernel order.

The compiled kernels (`features.kernels`) fill feature vectors in exactly this order; the
integer constants below are the indices they use. Notation: p is the deciding seat, t a
territory, a(t) its armies, H(t) the armies on neighbours of t not owned by p, N(t) the
neighbours of t, c(t) its continent, B(c) the continent bonus and Bmax the largest bonus.
Every feature lies in [0, 1] except `fortify.threat_gain` in [-1, 1].
"""

from __future__ import annotations

from dataclasses import dataclass

FEATURE_SET_VERSION = 1


@dataclass(frozen=True)
class Feature:
    """One feature: its gene name is `<rank>.<name>`."""

    name: str
    rank: str  # "reinforce", "attack" or "fortify"
    doc: str  # one line: the formula

    @property
    def gene(self) -> str:
        """Gene name of this feature's weight."""
        return f"{self.rank}.{self.name}"


REINFORCE: tuple[Feature, ...] = (
    Feature("army_vantage", "reinforce", "H(t) / (H(t) + a(t)): hostile armies around t"),
    Feature("territory_vantage", "reinforce", "hostile neighbours of t / |N(t)|"),
    Feature("continent_share", "reinforce", "territories of c(t) owned by p / size of c(t)"),
    Feature("continent_bonus", "reinforce",
            "B(c)/Bmax if p holds c(t) or every missing territory of c(t) borders t, else 0"),
    Feature("border", "reinforce", "1 if t has a hostile neighbour, else 0"),
    Feature("continent_value", "reinforce",
            "B(c) / (size(c) * border territories(c)), divided by its maximum over continents"),
    Feature("enemy_strength", "reinforce",
            "E / (E + a(t)), E = largest hostile neighbour army (0 if none)"),
    Feature("mission", "reinforce",
            "mission value of t: in a mission continent, <2 armies for 18x2, borders the "
            "colour to destroy (0 without missions)"),
)

ATTACK: tuple[Feature, ...] = (
    Feature("win_prob", "attack",
            "exact P(conquer t from s attacking until won or down to 1 army), Markov table"),
    Feature("armies_ratio", "attack", "a(s) / (a(s) + a(t))"),
    Feature("completes_continent", "attack", "B(c(t))/Bmax if t is the last of c(t) p lacks"),
    Feature("breaks_continent", "attack", "B(c(t))/Bmax if t's owner holds all of c(t)"),
    Feature("target_share", "attack", "territories of t's owner / all territories"),
    Feature("eliminates", "attack", "1 if t is its owner's last territory (its cards come too)"),
    Feature("first_conquest", "attack", "1 if p has not conquered this turn (earns a card)"),
    Feature("exposure", "attack", "neighbours of t not owned by p / |N(t)|"),
    Feature("mission", "attack",
            "mission value of t: in a mission continent, any conquest for 18/24 territories, "
            "owned by the colour to destroy (0 without missions)"),
)

FORTIFY: tuple[Feature, ...] = (
    Feature("threat_gain", "fortify",
            "army vantage of b minus army vantage of a (moving armies towards threat)"),
    Feature("interior_source", "fortify", "1 if a has no hostile neighbour"),
    Feature("movable", "fortify", "(a(a) - 1) / (a(a) - 1 + a(b)): share of b after the move"),
    Feature("dest_border", "fortify", "1 if b has a hostile neighbour"),
)

FEATURES: tuple[Feature, ...] = REINFORCE + ATTACK + FORTIFY

# Kernel indices (must follow the tuples above; tests check this).
RF_ARMY_VANTAGE, RF_TERR_VANTAGE, RF_CONT_SHARE, RF_CONT_BONUS = 0, 1, 2, 3
RF_BORDER, RF_CONT_VALUE, RF_ENEMY, RF_MISSION = 4, 5, 6, 7
AF_WIN, AF_RATIO, AF_COMPLETES, AF_BREAKS, AF_SHARE = 0, 1, 2, 3, 4
AF_ELIM, AF_FIRST, AF_EXPOSURE, AF_MISSION = 5, 6, 7, 8
FF_GAIN, FF_INTERIOR, FF_MOVABLE, FF_DEST_BORDER = 0, 1, 2, 3
NR, NA, NF = len(REINFORCE), len(ATTACK), len(FORTIFY)

# Gene offsets in the genome vector (see features.genome for ranges and meaning).
G_REINFORCE = 0
G_ATTACK = G_REINFORCE + NR
G_ATTACK_THRESHOLD = G_ATTACK + NA
G_FORTIFY = G_ATTACK_THRESHOLD + 1
G_FORTIFY_THRESHOLD = G_FORTIFY + NF
G_FORTIFY_SHARE = G_FORTIFY_THRESHOLD + 1
G_OCCUPY_SHARE = G_FORTIFY_SHARE + 1
G_OCCUPY_THREAT = G_OCCUPY_SHARE + 1
G_TRADE_AT = G_OCCUPY_THREAT + 1
N_GENES = G_TRADE_AT + 1

# Armies at which an optional card set is always worth trading when `cards.trade_at` is 1.
TRADE_SCALE = 20.0
