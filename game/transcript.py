"""Compact text log of a game: one line per decision plus the chance outcomes it caused."""

from __future__ import annotations

import numpy as np

from game import kernel
from game.actions import Action, Attack, Trade
from game.layout import (
    P_ALIVE,
    PH_OCCUPY,
    PH_OVER,
    S_BONUS_T,
    S_CAPPED,
    S_DRAWN,
    S_DST,
    S_LOSS_A,
    S_LOSS_D,
    S_ROLL,
    S_ROUND,
    S_TRADE_ARMIES,
    S_TURNS,
)
from game.map import Map
from game.state import Rules, State

FORMAT = "riskevo-transcript 1"


class Transcript:
    """Collects transcript lines while a game is played (lines start 'r<round> s<seat>')."""

    def __init__(self, m: Map, rules: Rules, state: State, seats: tuple[int, ...]) -> None:
        self.m, self.state, self.rules_cap = m, state, rules.cap
        self.lines = [
            FORMAT,
            f"map {m.name}",
            f"rules missions={int(rules.missions)} fixed_cards={int(rules.fixed_cards)} "
            f"path_fortify={int(rules.path_fortify)} cap={rules.cap}",
            "seats " + " ".join(str(p) for p in seats),
            "deal " + " ".join(str(int(o)) for o in state.owner),
        ]
        for seat in range(state.n_players):
            mid, target = state.mission(seat)
            if mid >= 0:
                self.lines.append(f"mission s{seat} {mid} {target}")
        self._alive = state.pl[:, P_ALIVE].copy()
        self._turns = int(state.sc[S_TURNS])

    def _name(self, t: int) -> str:
        return self.m.territories[t].replace(" ", "_")

    def record(self, seat: int, action: Action) -> None:
        """Log one applied action of `seat` and what it caused."""
        st, sc = self.state, self.state.sc
        head = f"r{int(sc[S_ROUND]) if st.phase != PH_OVER else '-'} s{seat}"
        line = f"{head} {action.text(self.m)}"
        if isinstance(action, Trade):
            line += f" = {int(sc[S_TRADE_ARMIES])}"
            if int(sc[S_BONUS_T]) >= 0:
                line += f" bonus {self._name(int(sc[S_BONUS_T]))}"
        elif isinstance(action, Attack):
            att = " ".join(str(int(d)) for d in sc[S_ROLL:S_ROLL + 3] if d)
            dfn = " ".join(str(int(d)) for d in sc[S_ROLL + 3:S_ROLL + 5] if d)
            line += f" = {att} v {dfn} -{int(sc[S_LOSS_A])} -{int(sc[S_LOSS_D])}"
            if int(st.owner[action.dst]) == seat:
                line += " conquers"
                if st.phase != PH_OCCUPY and int(sc[S_DST]) == action.dst:
                    line += f" moves {int(st.armies[action.dst])}"
        self.lines.append(line)
        alive = st.pl[:, P_ALIVE]
        for q in np.flatnonzero(self._alive != alive):
            self.lines.append(f"{head} eliminates s{int(q)}")
        self._alive = alive.copy()
        turns = int(sc[S_TURNS])
        if turns != self._turns or sc[S_CAPPED]:
            # The turn ended: S_DRAWN is the card it earned (stale otherwise).
            drawn = int(sc[S_DRAWN])
            if drawn >= 0:
                self.lines.append(f"{head} card {drawn}")
            self._turns = turns

    def finish(self) -> tuple[str, ...]:
        """Close the log with the result line."""
        st = self.state
        places = " ".join(str(int(p)) for p in kernel.placements(st.kernel))
        rounds = min(int(st.sc[S_ROUND]), int(self.rules_cap))
        self.lines.append(f"end rounds={rounds} winner={st.winner} "
                          f"capped={int(st.sc[S_CAPPED])} places {places}")
        return tuple(self.lines)
