"""Explanations are the player's own arithmetic: every decision of seeded games, every kind, the
Python and the compiled player, every feature-set version that loads."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from features.compiled import trace_linear_game
from features.explain import KINDS, ExplainError, Explanation, describe, explain, to_json
from features.explain import options as explain_options
from features.genome import LAYOUT, UPGRADABLE, hand_set_genome, random_genomes, version_names
from features.linear import LinearPlayer, map_context
from features.registry import FEATURE_SET_VERSION
from game.engine import play_game
from game.rules import layout as L
from game.state import Rules
from game.view import GameView
from tests.helpers.positions import CLASSIC, position, tid

VERSIONS = [*UPGRADABLE, FEATURE_SET_VERSION]
RULES = [Rules(cap=6), Rules(cap=6, missions=True, fixed_cards=True, path_fortify=True,
                             trade_at=4)]
PASSES = {L.A_STOP, L.A_SKIP, L.A_END_TRADE}


def genomes_of_version(version: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """n random genomes of an older feature set: the genes added since at 0 (as when loaded)."""
    w = random_genomes(LAYOUT, n, rng)
    known = set(version_names(version))
    w[:, [i for i, g in enumerate(LAYOUT.names) if g not in known]] = 0.0
    return w


class _Explaining(LinearPlayer):
    """A linear player that explains each decision before it plays it."""

    def __init__(self, weights: np.ndarray, log: list[tuple[int, tuple[int, ...],
                                                             Explanation]]) -> None:
        super().__init__(weights)
        self.log = log

    def kernel_action(self, view: GameView) -> tuple[int, int, int, int]:
        ex = explain(view.map.kernel, map_context(view.map), view.kernel_state().kernel,
                     view.rules_vector, self.weights)
        r = super().kernel_action(view)
        self.log.append((view.seat, r, ex))
        return r


def check(ex: Explanation) -> None:
    """Every shown score is its terms' sum; the chosen option is the arg max; the bar adds up
    and decided."""
    for o in ex.options:
        parts = [t.part for t in o.terms]
        assert abs(sum(parts) - o.score) <= 1e-9 * (1.0 + sum(abs(p) for p in parts))
    if ex.options:
        best = ex.options[0]
        assert all(best.score >= o.score for o in ex.options[1:])
        if ex.action[0] not in PASSES:
            assert best.action == ex.action
    if ex.bar is not None:
        parts = [t.part for t in ex.bar.terms]
        assert abs(sum(parts) - ex.bar.total) <= 1e-9 * (1.0 + sum(abs(p) for p in parts))
        assert ex.bar.passed == (ex.action[0] not in PASSES)
        if ex.options and ex.kind in ("attack", "fortify"):
            assert ex.bar.passed == (ex.options[0].score > ex.bar.total)
        if ex.options and ex.kind == "trade":
            assert ex.bar.passed == (ex.options[0].score >= ex.bar.total)
    elif ex.kind in ("attack", "fortify"):
        raise AssertionError(f"{ex.kind} without its threshold")


@pytest.mark.parametrize("version", VERSIONS)
def test_every_decision_is_the_players_own_arithmetic(version: int) -> None:
    rng = np.random.default_rng(100 + version)
    kinds: set[str] = set()
    for seed, rules in enumerate(RULES):
        w = genomes_of_version(version, 4, rng)
        _out, trace = trace_linear_game(w, seed, rules)  # the compiled player
        log: list[tuple[int, tuple[int, ...], Explanation]] = []
        play_game([_Explaining(x, log) for x in w], seed=seed, rules=rules)  # the Python one
        assert len(log) == len(trace)
        for (seat, played, ex), row in zip(log, trace, strict=True):
            assert ex.action == played == tuple(int(v) for v in row[1:])
            assert ex.seat == seat == row[0]
            check(ex)
            kinds.add(ex.kind)
    assert kinds == set(KINDS)


def test_the_hand_set_player_explains_every_kind_too() -> None:
    w = np.stack([hand_set_genome()] * 3)
    log: list[tuple[int, tuple[int, ...], Explanation]] = []
    play_game([_Explaining(x, log) for x in w], seed=5, rules=Rules(cap=8))
    for _seat, _played, ex in log:
        check(ex)
    assert {ex.kind for _s, _p, ex in log} == set(KINDS)


def _attack_position() -> Any:
    return position(2, owner={"Alaska": 0, "Alberta": 0}, armies={"Alaska": 6, "Alberta": 3},
                    phase=L.PH_ATTACK)


def test_text_names_the_choice_its_terms_and_the_threshold() -> None:
    st = _attack_position()
    w = hand_set_genome()
    ex = explain(CLASSIC.kernel, map_context(CLASSIC), st.kernel, Rules().vector(), w)
    text = describe(ex, CLASSIC, "champion")
    assert text.startswith("champion, attack: ")
    assert "attack.win_prob" in text and "threshold" in text and "the other" in text
    assert "runner-up 1" in text
    doc = to_json(ex, CLASSIC)
    assert doc["kind"] == "attack" and doc["action"] == list(ex.action)
    assert len(doc["options"]) == len(ex.options)
    assert doc["bar"]["passed"] == (ex.action[0] == L.A_ATTACK)
    assert tid("Alaska") in {o["action"][1] for o in doc["options"]}


def test_an_explanation_out_of_step_with_the_decision_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    st = _attack_position()
    real = explain_options._attack

    def wrong(*args: Any) -> Any:
        action, options, bar = real(*args)
        return (L.A_STOP, 0, 0, 0) if action[0] == L.A_ATTACK else options[0].action, \
            options, bar

    monkeypatch.setattr(explain_options, "_attack", wrong)
    with pytest.raises(ExplainError, match="out of step"):
        explain(CLASSIC.kernel, map_context(CLASSIC), st.kernel, Rules().vector(),
                hand_set_genome())


def test_no_decision_once_the_game_is_over() -> None:
    st = _attack_position()
    st.sc[L.S_PHASE] = L.PH_OVER
    with pytest.raises(ExplainError, match="no decision to explain"):
        explain(CLASSIC.kernel, map_context(CLASSIC), st.kernel, Rules().vector(),
                hand_set_genome())


def test_the_explanation_ranks_with_the_decisions_own_public_kernels() -> None:
    # One home per scoring rule: options.py reads the option buffers the decision's kernels
    # fill and imports no private helper of theirs (nor reaches one through an attribute).
    tree = ast.parse(Path(explain_options.__file__).read_text(encoding="utf-8"))
    names = {(n.module, a.name) for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
             for a in n.names}
    private = sorted(f"{mod}.{name}" for mod, name in names
                     if (mod or "").startswith("features.") and name.startswith("_"))
    reached = sorted(n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
                     and n.attr.startswith("_") and not n.attr.startswith("__"))
    assert not private and not reached, (private, reached)
    assert {("features.decide", "place_options"), ("features.decide", "attack_options"),
            ("features.moves", "fortify_options"), ("features.trade", "trade_options")} <= names
