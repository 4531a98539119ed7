"""The crowning evidence a run prints and reports: each margin beside its noise."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evolve.progress import summary
from evolve.rating.crownings import (
    beyond_noise,
    candidate_trend,
    closing_words,
    noise,
    playoff_words,
    reigns,
    section_html,
    trend_html,
    trend_words,
    verdict,
)
from evolve.run_cmd import _print_closing_words
from evolve.runfolder import RunFolder


def po(cand: int, inc: int, discordant: int, crowned: bool, born: int = -1) -> dict[str, Any]:
    return {"games": 1000, "candidate_wins": cand, "incumbent_wins": inc, "incumbent_born": born,
            "discordant": discordant, "needed": 0.0, "crowned": crowned}


def ev(wins: int, champ: int) -> dict[str, Any]:
    return {"games": 1000, "wins": wins, "win_rate": wins / 1000, "lo": 0.0, "hi": 1.0,
            "champion_generation": champ}


def rec(gen: int, playoff: dict[str, Any] | None = None,
        evaluation: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"generation": gen, "games": 2048, "wall_s": 1.0, "games_per_s": 2048.0,
            "mu_mean": 25.0, "mu_std": 0.8, "mu_max": 28.0, "champion_index": 0,
            "champion_mu": 27.0, "champion_sigma": 1.0, "mean_rounds": 15.0,
            "capped_fraction": 0.0, "playoff": playoff, "eval": evaluation,
            "proven_generation": 0}


@pytest.mark.parametrize(("p", "words", "clear"), [
    (po(600, -1, -1, True), "600 of 1000", False),  # a first champion has no rival
    (po(684, 667, 300, True, 50), "684 vs 667 of 1000 (+17, noise ±34)", False),
    (po(700, 630, 400, True, 50), "700 vs 630 of 1000 (+70, noise ±39)", True),
    (po(576, 651, 400, False, 50), "576 vs 651 of 1000 (-75, noise ±39)", False),
])
def test_a_playoff_reads_as_its_margin_beside_its_noise(p: dict[str, Any], words: str,
                                                        clear: bool) -> None:
    assert playoff_words(p) == words
    assert beyond_noise(p) is clear


def test_noise_is_the_95_percent_half_width_of_the_paired_difference() -> None:
    assert noise(400) == pytest.approx(1.96 * 20)
    assert noise(0) == 0.0


LOG = [
    rec(50, po(500, -1, -1, True), ev(500, 50)),
    rec(100, po(600, 500, 300, True, 50), ev(600, 100)),  # +100, beyond the noise
    rec(150, po(590, 610, 300, False, 100), ev(620, 100)),
    rec(200, po(615, 605, 300, True, 100), ev(610, 200)),  # +10, within
    rec(210),
]


def test_reigns_pool_each_champions_evaluations_and_end_at_the_next_crowning() -> None:
    rs = reigns(LOG)
    assert [(r.born, r.until, r.eval_wins, r.eval_games) for r in rs] == [
        (50, 100, 500, 1000), (100, 200, 1220, 2000), (200, None, 610, 1000)]


def test_the_verdict_names_the_last_clear_crowning_and_what_came_after() -> None:
    assert verdict(LOG) == ("Last crowning beyond the noise: generation 100, 600 vs 500 of "
                            "1000 (+100, noise ±34); since then, to generation 210, 2 playoffs "
                            "and 1 crowning within the noise (the last at generation 200).")
    # the generation a crowning within the noise names is its own, not the log's last
    assert verdict([*LOG[:3], rec(300)]).endswith("1 playoff and no crowning.")
    level = [LOG[0], rec(100, po(505, 500, 300, True, 50))]
    assert verdict(level).startswith("No crowning so far was beyond the noise")
    assert verdict([rec(5)]) == "No champion crowned yet."
    # one champion, the first: it beat no incumbent, and "the 1 champions" told nothing
    assert verdict([LOG[0], rec(74)]) == ("One champion so far, crowned in generation 50 as the "
                                          "run's first, with no incumbent to beat (the log runs "
                                          "to generation 74).")
    html = section_html(LOG)
    reign_table = html.split("<p>The playoff candidates")[0]
    assert reign_table.count("<tr>") == 4 and "0.610 [" in reign_table
    assert [c for c in ("<td>first</td>", "<td>yes</td>", "<td>no</td>") if c in html] == [
        "<td>first</td>", "<td>yes</td>", "<td>no</td>"]


def test_the_progress_line_says_whether_a_crowning_cleared_its_noise() -> None:
    assert "crowned, beyond the noise" in summary(LOG[1], 1000)
    assert "crowned within the noise" in summary(LOG[3], 1000)
    assert "(-20, noise ±34): kept the champion of generation 100" in summary(LOG[2], 1000)


def test_the_verdict_counts_the_restarts() -> None:
    plain = verdict(LOG)
    assert "restarted" not in plain
    log = [*LOG[:3], {**LOG[3], "restart": True}, {**LOG[4], "restart": True}]
    assert verdict(log) == plain + " The population restarted 2 times, last after generation 210."


def candidates(wins: list[int]) -> list[dict[str, Any]]:
    """A log with one playoff every 50 generations whose candidates won these of 1000."""
    return [rec(50 * (i + 1), po(w, 500, 300, False, 50)) for i, w in enumerate(wins)]


@pytest.mark.parametrize(("wins", "parts", "expect"), [
    ([600, 610, 640, 650], 2, [(50, 100, 2, 1210, 2000), (150, 200, 2, 1290, 2000)]),
    ([600, 610, 640], 2, [(50, 50, 1, 600, 1000), (100, 150, 2, 1250, 2000)]),
    ([600], 8, [(50, 50, 1, 600, 1000)]),
    ([], 8, []),
])
def test_the_candidate_trend_pools_equal_numbers_of_playoffs(
        wins: list[int], parts: int, expect: list[tuple[int, ...]]) -> None:
    got = [(t.first, t.last, t.playoffs, t.wins, t.games)
           for t in candidate_trend(candidates(wins), parts)]
    assert got == expect


def test_the_trend_says_whether_later_candidates_are_stronger_beyond_the_noise() -> None:
    rising = candidate_trend(candidates([600] * 8 + [640] * 8), 4)
    words = trend_words(rising)
    assert words.startswith("The playoff candidates of generations 650-800 won 0.640 [")
    assert "+0.040 compared with those of generations 50-200 (beyond the noise: stronger" in words
    assert "+0.000 compared with the stretch before (within the noise)" in words
    flat = trend_words(candidate_trend(candidates([600, 605, 598, 602]), 2))
    assert "(within the noise: no clearly different candidates than at the start)" in flat
    falling = trend_words(candidate_trend(candidates([650] * 4 + [600] * 4), 2))
    assert "-0.050 compared with" in falling and "weaker candidates" in falling
    assert trend_words(candidate_trend(candidates([600]))) == ""
    assert trend_html(candidates([600])) == ""
    assert trend_html(candidates([600] * 8 + [640] * 8)).count("<tr>") == 1 + 8


def test_closing_words_join_the_verdict_and_the_trend() -> None:
    log = candidates([600] * 8 + [640] * 8)
    assert closing_words(log) == verdict(log) + " " + trend_words(candidate_trend(log))
    assert closing_words(LOG[:1]) == verdict(LOG[:1])  # one playoff: no trend yet


@pytest.mark.parametrize("error", [OSError(5, "I/O error"), KeyboardInterrupt()])
def test_closing_words_are_skipped_when_the_log_cannot_be_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        error: BaseException) -> None:
    folder = RunFolder(tmp_path / "r")
    (tmp_path / "r").mkdir()
    folder.log.write_text("".join(json.dumps(r) + "\n" for r in LOG))
    _print_closing_words(folder)
    assert capsys.readouterr().out == closing_words(LOG) + "\n"

    def fail(*_: object, **__: object) -> None:
        raise error
    monkeypatch.setattr(RunFolder, "read_log", fail)
    _print_closing_words(folder)  # neither raises nor prints
    assert capsys.readouterr().out == ""
