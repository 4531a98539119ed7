"""Attack odds for a person: the exact Markov chain against single rolls, the conquest table and
a seeded Monte Carlo; the reinforcement breakdown against the rule kernel."""

from __future__ import annotations

import numpy as np
import pytest

from game.rules.dice import conquest_probabilities
from game.rules.odds import MAX_ARMIES, attack_odds, roll_odds
from game.rules.queries import reinforcement_breakdown, reinforcements
from tests.helpers.positions import CLASSIC, position

# One roll decides: exact counts of the known tables (tests/game/test_dice.py) over 6**dice rolls.
ONE_ROLL = [
    # source, defenders, stop_at, P(conquer), E(source left), E(defenders left)
    (4, 2, 3, 2890 / 7776, 4 - (2611 + 2 * 2275) / 7776, 2 - (2611 + 2 * 2890) / 7776),
    (2, 1, 1, 15 / 36, 2 - 21 / 36, 1 - 15 / 36),
    (3, 1, 2, 125 / 216, 3 - 91 / 216, 1 - 125 / 216),
    (3, 2, 2, 295 / 1296, 3 - (420 + 2 * 581) / 1296, 2 - (420 + 2 * 295) / 1296),
]


@pytest.mark.parametrize("source,defenders,stop_at,p,ea,ed", ONE_ROLL)
def test_one_roll_is_the_exact_dice_table(source: int, defenders: int, stop_at: int, p: float,
                                          ea: float, ed: float) -> None:
    o = attack_odds(source, defenders, stop_at)
    assert (o.conquer, o.source_left, o.defenders_left) == pytest.approx((p, ea, ed), abs=1e-12)


def test_roll_odds_sum_to_one() -> None:
    for n_att in (1, 2, 3):
        for n_def in (1, 2):
            assert sum(q for _la, _ld, q in roll_odds(n_att, n_def)) == pytest.approx(1.0)


def test_down_to_one_is_the_conquest_table() -> None:
    table = conquest_probabilities(12, 12)
    for a in range(1, 13):
        for d in range(1, 13):
            assert attack_odds(a, d).conquer == pytest.approx(table[a, d], abs=1e-12)


def test_a_source_at_its_stop_does_not_roll() -> None:
    o = attack_odds(3, 4, stop_at=3)
    assert (o.conquer, o.source_left, o.defenders_left, o.attacker_dice) == (0.0, 3, 4, 0)
    assert attack_odds(10, 3, stop_at=2).attacker_dice == 3
    assert attack_odds(10, 3, stop_at=2).defender_dice == 2


def _monte_carlo(source: int, defenders: int, stop_at: int, n: int,
                 rng: np.random.Generator) -> tuple[float, float, float]:
    won, left_a, left_d = 0, 0, 0
    for _ in range(n):
        a, d = source, defenders
        while d > 0 and a > stop_at:
            na, nd = min(3, a - 1), min(2, d)
            att = np.sort(rng.integers(1, 7, na))[::-1]
            dfn = np.sort(rng.integers(1, 7, nd))[::-1]
            for x, y in zip(att, dfn, strict=False):
                if x > y:
                    d -= 1
                else:
                    a -= 1
        won += d == 0
        left_a += a
        left_d += d
    return won / n, left_a / n, left_d / n


@pytest.mark.parametrize("source,defenders,stop_at", [(8, 5, 1), (12, 6, 4), (5, 3, 2)])
def test_a_seeded_monte_carlo_agrees(source: int, defenders: int, stop_at: int) -> None:
    n = 4000
    p, ea, ed = _monte_carlo(source, defenders, stop_at, n, np.random.default_rng(7))
    o = attack_odds(source, defenders, stop_at)
    sd = (o.conquer * (1 - o.conquer) / n) ** 0.5
    assert abs(p - o.conquer) < 4 * sd + 1e-9
    assert ea == pytest.approx(o.source_left, abs=0.15)
    assert ed == pytest.approx(o.defenders_left, abs=0.15)


@pytest.mark.parametrize("kwargs,field", [
    ({"source": 0, "defenders": 1}, "source"),
    ({"source": 3, "defenders": 0}, "defenders"),
    ({"source": 3, "defenders": 1, "stop_at": 0}, "stop_at"),
    ({"source": MAX_ARMIES + 1, "defenders": 1}, "source"),
    ({"source": 3, "defenders": True}, "defenders"),
    ({"source": 2.5, "defenders": 1}, "source"),
])
def test_bad_input_names_the_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(ValueError, match=f"^{field} must be a whole number 1..{MAX_ARMIES}"):
        attack_odds(**kwargs)  # type: ignore[arg-type]


def test_reinforcement_breakdown_adds_up_to_the_rule() -> None:
    aus = ["Indonesia", "New Guinea", "Western Australia", "Eastern Australia"]
    st = position(2, owner={**dict.fromkeys(aus, 0), "Alaska": 0, "Peru": 0, "Siam": 0,
                            "China": 0, "India": 0, "Ural": 0, "Kamchatka": 0,
                            "Iceland": 0}, default_owner=1)
    mk = CLASSIC.kernel
    for seat in (0, 1):
        r = reinforcement_breakdown(mk, st.kernel, seat)
        assert r.total == reinforcements(mk, st.kernel, seat)
        assert r.base == max(3, r.territories // 3)
    r0 = reinforcement_breakdown(mk, st.kernel, 0)
    assert r0.territories == 12 and r0.base == 4
    assert [CLASSIC.continents[c] for c, _b in r0.continents] == ["Australia"]
    assert r0.total == 4 + 2
