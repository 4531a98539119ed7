"""Anchored league: bundled bots and a hall of past champions seated in league games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evolve.checkpoint import checkpoint_path, load_checkpoint
from evolve.rating.anchors import Anchors, seat_anchors
from evolve.rating.league import draw_groups
from evolve.run_cmd import main as run_main
from tests.helpers.fake_run import fake_save_genome, tiny_args, untimed_log

LEAGUE = ("--set", "league.bots=['fixedbot']", "--set", "league.seats=1",
          "--set", "league.hall_every=2", "--set", "league.hall_size=2")


def _pool(hall: int = 0) -> Anchors:
    a = Anchors.create(["b1", "b2"], {"b1": 3, "b2": 4}, 3, 25.0, 8.0)
    for i in range(hall):
        a.admit(np.full(3, float(i + 1)), 10 * (i + 1), 30.0 + i, 1.0, size=8)
    return a


def test_anchors_take_distinct_seats_with_their_policies() -> None:
    rng = np.random.default_rng(0)
    genes = rng.normal(size=(9, 3))
    groups = draw_groups(9, 4, 2, rng)
    pool = _pool(hall=2)
    lg = seat_anchors(groups, genes, pool, 2, rng)
    assert lg.slots.shape == (len(groups), 4) and lg.policies is not None
    np.testing.assert_array_equal(lg.slots[:, :2], groups)
    anchor_slots = lg.slots[:, 2:] - 9
    assert ((anchor_slots >= 0) & (anchor_slots < 4)).all()
    assert (anchor_slots[:, 0] != anchor_slots[:, 1]).all()  # one player never sits twice
    codes = np.array([3, 4, 0, 0])
    np.testing.assert_array_equal(lg.policies[:, 2:], codes[anchor_slots])
    assert (lg.policies[:, :2] == 0).all()
    # Hall members play by their genes; bots' rows are unused zeros.
    for g, (a, b) in enumerate(anchor_slots):
        for col, k in ((2, a), (3, b)):
            want = np.zeros(3) if k < 2 else pool.hall_genes[k - 2]
            np.testing.assert_array_equal(lg.weights[g, col], want)
    # Every anchor is seated somewhere over enough games.
    assert set(anchor_slots.ravel()) == {0, 1, 2, 3}


def test_hall_only_needs_no_policies_and_no_anchor_means_plain_groups() -> None:
    rng = np.random.default_rng(1)
    genes = rng.normal(size=(8, 3))
    groups = draw_groups(8, 2, 3, rng)
    hall = Anchors.create([], {}, 3, 25.0, 8.0)
    hall.admit(np.ones(3), 5, 30.0, 1.0, size=4)
    lg = seat_anchors(groups, genes, hall, 1, rng)
    assert lg.policies is None and (lg.slots[:, 3] == 8).all()
    plain = seat_anchors(groups, genes, Anchors.create([], {}, 3, 25.0, 8.0), 1, rng)
    assert plain.slots is groups and plain.policies is None


def test_hall_is_bounded_oldest_first_and_round_trips() -> None:
    pool = _pool()
    assert pool.admit(np.ones(3), 5, 30.0, 1.0, size=2)
    assert not pool.admit(np.ones(3), 6, 31.0, 1.0, size=2)  # the same genes once
    assert pool.admit(np.full(3, 2.0), 7, 32.0, 1.1, size=2)
    assert pool.admit(np.full(3, 3.0), 9, 33.0, 1.2, size=2)
    assert list(pool.hall_generation) == [7, 9] and pool.labels()[2:] == ["hall:gen 7",
                                                                          "hall:gen 9"]
    assert list(pool.mu) == [25.0, 25.0, 32.0, 33.0]  # bots keep their slots and ratings
    back = Anchors.create(["b1", "b2"], {"b1": 3, "b2": 4}, 3, 25.0, 8.0)
    back.restore(pool.arrays())
    for k, v in pool.arrays().items():
        np.testing.assert_array_equal(back.arrays()[k], v)
    with pytest.raises(ValueError, match="unexpected shapes"):
        back.restore({**pool.arrays(), "league.mu": np.zeros(3)})


def test_fixed_genomes_sit_between_bots_and_hall_and_never_leave() -> None:
    fixed = [("old", np.full(3, 7.0)), ("older", np.full(3, 8.0))]
    pool = Anchors.create(["b1"], {"b1": 3}, 3, 25.0, 8.0, fixed)
    assert pool.admit(np.ones(3), 5, 30.0, 1.0, size=1)
    assert pool.admit(np.full(3, 2.0), 7, 32.0, 1.1, size=1)  # gen 5 leaves, not a genome
    assert pool.labels() == ["b1", "genome:old", "genome:older", "hall:gen 7"]
    assert list(pool.mu) == [25.0, 25.0, 25.0, 32.0]
    rng = np.random.default_rng(3)
    genes = rng.normal(size=(6, 3))
    lg = seat_anchors(draw_groups(6, 4, 1, rng), genes, pool, 3, rng)
    assert lg.policies is not None
    for g in range(len(lg.slots)):
        for col in (1, 2, 3):
            k = lg.slots[g, col] - 6
            want = [np.zeros(3), np.full(3, 7.0), np.full(3, 8.0), np.full(3, 2.0)][k]
            np.testing.assert_array_equal(lg.weights[g, col], want)
            assert lg.policies[g, col] == (3 if k == 0 else 0)
    # A resumed run takes the fixed genomes from its checkpoint, not from the files again.
    back = Anchors.create(["b1"], {"b1": 3}, 3, 25.0, 8.0,
                          [("old", np.zeros(3)), ("older", np.zeros(3))])
    back.restore(pool.arrays())
    np.testing.assert_array_equal(back.fixed_genes, pool.fixed_genes)
    with pytest.raises(ValueError, match="unexpected shapes"):
        Anchors.create(["b1"], {"b1": 3}, 3, 25.0, 8.0).restore(pool.arrays())


def _final(runs: Path) -> tuple[bytes, list[dict[str, Any]]]:
    root = runs / "t"
    ck = checkpoint_path(root / "checkpoints", 5).read_bytes()
    return ck, untimed_log(root)


def test_league_run_rates_anchors_and_resumes_identically(tmp_path: Path) -> None:
    assert run_main([*tiny_args(tmp_path / "full"), *LEAGUE]) == 0
    ck, log = _final(tmp_path / "full")
    # Generation 0 seats the bot only; at generations 2 and 4 the proven champion joins the
    # hall unless it is there already.
    assert [a[0] for a in log[0]["anchors"]] == ["fixedbot"]
    hall, seen = [], set()
    for g in (2, 4):
        if log[g]["proven_generation"] not in seen:
            seen.add(log[g]["proven_generation"])
            hall.append(g)
    assert [a[0] for a in log[-1]["anchors"]] == ["fixedbot", *(f"hall:gen {g}" for g in hall)]
    assert log[0]["anchors"][0][2] < 8.0  # the bot was rated: its sigma shrank
    # 30 individuals x 8 games in groups of 3 plus one anchor seat: 80 games a generation.
    assert log[0]["games"] == 80
    state = load_checkpoint(checkpoint_path(tmp_path / "full" / "t" / "checkpoints", 5))
    assert list(state.arrays["league.hall.generation"]) == hall
    # Stop after generation 2 and resume: the same bytes as the uninterrupted run.
    args = tiny_args(tmp_path / "cut")
    args[args.index("--generations") + 1] = "3"
    assert run_main([*args, *LEAGUE]) == 0
    assert run_main([*tiny_args(tmp_path / "cut"), *LEAGUE]) == 0
    assert _final(tmp_path / "cut") == (ck, log)
    # And with two workers and small chunks.
    args = tiny_args(tmp_path / "two")
    args[args.index("--n-jobs") + 1] = "2"
    assert run_main([*args, "--chunk-games", "5", *LEAGUE]) == 0
    assert _final(tmp_path / "two") == (ck, log)


def test_league_genomes_run_and_resume_from_the_checkpoint(tmp_path: Path) -> None:
    bot = tmp_path / "champ.json"
    fake_save_genome(bot, np.array([0.5, -0.5, 0.25, 1.0]), {})
    league = ("--set", f"league.genomes=['{bot}']", "--set", "league.seats=1",
              "--set", "league.hall_size=0")
    assert run_main([*tiny_args(tmp_path / "full"), *league]) == 0
    ck, log = _final(tmp_path / "full")
    assert [a[0] for a in log[-1]["anchors"]] == ["genome:champ"]
    assert log[-1]["anchors"][0][2] < 8.0  # rated in the league games
    args = tiny_args(tmp_path / "cut")
    args[args.index("--generations") + 1] = "3"
    assert run_main([*args, *league]) == 0
    fake_save_genome(bot, np.zeros(4), {})  # the file changes: the checkpoint's genes count
    assert run_main([*tiny_args(tmp_path / "cut"), *league]) == 0
    assert _final(tmp_path / "cut") == (ck, log)


def test_seats_from_plays_the_plain_league_until_that_generation(tmp_path: Path) -> None:
    late = ("--set", "league.bots=['fixedbot']", "--set", "league.seats=1",
            "--set", "league.seats_from=3", "--set", "league.hall_size=0")
    assert run_main(tiny_args(tmp_path / "plain")) == 0
    assert run_main([*tiny_args(tmp_path / "late"), *late]) == 0
    plain, (ck, log) = untimed_log(tmp_path / "plain" / "t"), _final(tmp_path / "late")
    for g in range(3):  # before seats_from: the plain run's games, the bot unrated
        assert log[g]["games"] == 64  # 30 x 8 seats in groups of 4, the last groups filled
        assert log[g]["anchors"] == [["fixedbot", 25.0, pytest.approx(25 / 3)]]  # as it began
        assert {**log[g], "anchors": []} == plain[g]
    for g in range(3, 6):  # from it: one anchor seat in every game
        assert log[g]["games"] == 80
        assert log[g]["anchors"][0][2] < 8.0  # rated
    # A run stopped before seats_from and resumed plays the same games.
    args = tiny_args(tmp_path / "cut")
    args[args.index("--generations") + 1] = "2"
    assert run_main([*args, *late]) == 0
    assert run_main([*tiny_args(tmp_path / "cut"), *late]) == 0
    assert _final(tmp_path / "cut") == (ck, log)


@pytest.mark.parametrize(("setting", "message"), [
    ("league.genomes=['/no/such.json']", "league.genomes: /no/such.json: not a fake genome"),
    ("league.bots=['nosuch']", "league.bots: 'nosuch' cannot be seated"),
    ("league.seats=4", "league.seats: must be < run.group_size"),
])
def test_bad_league_settings_are_one_line_errors(tmp_path: Path, capsys: Any, setting: str,
                                                 message: str) -> None:
    assert run_main([*tiny_args(tmp_path), "--set", setting]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


def test_the_real_plugin_reads_bot_files_for_league_genomes(tmp_path: Path) -> None:
    from evolve.config import ConfigError, load_config
    from evolve.plugin import default_plugin, league_genomes
    from features.botfile import save_genome
    from features.genome import LAYOUT, hand_set_genome

    plugin = default_plugin(load_config())
    save_genome(tmp_path / "hand.json", hand_set_genome())
    [(label, genes)] = league_genomes([str(tmp_path / "hand.json")], plugin)
    assert label == "hand" and genes.shape == (len(LAYOUT.names),)
    np.testing.assert_array_equal(genes, hand_set_genome())
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ConfigError, match=r"league\.genomes: .*bad\.json: not valid JSON"):
        league_genomes([str(tmp_path / "bad.json")], plugin)
    with pytest.raises(ConfigError, match="two files named 'hand'"):
        league_genomes([str(tmp_path / "hand.json")] * 2, plugin)
