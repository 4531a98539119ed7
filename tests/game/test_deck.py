"""A board's own deck: card kinds come from the map, never from the card id."""

from __future__ import annotations

import numpy as np
import pytest

from features.compiled import trace_linear_game
from features.genome import LAYOUT, hand_set_genome
from game.bots import BOTS
from game.engine import play_game
from game.map import Map, build_map, classic_map
from game.rules.cards import has_set
from game.rules.layout import (
    A_TRADE,
    ARTILLERY,
    CAVALRY,
    E_NOT_SET,
    E_OK,
    INFANTRY,
    N_WILDS,
    PH_TRADE,
    WILD,
)
from game.state import Rules, State
from game.view import GameView
from tests.helpers.deck import SHUFFLED, classic_data
from tests.helpers.linear import same_game
from tests.helpers.positions import kernel_step, own, position, tid


def test_classic_deck_is_the_default() -> None:
    m = classic_map()
    t = m.n_territories
    assert m.card_kind.tolist() == [i % 3 for i in range(t)] + [WILD] * N_WILDS
    assert m.kernel.card_kind is m.card_kind and not m.card_kind.flags.writeable


def test_card_kinds_from_the_map_file() -> None:
    assert (SHUFFLED.card_kind[:-2] != classic_map().card_kind[:-2]).any()
    assert sorted(np.bincount(SHUFFLED.card_kind).tolist()) == [2, 14, 14, 14]
    assert SHUFFLED.card_kind[-2:].tolist() == [WILD, WILD]
    data = classic_data()
    data["card_kinds"] = dict.fromkeys(classic_map().territories, "artillery")
    assert (build_map(data, "m").card_kind[:-2] == ARTILLERY).all()


def _cards_of(m: Map, kind: int, n: int) -> list[int]:
    return [int(c) for c in np.flatnonzero(m.card_kind == kind)[:n]]


def _step(m: Map, s: State, *action: int, rules: Rules | None = None) -> int:
    return kernel_step(m, s, (rules or Rules()).vector(), *action)


def test_trades_follow_the_board_kinds() -> None:
    inf, cav, art = (_cards_of(SHUFFLED, k, 3) for k in (INFANTRY, CAVALRY, ARTILLERY))
    fixed = Rules(fixed_cards=True)
    # Three board-cavalry cards are a set worth 6 whatever their ids say.
    s = position(2, owner={"Alaska": 0}, phase=PH_TRADE, pool=3, hands={0: cav})
    assert _step(SHUFFLED, s, A_TRADE, *cav, rules=fixed) == E_OK and s.pool == 3 + 6
    # Two of a kind and one other is no set on this board.
    pair = [inf[0], inf[1], art[0]]
    s = position(2, owner={"Alaska": 0}, phase=PH_TRADE, pool=3, hands={0: pair})
    assert _step(SHUFFLED, s, A_TRADE, *pair) == E_NOT_SET
    # The same ids on the classic board: whatever id % 3 makes of them.
    classic_set = len({c % 3 for c in pair}) in (1, 3)
    s = position(2, owner={"Alaska": 0}, phase=PH_TRADE, pool=3, hands={0: pair})
    assert (_step(classic_map(), s, A_TRADE, *pair) == E_OK) == classic_set


def test_hand_sets_and_view_follow_the_board() -> None:
    inf = _cards_of(SHUFFLED, INFANTRY, 3)
    cards = np.full(SHUFFLED.card_kind.shape[0], -1, np.int32)
    cards[inf] = 0
    assert has_set(SHUFFLED.card_kind, cards, 0)
    mixed = [inf[0], inf[1], _cards_of(SHUFFLED, CAVALRY, 1)[0]]
    cards[:] = -1
    cards[mixed] = 0
    assert not has_set(SHUFFLED.card_kind, cards, 0)
    s = position(2, owner=own([tid("Alaska")]), phase=PH_TRADE, pool=3, hands={0: inf})
    view = GameView(s, SHUFFLED, Rules(), 0)
    assert [view.card_kind(c) for c in inf] == [INFANTRY] * 3
    assert view.sets() == [tuple(inf)]


@pytest.mark.parametrize("rules", [Rules(cap=15), Rules(cap=15, fixed_cards=True)])
def test_games_on_a_shuffled_deck_stay_legal(rules: Rules) -> None:
    # Every baseline bot trades by the board's kinds: an illegal trade would raise.
    names = list(BOTS)
    for seed in range(3):
        out = play_game([BOTS[names[(seed + i) % len(names)]]() for i in range(4)],
                        map=SHUFFLED, rules=rules, seed=seed, transcript=True)
        assert out.transcript is not None and any(" trade " in x for x in out.transcript)


def test_compiled_linear_players_use_the_board_kinds() -> None:
    # The compiled loop raises CompiledGameError on a trade the kernel rejects, and the Python
    # loop with LinearPlayer objects plays the same moves on this board.
    w = np.tile(hand_set_genome(), (4, 1))  # players that attack, so cards change hands
    w[:, LAYOUT.names.index("cards.trade_at")] = 0.0  # trade every set found
    traded = 0
    for seed in range(3):
        same_game(w, seed, Rules(cap=30), SHUFFLED)
        _out, trace = trace_linear_game(w, seed, Rules(cap=30), SHUFFLED)
        traded += int((trace[:, 1] == A_TRADE).sum())
    assert traded > 0
