"""The proven champion: evidence before candidacy, a playoff before a crowning."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evolve.checkpoint import list_checkpoints, load_checkpoint
from evolve.rating.champion import Proven, beats, candidate_index, playoff_seeds
from evolve.rating.crownings import closing_words
from evolve.run_cmd import main as run_main
from tests.helpers.fake_run import tiny_args


def test_candidate_needs_a_small_sigma() -> None:
    mu = np.array([30.0, 40.0, 28.0])
    sigma = np.array([1.0, 1.6, 0.9])
    # The lucky newcomer (#1, best mu - 3 sigma) is not eligible; #0 is the best of the rest.
    assert candidate_index(mu, sigma, 1.2) == 0
    assert candidate_index(mu, sigma, 2.0) == 1
    assert candidate_index(mu, sigma, 0.5) == -1


def _player(strength: dict[float, int]) -> Any:
    """Wins the first `strength` of the seeded games."""
    return lambda genes, seeds: np.arange(len(seeds)) < strength[float(genes[0])]


def test_playoff_crowns_only_a_strictly_better_candidate() -> None:
    seeds = playoff_seeds(1, 0, 10)
    play = _player({1.0: 3, 2.0: 3, 3.0: 5})
    p = Proven()
    first = p.playoff(np.array([1.0]), 30.0, 1.0, 4, play, seeds)
    assert first["crowned"] and first["incumbent_wins"] == -1 and p.born == 4
    tie = p.playoff(np.array([2.0]), 35.0, 0.9, 6, play, seeds)
    assert not tie["crowned"] and p.genes is not None and p.genes[0] == 1.0
    better = p.playoff(np.array([3.0]), 31.0, 1.1, 8, play, seeds)
    assert better == {"games": 10, "candidate_wins": 5, "incumbent_wins": 3,
                      "incumbent_born": 4, "discordant": 2, "needed": 0.0, "crowned": True}
    meta = p.meta()
    assert meta["crowned_generation"] == 8 and meta["playoff"]["wins"] == 5
    assert meta["playoff"]["dethroned_wins"] == 3 and meta["playoff"]["dethroned_generation"] == 4
    back = Proven.from_arrays(p.arrays(1), 1)
    fields = ("born", "mu", "sigma", "wins", "games", "beaten", "beaten_born")
    assert [getattr(back, f) for f in fields] == [getattr(p, f) for f in fields]
    np.testing.assert_array_equal(back.genes, p.genes)  # type: ignore[arg-type]
    assert Proven.from_arrays(Proven().arrays(1), 1).genes is None
    assert Proven.from_arrays({}, 1).genes is None


@pytest.mark.parametrize(("cand", "inc", "margin", "crowned"), [
    # 8 more wins in 8 discordant games: 8 > 2 sqrt(8) = 5.7.
    ([1] * 8 + [0] * 92, [0] * 100, 2.0, True),
    # The same 8 more wins among 60 discordant games (34 against 26): 8 < 2 sqrt(60) = 15.5.
    ([1] * 34 + [0] * 26 + [0] * 40, [0] * 34 + [1] * 26 + [0] * 40, 2.0, False),
    ([1] * 34 + [0] * 26 + [0] * 40, [0] * 34 + [1] * 26 + [0] * 40, 0.0, True),
    ([1] * 5 + [0] * 5, [1] * 5 + [0] * 5, 0.0, False),  # equal wins never crown
])
def test_crowning_is_a_paired_sign_test(cand: list[int], inc: list[int], margin: float,
                                        crowned: bool) -> None:
    c, i = np.array(cand, bool), np.array(inc, bool)
    ok, discordant, need = beats(c, i, margin)
    assert ok is crowned and discordant == int((c != i).sum())
    assert need == pytest.approx(margin * discordant ** 0.5)
    p = Proven(genes=np.array([1.0]), born=0)
    rec = p.playoff(np.array([2.0]), 30.0, 1.0, 5,
                    lambda g, s: c if g[0] == 2.0 else i, playoff_seeds(1, 5, len(c)), margin)
    assert rec["crowned"] is crowned and (p.born == 5) is crowned


def test_playoff_seeds_differ_per_generation() -> None:
    a, b = playoff_seeds(7, 10, 3), playoff_seeds(7, 12, 3)
    assert [s.generate_state(1)[0] for s in a] != [s.generate_state(1)[0] for s in b]


def test_run_writes_the_proven_champion(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_main(tiny_args(tmp_path)) == 0
    root = tmp_path / "t"
    log = [json.loads(x) for x in (root / "log.jsonl").read_text().splitlines()]
    playoffs = {r["generation"]: r["playoff"] for r in log if r["playoff"]}
    assert set(playoffs) <= {0, 2, 4} and 0 in playoffs  # every 2nd generation, if needed
    assert playoffs[0]["crowned"] and playoffs[0]["incumbent_wins"] == -1
    crowned = [g for g, p in playoffs.items() if p["crowned"]]
    assert log[-1]["proven_generation"] == crowned[-1]
    doc = json.loads((root / "champion.json").read_text())
    meta = doc["meta"]
    assert meta["proven"] is True and meta["crowned_generation"] == crowned[-1]
    assert meta["playoff"]["games"] == 20
    assert meta["playoff"]["lo"] <= meta["playoff"]["wins"] / 20 <= meta["playoff"]["hi"]
    # The checkpoint keeps the champion's genes: champion.json matches them.
    # Evaluations of an unchanged proven champion are pooled since its crowning.
    evals = [r for r in log if r["eval"]]
    for r in evals:
        e = r["eval"]
        if r["generation"] == r["proven_generation"] or "pooled_games" not in e:
            continue
        prev = [x["eval"] for x in evals if x["generation"] < r["generation"]
                and x["proven_generation"] == r["proven_generation"]]
        assert e["pooled_games"] == e["games"] + sum(x["games"] for x in prev)
        assert e["pooled_wins"] == e["wins"] + sum(x["wins"] for x in prev)
        assert e["pooled_lo"] <= e["pooled_win_rate"] <= e["pooled_hi"]
    assert all("pooled_games" in r["eval"] for r in evals if r["proven_generation"] is not None)
    # The run ends with its crowning verdict and the candidates' trend.
    assert closing_words(log) in capsys.readouterr().out.splitlines()
    ck = load_checkpoint(list_checkpoints(root / "checkpoints")[-1][1])
    stored = ck.arrays["champion.genes"][0]
    assert list(doc["genes"].values()) == stored.tolist()


def test_without_playoffs_the_champion_is_marked_unproven(tmp_path: Path) -> None:
    assert run_main(tiny_args(tmp_path, "t", "--set", "champion.every=0")) == 0
    meta = json.loads((tmp_path / "t" / "champion.json").read_text())["meta"]
    assert meta["proven"] is False and "mu" in meta
