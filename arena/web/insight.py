"""`arena web`'s routes that explain and advise: why a riskevo linear bot made the move of a log
line (live: from the decision's record the game kept; replayed: decided again), what a champion
does at the person's decision, the exact odds of the person's attack. The account is
`arena.why`'s, so the page says what `arena explain` prints."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from arena.bots import GameArgError, is_bot_file
from arena.explain import bot_weights
from arena.web.httpd import RequestError
from arena.web.live import LiveGame
from arena.web.story import odds_json
from arena.why import ask, transcript_account
from features.explain import ExplainError
from features.why import Why
from game.record.position import Positions
from game.record.replay import ReplayError
from game.rules import layout as L


def explain_json(spec: str, lines: Sequence[str], no: int, record: Why | None = None,
                 positions: Positions | None = None) -> dict[str, Any]:
    """Transcript line `no` (1-based) explained by bot file `spec` (`arena.why`): from the
    decision's own `record` when the game kept it, else decided again there (the words say
    so); `text` as `arena explain --transcript FILE --line N` prints it; `positions` keeps a
    growing transcript's replay between questions (`game.record.position.Positions`)."""
    if not 1 <= no <= len(lines):
        raise RequestError(f"line must be 1..{len(lines)}, got {no}")
    try:
        return transcript_account(spec, lines, no, record, positions)
    except (GameArgError, ReplayError, ExplainError) as e:
        raise RequestError(str(e).replace("--line", "line")) from None


def can_explain(spec: str) -> bool:
    """True when the bot `spec` names can explain its moves (a linear bot's genes load)."""
    if not spec:
        return False
    if is_bot_file(spec):
        return True
    try:
        bot_weights(spec)
    except (GameArgError, OSError, ValueError):
        return False
    return True


def explain_replay(bots: dict[str, str], labels: Sequence[str], lines: Sequence[str],
                   no: int, asked: str = "", positions: Positions | None = None
                   ) -> dict[str, Any]:
    """A replayed line explained by the bot that played it: the offered bot of that seat's
    label (`asked`, a label, only for a transcript that names no players)."""
    if not 1 <= no <= len(lines):
        raise RequestError(f"line must be 1..{len(lines)}, got {no}")
    parts = lines[no - 1].split()
    seat = (int(parts[1][1:]) if len(parts) > 2 and parts[1][:1] == "s"
            and parts[1][1:].isdigit() else -1)
    label = labels[seat] if 0 <= seat < len(labels) else ""
    named = bool(label) and not label.startswith("seat ")
    spec = bots.get(label if named else asked, "")
    if not can_explain(spec):
        raise RequestError(f"line {no} is {label or 'nobody'}'s: only a riskevo linear bot "
                           "(a bot file) the server offers explains its moves")
    return explain_json(spec, lines, no, positions=positions)


def explain_live(game: LiveGame, no: int) -> dict[str, Any]:
    """A live game's transcript line `no` explained by the bot file that played it."""
    lines = game.transcript()
    if not 1 <= no <= len(lines):
        raise RequestError(f"line must be 1..{len(lines)}, got {no}")
    parts = lines[no - 1].split()
    seat = int(parts[1][1:]) if len(parts) > 2 and parts[1][:1] == "s" else -1
    spec = game.players[seat].spec if 0 <= seat < len(game.players) else ""
    if not can_explain(spec):
        who = game.labels[seat] if seat >= 0 else "nobody"
        raise RequestError(f"line {no} is {who}'s: only a riskevo linear bot (a bot file) "
                           "explains its moves")
    if (not game.over and game.human is not None and parts[2] in ("trade", "end-trade")):
        raise RequestError("a bot's trade is explained once the game is over (it shows the "
                           "cards the bot holds)")
    return explain_json(spec, lines, no, game.whys.get(no - 1), game.positions)


def hint(game: LiveGame, champions: Sequence[str], me: int | None = None) -> dict[str, Any]:
    """What a linear bot (one at the table, else the server's champion) does at the person's
    decision, as it plays (its plan included), explained from that decision's record."""
    specs = [p.spec for p in game.players if can_explain(p.spec)] + list(champions)
    if not specs:
        raise RequestError("no riskevo linear bot (a bot file) is at the table or offered by "
                           "the server")
    if not game.waiting_for_human() or me not in (None, game.to_move):
        raise RequestError("a hint is for your own decision: wait for your turn")
    st = game.state
    rng = np.random.default_rng([game.seed, len(game.transcript())])
    try:
        return ask(specs[0], st, game.m, game.rules, rng)
    except (GameArgError, ExplainError) as e:
        raise RequestError(str(e)) from None


def odds(game: LiveGame, query: dict[str, str]) -> dict[str, Any]:
    """The exact odds of the person's attack {src, dst, down_to} from the board as it is."""
    n = game.m.n_territories
    vals: dict[str, int] = {}
    for name, lo, hi in (("src", 0, n - 1), ("dst", 0, n - 1), ("down_to", 1, 300)):
        text = query.get(name, "1" if name == "down_to" else "")
        if not text.isdigit() or not lo <= int(text) <= hi:
            raise RequestError(f"{name} must be a whole number {lo}..{hi}, got {text[:20]!r}")
        vals[name] = int(text)
    st = game.state
    if int(st.armies[vals["src"]]) < 2 or int(st.owner[vals["src"]]) == int(
            st.owner[vals["dst"]]) or not game.m.adjacency[vals["src"], vals["dst"]]:
        raise RequestError("src must be a territory with 2+ armies bordering dst, an enemy's")
    try:
        out = odds_json(st, vals["src"], vals["dst"], vals["down_to"])
    except ValueError as e:
        raise RequestError(str(e)) from None
    out["defender_dice_now"] = min(L.DEFEND_DICE, int(st.armies[vals["dst"]]))
    return out


def game_route(game: LiveGame, what: str, query: dict[str, str], champions: Sequence[str],
               me: int | None = None) -> dict[str, Any]:
    """GET /api/games/ID/{explain?line=N, hint, odds?src=&dst=&down_to=}."""
    if what == "explain":
        line = query.get("line", "")
        if not line.isdigit() or len(line) > 9:
            raise RequestError(f"line must be a whole number >= 1, got {line[:20]!r}")
        return explain_live(game, int(line))
    if what == "hint":
        return hint(game, champions, me)
    return odds(game, query)


__all__ = ["can_explain", "explain_json", "explain_live", "explain_replay", "game_route", "hint",
           "odds"]
