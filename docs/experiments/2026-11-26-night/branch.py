"""Branch a run: copy its folder and change fields of its configuration from its newest
checkpoint on (config.toml and the checkpoint's config fingerprint), so that `evolve run
--name NEW` resumes the same population under the new settings.

usage: branch.py RUNS_DIR OLD NEW section.field=VALUE ...   (VALUE in TOML syntax)
"""
from __future__ import annotations

import re
import shutil
import sys
import tomllib
from pathlib import Path

from evolve.checkpoint import list_checkpoints, load_checkpoint, save_checkpoint

runs, old, new = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
changes = {k: tomllib.loads(f"v = {v}")["v"] for k, v in (a.split("=", 1) for a in sys.argv[4:])}
src, dst = runs / old, runs / new
shutil.copytree(src, dst, ignore=shutil.ignore_patterns("plots"))
for p in list_checkpoints(dst / "checkpoints")[:-1]:  # keep only the newest
    p[1].unlink()
gen, path = list_checkpoints(dst / "checkpoints")[-1]
ck = load_checkpoint(path)
ck.config.update(changes)
path.unlink()
save_checkpoint(dst / "checkpoints", ck, 3)
text = (dst / "config.toml").read_text()
for key, value in changes.items():
    section, field = key.split(".")
    line = f"{field} = {value!r}".replace("'", '"')
    part = re.search(rf"(?ms)^\[{section}\]\n.*?(?=^\[|\Z)", text)
    assert part, section
    body = part.group(0)
    body = (re.sub(rf"(?m)^{field} = .*$", line, body) if re.search(rf"(?m)^{field} = ", body)
            else body.rstrip("\n") + "\n" + line + "\n\n")
    text = text[:part.start()] + body + text[part.end():]
(dst / "config.toml").write_text(text)
print(f"{dst}: branched from {src} after generation {gen} with {changes}")
