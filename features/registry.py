"""Feature registry: every feature's name, the rank it serves and its formula, in kernel order.

The compiled kernels (`features.kernels`) fill feature vectors in exactly this order; the
integer constants below are the indices they use. Notation: p is the deciding seat, t a
territory, a(t) its armies, H(t) the armies on neighbours of t not owned by p, N(t) the
neighbours of t, c(t) its continent, B(c) the continent bonus and Bmax the largest bonus.
Player-level terms (S(q) strength, inc(q) income, the leader, pressure, hand(q)) are defined in
`features.players`; G(t) = max(2, E(t)) is the garrison t needs against its largest hostile
neighbour army E(t). Every feature lies in [0, 1] except `fortify.threat_gain` in [-1, 1].

Version 2 added need-based reinforcement, player-level and card features, the attack threshold
terms and the card-trade rank; a version-1 genome maps onto it with the new genes at 0, where
the player plays exactly as before (`features.genome.upgrade_genes`). Version 3 added the
attack rank's continent terms (`attack.continent_share`, `attack.continent_value`): until then
only the last territory of a continent (`completes_continent`) drew an attack, so the player
could not prefer the continent it was building; version-1 and -2 files upgrade the same way.
Version 4 added the continent plan (`reinforce.plan_need`, `attack.plan`): the armies a sweep of
a continent costs, so the player can place what a plan needs and attack while its stack covers it.
Version 5 added the elimination plan (`reinforce.elim_need`, `attack.elim_plan`): the same cost
view of a whole opponent, whose elimination removes a rival and takes its cards.
Version 6 added the garrison terms (`fortify.dest_need`, `fortify.dest_guard`, `occupy.guard`,
`occupy.continent_guard`, `attack.threshold_thin`): what a border or a held continent still
lacks, what a source must keep behind after a conquest, and how thin the empire has grown, so
the player can weigh garrisons against advance.
"""

from __future__ import annotations

from dataclasses import dataclass

FEATURE_SET_VERSION = 6


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


# Continent terms both ranks use, of t's continent c = c(t) (the kernels compute them alike).
CONT_SHARE = "territories of c(t) owned by p / size of c(t)"
CONT_VALUE = "B(c) / (size(c) * border territories(c)), divided by its maximum over continents"
# The continent plan: K(c) = 1 + sum over enemy territories u of c of (a(u) + 1), the armies one
# stack needs to sweep c (about one loss per defender, one army left on each conquest and the
# source). The stager of c is p's territory with most armies next to an enemy territory of c.
PLAN = ("t is the stager of c, K(c) - a(t) <= armies p has to place, best B(c)/K(c) of those")
# The elimination plan: the same with a living opponent q for c, K(q) = 1 + sum over q's
# territories u of (a(u) + 1), and v(q) = (1 + min(hand(q), F)) / (1 + F) for B(c)/Bmax, F =
# rules.trade_at (the hand that must trade, 5 by default): an elimination removes a rival and
# takes its cards, worth more the more it holds.
ELIM = ("t is the stager of q, K(q) - a(t) <= armies p has to place, best v(q)/K(q) of those")

REINFORCE: tuple[Feature, ...] = (
    Feature("army_vantage", "reinforce", "H(t) / (H(t) + a(t)): hostile armies around t"),
    Feature("territory_vantage", "reinforce", "hostile neighbours of t / |N(t)|"),
    Feature("continent_share", "reinforce", CONT_SHARE),
    Feature("continent_bonus", "reinforce",
            "B(c)/Bmax if p holds c(t) or every missing territory of c(t) borders t, else 0"),
    Feature("border", "reinforce", "1 if t has a hostile neighbour, else 0"),
    Feature("continent_value", "reinforce", CONT_VALUE),
    Feature("enemy_strength", "reinforce",
            "E / (E + a(t)), E = largest hostile neighbour army (0 if none)"),
    Feature("mission", "reinforce",
            "mission value of t: in a mission continent, <2 armies for 18x2, borders the "
            "colour to destroy (0 without missions)"),
    Feature("need", "reinforce",
            "max(0, G(t) - a(t)) / G(t) if t has a hostile neighbour, else 0: armies t still "
            "needs, falling with every army placed"),
    Feature("guard_need", "reinforce",
            "need(t) * B(c(t))/Bmax if p holds all of c(t): a held continent's short border"),
    Feature("leader_adjacent", "reinforce",
            "S(leader) if t borders a territory of the leader, else 0"),
    Feature("plan_need", "reinforce",
            f"B(c)/Bmax * max(0, K(c) - a(t)) / K(c) for the plan c of t ({PLAN}), else 0"),
    Feature("elim_need", "reinforce",
            f"v(q) * max(0, K(q) - a(t)) / K(q) for the victim q of t ({ELIM}), else 0"),
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
    Feature("target_strength", "attack", "S(q), q the owner of t: gang up on the strong"),
    Feature("breaks_leader", "attack",
            "B(c(t))/Bmax if q is the leader and holds all of c(t)"),
    Feature("target_cards", "attack", "min(1, hand(q) / rules.trade_at): cards of t's owner"),
    Feature("elim_cards", "attack",
            "min(1, hand(q) / rules.trade_at) if t is q's last territory: the cards an "
            "elimination takes"),
    Feature("left_behind", "attack",
            "H'(s) / (H'(s) + a(s)), H' = hostile armies next to s except t's"),
    Feature("source_guard", "attack",
            "B(c(s))/Bmax if p holds all of c(s) and s borders an enemy: a garrison leaves"),
    Feature("continent_share", "attack", f"{CONT_SHARE}: build the continent being taken"),
    Feature("continent_value", "attack", f"{CONT_VALUE}: prefer the cheap-to-hold ones"),
    Feature("plan", "attack", "B(c(t))/Bmax if a(s) >= K(c(t)): the source's stack can sweep "
            "the rest of t's continent"),
    Feature("elim_plan", "attack", "v(q) if a(s) >= K(q), q the owner of t: the source's stack "
            "can take every territory q has"),
)

FORTIFY: tuple[Feature, ...] = (
    Feature("threat_gain", "fortify",
            "army vantage of b minus army vantage of a (moving armies towards threat)"),
    Feature("interior_source", "fortify", "1 if a has no hostile neighbour"),
    Feature("movable", "fortify", "(a(a) - 1) / (a(a) - 1 + a(b)): share of b after the move"),
    Feature("dest_border", "fortify", "1 if b has a hostile neighbour"),
    Feature("dest_need", "fortify",
            "need(b) = max(0, G(b) - a(b)) / G(b) if b has a hostile neighbour, else 0: the "
            "garrison b still lacks"),
    Feature("dest_guard", "fortify",
            "need(b) * B(c(b))/Bmax if p holds all of c(b): a held continent's short border"),
)

FEATURES: tuple[Feature, ...] = REINFORCE + ATTACK + FORTIFY

# Kernel indices (must follow the tuples above; tests check this).
RF_ARMY_VANTAGE, RF_TERR_VANTAGE, RF_CONT_SHARE, RF_CONT_BONUS = 0, 1, 2, 3
RF_BORDER, RF_CONT_VALUE, RF_ENEMY, RF_MISSION = 4, 5, 6, 7
RF_NEED, RF_GUARD_NEED, RF_LEADER, RF_PLAN_NEED, RF_ELIM_NEED = 8, 9, 10, 11, 12
AF_WIN, AF_RATIO, AF_COMPLETES, AF_BREAKS, AF_SHARE = 0, 1, 2, 3, 4
AF_ELIM, AF_FIRST, AF_EXPOSURE, AF_MISSION = 5, 6, 7, 8
AF_STRENGTH, AF_BREAKS_LEADER, AF_TARGET_CARDS, AF_ELIM_CARDS = 9, 10, 11, 12
AF_LEFT_BEHIND, AF_SOURCE_GUARD, AF_CONT_SHARE, AF_CONT_VALUE, AF_PLAN = 13, 14, 15, 16, 17
AF_ELIM_PLAN = 18
FF_GAIN, FF_INTERIOR, FF_MOVABLE, FF_DEST_BORDER, FF_DEST_NEED, FF_DEST_GUARD = 0, 1, 2, 3, 4, 5
NR, NA, NF = len(REINFORCE), len(ATTACK), len(FORTIFY)

# Gene offsets in the genome vector (see features.genome for ranges and meaning).
G_REINFORCE = 0
G_ATTACK = G_REINFORCE + NR
G_ATTACK_THRESHOLD = G_ATTACK + NA
# Threshold terms: attack while best rank > threshold + sum of gene * term (once per decision).
G_THRESHOLD_TERMS = G_ATTACK_THRESHOLD + 1
TH_PRESSURE, TH_CARDS, TH_CONQUERED, TH_THIN = 0, 1, 2, 3
N_THRESHOLD_TERMS = 4
G_FORTIFY = G_THRESHOLD_TERMS + N_THRESHOLD_TERMS
G_FORTIFY_THRESHOLD = G_FORTIFY + NF
G_FORTIFY_SHARE = G_FORTIFY_THRESHOLD + 1
G_OCCUPY_SHARE = G_FORTIFY_SHARE + 1
G_OCCUPY_THREAT = G_OCCUPY_SHARE + 1
# Move-in terms added to the occupy fraction (version 6): the source's garrison.
G_OCCUPY_GUARD = G_OCCUPY_THREAT + 1
G_OCCUPY_CONT_GUARD = G_OCCUPY_GUARD + 1
G_TRADE_AT = G_OCCUPY_CONT_GUARD + 1
# Card-trade rank: trade an optional set worth v when v >= TRADE_SCALE * (trade_at - rank terms).
G_TRADE_TERMS = G_TRADE_AT + 1
CT_INCOME, CT_PRESSURE, CT_CONTINENT, CT_FORCED = 0, 1, 2, 3
N_TRADE_TERMS = 4
N_GENES = G_TRADE_TERMS + N_TRADE_TERMS

# Armies at which an optional card set is always worth trading when `cards.trade_at` is 1.
TRADE_SCALE = 20.0
