"""The person's page request, checked field by field and made a rules action for a `LiveGame`.

A request body is untrusted JSON from the page (`POST /api/games/ID/act`): every field is held
to its type and range here, before the game sees an action, and a refused one is a ValueError
naming the field. Its own module because this is the page's input, not the game: `LiveGame`
(`arena.web.live`) takes actions and judges them by the rules alone.
"""

from __future__ import annotations

from arena.web.live import LiveGame
from game.actions import END_TRADE, SKIP, STOP, Action, Attack, Fortify, MoveIn, Place, Trade
from game.rules import layout as L


def parse_human_action(body: dict[str, object],
                       n_territories: int) -> tuple[str, Action, dict[str, int]]:
    """A page request {'type': ..., fields} as (type, action, extra); ValueError naming the
    field. Types: place, trade, end_trade, attack, attack_until, stop, move_in, fortify, skip."""
    kinds = ("place", "trade", "end_trade", "attack", "attack_until", "stop", "move_in",
             "fortify", "skip")
    kind = body.get("type")
    if kind not in kinds:
        raise ValueError(f"type must be one of {', '.join(kinds)}; got {kind!r}")

    def num(name: str, lo: int, hi: int, default: int | None = None) -> int:
        v = body.get(name, default)
        if type(v) is not int or not lo <= v <= hi:
            raise ValueError(f"{name} must be a whole number {lo}..{hi}, got {v!r}")
        return v

    t_hi = n_territories - 1
    if kind == "place":
        return kind, Place(num("territory", 0, t_hi), num("count", 1, 10_000, 1)), {}
    if kind == "trade":
        cards = body.get("cards")
        if (not isinstance(cards, list) or len(cards) != 3
                or not all(type(c) is int and 0 <= c < n_territories + L.N_WILDS for c in cards)):
            raise ValueError(f"cards must be a list of 3 card ids 0..{n_territories + 1}")
        return kind, Trade((cards[0], cards[1], cards[2])), {}
    if kind in ("attack", "attack_until"):
        act = Attack(num("src", 0, t_hi), num("dst", 0, t_hi), num("dice", 0, 3, 0))
        extra = {"down_to": num("down_to", 1, 10_000, 1)} if kind == "attack_until" else {}
        return kind, act, extra
    if kind == "move_in":
        return kind, MoveIn(num("count", 0, 10_000)), {}
    if kind == "fortify":
        return kind, Fortify(num("src", 0, t_hi), num("dst", 0, t_hi),
                             num("count", 1, 10_000)), {}
    return kind, {"end_trade": END_TRADE, "stop": STOP, "skip": SKIP}[str(kind)], {}


def play_human(game: LiveGame, body: dict[str, object], seat: int | None = None) -> int:
    """Apply a page request of person `seat` (None: whoever is to move) to the game; returns
    the kernel steps it took."""
    kind, action, extra = parse_human_action(body, game.m.n_territories)
    if kind == "attack_until" and isinstance(action, Attack):
        return game.attack_until(action.src, action.dst, action.dice, extra["down_to"], seat)
    game.act(action, seat)
    return 1


__all__ = ["parse_human_action", "play_human"]
