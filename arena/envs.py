"""Environments whose opponents are named as on the command line (docs/env.md).

`seat_env(["strategist", "runs/x/champion.json", ...])` is `game.env.single.RiskSeatEnv` with
fresh players made by `arena.bots.make_bot` for every game (bot files, baseline names,
`package.module:Class`); class-path bots see only their seat (`arena.bots.trusted`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from arena.bots import make_bot, make_rules, trusted

if TYPE_CHECKING:
    from game.env.single import RiskSeatEnv
    from game.map import Map
    from game.protocol import Player
    from game.state import Rules


def opponents_maker(specs: Sequence[str]) -> Any:
    """A callable making one fresh player per spec (checked once now: BotSpecError early)."""
    specs = list(specs)
    for spec in specs:
        make_bot(spec)

    def make() -> list[Player]:
        return [make_bot(spec) for spec in specs]

    return make


def seat_env(opponents: Sequence[str], *, learner: int = 0, map: Map | None = None,
             rules: Rules | str | None = None, **kwargs: Any) -> RiskSeatEnv:
    """One learning seat against bots named by spec; `rules` may be a rules string
    ('missions,cap=50'); other keywords go to RiskSeatEnv (render_mode, illegal_penalty...)."""
    from game.env.single import RiskSeatEnv

    if isinstance(rules, str):
        rules = make_rules(rules)
    return RiskSeatEnv(opponents_maker(opponents), learner=learner, map=map, rules=rules,
                       full_access=[trusted(s) for s in opponents], **kwargs)


__all__ = ["opponents_maker", "seat_env"]
