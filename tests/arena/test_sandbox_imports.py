"""A module a sandboxed bot's process cannot import is one line naming the sandbox and the
module (issue 65, X7): with riskevo's dependencies on PYTHONPATH outside the bound folders,
the engine printed the child's traceback and bubblewrap's 1,000-character command line.

bubblewrap is required under CI (.ci/run installs it): there a missing sandbox fails."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.sandbox import need_sandbox

ROOT = Path(__file__).resolve().parents[2]  # the checkout



def test_a_bots_dependency_outside_the_sandbox_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: Any) -> None:
    need_sandbox()
    from arena.isolation.sandbox import isolated_bot

    monkeypatch.delenv("RISKEVO_SANDBOX", raising=False)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "x7bot.py").write_text(
        "import x7dep  # noqa: F401\nfrom game.bots import RandomBot\n\n\n"
        "class Bot(RandomBot):\n    pass\n")
    (tmp_path / "b" / "x7dep.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path / "b"))  # importable here, not in the sandbox
    monkeypatch.syspath_prepend(str(tmp_path / "a"))
    with pytest.raises(ValueError) as e:
        isolated_bot("x7bot:Bot", timeout=20)
    msg = str(e.value)
    assert "\n" not in msg and len(msg) < 400, msg
    assert "the sandbox (bubblewrap) cannot import module 'x7dep'" in msg
    assert msg.startswith("bot spec 'x7bot:Bot': ")
    assert "Traceback" not in capfd.readouterr().err


def test_riskevos_own_dependency_out_of_the_sandboxs_sight_is_one_line(tmp_path: Path) -> None:
    # As numpy from a PYTHONPATH folder the sandbox does not bind: the child's first imports.
    fake = tmp_path / "numpy"
    fake.mkdir()
    (fake / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'numpy'\", name='numpy')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]),
           "RISKEVO_SANDBOXED": "1"}
    res = subprocess.run([sys.executable, "-m", "arena.serve.child",
                          "tests.helpers.hostile_bots:Snoop"],
                         input='{"id": 1, "ask": "hello"}\n', capture_output=True, text=True,
                         env=env, timeout=60, check=False)
    assert res.returncode == 2 and res.stderr == "", res.stderr[-800:]
    reply = json.loads(res.stdout)
    assert reply["id"] == 1
    assert reply["error"].startswith("the sandbox (bubblewrap) cannot import module 'numpy'")
