"""The replay of a transcript follows the kernel's own state after every action."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import version
from game.bots import BOTS
from game.engine import play_game
from game.record.replay import ReplayError, read_transcript, replay
from game.state import Rules, State

OLD = Path(__file__).parents[1] / "data" / "transcript_before_version.txt"


def _snapshots(players: list, rules: Rules, seed: int) -> tuple[list, tuple[str, ...]]:
    snaps: list[tuple[list[int], list[int], list[list[int]], list[bool]]] = []

    def observe(state: State, seat: int, action: object) -> None:
        n = state.n_players
        snaps.append((state.owner.tolist(), state.armies.tolist(),
                      [sorted(state.hand(s)) for s in range(n)],
                      [state.alive(s) for s in range(n)]))

    out = play_game(players, rules=rules, seed=seed, transcript=True, observer=observe)
    assert out.transcript is not None
    return snaps, out.transcript


CASES = [
    (["aggressive", "random", "continent", "bully"], Rules(cap=60), 1),
    (["strategist", "hunter", "planner"], Rules(missions=True, cap=80), 2),
    (["aggressive"] * 5 + ["random"], Rules(bonus_every_set=True, trade_at=4), 3),
    (["distributor", "aggressive"], Rules(fixed_cards=True, path_fortify=True), 4),
]


@pytest.mark.parametrize(("bots", "rules", "seed"), CASES)
def test_replay_matches_kernel_after_every_action(bots: list[str], rules: Rules,
                                                  seed: int) -> None:
    snaps, lines = _snapshots([BOTS[b]() for b in bots], rules, seed)
    rep = replay(lines)
    # The frame after the last line an action wrote (its card and eliminations follow it).
    after: list = []
    for f in rep.frames[1:]:
        words = f.line.split()
        if f.seat < 0 or words[2] in ("card", "eliminates"):
            if after and f.seat >= 0:
                after[-1] = f
            continue
        after.append(f)
    assert len(after) == len(snaps)
    for k, (f, (owner, armies, hands, alive)) in enumerate(zip(after, snaps, strict=True)):
        assert (f.owner, f.armies) == (owner, armies), f"action {k}: {f.line}"
        assert [sorted(h) for h in f.hands] == hands, f"action {k}: {f.line}"
        assert f.alive == alive, f"action {k}: {f.line}"
    assert rep.result.startswith("end ")
    assert rep.frames[-1].text.startswith("game ")


def test_replay_words_name_players_and_places() -> None:
    _, lines = _snapshots([BOTS["aggressive"](), BOTS["random"]()], Rules(cap=30), 7)
    rep = replay(lines, labels=["champ", "rando"])
    texts = [f.text for f in rep.frames]
    assert any(t.startswith(("champ attacks", "rando attacks")) and " vs " in t for t in texts)
    assert any(" places " in t for t in texts)


def test_a_transcript_names_its_version_and_players_and_the_replay_who_won() -> None:
    out = play_game([BOTS["aggressive"](), BOTS["random"]()], rules=Rules(cap=30), seed=7,
                    transcript=True, labels=["champ.json", "two\nlines " + "x" * 200])
    assert out.transcript is not None and out.winner is not None
    assert out.transcript[1] == f"version {version.riskevo_version()}"
    rep = replay(out.transcript)
    assert rep.version == version.riskevo_version() != ""
    assert rep.labels == ["champ.json", ("two lines " + "x" * 200)[:80]]
    assert f"1. {rep.labels[out.winner]}" in rep.frames[-1].text
    default = play_game([BOTS["aggressive"](), BOTS["random"]()], rules=Rules(cap=30), seed=7,
                        transcript=True)
    assert replay(default.transcript or ()).labels == ["aggressive", "random"]


def test_a_transcript_from_before_the_version_still_replays() -> None:
    lines = read_transcript(OLD)
    assert not any(x.startswith(("version ", "player ")) for x in lines)
    rep = replay(lines)
    assert rep.version == "" and rep.labels == [] and rep.result.startswith("end ")
    assert "1. seat " in rep.frames[-1].text


@pytest.mark.parametrize(("text", "needle"), [
    ("hello\n", "not a transcript"),
    ("riskevo-transcript 1\nmap classic\nseats 0 1\n", "no 'deal' line"),
    ("riskevo-transcript 1\nmap classic\nseats 0 1\ndeal 0 1\n", "names 2 territories"),
])
def test_bad_transcripts_name_the_problem(text: str, needle: str) -> None:
    with pytest.raises(ReplayError, match=needle):
        replay(text.splitlines())


def test_bad_line_is_named(tmp_path) -> None:  # type: ignore[no-untyped-def]
    _, lines = _snapshots([BOTS["aggressive"](), BOTS["random"]()], Rules(cap=5), 8)
    bad = list(lines)
    bad[8] = bad[8].split(" ", 2)[0] + " s0 attack Nowhere Peru 3 = 1 v 1 -1 -0"
    p = tmp_path / "t.txt"
    p.write_text("\n".join(bad))
    with pytest.raises(ReplayError, match="line 9"):
        replay(read_transcript(p))
    with pytest.raises(ReplayError, match="No such file"):
        read_transcript(tmp_path / "missing.txt")
    import os

    from tests.helpers.bounded import within

    os.mkfifo(tmp_path / "fifo.txt")  # refused at once, not waited on for a writer
    with pytest.raises(ReplayError, match="FIFO"):
        within(60, lambda: read_transcript(tmp_path / "fifo.txt"))


def test_play_saves_a_transcript_that_replays(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from arena.play import main

    p = tmp_path / "game.txt"
    assert main(["aggressive", "random", "--seed", "3", "--cap", "20", "--save", str(p)]) == 0
    rep = replay(read_transcript(p))
    assert rep.result.startswith("end ") and len(rep.frames) > 40
    q = tmp_path / "twins.txt"
    assert main(["random", "random", "--seed", "3", "--cap", "5", "--save", str(q)]) == 0
    assert replay(read_transcript(q)).labels == ["random", "random#2"]  # as the command shows


def test_tournament_transcripts_replay(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from arena.measure.tournament import main

    out = tmp_path / "t"
    assert main(["continent", "random", "bully", "--games", "3", "--per-game", "3", "--cap",
                 "15", "--jobs", "1", "--out", str(out), "--transcripts"]) == 0
    files = sorted((out / "transcripts").glob("game-*.txt"))
    assert [f.name for f in files] == ["game-0.txt", "game-1.txt", "game-2.txt"]
    for f in files:
        assert replay(read_transcript(f)).result.startswith("end ")


def test_diagnose_transcripts_replay(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from arena.measure.diagnose import main

    out = tmp_path / "d"
    assert main(["aggressive", "random", "--games", "2", "--jobs", "1", "--rules", "cap=15",
                 "--out", str(out), "--transcripts"]) == 0
    files = sorted((out / "transcripts").glob("game-*.txt"))
    assert [f.name for f in files] == ["game-0.txt", "game-1.txt"]
    assert all(replay(read_transcript(f)).result.startswith("end ") for f in files)
