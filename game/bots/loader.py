"""Players by name: a baseline bot, or a third-party class given as `package.module:Class`."""

from __future__ import annotations

import importlib
import re
from typing import Any

from game.bots.table import BOTS
from game.decision import DecisionKind
from game.protocol import Player

_DOTTED = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*$")


def make_player(spec: str, **kwargs: Any) -> Player:
    """A new player from a baseline name (`aggressive`) or a dotted path (`pkg.mod:Class`).

    Keyword arguments go to the class. Every failure is a one-line ValueError naming the spec.
    """
    if not isinstance(spec, str):
        raise ValueError(f"bot spec must be a string, got {spec!r}")
    allowed = ", ".join(BOTS)
    if ":" not in spec:
        if spec not in BOTS:
            raise ValueError(f"unknown bot {spec!r} (allowed: {allowed}, "
                             "or package.module:Class)")
        cls: Any = BOTS[spec]
    else:
        if not _DOTTED.match(spec):
            raise ValueError(f"bot spec {spec!r} is not of the form package.module:Class "
                             f"(or one of: {allowed})")
        mod_name, cls_name = spec.split(":")
        try:
            module = importlib.import_module(mod_name)
        except ImportError as e:
            raise ValueError(f"bot spec {spec!r}: cannot import module {mod_name!r} ({e})") from e
        cls = getattr(module, cls_name, None)
        if not isinstance(cls, type):
            raise ValueError(f"bot spec {spec!r}: module {mod_name!r} has no class {cls_name!r}")
    try:
        player = cls(**kwargs)
    except TypeError as e:
        raise ValueError(f"bot spec {spec!r}: cannot create the player ({e})") from e
    if not isinstance(player, Player):
        names = ("start_game", *(k.value for k in DecisionKind))
        missing = [m for m in names if not callable(getattr(player, m, None))]
        raise ValueError(f"bot spec {spec!r}: not a Player (missing: {', '.join(missing)})")
    return player


__all__ = ["make_player"]
