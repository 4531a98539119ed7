"""The game as PettingZoo and Gymnasium environments (game.env, arena.envs, docs/env.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from game.bots import ContinentBot, make_player  # noqa: E402
from game.decision import Decision  # noqa: E402
from game.engine import play_game  # noqa: E402
from game.env import ActionCodec  # noqa: E402
from game.env.aec import RiskAECEnv, env  # noqa: E402
from game.env.single import RiskSeatEnv  # noqa: E402
from game.map import build_map, classic_map  # noqa: E402
from game.protocol import BasePlayer  # noqa: E402
from game.referee import checked_action  # noqa: E402
from game.rules import layout as L  # noqa: E402
from game.session import label_of  # noqa: E402
from game.state import Rules  # noqa: E402
from game.view import GameView  # noqa: E402
from tests.helpers.positions import Verdicts  # noqa: E402


# The observation is a Dict of the board and an action mask, the layout PettingZoo's own masked
# games use; api_test's two heuristics for a flat array do not apply to it.
def dict_observation(test: Any) -> Any:
    """`test` without api_test's warnings about an observation that is not a flat array."""
    for said in ("Observation space for each agent probably", "Observation is not a NumPy array"):
        test = pytest.mark.filterwarnings(f"ignore:{said}:UserWarning")(test)
    return test

ROOT = Path(__file__).resolve().parents[2]
TINY = build_map({
    "name": "tiny",
    "continents": [
        {"name": "A", "bonus": 3, "territories": ["a1", "a2", "a3"]},
        {"name": "B", "bonus": 1, "territories": ["b1", "b2", "b3"]},
    ],
    "borders": [["a1", "a2"], ["a2", "a3"], ["a1", "a3"], ["a3", "b1"], ["b1", "b2"],
                ["b2", "b3"]],
})
VARIANT = Rules(missions=True, path_fortify=True, cap=30)


@pytest.mark.parametrize(("n", "kwargs"), [
    (2, {}), (4, {}), (6, {}), (3, {"rules": VARIANT}),
    (2, {"map": TINY, "rules": Rules(path_fortify=True, trade_at=3)}),
])
@dict_observation
def test_pettingzoo_api_test(n: int, kwargs: dict[str, Any]) -> None:
    api_test(RiskAECEnv(n, **kwargs), num_cycles=200)


@dict_observation
def test_pettingzoo_api_test_wrapped() -> None:
    api_test(env(n_players=3), num_cycles=100)


@pytest.mark.parametrize("kwargs", [{}, {"rules": VARIANT}])
def test_pettingzoo_seed_test(kwargs: dict[str, Any]) -> None:
    seed_test(lambda: RiskAECEnv(4, **kwargs), num_cycles=200)


def test_gymnasium_check_env() -> None:
    check_env(RiskSeatEnv(lambda: [make_player("continent") for _ in range(3)]),
              skip_render_check=True)


class Snapped(BasePlayer):
    """A bot whose answers go through the env's action encoding (amounts snapped to buckets):
    the same policy whether it plays in play_game or through an env."""

    def __init__(self, bot: Any, codec: ActionCodec) -> None:
        super().__init__()
        self.bot, self.codec = bot, codec

    def start_game(self, view: GameView, rng: np.random.Generator) -> None:
        self.bot.start_game(view, rng)

    def index(self, view: GameView, d: Decision) -> int:
        return self.codec.encode(self.bot.act(view, d), view, d)

    def act(self, view: GameView, d: Decision) -> Any:
        return self.codec.answer(self.index(view, d), view, d)


def _snapped_lineup(codec: ActionCodec, n: int, bot: str = "continent") -> list[Snapped]:
    if bot == "linear":  # the linear player with the hand-set genome
        from features.genome import hand_set_genome
        from features.linear import LinearPlayer

        return [Snapped(LinearPlayer(hand_set_genome()), codec) for _ in range(n)]
    return [Snapped(ContinentBot(), codec) for _ in range(n)]


@pytest.mark.parametrize(("n", "rules", "seed", "bot"), [
    (4, Rules(), 11, "continent"), (3, VARIANT, 5, "continent"), (2, Rules(cap=40), 3, "continent"),
    (4, Rules(cap=30), 2, "linear")])
def test_aec_game_equals_play_game(n: int, rules: Rules, seed: int, bot: str) -> None:
    e = RiskAECEnv(n, rules=rules, transcript=True)
    e.reset(seed=seed)
    s = e.session
    players = _snapped_lineup(e.codec, n, bot)
    for p, player in enumerate(players):
        player.start_game(s.views[p], s.player_rngs[p])
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        _, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        p = int(agent.split("_")[1])
        assert p == s.current
        e.step(players[p].index(s.views[p], s.decision()))
    ref = play_game(_snapped_lineup(e.codec, n, bot), rules=rules, seed=seed, transcript=True,
                    labels=e.possible_agents)
    assert ref.transcript is not None
    assert e.transcript() == ref.transcript
    n_lines = len(ref.transcript)
    assert n_lines > 100 and e.session.over
    expected = [1 - 2 * (place - 1) / (n - 1) for place in ref.placements]
    assert [total[a] for a in e.possible_agents] == pytest.approx(expected)


def test_seat_env_game_equals_play_game() -> None:
    seed = 9
    codec = ActionCodec(classic_map(), Rules())
    me = Snapped(ContinentBot(), codec)
    e = RiskSeatEnv(_snapped_lineup(codec, 3), learner=2, transcript=True)
    obs, info = e.reset(seed=seed)
    s = e.session
    # The learner's own view is closed (it sees its seat only); the bot steering it here is
    # given an open one, as play_game gives it.
    view = GameView(s.state, s.map, s.rules, s.seat_of[2], True)
    me.start_game(view, s.player_rngs[2])
    done = False
    while not done:
        a = me.index(view, s.decision())
        assert info["action_mask"][a] == 1 and e.action_masks()[a]
        obs, reward, term, trunc, info = e.step(a)
        assert e.observation_space.contains(obs)
        done = term or trunc
    lineup: list[Any] = _snapped_lineup(codec, 3)
    lineup.insert(2, Snapped(ContinentBot(), codec))
    labels = [label_of(p) for p in lineup]
    labels[2] = "learner"  # as the env names its seat
    ref = play_game(lineup, seed=seed, transcript=True, labels=labels)
    assert ref.transcript is not None
    lines = e.transcript()
    if s.over:
        assert lines == ref.transcript
    else:  # the learner is out: the env stops there
        assert lines == ref.transcript[:len(lines)]
    assert reward == pytest.approx(1 - 2 * (info["place"] - 1) / 3)


def _positions(e: RiskAECEnv, seed: int, quota: int) -> Any:
    """Up to `quota` positions of each phase from a random masked game (yielded while it
    plays: the state is live)."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    count: dict[int, int] = {}
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        ph = e.session.state.phase
        if count.get(ph, 0) < quota and rng.random() < 0.2:
            count[ph] = count.get(ph, 0) + 1
            yield agent, obs
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize(("n", "kwargs", "quota"), [
    (4, {"rules": Rules(cap=25)}, 8),
    (3, {"rules": Rules(path_fortify=True, cap=20)}, 2),
    (3, {"map": TINY, "rules": Rules(trade_at=3)}, 10)])
def test_mask_is_what_the_kernel_accepts(n: int, kwargs: dict[str, Any], quota: int) -> None:
    e = RiskAECEnv(n, **kwargs)
    s, c = e.session, e.codec
    rv = s.rules_vector
    seen: set[int] = set()
    for agent, obs in _positions(e, 1, quota):
        mask = obs["action_mask"]
        p = int(agent.split("_")[1])
        d = s.decision()
        seen.add(s.state.phase)
        verdicts = Verdicts(s.map, s.state, rv)
        for i in range(c.n):
            act = c.decode(i, s.views[p], d)
            try:
                enc = checked_action(act)
            except ValueError:
                ok = False
            else:
                ok = verdicts.accepts(*enc)
            assert ok == bool(mask[i]), (i, c.segment(i), act, d)
    assert seen == {L.PH_SETUP, L.PH_TRADE, L.PH_REINFORCE, L.PH_ATTACK, L.PH_OCCUPY,
                    L.PH_FORTIFY}


def test_observation_hides_opponents_cards_and_missions() -> None:
    e = RiskAECEnv(4, rules=Rules(missions=True, cap=20))
    for _agent, _obs in _positions(e, 2, 1000):
        st = e.session.state
        if (st.cards >= 0).sum() >= 4:
            break
    seat = e.session.seat_of[0]
    before = e.observer.observe(seat)
    held = np.flatnonzero((st.cards >= 0) & (st.cards != seat))
    assert len(held)
    saved = st.cards.copy(), st.pl.copy()
    st.cards[held] = L.CARD_DECK
    others = np.arange(4) != seat
    st.pl[others, L.P_MISSION] = (st.pl[others, L.P_MISSION] + 1) % L.N_MISSIONS
    st.pl[others, L.P_TARGET] = -1
    moved = e.observer.observe(seat)
    st.cards[:], st.pl[:] = saved
    hand = e.observer.slices["hand"]
    seats = e.observer.slices["seats"]
    # Only the opponents' hand sizes (public) may differ.
    keep = np.ones(e.observer.size, bool)
    keep[seats] = False
    assert np.array_equal(before[keep], moved[keep])
    assert np.array_equal(before[hand], (st.cards == seat).astype(np.float32))


def test_reset_seed_reproduces_and_unseeded_resets_follow_the_seed() -> None:
    a, b = RiskAECEnv(3), RiskAECEnv(3)
    a.reset(seed=4)
    b.reset(seed=4)
    assert a.session.state == b.session.state
    a.reset()
    b.reset()
    assert a.game_seed == b.game_seed and a.session.state == b.session.state


def test_render_is_text() -> None:
    e = RiskAECEnv(2, render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str) and "Alaska" in text and "player 1" in text


def test_illegal_actions() -> None:
    e = RiskAECEnv(2)
    e.reset(seed=0)
    mask = e.action_mask()
    with pytest.raises(ValueError, match="not legal"):
        e.step(int(np.flatnonzero(mask == 0)[0]))
    g = RiskSeatEnv([make_player("random")], illegal_penalty=-0.5)
    _, info = g.reset(seed=1)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, term, trunc, info = g.step(bad)
    assert info["illegal_action"]
    assert reward == -0.5 or term or trunc
