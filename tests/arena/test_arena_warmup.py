"""make venv's compile step: lanes side by side, a line a part as it ends, exit codes kept."""

from __future__ import annotations

import io
import sys

from arena import warmup


def test_every_part_runs_once_and_says_when_it_is_ready() -> None:
    parts = [p for stage in warmup.STAGES for lane in stage for p in lane]
    assert sorted(parts) == sorted(warmup.PARTS) and len(parts) == len(set(parts))
    # Stand-in parts: a process that exits 1 for `web`, 0 otherwise.
    fake = [sys.executable, "-c", "import sys; sys.exit(sys.argv[1] == 'web')"]
    say = io.StringIO()
    done = warmup.run_stages(warmup.STAGES, fake, say=say)
    assert sorted(c.part for c in done) == sorted(parts)
    assert {c.part: c.code for c in done} == {p: int(p == "web") for p in parts}
    lines = say.getvalue().splitlines()
    assert len(lines) == len(parts)
    assert any(x.startswith("riskevo:   loop: ready in ") for x in lines)
    assert any(x.startswith("riskevo:   web: failed (exit 1)") for x in lines)
    assert "web 0 s (failed)" in warmup.report(done, 1.0)


def test_an_unknown_part_is_one_line() -> None:
    assert warmup.main(["nope"]) == 2
