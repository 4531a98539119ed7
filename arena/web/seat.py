"""What one seat of a live game is shown beside the board: its hand, its mission and its
question (`LiveGame.public` adds it for the person whose page asks)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.web.story import mission_progress, reinforce_parts
from game.decision import DecisionKind
from game.record.replay import mission_text
from game.record.replay_board import card_text
from game.rules import layout as L
from game.view import GameView

if TYPE_CHECKING:
    from arena.web.live import LiveGame


def seat_view(game: LiveGame, view: GameView) -> dict[str, object]:
    """What only `view`'s seat is shown: its hand, its mission and, at its turn, the question
    it must answer with what the page needs to ask it."""
    m = game.m
    mid, target = view.mission
    out: dict[str, object] = {
        "hand": [{"id": c, "kind": int(m.card_kind[c]), "text": card_text(m, c)}
                 for c in view.hand],
        "mission": (mission_text(m, mid, target, game.you_labels(view.seat))
                    if game.rules.missions else ""),
        "mission_progress": (mission_progress(m, game.state, view.seat, mid, target)
                             if game.rules.missions else "")}
    d = game.decision() if game.waiting_for_human() and game.to_move == view.seat else None
    if d is None:
        out["decision"] = None
        return out
    q: dict[str, object] = {"kind": d.kind.value, "text": d.text(), "armies": d.armies,
                            "compulsory": d.compulsory, "lo": d.lo, "hi": d.hi}
    if d.kind is DecisionKind.PLACE_INITIAL:
        q["left"] = int(game.state.pl[view.seat, L.P_SETUP_LEFT])
    if d.kind is DecisionKind.REINFORCE:
        q["income"] = reinforce_parts(m, game.state, view.seat,
                                      game.traded_this_turn(view.seat))
    if d.kind is DecisionKind.TRADE:
        q["sets"] = [{"cards": list(c), "value": view.set_value(c)} for c in view.sets()]
    elif d.kind is DecisionKind.ATTACK:
        q["options"] = [list(p) for p in view.attack_options()]
    elif d.kind is DecisionKind.FORTIFY:
        q["options"] = [list(p) for p in view.fortify_options()]
    elif d.kind is DecisionKind.MOVE_IN:
        q["occupy"] = list(view.occupy)
    out["decision"] = q
    return out


__all__ = ["seat_view"]
