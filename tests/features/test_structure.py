"""Feature set 2: player summaries, new features and decision terms, version-1 genome files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from features import registry as R
from features.botfile import load_genome
from features.compiled import trace_linear_game
from features.genome import (
    FORMAT,
    LAYOUT,
    SCALE_GENES,
    GenomeError,
    hand_set_genome,
    version_names,
)
from features.players import SC_HAND, SC_LEADER, make_players, pressure, summarize
from features.vectors import attack_features
from game.map import classic_map
from game.rules.layout import (
    A_ATTACK,
    A_END_TRADE,
    A_PLACE,
    A_STOP,
    A_TRADE,
    INFANTRY,
    PH_REINFORCE,
    PH_TRADE,
    S_CONQUERED,
    S_POOL,
)
from game.state import Rules
from tests.helpers.linear import act, genes, same_game
from tests.helpers.positions import card_of_kind, position, tid
from tests.helpers.tiny_board import A1, A2, A3, B1, FX, MK, OFF, tiny
from tests.helpers.traces import first_change, read_trace_file, trace_lines


def _three_seats() -> tuple[object, list[int]]:
    """Tiny board: seat 0 has a1, a2; seat 1 has a3 (2 cards); seat 2 holds B (4 cards)."""
    s = tiny([0, 0, 1, 2, 2], [3, 1, 4, 2, 5], n_players=3)
    s.cards[:] = [1, 1, 2, 2, 2, 2, -1]
    return s, [0, 2, 4]


def test_summarize_and_pressure_by_hand() -> None:
    s, hands = _three_seats()
    pl = make_players(MK, 3)
    summarize(MK, s, OFF, 0, pl)
    assert pl.hand.tolist() == hands
    # inc = max(3, terr // 3) + held bonuses: seat 2 holds B (bonus 1).
    assert pl.inc.tolist() == [3, 3, 4]
    # S(q) = (terr / 5 + inc / 10 + armies / opponents' armies (11)) / 3.
    s1, s2 = (1 / 5 + 3 / 10 + 4 / 11) / 3, (2 / 5 + 4 / 10 + 7 / 11) / 3
    assert pl.strength[1:].tolist() == pytest.approx([s1, s2])
    assert pl.scalars[SC_LEADER] == 2 and pl.scalars[SC_HAND] == 0.0
    # p's borders a1, a2 hold 4; seat 1 can throw a3's 4 - 1 plus income 3 = 6, seat 2 only its
    # income 4 (no territory next to p): pressure 6 / (6 + 4).
    assert pressure(MK, s, 0, pl) == pytest.approx(0.6)
    summarize(MK, s, OFF, 2, pl)
    assert pl.scalars[SC_HAND] == pytest.approx(4 / 5)


def test_card_and_source_features_by_hand() -> None:
    s, _hands = _three_seats()
    f = attack_features(MK, FX, s, OFF, 0, A1, A3)
    # a3 is seat 1's last territory and seat 1 holds 2 cards.
    assert f[R.AF_TARGET_CARDS] == f[R.AF_ELIM_CARDS] == pytest.approx(2 / 5)
    assert f[R.AF_BREAKS_LEADER] == 0.0  # seat 1 holds no continent and is not the leader
    assert f[R.AF_LEFT_BEHIND] == 0.0  # a1's only hostile neighbour is the target
    # a3 faces a2 (2) and b1 (2): attacking b1 leaves 2 hostile armies against a3's 4.
    s2 = tiny([0, 1, 0, 1, 1], [3, 2, 4, 2, 5])
    f2 = attack_features(MK, FX, s2, OFF, 0, A3, B1)
    assert f2[R.AF_LEFT_BEHIND] == pytest.approx(2 / 6)
    assert f2[R.AF_ELIM_CARDS] == f2[R.AF_TARGET_CARDS] == 0.0
    assert f2[R.AF_SOURCE_GUARD] == 0.0  # p does not hold A
    f3 = attack_features(MK, FX, tiny([0, 0, 0, 1, 1], [3, 1, 4, 2, 5]), OFF, 0, A3, B1)
    assert f3[R.AF_SOURCE_GUARD] == 1.0 and f3[R.AF_BREAKS_LEADER] == pytest.approx(1 / 3)
    assert A2 != A3  # the tiny board's names are distinct territories


@pytest.mark.parametrize("trade_at", [3, 4, 5, 6])
def test_card_features_saturate_at_the_hand_that_must_trade(trade_at: int) -> None:
    # Seat 2 holds 4 cards, seat 1 (a3, its last territory) 2: every card term is the hand over
    # rules.trade_at, capped at 1, and v(q) = (1 + min(hand, F)) / (1 + F).
    s, _hands = _three_seats()
    rules = Rules(trade_at=trade_at).vector()
    pl = make_players(MK, 3)
    summarize(MK, s, rules, 2, pl)
    assert pl.scalars[SC_HAND] == pytest.approx(min(1.0, 4 / trade_at))
    summarize(MK, s, rules, 0, pl)
    assert pl.evalue[2] == pytest.approx((1 + min(4, trade_at)) / (1 + trade_at))
    f = attack_features(MK, FX, s, rules, 0, A1, A3)
    assert f[R.AF_TARGET_CARDS] == f[R.AF_ELIM_CARDS] == pytest.approx(min(1.0, 2 / trade_at))


def test_need_splits_the_reinforcements() -> None:
    # Siam (2) faces China (7): G = 7; Peru (2) faces Brazil (4): G = 4.
    st = position(2, owner={"Siam": 0, "Peru": 0}, default_owner=1, phase=PH_REINFORCE,
                  pool=6, armies={"China": 7, "Brazil": 4, "Siam": 2, "Peru": 2})
    w = genes(reinforce__army_vantage=0.0, reinforce__need=1.0)
    # need(Siam) = 5/7, then 4/7, 3/7 < need(Peru) = 2/4: a run of 2 on Siam.
    assert act(st, w) == (A_PLACE, tid("Siam"), 2, 0)
    st.armies[tid("Siam")] += 2
    # Rescored: Peru's 1/2 now leads; after one army its 1/4 falls below Siam's 3/7.
    assert act(st, w) == (A_PLACE, tid("Peru"), 1, 0)
    # An army term that rises with every army (army_vantage < 0, as evolved) stacks them all.
    assert act(st, genes(reinforce__army_vantage=-1.0))[2] == 6


def test_need_splits_even_against_the_pinned_vantage() -> None:
    # The scale gene army_vantage stays -1 or +1; at -1 (stacking, as evolved) a need weight of
    # 1 still splits the turn's 6 armies: Siam 2, Peru 1, Siam 2, Peru 1, rescored between runs.
    st = position(2, owner={"Siam": 0, "Peru": 0}, default_owner=1, phase=PH_REINFORCE,
                  pool=6, armies={"China": 7, "Brazil": 4, "Siam": 2, "Peru": 2})
    w = genes(reinforce__army_vantage=-1.0, reinforce__need=1.0)
    runs = []
    while st.sc[S_POOL] > 0:
        a = act(st, w)
        runs.append((a[1], a[2]))
        st.armies[a[1]] += a[2]
        st.sc[S_POOL] -= a[2]
    siam, peru = tid("Siam"), tid("Peru")
    assert runs == [(siam, 2), (peru, 1), (siam, 2), (peru, 1)]


def test_guard_need_prefers_a_held_continents_border() -> None:
    australia = ["Indonesia", "New Guinea", "Western Australia", "Eastern Australia"]
    st = position(2, owner={**dict.fromkeys(australia, 0), "Peru": 0}, default_owner=1,
                  phase=PH_REINFORCE, pool=3,
                  armies={"Siam": 5, "Indonesia": 2, "Brazil": 9, "Peru": 2})
    # Peru needs more (7/9 > 3/5) but only Indonesia guards a held continent.
    assert act(st, genes(reinforce__army_vantage=0.0, reinforce__need=1.0))[1] == tid("Peru")
    w = genes(reinforce__army_vantage=0.0, reinforce__guard_need=1.0)
    assert act(st, w) == (A_PLACE, tid("Indonesia"), 3, 0)


def test_threshold_terms() -> None:
    st = position(2, owner={"Alaska": 0}, armies={"Alaska": 6, "Kamchatka": 1})
    w = genes(attack__threshold=0.5)
    assert act(st, w)[0] == A_ATTACK  # win_prob of 6 against 1 is above 0.5
    st.sc[S_CONQUERED] = 1
    assert act(st, w)[0] == A_ATTACK
    assert act(st, genes(attack__threshold=0.5, attack__threshold_conquered=0.6))[0] == A_STOP
    # Every enemy borders Alaska: pressure is high, so a pressure term stops the attack too.
    assert act(st, genes(attack__threshold=0.5, attack__threshold_pressure=0.6))[0] == A_STOP
    assert act(st, genes(attack__threshold=0.5, attack__threshold_cards=0.6))[0] == A_ATTACK


def test_trade_rank_terms() -> None:
    cards = [card_of_kind(INFANTRY)]
    cards.append(card_of_kind(INFANTRY, skip=cards))
    cards.append(card_of_kind(INFANTRY, skip=cards))
    four = [*cards, card_of_kind(1, skip=cards)]
    st3 = position(2, phase=PH_TRADE, hands={0: cards}, owner={"Alaska": 0})
    st4 = position(2, phase=PH_TRADE, hands={0: four}, owner={"Alaska": 0})
    w = genes(cards__trade_at=1.5, cards__forced_next=1.5)
    assert act(st3, w)[0] == A_END_TRADE  # 3 cards: the bar stays 30 armies
    assert act(st4, w)[0] == A_TRADE  # 4 cards: one more forces a trade, the bar falls to 0
    # v / (v + income) = 4 / 7 here: a weight of 1 lowers the bar by 20 * 4/7 to about 18.6.
    assert act(st3, genes(cards__trade_at=1.1, cards__income=1.0))[0] == A_END_TRADE
    assert act(st3, genes(cards__trade_at=0.7, cards__income=1.0))[0] == A_TRADE
    assert act(st3, genes(cards__trade_at=0.7))[0] == A_END_TRADE


@pytest.mark.parametrize(("trade_at", "hand", "traded"),
                         [(4, 3, True), (6, 4, False), (6, 5, True)])
def test_forced_next_reads_the_rules_hand_size(trade_at: int, hand: int, traded: bool) -> None:
    """cards.forced_next counts a hand one card short of rules.trade_at, not a fixed 4."""
    cards = [card_of_kind(INFANTRY)]
    cards.append(card_of_kind(INFANTRY, skip=cards))
    cards.append(card_of_kind(INFANTRY, skip=cards))
    while len(cards) < hand:
        cards.append(card_of_kind(1, skip=cards))
    st = position(2, phase=PH_TRADE, hands={0: cards}, owner={"Alaska": 0})
    rv = Rules(trade_at=trade_at).vector()
    w = genes(cards__trade_at=1.5, cards__forced_next=1.5)
    assert (act(st, w, rv)[0] == A_TRADE) is traded


@pytest.mark.parametrize("rules", [Rules(cap=30), Rules(cap=30, missions=True, fixed_cards=True)])
def test_hand_set_compiled_equals_engine(rules: Rules) -> None:
    w = np.tile(hand_set_genome(), (4, 1))
    w[1:, LAYOUT.index("cards.trade_at")] = 0.6  # some optional trades go through the rank
    w[2:, LAYOUT.index("cards.continent")] = 0.5
    w[3, LAYOUT.index("cards.pressure")] = 0.5
    for seed in range(2):
        same_game(w, seed, rules)


def _v1_file(path: Path, genes: dict[str, float], version: object = 1) -> Path:
    path.write_text(json.dumps({"format": FORMAT, "feature_set_version": version,
                                "genes": genes}), encoding="utf-8")
    return path


def _old_genes(rng: np.random.Generator, version: int = 1) -> dict[str, float]:
    """A random gene dict of an older feature-set version (scale genes -1/+1, trade_at >= 0)."""
    names = version_names(version)
    v = rng.uniform(-1, 1, len(names))
    genes = {n: (1.0 if x > 0 else -1.0) if n in SCALE_GENES else float(x)
             for n, x in zip(names, v, strict=True)}
    genes["cards.trade_at"] = abs(genes["cards.trade_at"])
    return genes


# The games of the four files of `_old_genes(rng(seed), version)`, seeds 0-2, classic and
# mission rules, as played by the build of that version (before each bump), one text trace a
# version in tests/data/old_genomes/: the upgraded files must play exactly the same games.
OLD_SEEDS = {1: 11, 2: 12, 3: 13, 4: 14, 5: 15}
OLD_TRACES = Path(__file__).resolve().parents[1] / "data" / "old_genomes"


@pytest.mark.parametrize("version,n_genes", [(1, 27), (2, 43), (3, 45), (4, 47), (5, 49)])
def test_older_files_load_and_play_as_before(tmp_path: Path, version: int, n_genes: int) -> None:
    path = OLD_TRACES / f"feature_set_{version}.txt"
    expected = read_trace_file(path)
    rng = np.random.default_rng(OLD_SEEDS[version])
    ws = []
    for i in range(4):
        genes = _old_genes(rng, version)
        w, _meta = load_genome(_v1_file(tmp_path / f"bot{i}.json", genes, version=version))
        new = [n for n in LAYOUT.names if n not in genes]
        assert len(genes) == n_genes and all(w[LAYOUT.index(n)] == 0.0 for n in new)
        assert all(w[LAYOUT.index(n)] == genes[n] for n in genes)
        ws.append(w)
    assert len(expected) == 6
    for seed in range(3):
        for name, rules in (("classic", Rules()), ("missions", Rules(missions=True))):
            _out, tr = trace_linear_game(np.array(ws), seed, rules)
            header = f"seed={seed} rules={name}"
            got = trace_lines(tr, classic_map())
            changed = first_change(expected[header], got, f"{path.name} {header}")
            assert not changed, changed


def test_version_2_file_with_a_version_3_gene_is_an_error(tmp_path: Path) -> None:
    genes = _old_genes(np.random.default_rng(0), 2)
    genes["attack.continent_value"] = 0.5
    with pytest.raises(GenomeError, match="unknown gene 'attack.continent_value' \\(feature set "
                                          "version 2\\)"):
        load_genome(_v1_file(tmp_path / "v2.json", genes, version=2))


@pytest.mark.parametrize("edit,match", [
    ({"reinforce.need": 0.5}, "unknown gene 'reinforce.need' \\(feature set version 1\\)"),
    ({"cards.trade_at": None}, "missing gene 'cards.trade_at'"),
])
def test_version_1_file_errors(tmp_path: Path, edit: dict, match: str) -> None:
    genes: dict = _old_genes(np.random.default_rng(0))
    for k, v in edit.items():
        if v is None:
            del genes[k]
        else:
            genes[k] = v
    with pytest.raises(GenomeError, match=match) as e:
        load_genome(_v1_file(tmp_path / "old.json", genes))
    assert "\n" not in str(e.value) and "version 1" in str(e.value)


def test_other_versions_are_one_line_errors(tmp_path: Path) -> None:
    genes = _old_genes(np.random.default_rng(0))
    with pytest.raises(GenomeError, match="feature_set_version is 7, this build reads 1, 2, 3, 4, "
                                          "5 \\(upgraded\\) and 6"):
        load_genome(_v1_file(tmp_path / "new.json", genes, version=7))
