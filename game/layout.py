"""Integer layout of the game state shared by the compiled kernels and the Python wrappers.

The mutable state is five numpy arrays so that numba kernels can take it directly:

- ``owner``  int32[T]: seat owning each territory.
- ``armies`` int32[T]: armies on each territory.
- ``cards``  int32[N_CARDS]: where each card is (a seat, ``CARD_DECK`` or ``CARD_DISCARD``).
  Card ``i < T`` shows territory ``i`` and has kind ``i % 3``; the last ``N_WILDS`` are wild.
- ``pl``     int32[P, N_PL]: per-seat fields, indexed by the ``P_*`` constants.
- ``sc``     int32[N_SC]: scalars, indexed by the ``S_*`` constants.

Rules are an int32[N_RULES] vector indexed by the ``R_*`` constants.
"""

from __future__ import annotations

# Card kinds and locations.
INFANTRY, CAVALRY, ARTILLERY, WILD = 0, 1, 2, 3
KIND_NAMES = ("infantry", "cavalry", "artillery", "wild")
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
S_ELIMINATED = 14  # seat eliminated by the last conquest, else -1
S_TURNS = 15  # turns started
S_ROLL = 16  # last roll: attacker dice at S_ROLL..S_ROLL+2, defender at +3..+4 (0 = unused)
S_LOSS_A = 21  # last roll: attacker losses
S_LOSS_D = 22  # last roll: defender losses
S_TRADE_ARMIES = 23  # armies from the last trade (set value)
S_BONUS_T = 24  # territory that got the last +2 card bonus, else -1
S_DRAWN = 25  # card drawn at the end of the last turn, else -1
N_SC = 26

# Rules vector.
R_MISSIONS = 0
R_FIXED_CARDS = 1
R_PATH_FORTIFY = 2
R_CAP = 3
N_RULES = 4

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

STARTING_ARMIES = (0, 0, 40, 35, 30, 25, 20)  # by number of players (2..6)
ESCALATING = (4, 6, 8, 10, 12, 15)  # then +5 each
FIXED_VALUES = (4, 6, 8, 10)  # 3 infantry, 3 cavalry, 3 artillery, one of each
