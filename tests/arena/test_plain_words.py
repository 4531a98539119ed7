"""The plain words of every kind of decision are a board-game player's (issue 64): one or two
sentences with territories, armies, cards and odds; no formula, no internal name, no empty
reason, no contradiction. The numbers stay behind the arithmetic (`text`)."""

from __future__ import annotations

import re

import pytest

from arena.bots import make_bot, read_bot_file, trusted
from arena.web.insight import explain_json
from arena.web.live import LiveGame, Seat
from arena.why import account
from features.botfile import save_genome
from features.why import Why
from game.map import classic_map
from game.rules import layout as L
from game.state import Rules

FORMULA = re.compile(r"[=*/^×]|\bx\b|round\(|\d\.\d|[+-]\d|\w\.\w")
INTERNAL = ("greedy", "sampled", "continuation", "value", "rescor", "score", "threshold",
            "runner-up", "term", "gene", "weight", "rollout", "margin", "kept its")


def kind_of(why: Why) -> str:
    """The decision's kind as the issue lists them."""
    phase, act = int(why.state.sc[L.S_PHASE]), why.action
    if phase in (L.PH_SETUP, L.PH_REINFORCE):
        return "placement"
    if phase == L.PH_OCCUPY:
        return "move-in"
    if phase == L.PH_FORTIFY:
        return "fortify" if act[0] == L.A_FORTIFY else "no fortify"
    if phase == L.PH_TRADE:
        return "trade" if act[0] == L.A_TRADE else "keep cards"
    if why.plan is not None:
        if not why.plan.options:
            return "battle on" if act[0] == L.A_ATTACK else "stop"
        return "kept choice" if why.plan.kept_greedy() else "plan"
    return "attack" if act[0] == L.A_ATTACK else "stop"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, object]]]:
    """Accounts of recorded decisions by kind: the planning champion and the same weights
    played greedily, against two bundled bots."""
    weights = read_bot_file("champion").weights
    greedy = tmp_path_factory.mktemp("bots") / "greedy.json"
    save_genome(greedy, weights)
    specs = ("champion", str(greedy), "strategist", "aggressive")
    labels = ("champion", "greedy", "strategist", "aggressive")
    by_kind: dict[str, list[dict[str, object]]] = {}
    for seed in (3, 4):
        g = LiveGame(classic_map(), Rules(cap=30), [
            Seat(x, make_bot(s), trusted(s), s) for x, s in zip(labels, specs, strict=True)], seed)
        g.advance(1_000_000)
        for i, why in sorted(g.whys.items()):
            seat = int(why.state.sc[L.S_CURRENT])
            out = account(why, g.m, g.rules, weights, g.labels[seat], recorded=True)
            by_kind.setdefault(kind_of(why), []).append(out)
            if len(by_kind.get("re-estimated", [])) < 20 and why.plan is not None:
                lines = g.transcript()
                by_kind.setdefault("re-estimated", []).append(explain_json(
                    "champion", lines, i + 1))
    return by_kind


KINDS = ("placement", "attack", "plan", "kept choice", "battle on", "move-in", "fortify",
         "trade", "keep cards", "stop", "re-estimated")


@pytest.mark.parametrize("kind", KINDS)
def test_plain_words_of_every_kind(recorded: dict[str, list[dict[str, object]]],
                                   kind: str) -> None:
    outs = recorded.get(kind, [])
    assert outs, f"no recorded decision of kind {kind!r}"
    if kind == "fortify":  # and the rarer kinds these games hold (no fortify, ...)
        outs = outs + [o for k, os in recorded.items() if k not in KINDS for o in os]
    for out in outs:
        text = str(out["plain"])
        assert text and text[0].isupper(), text
        assert not FORMULA.search(text), (kind, FORMULA.search(text), text)
        low = text.lower()
        assert not [w for w in INTERNAL if w in low], (kind, text)
        assert ": ." not in text and "because ." not in text and "0.00" not in text, text
        nexts = sum(low.count(x) for x in ("next choice", "came next", "ahead of", "next best"))
        assert nexts <= 1 and not ("tied" in low and "lower" in low), text
        assert text.count(". ") + text.count("; ") <= 4, text  # a sentence or two, and a note
        assert str(out["text"]), "the arithmetic stays behind the words"


def test_an_attack_says_the_armies_and_the_odds(
        recorded: dict[str, list[dict[str, object]]]) -> None:
    for out in recorded["attack"] + recorded["plan"]:
        if out["action"][0] != L.A_ATTACK:  # type: ignore[index]
            continue
        assert re.search(r"\d+ against \d+, (about \d+ in 10|almost sure|little chance)",
                         str(out["plain"])), out["plain"]


def test_every_value_term_has_plain_words() -> None:
    from arena.plainwords import VALUE_WORDS
    from features.search.plan import NET_TERM
    from features.search.value import NAMES

    assert set(VALUE_WORDS) == {*NAMES, NET_TERM}
    assert not [w for w in VALUE_WORDS.values() if FORMULA.search(w)]


def test_the_arithmetic_never_calls_another_move_the_bots_own(
        recorded: dict[str, list[dict[str, object]]]) -> None:
    overridden = 0
    for outs in recorded.values():
        for out in outs:
            text, who, move = str(out["text"]), str(out["bot"]), str(out["move"])
            heads = [x for x in text.splitlines() if x.startswith(f"{who}, ")]
            assert all(x.endswith(f": {move}") for x in heads), (move, heads)
            overridden += "its weights alone would" in text
    assert overridden > 0  # the champion's plans replace its weights' choice somewhere


@pytest.mark.parametrize(("options", "said"), [
    # the greedy placement kept: the best single territory was no better
    (((5, 5, 0.40), (-2, -2, 0.50)), "putting every army on one territory was not clearly better"),
    # the pool on one territory, the player's own ranking: no other territory was better
    (((5, 5, 0.40), (7, 7, 0.50)), "and no other territory was clearly better."),
    (((7, 7, 0.60), (5, 5, 0.50)), "and this left the best position."),
])
def test_a_placement_plan_in_words_says_what_it_found(
        options: tuple[tuple[int, int, float], ...], said: str) -> None:
    from arena.plainwords import _placement
    from features.why import PlanExplanation, PlanOption

    m = classic_map()
    opts = tuple(PlanOption(s, t, v, ()) for s, t, v in options)
    plan = PlanExplanation((L.A_PLACE, 0, 3, 0), opts, 64, "attacks")
    place = max(plan.ranked()[0].source, 5)  # the greedy placement's territory: 5
    words = _placement([L.A_PLACE, place, 3, 0], plan, m)
    assert said in words, words
    assert "no other territory was not" not in words  # a double negative said the opposite
