"""The one reader of a run folder: a bad log line costs only itself, everywhere, with a warning."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from evolve.report.export import export_bot
from evolve.report.plots import load_run
from evolve.report.report import write_report
from evolve.run_cmd import main as run_main
from evolve.runfolder import BadLine, RunFolder, genes_file_name, parse_log
from tests.helpers.fake_run import tiny_args
from tests.helpers.synthetic_run import make_synthetic_run

REC = [json.dumps({"generation": g, "wall_s": 1.0 + g}).encode() for g in range(4)]
NOISE = np.random.default_rng(5).integers(0, 256, 400, dtype=np.uint8).tobytes()


def _lines(*parts: bytes) -> bytes:
    return b"".join(p + b"\n" for p in parts)


# Each case: log bytes, the generations that must survive, the bad line numbers.
CASES: dict[str, tuple[bytes, list[int], list[int]]] = {
    "torn line in the middle": (_lines(REC[0], REC[1][:17], REC[2], REC[3]), [0, 2, 3], [2]),
    "torn last line (a kill)": (_lines(REC[0], REC[1]) + REC[2][:9], [0, 1], [3]),
    "not UTF-8": (_lines(REC[0], b'{"generation": 1, "x": "\xff\xfe"}', REC[2]), [0, 2], [2]),
    "not a record": (_lines(REC[0], b"[1, 2]", b'{"generation": true}', b"7", REC[3]),
                     [0, 3], [2, 3, 4]),
    "blank lines are harmless": (_lines(REC[0], b"", b"  ", REC[1]), [0, 1], []),
    "island fields of the wrong type": (_lines(
        REC[0], b'{"generation": 1, "island_mu_max": [1, "x"]}',
        b'{"generation": 2, "island_mu_mean": 3}', b'{"generation": 3, "island_spread": null}',
        b'{"generation": 4, "wall_s": 5.0, "island_mu_max": [25.0, 26.5], "island_spread": 0.2}',
        json.dumps({"generation": 5, "island_mu_max": [1.0] * 1025}).encode()),  # > MAX_ISLANDS
        [0, 4], [2, 3, 4, 6]),
}


@pytest.mark.parametrize("case", CASES)
def test_bad_lines_are_skipped_and_counted(case: str) -> None:
    data, kept, bad = CASES[case]
    records, skipped = parse_log(data)
    assert [r["generation"] for r in records] == kept
    assert [b.number for b in skipped] == bad
    assert all(r["wall_s"] == 1.0 + r["generation"] for r in records)  # later lines intact


def test_reasons_name_what_is_wrong() -> None:
    _, bad = parse_log(_lines(REC[0], REC[1][:17], b"\xff\xfe", REC[3]) + b'{"gen')
    assert bad == [BadLine(2, "not JSON"), BadLine(3, "not UTF-8"),
                   BadLine(5, "incomplete last line")]


def test_random_bytes_appended_keep_every_record(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    folder = RunFolder(tmp_path)
    folder.log.write_bytes(_lines(*REC) + NOISE)
    assert [r["generation"] for r in folder.read_log()] == [0, 1, 2, 3]
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"warning: {folder.log}: skipped ")
    assert "line 5 (" in err  # the first line of noise, by number


def test_warning_lists_a_few_lines_and_counts_the_rest(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    folder = RunFolder(tmp_path)
    folder.log.write_bytes(_lines(REC[0], *[b"garbage"] * 8, REC[1]))
    assert len(folder.read_log()) == 2
    err = capsys.readouterr().err.strip()
    assert "skipped 8 unreadable line(s): line 2 (not JSON)" in err
    assert "line 6 (not JSON) and 3 more" in err and "line 7" not in err
    assert folder.read_log(warn=None) and capsys.readouterr().err == ""


def test_no_log_is_an_empty_log(tmp_path: Path) -> None:
    assert RunFolder(tmp_path).read_log() == []


def test_genes_files_are_named_in_one_place(tmp_path: Path) -> None:
    folder = RunFolder(tmp_path)
    names = ("a", "b")
    for g in (0, 12, 3):
        folder.write_genes(g, np.zeros((2, 2)), np.arange(2.0), np.ones(2), names)
    (folder.genes / ".gen_00004.npz.1.tmp").write_bytes(b"half")  # not a population
    assert [g for g, _ in folder.genes_files()] == [0, 3, 12]
    assert folder.genes_path(12).name == genes_file_name(12) == "gen_00012.npz"
    pop = folder.read_genes(12)
    assert pop.names == names and pop.mu.tolist() == [0.0, 1.0]


def _torn_middle(run: Path) -> None:
    lines = (run / "log.jsonl").read_bytes().split(b"\n")
    lines[2] = lines[2][:25]  # generation 2, torn
    (run / "log.jsonl").write_bytes(b"\n".join(lines))


def test_plots_report_and_export_read_past_a_torn_line(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    run = make_synthetic_run(tmp_path / "r", generations=5, n=6)
    (run / "champion.json").unlink()  # export and report then read the log and genes files
    _torn_middle(run)
    assert [r["generation"] for r in load_run(run).log] == [0, 1, 3, 4]
    assert "log.jsonl: skipped 1 unreadable line(s): line 3 (not JSON)" in capsys.readouterr().err
    page = write_report(run, refresh_plots=False).read_text(encoding="utf-8")
    assert "4 generations logged" in page
    out = export_bot(run, tmp_path / "bot.json")
    meta = json.loads(out.read_text())["meta"]
    last = json.loads((run / "log.jsonl").read_text().splitlines()[-1])
    assert meta["generation"] == 4 and meta["index"] == last["champion_index"]
    assert meta["eval"] == last["eval"] and meta["eval"] is not None


def test_resume_keeps_timings_and_gene_statistics_after_bad_lines(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_main(tiny_args(tmp_path)) == 0  # generations 0..5
    log = tmp_path / "t" / "log.jsonl"
    before = [json.loads(x) for x in log.read_text().splitlines()]
    lines = log.read_bytes().split(b"\n")
    lines[2] = lines[2][:40]  # generation 2, torn in the middle
    lines.insert(4, b'{"generation": 9, "x": "\xff"}')  # a line that is not UTF-8
    log.write_bytes(b"\n".join(lines) + NOISE)  # and random bytes at the end
    capsys.readouterr()
    args = tiny_args(tmp_path)
    args[args.index("--generations") + 1] = "8"
    assert run_main(args) == 0
    assert f"warning: {log}: skipped" in capsys.readouterr().err
    after = [json.loads(x) for x in log.read_text().splitlines()]
    assert [r["generation"] for r in after] == list(range(8))
    for g in (0, 1, 3, 4, 5):  # every whole line keeps its timings and gene statistics
        assert after[g] == before[g]
    # The torn line's generation comes back from the checkpoint: all but the timings.
    lost = {k for k in before[2] if k not in after[2]}
    assert "time_games_s" in lost and "gene_mean" in lost
    assert {k: before[2][k] for k in after[2]} == after[2]
    assert {"time_games_s", "gene_mean"} <= set(after[7])
