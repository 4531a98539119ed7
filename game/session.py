"""One game stepped one decision at a time: the loop of `game.engine.play_game` turned inside
out, so that whoever holds the game (an environment, the web page's person) answers each
decision when asked.

The same (board, rules, seat count, seed) deals the same game as `play_game`: the generators
come from `game.engine.game_rngs`, the deal from `kernel.setup`, every action goes through the
same bound `kernel.step`, and the transcript is the same `game.transcript.Transcript`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from game import kernel
from game import layout as L
from game.actions import Action
from game.decision import Decision
from game.engine import Questions, Seed, checked_action, game_rngs
from game.jit import RngBox, bind
from game.map import Map
from game.protocol import IllegalActionError
from game.queries import standing
from game.state import Rules, State
from game.transcript import Transcript
from game.view import GameView


class Session:
    """A game between `n_players` players (player i is the i-th agent; seats are drawn)."""

    def __init__(self, m: Map, rules: Rules, n_players: int, *, transcript: bool = False,
                 full_access: Sequence[bool] | None = None) -> None:
        rules.check(m, n_players)
        self.map, self.rules, self.n_players = m, rules, n_players
        self.rules_vector = rules.vector()
        self.record = transcript
        self.access = [True] * n_players if full_access is None else list(full_access)
        if len(self.access) != n_players:
            raise ValueError(f"full_access needs one flag per player ({n_players})")
        self.state = State.empty(m, n_players)
        self.seats: tuple[int, ...] = tuple(range(n_players))  # seats[seat] = player
        self.seat_of: list[int] = list(range(n_players))  # seat_of[player] = seat
        self.views: list[GameView] = []  # by player
        self.player_rngs: list[np.random.Generator] = []
        self.log: Transcript | None = None
        self._final: tuple[str, ...] | None = None
        self.steps = 0

    def reset(self, seed: Seed) -> None:
        """Deal a new game (as `play_game` would with this seed)."""
        n = self.n_players
        rng, self.player_rngs = game_rngs(seed, n)
        self.state = state = State.empty(self.map, n)
        mk, sk, rv = self.map.kernel, state.kernel, self.rules_vector
        self.seats = tuple(int(p) for p in kernel.setup(mk, sk, rv, rng))
        self.seat_of = [0] * n
        for seat, p in enumerate(self.seats):
            self.seat_of[p] = seat
        self.views = [GameView(state, self.map, self.rules, self.seat_of[p], self.access[p])
                      for p in range(n)]
        self.log = Transcript(self.map, self.rules, state, self.seats) if self.record else None
        self._final = None
        self._step = bind(kernel.step_boxed, mk, sk, rv, RngBox(rng), rest=(0, 0, 0, 0))
        self._questions = Questions(state, rv)
        self.steps = 0

    @property
    def over(self) -> bool:
        """True once the game has ended (won or capped)."""
        return int(self.state.sc[L.S_PHASE]) == L.PH_OVER

    @property
    def capped(self) -> bool:
        """True when the game stopped at the round cap."""
        return bool(self.state.sc[L.S_CAPPED])

    @property
    def current(self) -> int:
        """The player (not seat) to move."""
        return self.seats[int(self.state.sc[L.S_CURRENT])]

    def decision(self) -> Decision:
        """The question the player to move faces."""
        return self._questions.decision()

    def alive(self, player: int) -> bool:
        """True while the player has territories."""
        return bool(self.state.pl[self.seat_of[player], L.P_ALIVE])

    def apply(self, action: Action) -> None:
        """Apply the action of the player to move (IllegalActionError if the kernel refuses)."""
        seat = int(self.state.sc[L.S_CURRENT])
        err = self.try_apply(action)
        if err is not None:
            raise IllegalActionError(f"player {self.seats[seat]} (seat {seat}): "
                                     f"{action.text(self.map)}: {err}")

    def try_apply(self, action: Action) -> str | None:
        """Apply the action of the player to move; the rule's text when the kernel refuses it
        (the state then is unchanged), None when applied. IllegalActionError only for fields
        that are not whole numbers."""
        sc = self.state.sc
        seat, round_ = int(sc[L.S_CURRENT]), int(sc[L.S_ROUND])
        err = self._step(*checked_action(action))
        if err:
            return str(L.ERROR_TEXT[err])
        self.steps += 1
        if self.log is not None:
            self.log.record(seat, action, round_)
        return None

    def place_of(self, player: int) -> int:
        """An eliminated player's final place (n for the first one out, and so on up)."""
        order = int(self.state.pl[self.seat_of[player], L.P_ELIM_ORDER])
        return self.n_players - order + 1

    def placements(self) -> np.ndarray:
        """Places per player (1 = best) of the position (final once the game is over)."""
        return standing(self.state.kernel, self.seats, self.rules.cap).placements

    def transcript(self) -> tuple[str, ...]:
        """The transcript so far, closed with the result line once the game is over."""
        if self.log is None:
            raise ValueError("this session records no transcript (transcript=False)")
        if self.over:
            if self._final is None:
                self._final = self.log.finish()
            return self._final
        return tuple(self.log.lines)

    def render(self) -> str:
        """The position as text: round, phase, each territory's owner and armies, hands."""
        st, m = self.state, self.map
        if self.steps == 0 and not self.views:
            return "(no game: call reset)"
        phase = L.PHASE_NAMES[st.phase]
        head = f"round {st.round}  phase {phase}"
        if not self.over:
            head += f"  to move: player {self.current} ({self.decision().text()})"
        lines = [head]
        for c, name in enumerate(m.continents):
            cells = [f"{m.territories[t]}={self.seats[int(st.owner[t])]}:{int(st.armies[t])}"
                     for t in np.flatnonzero(m.continent_of == c)]
            lines.append(f"  {name}: " + ", ".join(cells))
        for p in range(self.n_players):
            seat = self.seat_of[p]
            mine = st.owner == seat
            alive = "alive" if self.alive(p) else "out"
            lines.append(f"  player {p} (seat {seat}, {alive}): {int(mine.sum())} territories, "
                         f"{int(st.armies[mine].sum())} armies, "
                         f"{int((st.cards == seat).sum())} cards")
        return "\n".join(lines)


__all__ = ["Session"]
