"""Hidden information: a player's view shows its own hand and mission, never an opponent's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from arena.bots import trusted
from arena.measure.tournament import run_tournament
from game.bots import ContinentBot, RandomBot
from game.decision import Decision
from game.engine import play_game
from game.map import classic_map
from game.protocol import Action4
from game.rules import layout as L
from game.state import Rules, State
from game.view import GameView, HiddenInformationError

M = classic_map()

SEEN: list[dict[str, Any]] = []


class Spy(RandomBot):
    """A random player that tries to learn what the opponents hold, at every decision."""

    name = "spy"

    def act(self, view: Any, decision: Decision) -> Any:
        """Record what the view shows about the others, then play at random."""
        s = view.state
        others = np.arange(s.n_players) != view.seat
        SEEN.append({
            "foreign_cards": int(((s.cards >= 0) & (s.cards != view.seat)).sum()),
            "foreign_missions": int((s.pl[others, L.P_MISSION] >= 0).sum()),
            "own_hand": sorted(np.flatnonzero(s.cards == view.seat).tolist()),
            "hand": sorted(view.hand), "mission": tuple(view.mission),
            "own_mission": (int(s.pl[view.seat, L.P_MISSION]),
                            int(s.pl[view.seat, L.P_TARGET])),
            "sizes": view.hand_sizes.tolist(),
        })
        try:
            view.full_state()
            SEEN[-1]["door"] = "open"
        except HiddenInformationError:
            SEEN[-1]["door"] = "closed"
        return super().act(view, decision)


def test_spy_learns_nothing_hidden() -> None:
    SEEN.clear()
    truth: list[tuple[int, int]] = []

    def referee(state: State, seat: int, action: object) -> None:
        held = (state.cards >= 0) & (state.cards != seat)
        truth.append((int(held.sum()), int((state.pl[:, L.P_MISSION] >= 0).sum())))

    rules = Rules(missions=True, cap=30)
    play_game([Spy() for _ in range(4)], seed=3, rules=rules, observer=referee,
              full_access=[False] * 4)
    # The opponents did hold cards and missions, and the spies saw none of them.
    assert max(t[0] for t in truth) > 0 and max(t[1] for t in truth) == 4
    assert all(r["foreign_cards"] == 0 and r["foreign_missions"] == 0 for r in SEEN)
    # ... while their own hand, own mission and everyone's hand sizes stay visible.
    assert all(r["own_hand"] == r["hand"] and r["own_mission"] == r["mission"] for r in SEEN)
    assert any(sum(r["sizes"]) > len(r["hand"]) for r in SEEN)
    assert {r["door"] for r in SEEN} == {"closed"}


def test_third_party_bots_in_the_arena_play_in_their_own_process() -> None:
    SEEN.clear()
    spec = "test_hidden:Spy"
    assert not trusted(spec) and trusted("continent") and trusted("champion.json")
    results = run_tournament([spec, "random", "random", "random"], 2, seed=1, rules="cap=10")
    # The spy played (no forfeit) but not in this process: it saw only its decoded copy.
    assert not SEEN and all(not any(r.forfeits) for r in results)


def test_compiled_players_use_the_open_door() -> None:
    from features.genome import hand_set_genome
    from features.linear import LinearPlayer

    out = play_game([LinearPlayer(hand_set_genome()), RandomBot()], seed=0, rules=Rules(cap=5))
    assert out.rounds >= 1
    view = GameView(State.empty(M, 2), M, Rules(), 0, full_access=False)
    with pytest.raises(AttributeError):
        view.full_access = True  # type: ignore[misc]
    with pytest.raises(HiddenInformationError, match="hides"):
        play_game([LinearPlayer(hand_set_genome()), RandomBot()], seed=0, rules=Rules(cap=5),
                  full_access=[False, True])


class _Vandal(ContinentBot):
    """The continent bot (by name too), scribbling over every array its kernel reads once it
    has answered."""

    def bind_kernel(self, view: GameView) -> Callable[[], Action4]:
        answer = super().bind_kernel(view)
        state = view.kernel_state()

        def scribble() -> Action4:
            act = answer()
            for a in state.kernel:
                a[...] = 7
            return act

        return scribble


@pytest.mark.parametrize("seed", [0, 1])
def test_a_compiled_players_writes_never_reach_the_game(seed: int) -> None:
    # Its kernel state is a copy brought up to date before each decision: the game is the
    # continent bots' game, scribbles and all.
    def game(first: ContinentBot) -> tuple[str, ...]:
        out = play_game([first, ContinentBot(), ContinentBot()], seed=seed,
                        rules=Rules(missions=True, cap=20), transcript=True)
        return tuple(out.transcript or ())

    assert game(_Vandal()) == game(ContinentBot())
