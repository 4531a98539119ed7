"""The run report: one self-contained page holding every section."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from evolve.report.plots import make_plots
from evolve.report.report import SECTIONS, main, write_report
from tests.helpers.bounded import within
from tests.helpers.synthetic_run import NAMES, SOME, make_synthetic_run


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    run = make_synthetic_run(tmp_path_factory.mktemp("rep") / "synthetic", generations=5)
    make_plots(run, list(SOME))
    out = write_report(run, refresh_plots=False)
    return run, out.read_text(encoding="utf-8")


def test_every_section_present(report: tuple[Path, str]) -> None:
    _, page = report
    for sec in SECTIONS:
        assert f'id="{sec}"' in page
    assert "population = 30" in page  # config text
    for name in NAMES:  # champion genes
        assert name in page


def test_summary_has_a_row_per_generation(report: tuple[Path, str]) -> None:
    _, page = report
    table = page.split('id="summary"')[1].split('id="champion"')[0]
    assert table.count("<tr>") == 1 + 5


def test_self_contained(report: tuple[Path, str]) -> None:
    run, page = report
    srcs = re.findall(r'src="([^"]*)"', page)
    assert srcs and all(s.startswith("data:image/png;base64,") for s in srcs)
    assert len(srcs) == len(list((run / "plots").glob("*.png")))
    assert "http" not in page.split("<body>")[1]  # no external resources


def test_evaluation_of_champion(report: tuple[Path, str]) -> None:
    _, page = report
    ev = page.split('id="evaluation"')[1].split('id="plots"')[0]
    assert "95% Wilson interval" in ev and "wins in" in ev


def test_main_bad_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "nope")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "not a run folder" in err and err.count("\n") == 1


def test_header_totals_the_whole_run(report: tuple[Path, str]) -> None:
    # The synthetic log: 5 generations of 120 games, wall 1.5 * (g + 1) s = 22.5 s in all.
    _, text = report
    assert "<b>600</b> games in" in text and "<b>0:00:22</b>" in text


def test_behaviour_table_from_diagnose(tmp_path: Path) -> None:
    from evolve.report.plots import load_run
    from evolve.report.report import build_report

    run = make_synthetic_run(tmp_path / "r", generations=3)
    text = build_report(load_run(run), [])
    assert 'id="behaviour"' in text and "No behaviour diagnosis" in text
    (run / "diagnose").mkdir()
    (run / "diagnose" / "diagnose.csv").write_text(
        "metric,champion,continent,meaning\nwin_rate,0.5,0.2,games won outright\n")
    text = build_report(load_run(run), [])
    assert "<td>win_rate</td><td class=n>0.5</td>" in text


def test_files_a_run_folder_should_not_hold_are_said_not_read(tmp_path: Path) -> None:
    import os

    from evolve.report.plots import load_run
    from evolve.report.report import build_report

    run = make_synthetic_run(tmp_path / "r", generations=3)
    (run / "config.toml").unlink(missing_ok=True)
    os.mkfifo(run / "config.toml")  # a FIFO is refused without waiting for a writer
    (run / "diagnose").mkdir()
    os.mkfifo(run / "diagnose" / "diagnose.csv")
    (run / "plots").mkdir(exist_ok=True)
    os.mkfifo(run / "plots" / "progress.png")
    text = within(60, lambda: build_report(load_run(run), [run / "plots" / "progress.png"]))
    assert "(config.toml: cannot read (a FIFO" in text
    assert "diagnose.csv is unreadable" in text
    assert "progress.png: cannot read (a FIFO" in text
