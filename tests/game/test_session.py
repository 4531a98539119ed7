"""`game.session.Session`, the one loop every Python game drives: a holder's seat, limits,
refusals."""

from __future__ import annotations

import pytest

from game.actions import Place
from game.bots import BOTS
from game.decision import Decision, ask
from game.engine import play_game
from game.map import classic_map
from game.protocol import IllegalActionError
from game.referee import as_action
from game.rules import layout as L
from game.session import Session
from game.state import Rules
from game.view import GameView

RULES = Rules(cap=30)
MIX = ("aggressive", "random", "continent")


def test_a_held_seat_answered_by_its_holder_replays_play_game() -> None:
    out = play_game([BOTS[b]() for b in MIX], rules=RULES, seed=5, transcript=True)
    s = Session(classic_map(), RULES, 3, transcript=True)
    s.reset(5)
    mine = BOTS[MIX[1]]()
    s.seat([BOTS[MIX[0]](), None, BOTS[MIX[2]]()], labels=MIX)
    mine.start_game(s.views[1], s.player_rngs[1])  # seat() started the others in seat order
    held = 0
    while not s.over:
        s.run()
        if not s.over:
            assert s.current == 1  # run stops only where nobody is seated
            d = s.decision()
            s.apply(as_action(d, ask(mine, s.views[1], d)))
            held += 1
    assert held > 0 and s.transcript() == out.transcript


def test_run_stops_at_max_steps_and_at_until() -> None:
    s = Session(classic_map(), RULES, 3)
    s.reset(2)
    s.seat([BOTS[b]() for b in MIX])
    assert s.run(7) == 7 and s.steps == 7
    assert s.run(until=lambda: int(s.state.sc[L.S_ROUND]) >= 3) > 0
    assert int(s.state.sc[L.S_ROUND]) == 3 and not s.over
    assert s.run(0) == 0


class _Cheat:
    """Places 99 armies on its first reinforcement."""

    def start_game(self, view: GameView, rng: object) -> None:
        self.inner = BOTS["random"]()
        self.inner.start_game(view, rng)  # type: ignore[arg-type]

    def act(self, view: GameView, d: Decision) -> object:
        if d.kind.value == "reinforce":
            return Place(int(view.mine()[0]), 99)
        return self.inner.act(view, d)


def test_a_refused_answer_names_the_rule_and_keeps_the_state() -> None:
    s = Session(classic_map(), RULES, 2)
    s.reset(1)
    s.seat([_Cheat(), BOTS["random"]()])
    with pytest.raises(IllegalActionError) as e:
        s.run()
    assert e.value.rule and e.value.rule in str(e.value) and "_Cheat" in str(e.value)
    before = s.state.copy()
    assert s.decision().kind.value == "reinforce" and s.state == before


def test_seat_needs_one_entry_per_player() -> None:
    s = Session(classic_map(), RULES, 3)
    s.reset(1)
    with pytest.raises(ValueError, match=r"one player \(or None\) per player \(3\), got 2"):
        s.seat([None, None])
