"""The genome: a named weight vector built from the feature registry (its file:
`features.botfile`).

Gene order: `reinforce.*`, `attack.*`, `attack.threshold`, `attack.threshold_*` (its terms),
`fortify.*`, `fortify.threshold`, `fortify.share`, `occupy.share`, `occupy.threat`,
`cards.trade_at`, `cards.*` (the trade-rank terms) (indices in `features.registry`, `G_*`).

Files of feature-set versions 1 to 5 load onto this layout with every gene added since at 0
(`upgrade_genes`): each new term then adds nothing, so the old player plays exactly as before.

Scale genes. A rank's choice (an argmax) does not change when all its weights are multiplied
by the same c > 0; against a threshold it does not change either when the threshold is scaled
too. So each rank's weight vector has one redundant degree of freedom, its length. As in the
seed blog, one weight per rank is restricted to -1 or +1 to remove it: `reinforce.army_vantage`,
`attack.win_prob` and `fortify.threat_gain`, because they are the features we expect every
useful player to weigh (threat decides where armies go, the odds decide attacks, the threat gap
decides moves), so pinning their size costs nothing while their sign stays free to evolve.
The pin stays: with `reinforce.army_vantage` free, evolution stacked a turn's armies just the
same and the champions were no stronger (docs/experiments/2026-11-25-free-scale-gene.md).

`low`/`high` are the initial (uniform) ranges; the evolution may leave them, except that scale
genes stay -1 or +1. `sigma` is a suggested Gaussian mutation step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from features.registry import (
    ATTACK,
    FEATURE_SET_VERSION,
    FEATURES,
    N_GENES,
    N_THRESHOLD_TERMS,
    N_TRADE_TERMS,
    TRADE_SCALE,
)
from game.atomic import MiB

FORMAT = "riskevo-genome"
UPGRADABLE = (1, 2, 3, 4, 5)  # older feature-set versions whose files load (`upgrade_genes`)
SCALE_GENES = ("reinforce.army_vantage", "attack.win_prob", "fortify.threat_gain")

MAX_GENOME_BYTES = 1 * MiB  # a bot/genome file (a few KB)


class GenomeError(ValueError):
    """A genome file or vector that does not fit the current gene layout."""


@dataclass(frozen=True)
class GenomeLayout:
    """Names, initial ranges, mutation steps, scale mask and meaning of every gene."""

    names: tuple[str, ...]
    low: np.ndarray  # float64[G] initial range
    high: np.ndarray  # float64[G]
    sigma: np.ndarray  # float64[G] suggested mutation step
    scale: np.ndarray  # bool[G]: restricted to -1 or +1
    docs: tuple[str, ...]
    version: int = FEATURE_SET_VERSION

    @property
    def size(self) -> int:
        """Number of genes."""
        return len(self.names)

    def index(self, name: str) -> int:
        """Position of a gene (GenomeError naming it if unknown)."""
        try:
            return self.names.index(name)
        except ValueError:
            raise GenomeError(f"unknown gene {name!r}") from None

    def rank(self, i: int) -> str:
        """The decision a gene belongs to: reinforce, attack, fortify, occupy or cards."""
        return self.names[i].split(".", 1)[0]

    def describe(self) -> list[dict[str, Any]]:
        """(name, rank, range, scale, meaning) per gene, e.g. for plot labels and docs."""
        return [
            {"name": n, "rank": self.rank(i), "low": float(self.low[i]),
             "high": float(self.high[i]), "scale": bool(self.scale[i]), "meaning": self.docs[i]}
            for i, n in enumerate(self.names)
        ]

    def as_dict(self, values: np.ndarray) -> dict[str, float]:
        """Gene name -> value."""
        v = self.check(values)
        return {n: float(v[i]) for i, n in enumerate(self.names)}

    def from_dict(self, genes: dict[str, Any]) -> np.ndarray:
        """Vector from gene name -> value; unknown, missing or non-finite gene is a GenomeError."""
        for k in genes:
            if k not in self.names:
                raise GenomeError(f"unknown gene {k!r} (feature set version {self.version})")
        out = np.zeros(self.size)
        for i, n in enumerate(self.names):
            if n not in genes:
                raise GenomeError(f"missing gene {n!r}")
            x = genes[n]
            if isinstance(x, bool) or not isinstance(x, int | float):
                raise GenomeError(f"gene {n!r} must be a number, got {x!r}")
            out[i] = float(x)
        return self.check(out)

    def check(self, values: np.ndarray) -> np.ndarray:
        """Validated float64 copy: right length, finite, scale genes exactly -1 or +1."""
        v = np.array(values, dtype=np.float64).reshape(-1)
        if v.shape != (self.size,):
            raise GenomeError(f"genome must have {self.size} genes, got {v.size}")
        for i in range(self.size):
            if not math.isfinite(v[i]):
                raise GenomeError(f"gene {self.names[i]!r} is not finite ({v[i]})")
            if self.scale[i] and v[i] not in (-1.0, 1.0):
                raise GenomeError(f"scale gene {self.names[i]!r} must be -1 or 1, got {v[i]}")
        return v


Row = tuple[str, float, float, bool, str]

# Terms added to attack.threshold, each gene times a value known once per decision.
THRESHOLD_TERMS: tuple[Row, ...] = (
    ("attack.threshold_pressure", -1.0, 1.0, False,
     "threshold term: pressure A / (A + D), the strongest opponent's attack potential against "
     "p's border armies"),
    ("attack.threshold_cards", -1.0, 1.0, False,
     "threshold term: min(1, own hand / rules.trade_at), the hand that must trade (5 by default)"),
    ("attack.threshold_conquered", -1.0, 1.0, False,
     "threshold term: 1 once p has conquered this turn (its card is earned)"),
    ("attack.threshold_thin", -1.0, 1.0, False,
     "threshold term: p's territories with 1 army and a hostile neighbour / p's territories"),
)
# Terms of the card-trade rank, each gene times a value of the best set or the position.
TRADE_TERMS: tuple[Row, ...] = (
    ("cards.income", -1.0, 1.0, False, "trade term: v / (v + inc(p)), the set against own income"),
    ("cards.pressure", -1.0, 1.0, False, "trade term: pressure A / (A + D) (as the threshold's)"),
    ("cards.continent", -1.0, 1.0, False,
     "trade term: largest B(c)/Bmax of a continent the armies would take (p has a foothold, "
     "enemy armies in c <= v) or hold (p holds c, a border short of G(t))"),
    ("cards.forced_next", -1.0, 1.0, False,
     "trade term: 1 if p holds rules.trade_at - 1 cards or more (4+ by default: one more card "
     "forces a trade)"),
)
if len(THRESHOLD_TERMS) != N_THRESHOLD_TERMS or len(TRADE_TERMS) != N_TRADE_TERMS:
    raise RuntimeError("threshold or trade terms do not match features.registry")

# Genes of feature-set version 1; later versions add genes and keep these names and meanings.
V1_NAMES: tuple[str, ...] = (
    "reinforce.army_vantage", "reinforce.territory_vantage", "reinforce.continent_share",
    "reinforce.continent_bonus", "reinforce.border", "reinforce.continent_value",
    "reinforce.enemy_strength", "reinforce.mission", "attack.win_prob", "attack.armies_ratio",
    "attack.completes_continent", "attack.breaks_continent", "attack.target_share",
    "attack.eliminates", "attack.first_conquest", "attack.exposure", "attack.mission",
    "attack.threshold", "fortify.threat_gain", "fortify.interior_source", "fortify.movable",
    "fortify.dest_border", "fortify.threshold", "fortify.share", "occupy.share",
    "occupy.threat", "cards.trade_at",
)


# Genes each later version added (the names of version k are the layout's minus those added
# after k).
ADDED: dict[int, tuple[str, ...]] = {3: ("attack.continent_share", "attack.continent_value"),
                                     4: ("reinforce.plan_need", "attack.plan"),
                                     5: ("reinforce.elim_need", "attack.elim_plan"),
                                     6: ("attack.threshold_thin", "fortify.dest_need",
                                         "fortify.dest_guard", "occupy.guard",
                                         "occupy.continent_guard")}


def _build() -> GenomeLayout:
    rows: list[Row] = []
    for f in FEATURES:
        rows.append((f.gene, -1.0, 1.0, f.gene in SCALE_GENES, f"weight of {f.doc}"))
        if f is ATTACK[-1]:
            rows.append(("attack.threshold", -1.0, 1.0, False,
                         "attack only while the best attack rank is above this plus the "
                         "threshold terms"))
            rows += THRESHOLD_TERMS
    rows += [
        ("fortify.threshold", -1.0, 1.0, False, "fortify only if the best fortify rank is above"),
        ("fortify.share", 0.0, 1.0, False,
         "share of movable armies a fortify moves from a source with enemy neighbours "
         "(an interior source moves all)"),
        ("occupy.share", 0.0, 1.0, False,
         "move-in = lo + round(f * (hi - lo)), f = clip(share + threat * (hd - hs) + the "
         "occupy guard terms, 0, 1)"),
        ("occupy.threat", -1.0, 1.0, False,
         "hd - hs: hostile-neighbour share of conquered minus source territory (see share)"),
        ("occupy.guard", -1.0, 1.0, False,
         "move-in term: E(s) / (E(s) + a(s)), E(s) the largest hostile army next to the source "
         "after the conquest (added to f, see share)"),
        ("occupy.continent_guard", -1.0, 1.0, False,
         "move-in term: B(c(s))/Bmax if p holds all of c(s) and s borders an enemy (added to f)"),
        ("cards.trade_at", 0.0, 1.5, False,
         f"trade an optional set only if worth >= {TRADE_SCALE:g} * (gene - trade terms) armies "
         "(incl. +2 bonus)"),
    ]
    rows += TRADE_TERMS
    names = tuple(r[0] for r in rows)
    if len(names) != N_GENES:
        raise RuntimeError(f"gene layout has {len(names)} genes, registry says {N_GENES}")
    low = np.array([r[1] for r in rows])
    high = np.array([r[2] for r in rows])
    scale = np.array([r[3] for r in rows], dtype=np.bool_)
    for a in (low, high, scale):
        a.flags.writeable = False
    sigma = 0.1 * (high - low)
    sigma.flags.writeable = False
    return GenomeLayout(names, low, high, sigma, scale, tuple(r[4] for r in rows))


LAYOUT = _build()


def version_names(version: int, layout: GenomeLayout = LAYOUT) -> tuple[str, ...]:
    """The gene names of an older feature-set version (1 to 5), in its order."""
    if version == 1:
        return V1_NAMES
    later = {n for v, names in ADDED.items() if v > version for n in names}
    return tuple(n for n in layout.names if n not in later)


# A sensible hand-set player (for benchmarks and as a baseline opponent): reinforce where the
# threat is, attack on good odds (more eagerly for the first card and continents), fortify
# towards threatened borders, move most armies in, always trade.
HAND_SET: dict[str, float] = {
    "reinforce.army_vantage": 1.0, "reinforce.territory_vantage": 0.3,
    "reinforce.continent_share": 0.5, "reinforce.continent_bonus": 0.5, "reinforce.border": 0.5,
    "reinforce.continent_value": 0.3, "reinforce.enemy_strength": 0.3, "reinforce.mission": 0.5,
    "attack.win_prob": 1.0, "attack.armies_ratio": 0.3, "attack.completes_continent": 0.5,
    "attack.breaks_continent": 0.3, "attack.target_share": 0.1, "attack.eliminates": 0.5,
    "attack.first_conquest": 0.3, "attack.exposure": -0.2, "attack.mission": 0.3,
    "attack.threshold": 0.85,
    "fortify.threat_gain": 1.0, "fortify.interior_source": 0.5, "fortify.movable": 0.3,
    "fortify.dest_border": 0.3, "fortify.threshold": 0.2, "fortify.share": 0.7,
    "occupy.share": 0.7, "occupy.threat": 0.5, "cards.trade_at": 0.0,
    # Version 2: fill the borders a continent needs first, mind the leader and the cards.
    "reinforce.need": 0.5, "reinforce.guard_need": 0.5, "reinforce.leader_adjacent": 0.1,
    "attack.target_strength": 0.1, "attack.breaks_leader": 0.2, "attack.target_cards": 0.0,
    "attack.elim_cards": 0.3, "attack.left_behind": -0.1, "attack.source_guard": -0.1,
    "attack.threshold_pressure": 0.1, "attack.threshold_cards": 0.0,
    "attack.threshold_conquered": 0.0, "cards.income": 0.0, "cards.pressure": 0.0,
    "cards.continent": 0.0, "cards.forced_next": 0.0,
    # Versions 3-6: 0, so the hand-set player (a benchmark and golden-test opponent) plays as
    # before.
    "attack.continent_share": 0.0, "attack.continent_value": 0.0,
    "reinforce.plan_need": 0.0, "attack.plan": 0.0,
    "reinforce.elim_need": 0.0, "attack.elim_plan": 0.0,
    "attack.threshold_thin": 0.0, "fortify.dest_need": 0.0, "fortify.dest_guard": 0.0,
    "occupy.guard": 0.0, "occupy.continent_guard": 0.0,
}


def hand_set_genome(layout: GenomeLayout | None = None) -> np.ndarray:
    """The HAND_SET genome as a vector."""
    return (layout or LAYOUT).from_dict(HAND_SET)


class GeneRanges(Protocol):
    """What a random genome is drawn from: a GenomeLayout, or evolve's plugin."""

    @property
    def low(self) -> np.ndarray: ...
    @property
    def high(self) -> np.ndarray: ...
    @property
    def scale(self) -> np.ndarray: ...


def random_genomes(layout: GeneRanges, n: int, rng: np.random.Generator) -> np.ndarray:
    """n genomes f64[n, G]: uniform in [low, high], scale genes -1 or +1 with equal odds (the
    one random start: tests, the bench and a run's first population)."""
    # Scale genes get a dummy [0, 1) range (their documented one may be unbounded): the same
    # draws, so the same genomes.
    scale = np.asarray(layout.scale, dtype=np.bool_)
    lo = np.where(scale, 0.0, layout.low)
    hi = np.where(scale, 1.0, layout.high)
    g = rng.uniform(lo, hi, size=(n, len(scale)))
    signs = np.where(rng.random((n, len(scale))) < 0.5, -1.0, 1.0)
    return np.where(scale, signs, g)


def upgrade_genes(genes: dict[str, Any], layout: GenomeLayout = LAYOUT,
                  version: int = 1) -> dict[str, Any]:
    """An older version's gene dict on this layout: every gene added since at 0 (plays the same)."""
    old = version_names(version, layout)
    for k in genes:
        if k not in old:
            raise GenomeError(f"unknown gene {k!r} (feature set version {version})")
    for n in old:
        if n not in genes:
            raise GenomeError(f"missing gene {n!r}")
    out = dict.fromkeys(layout.names, 0.0)
    out.update(genes)
    return out
