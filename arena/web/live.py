"""A game that stops for a person: bots move one decision at a time, one seat waits for a human.

`LiveGame` drives a `game.session.Session`, the loop `play_game` drives too: the bots are
seated in it and answer as in `play_game`, and the person's seat, seated with no player, is
where the session stops. The rule kernel's `step` is the only judge of an action (its error
text is the answer to an illegal one); a bot's fault plays the fallback answer instead. The
game keeps the same transcript (`game.record.transcript`), which `game.record.replay` turns back
into boards."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from arena.bots import close_bot
from arena.serve.answers import final_answer
from arena.web.people import seat_friends
from arena.web.seen import SeatView
from arena.wire.protocol import ProtocolError
from features.linear import LinearPlayer
from features.why import Why
from game.actions import Action, Attack, Place
from game.decision import Decision
from game.map import Map
from game.protocol import IllegalActionError, Player
from game.record.position import Positions
from game.rules import layout as L
from game.session import Session
from game.state import Rules

MAX_ROLLS = 1000  # one "attack until" request rolls at most this often


class ActionError(ValueError):
    """A person's action the rules refuse; the message is the rule's own text."""


@dataclass(frozen=True)
class Seat:
    """Who sits at a seat: a label and a bot, or the person (bot None)."""

    label: str
    bot: Player | None
    full_access: bool = False
    spec: str = ""  # the bot's spec (a bot file explains its decisions), "" for the person


class LiveGame(SeatView):
    """One game with people's seats (none, one or several); every method is safe to call from
    any thread. `human` is the first person's seat (who started it), `people` all of theirs;
    what a seat may see is `public(since, seat)`."""

    def __init__(self, m: Map, rules: Rules, players: Sequence[Seat], seed: int,
                 human_seat: int | None = None, more_seats: Sequence[int] = ()) -> None:
        n = len(players)
        self.m, self.rules, self.seed = m, rules, seed
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)  # notified under the lock after a move
        self.touched = time.monotonic()
        self.session = game = Session(m, rules, n, transcript=True)
        game.reset(seed)
        # order[j]: which of `players` plays as the session's player j (who sits at the seat
        # the deal drew for j); the person trades places with whoever the deal put at
        # `human_seat`.
        order = list(range(n))
        human = next((i for i, p in enumerate(players) if p.bot is None), None)
        if human is not None and human_seat is not None:
            if not 0 <= human_seat < n:
                raise ValueError(f"seat must be 0..{n - 1}, got {human_seat}")
            there = game.seats[human_seat]
            order[there], order[human] = order[human], order[there]
        seat_friends(order, game.seats, [p.bot for p in players], human_seat, more_seats)
        self.state = game.state
        by_player = [players[i] for i in order]
        self.players = [by_player[j] for j in game.seats]  # by seat
        self.labels = [p.label for p in self.players]
        self.people = [s for s, p in enumerate(self.players) if p.bot is None]
        self.human = next((s for s, p in enumerate(self.players)
                           if human is not None and p is players[human]), None)
        game.seat([p.bot for p in by_player], labels=[p.label for p in by_player],
                  full_access=[p.full_access or p.bot is None for p in by_player])
        self.views = [game.views[j] for j in game.seats]  # by seat
        # Each linear bot's decisions as it made them (`features.why.Why`), by the
        # index of the transcript line that records it: why? explains these, not a re-run.
        self.whys: dict[int, Why] = {}
        self.positions = Positions()  # the why?s' replay, kept as the game grows
        for p in self.players:
            if isinstance(p.bot, LinearPlayer):
                p.bot.on_why = self._keep_why
        self.notes = []  # (transcript line index, text) of bot faults
        self._logs = {}  # the log in words so far, by seat seeing it (`SeatView`)

    def _keep_why(self, why: Why) -> None:
        """A bot's record of the decision it just made: its line is the next one written."""
        log = self.session.log
        if log is not None:
            self.whys[len(log.lines)] = why

    # -- the game -----------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True once the game has ended (a winner or the round cap)."""
        return self.session.over

    @property
    def to_move(self) -> int:
        """The seat asked next (-1 when the game is over)."""
        return -1 if self.over else self.state.current

    def decision(self) -> Decision | None:
        """The question to the seat to move; None when the game is over."""
        return None if self.over else self.session.decision()

    def waiting_for_human(self) -> bool:
        """True when a person's seat must answer."""
        return not self.over and self.to_move in self.people

    def wait_for_others(self, seat: int | None, seen: int, timeout: float) -> None:
        """While another person than `seat` is to move, the page has seen the transcript to
        line `seen` and nobody moves, hold (the lock released) for at most `timeout` seconds,
        so their move reaches this seat's page at once instead of at its next poll. Call with
        `lock` held."""
        def others() -> bool:
            return self.waiting_for_human() and self.to_move != seat

        steps = self.session.steps
        if others() and seen >= len(self.transcript()):
            self.changed.wait_for(lambda: self.session.steps != steps or not others(), timeout)

    def bot_step(self) -> None:
        """Let the bot to move answer one question; a fault plays the fallback answer."""
        if self.over or self.waiting_for_human():
            raise ActionError("no bot is to move")
        self._bots(1)

    def advance(self, max_steps: int, setup_only: bool = False) -> int:
        """Bots move until the person must answer, the game ends or `max_steps` were taken
        (`setup_only`: or the initial placement is over, so the first turns can be paced)."""
        done = 0
        while done < max_steps and not self.over and not self.waiting_for_human():
            if setup_only and self.state.phase != L.PH_SETUP:
                break
            done += self._bots(1 if setup_only else max_steps - done)
        if self.over:
            self.close()
        return done

    def _bots(self, max_steps: int) -> int:
        """Run the session's bots for at most `max_steps`; a bot's fault (a refused answer or
        an error) ends the run with the fallback answer played in its place."""
        game = self.session
        before = game.steps
        try:
            game.run(max_steps)
        except Exception as e:  # noqa: BLE001 - a bot's fault never ends the game
            self._fallback(self.to_move, e.rule if isinstance(e, IllegalActionError) and e.rule
                           else f"{type(e).__name__}: {e}")
        if game.steps == before:  # a seat without a bot that is not the person's
            raise ActionError("no bot is to move")
        return game.steps - before

    def _fallback(self, seat: int, fault: str) -> None:
        d = self.session.decision()
        view = self.views[seat]
        req = {"armies": d.armies, "lo": d.lo, "hi": d.hi, "compulsory": d.compulsory}
        try:
            fallback = final_answer(view, d.kind.value, None, req, set())
        except ProtocolError as e:  # no legal answer at all: a rules bug, not a bot's
            raise RuntimeError(f"no legal answer for seat {seat}: {e}") from None
        note = (f"{self.labels[seat]}'s answer was refused ({fault[:200]}); it played "
                f"{fallback.text(self.m)}")
        self.notes.append((len(self.session.transcript()), note))
        err = self.session.try_apply(fallback)
        if err:
            raise RuntimeError(f"the fallback answer was refused: {err}")

    def close(self) -> None:
        """Release the bots (an isolated bot's process goes back to its pool or ends)."""
        for p in self.players:
            if p.bot is not None:
                close_bot(p.bot)

    def act(self, action: Action, seat: int | None = None) -> None:
        """Apply the action of the person to move (of `seat`, when given: ActionError unless it
        is that seat's turn; with the rule's text when the rules refuse it)."""
        if self.over:
            raise ActionError(L.ERROR_TEXT[L.E_OVER])
        if not self.waiting_for_human() or seat not in (None, self.to_move):
            raise ActionError(f"it is {self.labels[self.to_move]}'s turn, not yours")
        if (self.state.phase == L.PH_SETUP and isinstance(action, Place)
                and action.count != 1):
            left = int(self.state.pl[self.to_move, L.P_SETUP_LEFT])
            raise ActionError(f"count must be 1 in the initial placement (one army a turn, "
                              f"{left} left to place), got {action.count}")
        try:
            err = self.session.try_apply(action)
        except IllegalActionError as e:
            raise ActionError(str(e)) from None
        if err:
            raise ActionError(err)
        if self.over:
            self.close()

    def attack_until(self, src: int, dst: int, dice: int, down_to: int,
                     seat: int | None = None) -> int:
        """Roll src against dst until it falls, src has `down_to` armies or fewer, or the
        phase ends; every roll is one kernel step (`seat`: as for `act`). Returns the rolls."""
        if down_to < 1:
            raise ActionError(f"stop level must be at least 1, got {down_to}")
        rolls = 0
        st, me = self.state, self.to_move
        if (self.waiting_for_human() and st.phase == L.PH_ATTACK
                and int(st.owner[src]) == me and int(st.armies[src]) <= down_to):
            raise ActionError(f"{self.m.territories[src]} has {int(st.armies[src])} armies, "
                              f"not more than {down_to}: nothing rolled (lower the stop level)")
        while (rolls < MAX_ROLLS and self.waiting_for_human() and st.phase == L.PH_ATTACK
               and self.to_move == me
               and int(st.owner[dst]) != me and int(st.armies[src]) > max(down_to, 1)):
            use = 0 if dice == 0 else min(dice, int(st.armies[src]) - 1)
            self.act(Attack(src, dst, use), seat)
            rolls += 1
        if rolls == 0:
            self.act(Attack(src, dst, dice), seat)  # the rule's own message for why not
            rolls = 1
        return rolls

    def transcript(self) -> tuple[str, ...]:
        """The transcript so far (closed with the result once the game is over)."""
        return self.session.transcript()


def random_seed() -> int:
    """A fresh seed for a game the page starts without one."""
    return int(np.random.SeedSequence().generate_state(1)[0] % (2**31))


__all__ = ["ActionError", "LiveGame", "Seat", "random_seed"]
