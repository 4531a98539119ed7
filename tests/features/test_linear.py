"""LinearPlayer decisions on obvious positions, and compiled loop == Python engine, move by move."""

from __future__ import annotations

import numpy as np
import pytest

from features.compiled import play_linear_game, play_linear_games, trace_linear_game
from features.genome import LAYOUT, random_genomes
from features.linear import LinearPlayer
from features.registry import (
    G_ATTACK,
    G_ATTACK_THRESHOLD,
    G_FORTIFY,
    G_FORTIFY_SHARE,
    G_FORTIFY_THRESHOLD,
    G_REINFORCE,
    N_GENES,
    NR,
    RF_ARMY_VANTAGE,
)
from features.vectors import reinforce_features
from game.rules.dice import conquest_table
from game.rules.layout import (
    A_ATTACK,
    A_END_TRADE,
    A_FORTIFY,
    A_MOVE,
    A_PLACE,
    A_SKIP,
    A_STOP,
    A_TRADE,
    INFANTRY,
    PH_FORTIFY,
    PH_OCCUPY,
    PH_REINFORCE,
    PH_TRADE,
    S_DST,
    S_MIN_MOVE,
    S_SRC,
)
from game.state import Rules, State
from tests.helpers.linear import FX, MK, RV, act, genes, same_game
from tests.helpers.positions import CLASSIC, card_of_kind, position, tid


def test_win_prob_only_picks_the_best_odds() -> None:
    st = position(2, owner={"Alaska": 0, "Northwest Territory": 0, "Greenland": 0, "Peru": 0},
                  armies={"Alaska": 4, "Northwest Territory": 7, "Greenland": 3, "Peru": 9,
                          "Alberta": 5, "Ontario": 2, "Quebec": 6, "Kamchatka": 8,
                          "Iceland": 4, "Brazil": 3, "Argentina": 1, "Venezuela": 12})
    w = np.zeros(N_GENES)
    w[G_ATTACK] = 1.0
    w[G_ATTACK_THRESHOLD] = -1.0
    kind, a, b, _ = act(st, w)
    p = conquest_table()
    opts = [(p[st.armies[s], st.armies[t]], s, t) for s in range(42) for t in range(42)
            if st.owner[s] == 0 and st.armies[s] >= 2 and st.owner[t] != 0
            and CLASSIC.adjacency[s, t]]
    best = max(opts, key=lambda o: o[0])
    assert kind == A_ATTACK and (a, b) == (tid("Peru"), tid("Argentina")) == best[1:]
    # With the best odds below the threshold nothing is attacked.
    w[G_ATTACK_THRESHOLD] = best[0] + 1e-9
    assert act(st, w)[0] == A_STOP
    w[G_ATTACK] = -1.0  # now the worst odds win the rank
    w[G_ATTACK_THRESHOLD] = -1.0
    worst = min(opts, key=lambda o: (o[0], o[1], o[2]))
    assert act(st, w)[1:3] == worst[1:]


def test_threshold_above_every_rank_never_attacks_and_game_is_capped() -> None:
    w = random_genomes(LAYOUT, 4, np.random.default_rng(5))
    w[:, G_ATTACK_THRESHOLD] = 100.0
    out, trace = trace_linear_game(w, 11, Rules(cap=12))
    assert out.capped and out.rounds == 12 and out.winner == -1
    assert not (trace[:, 1] == A_ATTACK).any()
    assert (trace[:, 1] == A_STOP).sum() >= 4 * 12
    assert sorted(out.placements.tolist())[0] == 1


def test_reinforce_runs_equal_one_army_at_a_time() -> None:
    rng = np.random.default_rng(0)
    for trial in range(6):
        st = position(3, default_owner=1, phase=PH_REINFORCE, pool=9)
        st.owner[:] = rng.integers(0, 3, 42)
        st.armies[:] = rng.integers(1, 8, 42)
        w = random_genomes(LAYOUT, 1, rng)[0]
        kind, t, n, _ = act(st, w)
        # Reference: rescore every own territory after each single army.
        s = st.copy()
        placed: list[int] = []
        for _ in range(9):
            own = np.flatnonzero(s.owner == 0)
            scores = [float(w[G_REINFORCE:G_REINFORCE + NR] @ reinforce_features(
                MK, FX, s.kernel, RV, 0, int(u))) for u in own]
            u = int(own[int(np.argmax(scores))])
            placed.append(u)
            s.armies[u] += 1
        run = 1
        while run < 9 and placed[run] == placed[0]:
            run += 1
        assert kind == A_PLACE and (t, n) == (placed[0], run), trial


def test_army_vantage_only_reinforces_the_most_threatened() -> None:
    st = position(2, owner={"Siam": 0, "Peru": 0}, default_owner=1, phase=PH_REINFORCE, pool=3,
                  armies={"China": 9, "Siam": 2, "Peru": 2})
    w = genes(reinforce__army_vantage=1.0)
    assert act(st, w) == (A_PLACE, tid("Siam"), 3, 0)
    w[G_REINFORCE + RF_ARMY_VANTAGE] = -1.0  # prefer the safest
    assert act(st, w) == (A_PLACE, tid("Peru"), 3, 0)


def _occupy_position() -> State:
    st = position(2, owner={"Alaska": 0, "Kamchatka": 0}, armies={"Alaska": 9}, phase=PH_OCCUPY)
    st.sc[S_SRC], st.sc[S_DST], st.sc[S_MIN_MOVE] = tid("Alaska"), tid("Kamchatka"), 3
    st.armies[tid("Kamchatka")] = 0
    return st


@pytest.mark.parametrize("share,threat,want", [(0.0, 0.0, 3), (1.0, 0.0, 8), (0.4, 0.0, 5),
                                               (0.5, 1.0, 6), (0.5, -1.0, 5), (0.5, 10.0, 8),
                                               (0.5, -10.0, 3)])
def test_occupy_genes(share: float, threat: float, want: int) -> None:
    # lo 3, hi 8; Kamchatka has 4 of 5 neighbours hostile, Alaska 2 of 3: hd - hs = 2/15.
    w = genes(occupy__share=share, occupy__threat=threat)
    assert act(_occupy_position(), w) == (A_MOVE, want, 0, 0)


def test_trade_gene_and_compulsory_trades() -> None:
    cards = [card_of_kind(INFANTRY)]
    cards.append(card_of_kind(INFANTRY, skip=cards))
    cards.append(card_of_kind(INFANTRY, skip=cards))
    st = position(2, phase=PH_TRADE, hands={0: cards}, owner={"Alaska": 0})
    assert act(st, genes(cards__trade_at=1.5))[0] == A_END_TRADE  # worth 4 < 30
    assert act(st, genes(cards__trade_at=0.0)) == (A_TRADE, *cards)
    five = [*cards, card_of_kind(1), card_of_kind(2)]  # 5 cards: trading is compulsory
    st5 = position(2, phase=PH_TRADE, hands={0: five}, owner={"Alaska": 0})
    k = act(st5, genes(cards__trade_at=1.5))
    assert k[0] == A_TRADE and len(set(k[1:])) == 3 and set(k[1:]) <= set(five)


def test_fortify_threshold_and_direction() -> None:
    st = position(2, owner={"Alaska": 0, "Alberta": 0, "Northwest Territory": 0},
                  default_owner=1, phase=PH_FORTIFY,
                  armies={"Northwest Territory": 6, "Alberta": 1, "Alaska": 1, "Kamchatka": 9})
    w = genes(fortify__threshold=-1.0, fortify__share=0.5)
    kind, a, b, c = act(st, w)
    assert (kind, a, b) == (A_FORTIFY, tid("Northwest Territory"), tid("Alaska"))
    assert c == 3  # a border source moves round(share * 5) of its 5 movable armies
    w[G_FORTIFY_THRESHOLD] = 100.0
    assert act(st, w)[0] == A_SKIP
    w[G_FORTIFY_THRESHOLD] = -1.0
    w[G_FORTIFY] = -1.0  # away from threat
    assert act(st, w)[0:3] == (A_FORTIFY, tid("Northwest Territory"), tid("Alberta"))
    w[G_FORTIFY_SHARE] = 0.0
    assert act(st, w)[3] == 1  # at least one army moves


def test_linear_player_validates_weights() -> None:
    with pytest.raises(ValueError, match="shape"):
        LinearPlayer(np.zeros(3))
    w = np.zeros(N_GENES)
    w[2] = np.inf
    with pytest.raises(ValueError, match="finite"):
        LinearPlayer(w)


@pytest.mark.parametrize("rules", [Rules(cap=8), Rules(cap=8, missions=True, fixed_cards=True,
                                                        path_fortify=True)])
def test_compiled_equals_engine(rules: Rules) -> None:
    rng = np.random.default_rng(42)
    for seed in range(4):
        same_game(random_genomes(LAYOUT, 4, rng), seed, rules)


@pytest.mark.slow
@pytest.mark.parametrize("rules", [Rules(), Rules(missions=True), Rules(fixed_cards=True),
                                   Rules(path_fortify=True)])
def test_compiled_equals_engine_many_seeds(rules: Rules) -> None:
    rng = np.random.default_rng(7)
    for seed in range(25):
        k = 2 + seed % 5
        same_game(random_genomes(LAYOUT, k, rng), 1000 + seed, rules)


def test_play_linear_games_matches_single_games() -> None:
    w = random_genomes(LAYOUT, 12, np.random.default_rng(3)).reshape(3, 4, -1)
    seeds = np.random.SeedSequence(9).spawn(3)
    place, rounds, capped = play_linear_games(w, seeds, Rules(cap=10))
    for g in range(3):
        o = play_linear_game(w[g], seeds[g], Rules(cap=10))
        assert place[g].tolist() == o.placements.tolist()
        assert (rounds[g], capped[g]) == (o.rounds, o.capped)
    assert sorted(place[0].tolist())[0] == 1
    with pytest.raises(ValueError, match="n_games"):
        play_linear_games(w, seeds[:2])


def _small_map() -> object:
    from game.map import build_map

    return build_map({"name": "tri", "borders": [["a", "b"], ["b", "c"]],
                      "continents": [{"name": "A", "bonus": 1, "territories": ["a", "b", "c"]}]})


@pytest.mark.parametrize("shape,fill,message", [
    ((1, 4, 3), 0.0, "genes of the layout"),
    ((1, 4, LAYOUT.size), np.nan, "finite"),
])
def test_compiled_loop_rejects_bad_weights(shape: tuple[int, ...], fill: float,
                                           message: str) -> None:
    # The kernels have no bounds checks: a short or NaN genome must never reach them.
    with pytest.raises(ValueError, match=message):
        play_linear_games(np.full(shape, fill), [1])


@pytest.mark.parametrize("players,rules,message", [
    (4, Rules(), "at most the 3 territories"),
    (2, Rules(missions=True), "classic continents"),
])
def test_compiled_loop_checks_rules_against_the_map(players: int, rules: Rules,
                                                    message: str) -> None:
    # Without the check, continent missions on a board lacking them were won on turn one.
    w = random_genomes(LAYOUT, players, np.random.default_rng(0))[None]
    with pytest.raises(ValueError, match=message):
        play_linear_games(w, [1], rules=rules, map=_small_map())  # type: ignore[arg-type]
