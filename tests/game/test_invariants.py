"""Invariants checked after every action of hundreds of seeded games of every baseline bot."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

from game import Rules, State, Trade, play_game
from game.bots import BOTS
from game.rules.layout import (
    A_MOVE,
    A_SKIP,
    A_TRADE,
    CARD_DECK,
    CARD_DISCARD,
    E_OK,
    EV_DRAWN,
    P_ALIVE,
    P_CONQUESTS,
    PH_FORTIFY,
    PH_OVER,
    PH_TRADE,
    S_CAPPED,
    S_CONQUERED,
    S_TURNS,
)
from game.view import GameView
from tests.helpers.invariants import check, check_card_places
from tests.helpers.positions import INF, N_CARDS, Aggressive, conquer, hand_size, position, step

BOT_CLASSES: list[Any] = [*BOTS.values(), Aggressive]


def card_moves(before: State, after: State, answer: object) -> list[str]:
    """Check the cards moved exactly as the rules say between two decisions; the moves seen.

    `answer` is what the seat to move in `before` answered. A trade sends its 3 cards from the
    trader's hand to the discard; an elimination gives the victim's whole hand to the mover; a
    turn that ends after a conquest draws one card from the deck (the discard reshuffled into
    it when empty) into the mover's hand. Nothing else moves a card.
    """
    mover = before.current
    expected = before.cards.copy()
    moves: list[str] = []
    if before.phase == PH_TRADE and isinstance(answer, Trade):
        cards = list(answer.cards)
        assert (expected[cards] == mover).all(), f"traded cards {cards} not in the hand"
        expected[cards] = CARD_DISCARD
        moves.append("trade")
    died = (before.pl[:, P_ALIVE] == 1) & (after.pl[:, P_ALIVE] == 0)
    for victim in np.flatnonzero(died):
        assert victim != mover, "the seat to move was eliminated"
        expected[expected == victim] = mover
        moves.append("elimination")
    conquered = bool(before.sc[S_CONQUERED]) or (
        after.pl[mover, P_CONQUESTS] > before.pl[mover, P_CONQUESTS])
    turn_ended = after.sc[S_TURNS] > before.sc[S_TURNS] or (
        bool(after.sc[S_CAPPED]) and not before.sc[S_CAPPED])
    if turn_ended:
        drawn = int(after.ev[EV_DRAWN])
        if conquered and not (expected == CARD_DECK).any():
            expected[expected == CARD_DISCARD] = CARD_DECK
            moves.append("reshuffle")
        if conquered and (expected == CARD_DECK).any():
            assert 0 <= drawn < N_CARDS and expected[drawn] == CARD_DECK, (
                f"drawn card {drawn} was not in the deck")
            expected[drawn] = mover
            moves.append("draw")
        else:
            assert drawn == -1, f"card {drawn} drawn without a conquest or a card to draw"
    diff = np.flatnonzero(expected != after.cards)
    assert diff.size == 0, "cards moved wrongly (card: before, expected, after): " + ", ".join(
        f"{c}: {before.cards[c]}, {expected[c]}, {after.cards[c]}" for c in diff)
    return moves


class Tracker:
    """Shared by the wrapped players of one game: checks each state and the step into it."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.decisions = 0
        self.moves: Counter[str] = Counter()
        self.prev: tuple[State, object] | None = None

    def observe(self, s: State) -> None:
        """Check a position and the card moves since the previous decision."""
        check(s, self.rules)
        if self.prev is not None:
            before, answer = self.prev
            self.moves.update(card_moves(before, s, answer))
        self.decisions += 1

    def answered(self, s: State, answer: object) -> None:
        """Remember the position a decision was made in and the answer."""
        self.prev = (s.copy(), answer)


class Checked:
    """Wraps a player: checks the invariants before each of its decisions."""

    def __init__(self, inner: Any, tracker: Tracker) -> None:
        self.inner, self.tracker = inner, tracker
        self.view: GameView | None = None

    def start_game(self, view: GameView, rng: np.random.Generator) -> None:
        self.view = view
        self.inner.start_game(view, rng)

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)

        def wrapped(view: GameView, *args: Any) -> Any:
            self.tracker.observe(view.full_state())
            answer = method(view, *args)
            self.tracker.answered(view.full_state(), answer)
            return answer

        return wrapped

    def __repr__(self) -> str:
        return f"Checked({self.inner!r})"


def run_checked(seed: int, rules: Rules) -> tuple[Any, Tracker]:
    """One game of 2..6 random baseline bots with every invariant checked; (outcome, tracker)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 7))
    tracker = Tracker(rules)
    players = [Checked(BOT_CLASSES[int(rng.integers(len(BOT_CLASSES)))](), tracker)
               for _ in range(n)]
    o = play_game(players, seed=seed, rules=rules)  # type: ignore[arg-type]
    final = players[0].view
    assert final is not None
    s = final.full_state()
    tracker.observe(s)  # the last step (often the winning conquest) is checked too
    assert s.phase == PH_OVER
    if s.sc[S_CAPPED]:
        assert o.capped and o.rounds == rules.cap and o.winner is None
    else:
        assert o.winner is not None and o.rounds <= rules.cap
        if not rules.missions:
            assert o.stats[o.winner].territories == 42
    return o, tracker


RULE_SETS = [Rules(cap=10), Rules(missions=True, cap=10), Rules(fixed_cards=True, cap=10),
             Rules(path_fortify=True, cap=10)]


@pytest.mark.parametrize("rules", RULE_SETS, ids=["default", "missions", "fixed", "path"])
def test_invariants_short_games(rules: Rules) -> None:
    decisions = 0
    ended = 0
    moves: Counter[str] = Counter()
    for seed in range(50):
        o, t = run_checked(seed, rules)
        decisions += t.decisions
        moves += t.moves
        ended += not o.capped
    assert decisions > 50 * 50
    assert ended > 0  # some games are won, not only capped
    # The card checks saw every kind of move often enough to matter.
    assert moves["trade"] >= 100 and moves["draw"] >= 500 and moves["elimination"] >= 20, moves
    assert moves["reshuffle"] >= 1, moves


def test_invariants_full_games() -> None:
    moves: Counter[str] = Counter()
    for seed in range(100, 106):
        moves += run_checked(seed, Rules())[1].moves
    assert moves["reshuffle"] >= 1, moves


@pytest.mark.slow
@pytest.mark.parametrize("rules", [Rules(), Rules(missions=True), Rules(fixed_cards=True),
                                   Rules(path_fortify=True, missions=True, cap=40)])
def test_invariants_many_full_games(rules: Rules) -> None:
    for seed in range(1000, 1150):
        run_checked(seed, rules)


# --- the card checks themselves catch broken steps -------------------------------------------

Step = tuple[State, State, object]


def _trade() -> Step:
    s = position(2, owner={"Alaska": 0}, phase=PH_TRADE, pool=3, hands={0: INF[:4]})
    before = s.copy()
    assert step(s, A_TRADE, *INF[:3]) == E_OK
    return before, s, Trade(INF[:3])


RESHUFFLED = (*INF[:3], 40, 42, 43)  # a discard of six cards, wilds among them


def _draw(discard_only: bool = False) -> Step:
    s = position(2, owner={"Alaska": 0, "Alberta": 0}, armies={"Alaska": 5}, phase=PH_FORTIFY)
    s.sc[S_CONQUERED] = 1
    if discard_only:  # the deck is empty: the whole discard is reshuffled into it
        s.cards[:] = 1
        s.cards[list(RESHUFFLED)] = CARD_DISCARD
    before = s.copy()
    assert step(s, A_SKIP) == E_OK
    return before, s, None


def _elimination() -> Step:
    s = position(3, owner={"Alaska": 0, "Kamchatka": 2}, armies={"Alaska": 20},
                 hands={0: INF[:2], 2: INF[2:5]})
    before = s.copy()
    after = conquer(s, "Alaska", "Kamchatka", 3)
    assert after.pl[2, P_ALIVE] == 0
    return before, after, None


def test_card_moves_of_correct_steps() -> None:
    assert card_moves(*_trade()) == ["trade"]
    before, after, answer = _draw()
    assert card_moves(before, after, answer) == ["draw"] and hand_size(after, 0) == 1
    before, after, answer = _draw(discard_only=True)
    assert card_moves(before, after, answer) == ["reshuffle", "draw"]
    # Every discarded card went back to the deck but the one drawn; no other card moved.
    back = after.cards[list(RESHUFFLED)]
    assert (back == 0).sum() == 1 and (back == CARD_DECK).sum() == len(RESHUFFLED) - 1
    others = np.setdiff1d(np.arange(len(after.cards)), RESHUFFLED)
    assert (after.cards[others] == 1).all()
    assert card_moves(*_elimination()) == ["elimination"]
    s = position(2, owner={"Alaska": 0}, armies={"Alaska": 9})
    s = conquer(s, "Alaska", "Kamchatka", 3)
    before = s.copy()
    assert step(s, A_MOVE, 3) == E_OK
    assert card_moves(before, s, 3) == []  # the turn goes on: no card yet


def _tamper_trade_two(st: Step) -> None:
    st[1].cards[INF[2]] = 0  # a trade that discards only 2 of its 3 cards


def _tamper_trade_extra(st: Step) -> None:
    st[1].cards[INF[3]] = CARD_DISCARD  # a fourth card discarded


def _tamper_no_draw(st: Step) -> None:
    st[1].cards[st[1].cards == 0] = CARD_DECK  # the card never reaches the hand


def _tamper_two_draws(st: Step) -> None:
    st[1].cards[int(np.flatnonzero(st[1].cards == CARD_DECK)[0])] = 0


def _tamper_no_reshuffle(st: Step) -> None:
    st[1].cards[[c for c in RESHUFFLED if st[1].cards[c] == CARD_DECK]] = CARD_DISCARD


def _tamper_victim_keeps(st: Step) -> None:
    st[1].cards[INF[4]] = 2  # an eliminated seat still holds a card


def _tamper_victim_to_deck(st: Step) -> None:
    st[1].cards[INF[4]] = CARD_DECK  # the victim's card goes back to the deck


BROKEN = [
    ("trade discards 2", _trade, _tamper_trade_two),
    ("trade discards 4", _trade, _tamper_trade_extra),
    ("conquest, no card", _draw, _tamper_no_draw),
    ("two cards drawn", _draw, _tamper_two_draws),
    ("no reshuffle", lambda: _draw(discard_only=True), _tamper_no_reshuffle),
    ("victim keeps a card", _elimination, _tamper_victim_keeps),
    ("victim's card to the deck", _elimination, _tamper_victim_to_deck),
]


@pytest.mark.parametrize("label,build,tamper", BROKEN, ids=[b[0] for b in BROKEN])
def test_card_moves_catch_a_broken_step(label: str, build: Any, tamper: Any) -> None:
    st = build()
    card_moves(*st)  # the real step passes
    tamper(st)
    with pytest.raises(AssertionError):
        card_moves(*st)  # each broken step on its own, not hidden behind another check
    if label == "victim keeps a card":
        with pytest.raises(AssertionError, match="cards in no place"):
            check_card_places(st[1])


def test_no_card_moves_without_a_turn_end() -> None:
    s = position(2, owner={"Alaska": 0, "Alberta": 0}, armies={"Alaska": 5}, phase=PH_FORTIFY)
    before = s.copy()
    assert step(s, A_SKIP) == E_OK  # no conquest this turn: no card
    assert card_moves(before, s, None) == []
    s.cards[INF[0]] = 0
    with pytest.raises(AssertionError, match="cards moved wrongly"):
        card_moves(before, s, None)
