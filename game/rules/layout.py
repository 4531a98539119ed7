"""Integer layout of the arrays the compiled kernels take, and the rule numbers they use.

Kernels import this module as one namespace (`from game.rules import layout as L`). The board is a
`MapArrays` (`Map.kernel`) and the mutable state a `StateArrays` (`State.kernel`), named tuples
of small numpy arrays that numba compiles like plain tuples:

- ``owner``  int32[T]: seat owning each territory.
- ``armies`` int32[T]: armies on each territory.
- ``cards``  int32[T + N_WILDS]: where each card is (a seat, ``CARD_DECK`` or ``CARD_DISCARD``).
  Card ``i < T`` shows territory ``i``; the last ``N_WILDS`` show none. Kinds come from the
  board (``MapArrays.card_kind``).
- ``pl``     int32[P, N_PL]: per-seat fields, indexed by the ``P_*`` constants.
- ``sc``     int32[N_SC]: game scalars, indexed by the ``S_*`` constants.
- ``ev``     int32[N_EV]: what the last action caused (dice, losses, set value, card drawn),
  indexed by the ``EV_*`` constants. It is not part of the position: `State.__eq__` ignores it.

Rules are an int32[N_RULES] vector indexed by the ``R_*`` constants.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class MapArrays(NamedTuple):
    """The board as the kernels take it (`Map.kernel`); every array is read-only."""

    continent_of: np.ndarray  # int32[T]
    bonus: np.ndarray  # int32[C]
    adjacency: np.ndarray  # bool[T, T]
    neighbours: np.ndarray  # int32[T, max degree], -1 padded
    degree: np.ndarray  # int32[T]
    continent_size: np.ndarray  # int32[C]
    mission_continents: np.ndarray  # int32[6, 2]: continents the missions name, -1 if absent
    card_kind: np.ndarray  # int32[T + N_WILDS]: INFANTRY, CAVALRY, ARTILLERY or WILD per card


class StateArrays(NamedTuple):
    """The mutable state as the kernels take it (`State.kernel`)."""

    owner: np.ndarray  # int32[T]
    armies: np.ndarray  # int32[T]
    cards: np.ndarray  # int32[T + N_WILDS]
    pl: np.ndarray  # int32[P, N_PL]
    sc: np.ndarray  # int32[N_SC]
    ev: np.ndarray  # int32[N_EV]

# Card kinds and locations.
INFANTRY, CAVALRY, ARTILLERY, WILD = 0, 1, 2, 3
KIND_NAMES = ("infantry", "cavalry", "artillery", "wild")
N_KINDS = 3  # kinds a territory card can have; the classic deck gives card i kind i % N_KINDS
N_WILDS = 2
CARD_DECK = -1
CARD_DISCARD = -2

# Phases: what the current seat is asked next.
PH_SETUP = 0  # place one initial army
PH_TRADE = 1  # trade a card set or stop trading
PH_REINFORCE = 2  # place reinforcements
PH_ATTACK = 3  # roll once or stop attacking
PH_OCCUPY = 4  # choose how many armies move into a conquered territory
PH_FORTIFY = 5  # one fortify move or skip
PH_OVER = 6
PHASE_NAMES = ("setup", "trade", "reinforce", "attack", "occupy", "fortify", "over")
# The same phases as a person reads them (the web page's status line).
PHASE_LABELS = ("initial placement", "trade cards", "reinforce", "attack", "move in", "fortify",
                "game over")

# Action kinds: (kind, a, b, c) int tuples in the kernels.
A_PLACE = 0  # a=territory, b=count
A_TRADE = 1  # a, b, c = card ids
A_END_TRADE = 2
A_ATTACK = 3  # a=from, b=to, c=attacker dice (0 = as many as allowed)
A_STOP = 4  # stop attacking
A_MOVE = 5  # a=armies moved into the conquered territory
A_FORTIFY = 6  # a=from, b=to, c=armies
A_SKIP = 7  # skip fortify

# Error codes returned by kernel.step; 0 means the action was applied.
E_OK = 0
E_PHASE = 1
E_TERRITORY = 2
E_NOT_OWNER = 3
E_COUNT = 4
E_NOT_ADJACENT = 5
E_OWN_TARGET = 6
E_TOO_FEW = 7
E_DICE = 8
E_CARD = 9
E_NOT_SET = 10
E_COMPULSORY = 11
E_MOVE_BOUNDS = 12
E_NOT_CONNECTED = 13
E_OVER = 14
ERROR_TEXT = {
    E_PHASE: "that action is not allowed in this phase",
    E_TERRITORY: "no such territory",
    E_NOT_OWNER: "the territory is not yours",
    E_COUNT: "army count out of range",
    E_NOT_ADJACENT: "the territories do not share a border",
    E_OWN_TARGET: "cannot attack your own territory",
    E_TOO_FEW: "attacking needs at least 2 armies in the source territory",
    E_DICE: "attacker dice must be 1..min(3, armies - 1)",
    E_CARD: "cards must be three different cards from your own hand",
    E_NOT_SET: "not a set: three of a kind or one of each (wilds stand for any)",
    E_COMPULSORY: "trading is compulsory with this many cards",
    E_MOVE_BOUNDS: "move-in must be between the dice rolled and armies - 1",
    E_NOT_CONNECTED: "fortify needs a border (or, with path fortify, a chain of own territories)",
    E_OVER: "the game is over",
}

# Per-seat fields (pl[:, P_*]).
P_ALIVE = 0
P_MISSION = 1  # mission id, -1 without missions
P_TARGET = 2  # seat to destroy for destroy-colour missions, else -1
P_ELIM_ORDER = 3  # 0 while alive; k when k-th to be eliminated
P_SETUP_LEFT = 4  # initial armies still to place
P_CONQUESTS = 5
P_ELIMINATIONS = 6
P_RECEIVED = 7  # every army ever placed for this seat (initial, reinforcement, cards)
P_LOST = 8  # armies lost in battle
N_PL = 9

# Scalars (sc[S_*]).
S_PHASE = 0
S_CURRENT = 1
S_ROUND = 2  # 1-based once the first turn starts; 0 during setup
S_POOL = 3  # armies left to place this phase
S_CONQUERED = 4  # conquered a territory this turn
S_BONUS_USED = 5  # +2 territory-card bonus used this turn
S_SRC = 6  # occupy: from
S_DST = 7  # occupy: to
S_MIN_MOVE = 8  # occupy: dice rolled
S_TRADES = 9  # sets traded so far (shared counter)
S_N_ELIM = 10  # players eliminated so far
S_WINNER = 11  # -1 until somebody wins
S_CAPPED = 12
S_IN_ATTACK = 13  # trade/reinforce forced by an elimination mid-attack
# While the move-in is pending, the seat that conquest eliminated (else -1): it decides whether
# the move-in leads to a forced trade, so it belongs to the position, not to the events.
S_ELIMINATED = 14
S_TURNS = 15  # turns started
N_SC = 16

# Events (ev[EV_*]): what the last action caused, for transcripts and observers.
EV_ROLL = 0  # last roll: attacker dice at EV_ROLL..+2, defender at +3..+4 (0 = unused)
EV_LOSS_A = 5  # last roll: attacker losses
EV_LOSS_D = 6  # last roll: defender losses
EV_TRADE_ARMIES = 7  # armies from the last trade (set value)
EV_BONUS_T = 8  # territory that got the last card bonus, else -1
EV_DRAWN = 9  # card drawn at the end of the last turn, else -1
N_EV = 10

# Rules vector.
R_MISSIONS = 0
R_FIXED_CARDS = 1
R_PATH_FORTIFY = 2
R_CAP = 3
R_BONUS_EVERY_SET = 4  # 1: the +2 territory bonus on every traded set, not once per turn
R_TRADE_AT = 5  # hand size that must trade (TRADE_COMPULSORY by default)
N_RULES = 6

# Missions: 0..7 fixed, 8.. destroy colour (seat) k = id - 8.
M_ASIA_SAM = 0
M_ASIA_AFR = 1
M_NAM_AFR = 2
M_NAM_AUS = 3
M_EUR_SAM_ANY = 4
M_EUR_AUS_ANY = 5
M_18_TWO = 6
M_24 = 7
M_DESTROY = 8
N_MISSIONS = 14
MISSION_CONTINENTS = (
    ("Asia", "South America"),
    ("Asia", "Africa"),
    ("North America", "Africa"),
    ("North America", "Australia"),
    ("Europe", "South America"),
    ("Europe", "Australia"),
)

MISSION_TERRITORIES = 18  # M_18_TWO: 18 territories ...
MISSION_ARMIES = 2  # ... with at least 2 armies each
MISSION_ALL_TERRITORIES = 24  # M_24, and destroy-colour missions that fell through
MISSION_CONTINENTS_ANY = 3  # M_EUR_*_ANY: the two named continents plus a third

# Rule numbers.
STARTING_ARMIES = (0, 0, 40, 35, 30, 25, 20)  # by number of players (2..6)
MIN_REINFORCEMENTS = 3  # reinforcements: max(MIN_REINFORCEMENTS, territories // ...)
TERRITORIES_PER_ARMY = 3
DIE_FACES = 6
ATTACK_DICE = 3  # most dice an attacker rolls (and at most armies - 1)
DEFEND_DICE = 2  # most dice a defender rolls (and at most its armies)
SET_SIZE = 3  # cards per traded set
ESCALATING = (4, 6, 8, 10, 12, 15)  # set values by trades so far ...
ESCALATING_STEP = 5  # ... then this much more for each further set
FIXED_VALUES = (4, 6, 8, 10)  # 3 infantry, 3 cavalry, 3 artillery, one of each
CARD_BONUS = 2  # armies on an own territory shown by a traded card (once per turn)
TRADE_COMPULSORY = 5  # a hand this big must trade (at turn start or after an elimination)
TRADE_AFTER_ELIMINATION = 6  # cards taken on an elimination force trades mid-attack from here ...
TRADE_DOWN_TO = 4  # ... down to this many cards (both follow R_TRADE_AT: +1 and -1)
