"""serve --record and diagnose --records: a served bot's games kept and measured from one seat."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from arena.behaviour import Counts, Watcher
from arena.bots import make_bot
from arena.measure.diagnose import main as diagnose_main
from arena.serve.recorder import Recorder
from arena.serve.records import read_records, records_table
from arena.serve.server import Server, SubprocessPlayer
from game.engine import play_game
from game.map import classic_map
from game.state import Rules
from tests.helpers.bounded import within

RULES = Rules(cap=40)  # long enough for trades, forced trades and eliminations to happen
SEEDS = (1, 2, 3)


class Recorded(SubprocessPlayer):
    """The protocol adapter talking to a recording Server in this process."""

    def __init__(self, spec: str, recorder: Recorder) -> None:
        super().__init__(None)
        self.server = Server(lambda: make_bot(spec), recorder=recorder)
        self.asks = 0

    def exchange(self, line: str) -> str:
        self.asks += json.loads(line)["ask"] != "start_game"
        return json.dumps(self.server.handle(line)) + "\n"

    def end(self) -> None:
        self.server.handle('{"id": 0, "ask": "end_game"}')


def _games(folder: Path, spec: str = "aggressive") -> tuple[list[Counts], list[int]]:
    """Seeded games with a recorded seat: its in-engine counts and its number of asks."""
    rec = Recorder(folder)
    m = classic_map()
    counts, asks = [], []
    for seed in SEEDS:
        via = Recorded(spec, rec)
        watcher = Watcher(m, 4)
        out = play_game([via, *(make_bot("bully") for _ in range(3))],  # type: ignore[list-item]
                        map=m, rules=RULES, seed=seed, observer=watcher)
        via.end()
        seat = out.seats.index(0)
        counts.append(watcher.finish(None)[seat])
        asks.append(via.asks)
    return counts, asks


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Counts], list[int]]:
    folder = tmp_path_factory.mktemp("records")
    counts, asks = _games(folder)
    return folder, counts, asks


def test_one_file_per_game_a_line_per_ask(recorded: tuple[Path, list[Counts], list[int]]
                                           ) -> None:
    folder, _, asks = recorded
    files = sorted(folder.glob("game-*.jsonl"), key=lambda p: int(p.stem.split("-")[-1]))
    assert len(files) == len(SEEDS)
    for f, n in zip(files, asks, strict=True):
        lines = [json.loads(x) for x in f.read_text().splitlines()]
        assert lines[0]["record"] == "start" and lines[0]["map"]["name"]
        assert lines[-1] == {"record": "end"}
        assert len(lines) == n + 2 and all("action" in x for x in lines[1:-1])


def test_records_agree_with_the_engine(recorded: tuple[Path, list[Counts], list[int]]) -> None:
    folder, counts, _ = recorded
    games = sorted(read_records(folder), key=lambda g: int(g.path.stem.split("-")[-1]))
    engine = Counts()
    for c in counts:
        engine.add(c)
    table, rec, extra = records_table(games)
    assert extra.games == len(SEEDS) and extra.errors == 0
    # From the bot's answers and its turn-start states: exactly the referee's figures.
    for name in ("turns", "reinforce_turns", "owned", "ones", "held", "held_kept",
                 "held_checked", "cards_held", "trades", "forced_trades", "battles",
                 "fortifies"):
        assert getattr(rec, name) == getattr(engine, name), name
    assert rec.concentration == pytest.approx(engine.concentration)
    assert engine.trades > 0 and engine.forced_trades > 0  # the comparison means something
    # Estimated from later states: never more than the referee saw.
    assert 0 < rec.conquests <= engine.conquests and rec.battles_won <= engine.battles_won
    assert rec.card_turns <= engine.card_turns
    assert 0 < rec.defend_losses <= engine.defend_losses
    # An engine that sends neither `round` nor `turns`: turns end at a fortify instead.
    for g in games:
        for e in g.entries:
            e["round"], e["turns"] = 1, 0
    _, blind, _ = records_table(games)
    assert blind.trades == engine.trades and blind.fortifies == engine.fortifies
    assert 0.9 * engine.battles <= blind.battles <= engine.battles  # merged turns
    assert 0.8 * engine.turns <= blind.turns <= engine.turns
    rows = {name: vals[0] for name, _, vals in table}
    assert rows["reinforce_concentration"] == pytest.approx(
        engine.concentration / engine.reinforce_turns)
    assert rows["forced_trade_share"] == pytest.approx(engine.forced_trades / engine.trades)


def test_cli_and_bad_input(recorded: tuple[Path, list[Counts], list[int]], tmp_path: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:
    folder, _, _ = recorded
    assert diagnose_main(["--records", str(folder), "--label", "agg"]) == 0
    out = capsys.readouterr().out
    assert "reinforce_concentration" in out and "agg" in out and "win_rate" in out
    # A torn last line (a kill mid-write) and a garbled middle line cost only themselves.
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    src = sorted(folder.glob("*.jsonl"))[0]
    lines = src.read_text().splitlines(keepends=True)
    lines[5] = "{not json\n"
    (damaged / src.name).write_text("".join(lines[:-2]) + lines[-2][:30])  # no end line
    warned: list[str] = []
    games = read_records(damaged, warn=warned.append)
    assert len(games) == 1 and games[0].damaged == [6, len(lines) - 1]
    assert len(warned) == 1 and src.name in warned[0]
    assert len(games[0].entries) == len(lines) - 4  # header, 2 damaged lines, no end line
    assert diagnose_main(["--records", str(damaged)]) == 0
    assert "damaged line(s) 6" in capsys.readouterr().err
    (damaged / "notes.jsonl").write_text('{"hello": 1}\n')
    assert diagnose_main(["--records", str(damaged)]) == 2
    errors = [x for x in capsys.readouterr().err.splitlines() if x.startswith("error")]
    assert len(errors) == 1 and "notes.jsonl" in errors[0]
    assert "not a serve --record file" in errors[0]
    assert diagnose_main(["--records", str(tmp_path / "missing")]) == 2
    assert "no such folder" in capsys.readouterr().err


@pytest.mark.parametrize("hostile, said", [
    ("fifo", "FIFO"),
    ("folder", "a folder"),
    ("entry", "decision entry 1 is not a record entry"),
    ("fields", "(AttributeError"),
    ("file size", "larger than 2048 bytes"),
    ("folder size", "more than the 0 MiB"),
])
def test_hostile_records_are_one_line_errors(recorded: tuple[Path, list[Counts], list[int]],
                                            tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch, hostile: str,
                                            said: str) -> None:
    import os

    import arena.serve.records as records

    folder, _, _ = recorded
    d = tmp_path / "d"
    d.mkdir()
    src = sorted(folder.glob("*.jsonl"))[0]
    header = src.read_text().splitlines(keepends=True)[0]
    # A line nested past the parser's depth costs only itself (never a traceback).
    (d / "a.jsonl").write_text(header + "[" * 100_000 + "\n")
    assert read_records(d, warn=lambda text: None)[0].damaged == [2]
    if hostile == "fifo":
        os.mkfifo(d / "b.jsonl")  # read without waiting for a writer
    elif hostile == "folder":
        (d / "b.jsonl").mkdir()
    elif hostile == "entry":
        (d / "b.jsonl").write_text(header + json.dumps({"owner": [0], "armies": 5}) + "\n")
    elif hostile == "fields":
        entry = {"owner": [0, 1], "armies": [1, 1], "ask": "fortify", "round": 1, "fields": [1]}
        (d / "b.jsonl").write_text(header + json.dumps(entry) + "\n")
    elif hostile == "file size":
        monkeypatch.setattr(records, "MAX_FILE_BYTES", 2048)
        (d / "b.jsonl").write_text(header + " " * 4096 + "\n")
    else:
        monkeypatch.setattr(records, "MAX_BYTES", 1)
    capsys.readouterr()
    assert within(60, lambda: diagnose_main(["--records", str(d)])) == 2
    err = capsys.readouterr().err.strip().splitlines()
    errors = [x for x in err if x.startswith("error")]
    assert len(errors) == 1 and said in errors[0] and len(err) <= 2, err  # a's warning


def test_caps_and_failures_never_change_answers(tmp_path: Path) -> None:
    warned: list[str] = []
    rec = Recorder(tmp_path / "capped", max_games=1, warn=warned.append)
    start = {"id": 0, "ask": "start_game", "map": {"name": "tiny", "continents": [
        {"name": "N", "bonus": 2, "territories": ["A", "B", "C"]}], "borders": [
        ["A", "B"], ["B", "C"]]}, "seat": 0, "n_players": 2,
        "state": {"owner": [0, 1, 0], "armies": [1, 1, 1]}}
    ask = {"id": 1, "ask": "reinforce", "state": {"owner": [0, 1, 0], "armies": [3, 2, 1]},
           "armies": 3}
    plain = Server(lambda: make_bot("aggressive"))
    server = Server(lambda: make_bot("aggressive"), recorder=rec)
    for _ in range(3):
        for req in (start, ask):
            assert server.handle(json.dumps(req)) == plain.handle(json.dumps(req))
    assert len(list((tmp_path / "capped").iterdir())) == 1
    assert len(warned) == 1 and "1 game files" in warned[0]
    # A folder that disappears: one warning, the answers stay.
    warned.clear()
    gone = tmp_path / "gone"
    rec = Recorder(gone, warn=warned.append)
    gone.rmdir()
    server = Server(lambda: make_bot("aggressive"), recorder=rec)
    assert server.handle(json.dumps(start)) == {"id": 0, "ok": True}
    assert server.handle(json.dumps(ask)) == plain.handle(json.dumps(ask))
    assert len(warned) == 1 and "cannot create" in warned[0]


def test_stdio_and_tcp_record(tmp_path: Path) -> None:
    from tests.helpers.serve import START, TcpServer, request

    lines = [json.dumps(START), json.dumps(request("attack", 2)), json.dumps(START),
             json.dumps(request("fortify", 3))]
    out = subprocess.run([sys.executable, "-m", "arena", "serve", "random", "--record",
                          str(tmp_path / "stdio")], input="\n".join(lines) + "\n", text=True,
                         capture_output=True, timeout=60, check=True)
    assert out.stdout.count("\n") == 4
    files = sorted((tmp_path / "stdio").glob("*.jsonl"))
    assert [len(f.read_text().splitlines()) for f in files] == [2, 2]
    import os

    os.environ["RISKEVO_RECORD"] = str(tmp_path / "tcp")  # serve's default for --record
    try:
        srv = TcpServer("random")
    finally:
        del os.environ["RISKEVO_RECORD"]
    try:
        for _ in range(2):
            s = srv.session()
            s.ask(START)
            assert "action" in s.ask(request("attack", 2))
            s.ask({"id": 9, "ask": "end_game"})
            s.close()
    finally:
        srv.stop()
    files = sorted((tmp_path / "tcp").glob("*.jsonl"))
    assert [len(f.read_text().splitlines()) for f in files] == [3, 3]
