"""The planning player's settings (a bot file's `plan` object) and its protocol player."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from features.linear import LinearPlayer, map_context
from features.search.plan import (
    N_PLAN,
    PS_HORIZON,
    PS_MARGIN,
    PS_NET,
    PS_PLACE,
    PS_ROLLOUTS,
    PS_TOP_K,
    PS_VALUE,
    PlanWork,
    decide_plan_boxed,
    make_plan_work,
    plan_record,
    searched,
)
from features.search.value import (
    MAX_HIDDEN,
    NAMES,
    NET_SIZE,
    NV,
    UNIT,
    default_weights,
    net_vector,
)
from features.why import HORIZONS, Why
from features.work import MAX_OPTIONS, Action4, Work, make_work
from game.rules import layout as L
from game.rules.jit import RngBox, bind
from game.state import State
from game.view import GameView

KINDS = ("greedy", "plan")
MAX_ROLLOUTS = 64  # per option and decision: 64 x 8 options stays well inside 100 ms
MAX_MARGIN = 100.0  # in value units; far above any value difference (terms lie in [0, 1])
MAX_WEIGHT = 1e6  # a value weight's or a unit's number, in size: fits stay far below
FIELDS = ("kind", "rollouts", "top_k", "horizon", "margin", "place", "value", "net")
NET_FIELDS = ("bias", "out", "in")


class PlanSettingsError(ValueError):
    """A `plan` object that cannot be used (one line naming the field)."""


def _known(d: dict[str, Any], allowed: tuple[str, ...], where: str, what: str) -> None:
    """PlanSettingsError naming the first key of d not in `allowed`."""
    bad = sorted(set(d) - set(allowed))
    if bad:
        raise PlanSettingsError(f"{where} has unknown {what} {bad[0]!r} (allowed: "
                                f"{', '.join(allowed)})")


def _whole(name: str, x: object, lo: int, hi: int) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise PlanSettingsError(f"plan.{name} must be a whole number {lo}..{hi}, got {x!r}")
    return x


@dataclass(frozen=True)
class PlanSettings:
    """How a player uses its weights: `greedy` (one move at a time) or `plan` (the attack
    search with `rollouts` continuations of each of its `top_k` first attacks, valued by
    `value`, one weight per term of `features.search.value.TERMS`; another plan replaces the
    greedy player's own choice only when it is valued `margin` higher). `net` adds rectified
    units on the same terms to the value (`features.search.value.weighted_value`): each a row
    (bias, one weight per term, its weight in the value)."""

    kind: str = "plan"
    rollouts: int = 8
    top_k: int = 3
    horizon: str = "attack"
    margin: float = 0.0
    place: int = 0  # territories whose whole-pool placement is weighed against the greedy one
    value: tuple[float, ...] = field(default_factory=lambda: tuple(default_weights()))
    net: tuple[tuple[float, ...], ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise PlanSettingsError(f"plan.kind must be one of {', '.join(KINDS)}, "
                                    f"got {self.kind!r}")
        _whole("rollouts", self.rollouts, 1, MAX_ROLLOUTS)
        _whole("top_k", self.top_k, 1, MAX_OPTIONS)
        if self.horizon not in HORIZONS:
            raise PlanSettingsError(f"plan.horizon must be one of {', '.join(HORIZONS)}, "
                                    f"got {self.horizon!r}")
        if (isinstance(self.margin, bool) or not isinstance(self.margin, int | float)
                or not 0.0 <= self.margin <= MAX_MARGIN):
            raise PlanSettingsError(f"plan.margin must be a number 0..{MAX_MARGIN:g}, got "
                                    f"{self.margin!r}")
        _whole("place", self.place, 0, MAX_OPTIONS)
        if len(self.value) != NV or not all(abs(v) <= MAX_WEIGHT for v in self.value):
            raise PlanSettingsError(f"plan.value must hold {NV} weights of size at most "
                                    f"{MAX_WEIGHT:g}")
        if len(self.net) > MAX_HIDDEN or not all(
                len(u) == UNIT and (np.abs(u) <= MAX_WEIGHT).all() for u in self.net):
            raise PlanSettingsError(f"plan.net must hold at most {MAX_HIDDEN} units of {UNIT} "
                                    f"numbers of size at most {MAX_WEIGHT:g}")

    def vector(self) -> np.ndarray:
        """f64[N_PLAN] as the compiled game takes it (0 rollouts: greedy)."""
        v = np.zeros(N_PLAN, dtype=np.float64)
        if self.kind == "plan":
            v[PS_ROLLOUTS], v[PS_TOP_K] = self.rollouts, self.top_k
        v[PS_HORIZON] = HORIZONS.index(self.horizon)
        v[PS_MARGIN] = self.margin
        v[PS_PLACE] = self.place
        v[PS_VALUE:PS_NET] = self.value
        v[PS_NET:PS_NET + NET_SIZE] = net_vector(self.net)
        return v

    def value_vector(self) -> np.ndarray:
        """The value's part of `vector`: the term weights, then the net (`weighted_value`)."""
        return self.vector()[PS_VALUE:]

    def as_dict(self) -> dict[str, Any]:
        """The bot file's `plan` object."""
        return {"kind": self.kind, "rollouts": self.rollouts, "top_k": self.top_k,
                "horizon": self.horizon, "margin": float(self.margin), "place": self.place,
                "value": dict(zip(NAMES, map(float, self.value), strict=True)),
                **({"net": _net_dict(self.net)} if self.net else {})}

    @classmethod
    def from_dict(cls, d: object) -> PlanSettings:
        """From a bot file's `plan` object; PlanSettingsError naming a bad field."""
        if not isinstance(d, dict):
            raise PlanSettingsError(f"plan must be an object with {', '.join(FIELDS)}")
        _known(d, FIELDS, "plan", "field")
        base = cls()
        value = d.get("value", dict(zip(NAMES, base.value, strict=True)))
        if not isinstance(value, dict):
            raise PlanSettingsError("plan.value must be an object of value.* name -> number")
        _known(value, NAMES, "plan.value", "term")
        vals = []
        for n, dv in zip(NAMES, base.value, strict=True):
            x = _number(value.get(n, dv))
            if x is None:
                raise PlanSettingsError(f"plan.value: {n} must be a number of size at most "
                                        f"{MAX_WEIGHT:g}, got {value.get(n)!r}")
            vals.append(x)
        kind = d.get("kind", "plan")
        if not isinstance(kind, str):
            raise PlanSettingsError(f"plan.kind must be one of {', '.join(KINDS)}, got {kind!r}")
        return cls(kind, d.get("rollouts", base.rollouts), d.get("top_k", base.top_k),
                   d.get("horizon", base.horizon), d.get("margin", base.margin),
                   d.get("place", base.place), tuple(vals), _net_of(d.get("net", {})))


def _net_dict(net: tuple[tuple[float, ...], ...]) -> dict[str, Any]:
    """A bot file's `plan.net`: the units' biases, their weights in the value, and per term
    its weight in each unit."""
    rows = np.asarray(net, np.float64)
    return {"bias": [float(x) for x in rows[:, 0]], "out": [float(x) for x in rows[:, -1]],
            "in": {n: [float(x) for x in rows[:, 1 + i]] for i, n in enumerate(NAMES)}}


def _number(x: object) -> float | None:
    """x as a float when it is a JSON number of size at most MAX_WEIGHT, else None."""
    if isinstance(x, bool) or not isinstance(x, int | float):
        return None
    try:
        v = float(x)
    except OverflowError:  # an integer beyond any float
        return None
    return v if abs(v) <= MAX_WEIGHT else None


def _numbers(x: object, n: int, what: str) -> list[float]:
    out = [_number(v) for v in x] if isinstance(x, list) and len(x) == n else [None]
    if None in out:
        raise PlanSettingsError(f"plan.net.{what} must be a list of {n} numbers of size at "
                                f"most {MAX_WEIGHT:g} (one per unit)")
    return [v for v in out if v is not None]


def _net_of(d: object) -> tuple[tuple[float, ...], ...]:
    """`plan.net` read (`_net_dict`'s form; a term it does not name weighs 0 in every unit)."""
    if not isinstance(d, dict):
        raise PlanSettingsError(f"plan.net must be an object with {', '.join(NET_FIELDS)}")
    if not d:
        return ()
    _known(d, NET_FIELDS, "plan.net", "field")
    bias = d.get("bias")
    if not isinstance(bias, list) or not 1 <= len(bias) <= MAX_HIDDEN:
        raise PlanSettingsError(f"plan.net.bias must be a list of 1..{MAX_HIDDEN} numbers "
                                "(one per unit)")
    h = len(bias)
    rows = np.zeros((h, UNIT))
    rows[:, 0] = _numbers(bias, h, "bias")
    rows[:, -1] = _numbers(d.get("out"), h, "out")
    terms = d.get("in", {})
    if not isinstance(terms, dict):
        raise PlanSettingsError("plan.net.in must be an object of value.* name -> list")
    _known(terms, NAMES, "plan.net.in", "term")
    for i, n in enumerate(NAMES):
        if n in terms:
            rows[:, 1 + i] = _numbers(terms[n], h, f"in.{n}")
    return tuple(tuple(float(x) for x in r) for r in rows)


GREEDY = PlanSettings(kind="greedy")


def player_of(weights: np.ndarray, plan: PlanSettings, name: str | None = None
              ) -> LinearPlayer:
    """The protocol player of weights played as `plan` says."""
    if plan.kind == "greedy":
        return LinearPlayer(weights, name)
    return PlanPlayer(weights, plan, name)


class PlanPlayer(LinearPlayer):
    """The linear player whose attack phase is planned (`features.search.plan`); its search
    draws from the generator the game gives it (`start_game`)."""

    name = "plan"

    def __init__(self, weights: np.ndarray, plan: PlanSettings,
                 name: str | None = None) -> None:
        super().__init__(weights, name)
        self.plan = plan
        self._scratch: tuple[Work, PlanWork] | None = None

    def bind_kernel(self, view: GameView) -> Callable[[], Action4]:
        """`decide_plan` bound to this game's view, scratch and generator."""
        state = view.kernel_state().kernel
        work, pw = make_work(view.map.kernel, view.n_players), make_plan_work(view.map.kernel,
                                                                              state)
        self._scratch = (work, pw)  # the last decision's plan, read by `why_of`
        return bind(decide_plan_boxed, view.map.kernel, map_context(view.map), state,
                    view.rules_vector, self.weights, self.plan.vector(), work, pw,
                    RngBox(self.rng))

    def why_of(self, seen: State, action: Action4) -> Why:
        """The decision's record: in the attack phase, and for a placement it planned, what
        its plan compared (read from the scratch the search just used, `plan_record`)."""
        assert self._scratch is not None  # noqa: S101 - it decided: its kernel is bound
        work, pw = self._scratch
        if not searched(pw, int(seen.sc[L.S_PHASE])):
            return Why(seen, action)
        p = self.plan
        return Why(seen, action, plan_record(work, pw, p.horizon, p.margin,
                                             p.value_vector(), action))

    def __repr__(self) -> str:
        return f"PlanPlayer(name={self.name!r}, rollouts={self.plan.rollouts})"


__all__ = ["GREEDY", "KINDS", "PlanPlayer", "PlanSettings", "PlanSettingsError", "player_of"]
