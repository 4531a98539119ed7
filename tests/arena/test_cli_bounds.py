"""Command-line values past their bounds are one-line errors naming the option and what it
allows, before any game is played (an audit found these accepted, or a traceback)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.measure.diagnose import main as diagnose_main
from arena.measure.gauntlet import main as gauntlet_main
from arena.measure.tournament import main as tournament_main
from arena.play import main as play_main
from arena.serve.command import main as serve_main
from arena.watch import main as watch_main
from arena.web.app import main as web_main
from evolve.run_cmd import main as run_main

BIG_SEED = str(2**70)
FOUR = ["random"] * 4
MAINS: dict[str, Callable[[list[str]], int]] = {
    "tournament": tournament_main, "gauntlet": gauntlet_main, "diagnose": diagnose_main,
    "play": play_main, "watch": watch_main, "serve": serve_main, "run": run_main,
    "web": web_main}
CASES = [
    ("tournament", [*FOUR, "--games", "2000000"], "--games must be 1..1000000"),
    ("tournament", [*FOUR, "--games", "1", "--jobs", "0"], "--jobs must be -1 (all cores) or"),
    ("tournament", [*FOUR, "--games", "1", "--jobs", "-5"], "got -5"),
    ("tournament", [*FOUR, "--games", "1", "--jobs", "100000"], "1..4096, got 100000"),
    ("tournament", [*(["random"] * 8), "--games", "1", "--per-game", "8"],
     "--per-game must be 2..6, got 8"),
    ("tournament", [*(["random"] * 60), "--games", "1", "--per-game", "6"], "lineups"),
    ("tournament", [*FOUR, "--games", "1", "--seed", BIG_SEED], "--seed must be 0.."),
    ("gauntlet", ["random", "--games", str(10**12)], "--games must be 1..1000000"),
    ("diagnose", ["random", "--games", "0"], "--games must be 1..1000000, got 0"),
    ("play", [*FOUR, "--seed", BIG_SEED], "--seed must be 0..9223372036854775807"),
    ("watch", [*FOUR, "--seed", "1", "--out", "w", "--ms", "700000"], "--ms must be 1..655350"),
    ("serve", ["random", "--max-sessions", "0"], "--max-sessions must be 1..10000, got 0"),
    ("serve", ["random", "--idle-timeout", "-1"], "--idle-timeout must be more than 0"),
    ("serve", ["random", "--record-games", "-1"], "--record-games must be 1.."),
    ("run", ["--name", "", "--generations", "1"], "run name ''"),
    ("web", ["--host", "", "--port", "0"], "--host must name an address"),
    ("web", ["--seed", BIG_SEED, "--port", "0"], "--seed must be 0.."),
]


@pytest.mark.parametrize(("command", "argv", "said"), CASES,
                         ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(CASES)])
def test_a_value_past_its_bound_is_one_line_before_any_game(
        command: str, argv: list[str], said: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # any folder an accepted value would write lands here
    assert MAINS[command](argv) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and said in lines[0], err
    assert list(tmp_path.iterdir()) == []  # no output folder made for nothing


# Files a command writes, and names it reads, checked before any work (a second audit found
# these replaced a run's own file, renamed a folder, or failed only after the game).
def _evolve(argv: list[str]) -> int:
    from evolve.cli import main

    return main(argv)


def _explain(argv: list[str]) -> int:
    from arena.explain import main

    return main(argv)


def _plan(argv: list[str]) -> int:
    from evolve.plan.plan_cmd import main

    return main(argv)


def _bench(argv: list[str]) -> int:
    from evolve.bench.bench import main

    return main(argv)


OUTPUT_MAINS: dict[str, Callable[[list[str]], int]] = {
    "play": play_main, "plan": _plan, "bench": _bench, "evolve": _evolve,
    "diagnose": diagnose_main, "explain": _explain}
OUTPUT_CASES = [
    ("play", [*FOUR, "--save", "r/config.toml"], "is a file the run r writes itself"),
    ("play", [*FOUR, "--save", "r/genes/gen_00001.npz"], "writes itself"),
    ("play", [*FOUR, "--save", "d"], "--save d: is a folder"),
    ("play", [*FOUR, "--save", "fifo"], "--save fifo: exists and is not a regular file"),
    ("play", ["os:system", *FOUR[1:]], "has no class 'system'; or a bot .json file"),
    ("plan", ["champion", "--out", "r/config.toml"], "writes itself"),
    ("plan", ["champion", "--out", "fifo"], "is not a regular file"),
    ("plan", ["continent", "--out", "x.json"], "BOT continent: no such bot file or run folder"),
    ("bench", ["--out", "r/config.toml"], "writes itself"),
    ("bench", ["--out", "d"], "--out d: is a folder"),
    ("bench", ["--memory-generations", "-1"], "--memory-generations must be 0..10000, got -1"),
    ("evolve", ["nosuch"], "unknown subcommand 'nosuch' (allowed: run, bench,"),
    ("diagnose", ["--records", "fifo"], "--records fifo: not a folder"),
    ("explain", ["champion", "--transcript", "t.txt", "--line", "1", "--seed", "5"],
     "--seed cannot change them"),
]


@pytest.mark.parametrize(("command", "argv", "said"), OUTPUT_CASES,
                         ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(OUTPUT_CASES)])
def test_a_file_the_command_may_not_write_is_refused_before_any_work(
        command: str, argv: list[str], said: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r" / "genes").mkdir(parents=True)
    (tmp_path / "r" / "config.toml").write_text("[run]\n")
    (tmp_path / "r" / "genes" / "gen_00001.npz").write_bytes(b"genes")
    (tmp_path / "d").mkdir()
    os.mkfifo(tmp_path / "fifo")
    before = sorted(p.name for p in tmp_path.rglob("*"))
    assert OUTPUT_MAINS[command](argv) == 2
    out, err = capsys.readouterr()
    assert out == ""  # said before the game, not after it
    lines = err.strip().splitlines()
    assert len(lines) == 1 and said in lines[0] and lines[0].startswith("error: "), err
    assert lines[0].count("; or a bot .json file") <= 1
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # nothing written or renamed
    assert (tmp_path / "r" / "config.toml").read_text() == "[run]\n"


def test_bench_keeps_the_old_figures_until_new_ones_are_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An interrupted bench leaves --out as it was (it was renamed before the bench began)."""
    import evolve.bench.bench as bench

    out = tmp_path / "bench.json"
    out.write_text('{"old": 1}\n')

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(bench, "run_bench", interrupted)
    with pytest.raises(KeyboardInterrupt):
        bench.main(["--out", str(out)])
    assert out.read_text() == '{"old": 1}\n'
    assert not (tmp_path / "bench.previous.json").exists()
    monkeypatch.setattr(bench, "run_bench", lambda *a, **k: {"new": 2})
    monkeypatch.setattr(bench, "_compare", lambda new, old, name: print("compared", old))
    assert bench.main(["--out", str(out)]) == 0
    assert '"new": 2' in out.read_text()
    assert (tmp_path / "bench.previous.json").read_text() == '{"old": 1}\n'


@pytest.mark.parametrize(("command", "argv", "said"), [
    ("run", ["--generations", "abc"], "argument --generations: invalid int value: 'abc'"),
    ("play", [], "the following arguments are required: bots"),
    ("diagnose", [], "BOT is required (or --records DIR)"),
    ("tournament", [*FOUR, "--games", "x"], "argument --games: invalid int value"),
])
def test_an_argument_argparse_refuses_is_one_line_not_the_usage(
        command: str, argv: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`make evolve GENERATIONS=abc` printed a run's 16-line usage before the error."""
    with pytest.raises(SystemExit) as stop:
        MAINS[command](argv)
    assert stop.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {said}"), lines
    assert "--help` lists the options" in lines[0]
