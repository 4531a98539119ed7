"""`arena web`'s routes that explain and advise: why a riskevo linear bot made the move of a log
line (live or replayed), what a champion would do at the person's decision, the exact odds of
the person's attack. The arithmetic is `features.explain`'s and `game.odds`'s; the position of
a log line is `arena.explain`'s, so the page says what `arena explain` prints."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.bots import GameArgError, is_bot_file
from arena.explain import bot_weights, from_lines, plan_and_note
from arena.play import labels_for
from arena.web.httpd import RequestError
from arena.web.live import LiveGame
from arena.web.plainwords import highlight, plain
from arena.web.story import odds_json
from features.explain import ExplainError, describe, explain, to_json
from features.linear import map_context
from game import layout as L
from game.replay import ReplayError


def explain_json(spec: str, lines: Sequence[str], no: int) -> dict[str, Any]:
    """The explanation of transcript line `no` (1-based) by bot file `spec`: its words as
    `arena explain --transcript FILE --line N` prints them (`text`) and its data."""
    if not 1 <= no <= len(lines):
        raise RequestError(f"line must be 1..{len(lines)}, got {no}")
    try:
        ex, m, played = from_lines(spec, lines, no)
    except (GameArgError, ReplayError, ExplainError) as e:
        raise RequestError(str(e).replace("--line", "line")) from None
    who = labels_for([spec])[0]
    plan, note = plan_and_note(spec, lines, no, ex, m)
    text = ((f"note: {note}\n" if note else "") + (f"plan: {plan}\n" if plan else "")
            + describe(ex, m, who))
    out = {"line": no, "played": played, "bot": who, "note": note, "plan": plan,
           **_words(text, to_json(ex, m))}
    if plan:
        out["plain"] = f"{plan}. {out['plain']}"
    return out


def _words(text: str, data: dict[str, Any]) -> dict[str, Any]:
    """An explanation for the page: plain words first, the formulas (`text`), the move."""
    return {"text": text, "plain": plain(data), "highlight": highlight(data),
            "explanation": data}


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
                   no: int, asked: str = "") -> dict[str, Any]:
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
    return explain_json(spec, lines, no)


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
    return explain_json(spec, lines, no)


def hint(game: LiveGame, champions: Sequence[str]) -> dict[str, Any]:
    """What a linear bot (one at the table, else the server's champion) would do at the
    person's decision, explained."""
    specs = [p.spec for p in game.players if can_explain(p.spec)] + list(champions)
    if not specs:
        raise RequestError("no riskevo linear bot (a bot file) is at the table or offered by "
                           "the server")
    if not game.waiting_for_human():
        raise RequestError("a hint is for your own decision: wait for your turn")
    try:
        w = bot_weights(specs[0])
        st, m = game.state, game.m
        ex = explain(m.kernel, map_context(m), st.kernel, game.rules.vector(), w)
    except (GameArgError, ExplainError) as e:
        raise RequestError(str(e)) from None
    who = labels_for([specs[0]])[0]
    return {"bot": who, **_words(describe(ex, m, who), to_json(ex, m))}


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


def game_route(game: LiveGame, what: str, query: dict[str, str], champions: Sequence[str]
               ) -> dict[str, Any]:
    """GET /api/games/ID/{explain?line=N, hint, odds?src=&dst=&down_to=}."""
    if what == "explain":
        line = query.get("line", "")
        if not line.isdigit() or len(line) > 9:
            raise RequestError(f"line must be a whole number >= 1, got {line[:20]!r}")
        return explain_live(game, int(line))
    if what == "hint":
        return hint(game, champions)
    return odds(game, query)


__all__ = ["can_explain", "explain_json", "explain_live", "explain_replay", "game_route", "hint",
           "odds"]
