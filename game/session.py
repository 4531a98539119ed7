"""The one game loop of every Python game: `play_game`, the environments and the web game
drive a `Session`.

A session deals a game (`reset`), is told who answers for each player (`seat`: a player, or
None for a seat its holder answers through `apply`, such as an environment's learner or the
web page's person), and `run` lets the seated players answer until a holder's seat is to
move, the game ends or the driver's limit is reached. The generators come from
`game.referee.game_rngs`, the deal from `kernel.setup`, every action goes through the same
bound `kernel.step`, and the transcript is `game.record.transcript.Transcript`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from game.actions import Action
from game.decision import Decision
from game.forfeit import StandIn, reason_of
from game.map import Map
from game.protocol import IllegalActionError, Player
from game.record.transcript import Transcript
from game.referee import Questions, Seed, as_action, checked_action, entry_of, game_rngs
from game.rules import kernel
from game.rules import layout as L
from game.rules.jit import RngBox, bind
from game.rules.queries import standing
from game.state import Rules, State
from game.view import GameView

Observer = Callable[[State, int, Action], None]
Entry = Callable[[GameView, Decision], object]


def label_of(player: Player | None) -> str:
    """What a player is, for the transcript: its `name` (a bot's), else its class's name."""
    if player is None:
        return "holder"
    name = getattr(player, "name", None)
    return name if isinstance(name, str) and name else type(player).__name__


class Session:
    """A game between `n_players` players (player i is the i-th agent; seats are drawn)."""

    def __init__(self, m: Map, rules: Rules, n_players: int, *, transcript: bool = False,
                 full_access: Sequence[bool] | None = None) -> None:
        rules.check(m, n_players)
        self.map, self.rules, self.n_players = m, rules, n_players
        self.rules_vector = rules.vector()
        self.record = transcript
        self.access = self._access(full_access)
        self.state = State.empty(m, n_players)
        self.seats: tuple[int, ...] = tuple(range(n_players))  # seats[seat] = player
        self.seat_of: list[int] = list(range(n_players))  # seat_of[player] = seat
        self.views: list[GameView] = []  # by player
        self.player_rngs: list[np.random.Generator] = []
        self.log: Transcript | None = None
        self._final: tuple[str, ...] | None = None
        self.steps = 0
        self.players: list[Player | None] = [None] * n_players  # who answers, by player
        self._acts: list[Entry | None] = [None] * n_players
        self._forfeits = False
        self.forfeited: dict[int, str] = {}  # player -> reason, in forfeit order

    def _access(self, flags: Sequence[bool] | None) -> list[bool]:
        n = self.n_players
        access = [True] * n if flags is None else [bool(x) for x in flags]
        if len(access) != n:
            raise ValueError(f"full_access needs one flag per player ({n}), got {len(access)}")
        return access

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
        self.players = [None] * n
        self._acts = [None] * n
        self.forfeited = {}

    def seat(self, players: Sequence[Player | None], *, full_access: Sequence[bool] | None = None,
             forfeits: bool = False, labels: Sequence[str] | None = None) -> None:
        """Who answers for each player of the dealt game (None: the holder answers through
        `apply`); each player's `start_game` is called, in seat order.

        `labels` (per player) name them in the transcript (default: `label_of` each player).
        `full_access` (per player) replaces the doors given at construction. `forfeits` True:
        a player that raises or answers illegally forfeits (game.forfeit) and `StandIn` plays
        its seat from then on; `forfeited` says who and why. Otherwise the error propagates.
        """
        n = self.n_players
        if len(players) != n:
            raise ValueError(f"seat needs one player (or None) per player ({n}), "
                             f"got {len(players)}")
        if full_access is not None:
            self.access = self._access(full_access)
            self.views = [GameView(self.state, self.map, self.rules, self.seat_of[p],
                                   self.access[p]) for p in range(n)]
        self.players = list(players)
        self._forfeits = forfeits
        if self.log is not None:
            names = [label_of(q) for q in players] if labels is None else list(labels)
            if len(names) != n:
                raise ValueError(f"labels needs one label per player ({n}), got {len(names)}")
            self.log.name_players(names)
        for p in self.seats:
            player = players[p]
            if player is None:
                continue
            try:
                player.start_game(self.views[p], self.player_rngs[p])
            except Exception as e:
                if not forfeits:
                    raise
                self.forfeited[p] = f"start_game: {reason_of(e)}"
        # Each player's entry point, looked up once (a six-method bot without `act` is asked
        # by name).
        self._acts = [None if q is None else entry_of(StandIn() if p in self.forfeited else q)
                      for p, q in enumerate(players)]

    def run(self, max_steps: int | None = None, *, until: Callable[[], bool] | None = None,
            observer: Observer | None = None) -> int:
        """Let the seated players answer until the game is over, a seat without a player is
        to move, `until()` holds before a step, or `max_steps` were taken; the steps taken.

        `observer(state, seat, action)`, if given, sees the whole (read-only) state after every
        applied action: a referee's view for diagnostics, never given to a player. A refused
        action raises IllegalActionError whose `rule` is the kernel's text (unless forfeits).
        """
        sc, questions, step, log = self.state.sc, self._questions, self._step, self.log
        seats, views, acts = self.seats, self.views, self._acts
        referee = self.state.readonly() if observer is not None else self.state
        limit = -1 if max_steps is None else max_steps
        done = 0
        try:
            while done != limit and sc.item(L.S_PHASE) != L.PH_OVER:
                seat, round_ = sc.item(L.S_CURRENT), sc.item(L.S_ROUND)
                p = seats[seat]
                act = acts[p]
                if act is None or (until is not None and until()):
                    break
                d = questions.decision()
                try:
                    action = as_action(d, act(views[p], d))
                    err = step(*checked_action(action))
                    if err:
                        rule = str(L.ERROR_TEXT[err])
                        raise IllegalActionError(
                            f"player {p} (seat {seat}, {self.players[p]!r}): "
                            f"{action.text(self.map)}: {rule}", rule=rule)
                except Exception as e:
                    if not self._forfeits or p in self.forfeited:
                        raise
                    # The state is unchanged: the stand-in answers the same decision.
                    self.forfeited[p] = f"round {round_}, {d.text()}: {reason_of(e)}"
                    acts[p] = entry_of(StandIn())
                    continue
                done += 1
                if log is not None:
                    log.record(seat, action, round_)
                if observer is not None:
                    observer(referee, seat, action)
        finally:
            self.steps += done  # counted once, also when an error ends the run
        return done

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


__all__ = ["Observer", "Session", "label_of"]
