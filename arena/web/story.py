"""What happened while the person waited: the log's events summed up for their turn's start,
and the odds and income the person's prompts show. The events are `game.record.replay`'s (one parser
of transcript lines); this module only reads them."""

from __future__ import annotations

import re
from collections.abc import Sequence

from game.map import Map
from game.record.replay import mission_text
from game.rules import layout as L
from game.rules.odds import attack_odds
from game.rules.queries import mission_done, reinforcement_breakdown
from game.state import State

# A log line about the person reads in the second person: "you place", not "you places".
_YOU_VERBS = {"places": "place", "trades": "trade", "attacks": "attack", "moves": "move",
              "fortifies": "fortify", "ends": "end", "stops": "stop", "draws": "draw",
              "eliminates": "eliminate", "does": "do", "loses": "lose", "kills": "kill",
              "conquers": "conquer", "takes": "take"}
_VERB = re.compile(r"\b(" + "|".join(_YOU_VERBS) + r")\b")


def held_continents(m: Map, owner: Sequence[int]) -> dict[int, int]:
    """continent -> the seat holding all of it (continents nobody holds are left out)."""
    out: dict[int, int] = {}
    for c in range(len(m.continents)):
        holders = {int(owner[t]) for t in range(m.n_territories) if int(m.continent_of[t]) == c}
        if len(holders) == 1:
            out[c] = holders.pop()
    return out


def since_last_turn(m: Map, labels: Sequence[str], human: int,
                    events: Sequence[dict[str, object]], before: Sequence[int],
                    now: Sequence[int]) -> dict[str, object]:
    """The events between the person's last action and now, summed up: territories lost and to
    whom, continents taken or broken (board `before` against `now`), cards traded, players
    eliminated. `lines` holds the summary in words, one sentence each."""
    def who(s: object) -> str:
        return "you" if s == human else labels[int(str(s))]

    lost: list[dict[str, object]] = []
    lines: list[str] = []
    for ev in events:
        kind, seat = ev.get("kind"), ev.get("seat")
        if kind == "attack" and ev.get("conquered") and ev.get("defender") == human:
            dst = int(str(ev["dst"]))
            lost.append({"territory": dst, "name": m.territories[dst], "by": seat})
            lines.append(f"{who(seat)} took {m.territories[dst]} from you")
        elif kind == "trade" and seat != human:
            lines.append(f"{who(seat)} traded cards for {ev['armies']} armies")
        elif kind == "eliminate":
            lines.append(f"{who(seat)} eliminated {who(ev['victim'])}")
    was, held = held_continents(m, before), held_continents(m, now)
    for c, name in enumerate(m.continents):
        if was.get(c) == held.get(c):
            continue
        if c in held:
            lines.append(f"{who(held[c])} took {name}")
        else:
            lines.append(f"{who(was[c])} lost {name}")
    if not lines:
        lines.append("nothing of yours changed hands")
    return {"lost": lost, "lines": lines}


def reinforce_parts(m: Map, st: State, seat: int, traded: int) -> dict[str, object]:
    """The person's income this turn by source: territories / 3, continents, cards traded."""
    r = reinforcement_breakdown(m.kernel, st.kernel, seat)
    return {"territories": r.territories, "base": r.base, "cards": traded,
            "continents": [{"name": m.continents[c], "bonus": b} for c, b in r.continents],
            "total": r.total + traded}


def odds_json(st: State, src: int, dst: int, down_to: int) -> dict[str, object]:
    """Exact odds of the person's attack from `src` on `dst` until down to `down_to` armies."""
    a, d = int(st.armies[src]), int(st.armies[dst])
    o = attack_odds(a, d, down_to)
    return {"src": src, "dst": dst, "source": a, "defenders": d, "down_to": down_to,
            "conquer": o.conquer, "source_left": o.source_left,
            "defenders_left": o.defenders_left, "attacker_dice": o.attacker_dice,
            "defender_dice": o.defender_dice}


def mission_progress(m: Map, st: State, seat: int, mission: int, target: int) -> str:
    """How far the person's secret mission is, in words ("" without a mission)."""
    mine = [t for t in range(m.n_territories) if int(st.owner[t]) == seat]
    held = held_continents(m, st.owner.tolist())
    if 0 <= mission <= L.M_EUR_AUS_ANY:
        parts = []
        for name in L.MISSION_CONTINENTS[mission]:
            c = m.continents.index(name)
            members = [t for t in range(m.n_territories) if int(m.continent_of[t]) == c]
            parts.append(f"{name} {sum(t in mine for t in members)}/{len(members)}")
        if mission >= L.M_EUR_SAM_ANY:
            others = sum(1 for c, q in held.items() if q == seat
                         and m.continents[c] not in L.MISSION_CONTINENTS[mission])
            parts.append(f"another continent {min(others, 1)}/1")
        return "progress: " + ", ".join(parts)
    if mission == L.M_18_TWO:
        strong = sum(int(st.armies[t]) >= L.MISSION_ARMIES for t in mine)
        return f"progress: {strong}/{L.MISSION_TERRITORIES} territories with 2+ armies"
    if mission >= L.M_DESTROY and 0 <= target < st.n_players and st.alive(target):
        left = sum(int(o) == target for o in st.owner)
        return f"progress: the target still holds {left} territories"
    if mission >= 0:
        return f"progress: {len(mine)}/{L.MISSION_ALL_TERRITORIES} territories"
    return ""


def second_person(text: str) -> str:
    """A log line whose subject is "you" with its verbs agreeing ("you attack ..., lose 1")."""
    if not text.startswith("you "):
        return text
    head, sep, tail = text.partition(" (")  # a defender's label in brackets stays as it is
    head = _VERB.sub(lambda mt: _YOU_VERBS[mt.group(1)], head)
    tail = re.sub(r"(, |; )(loses|kills|conquers|moves)\b",
                  lambda mt: mt.group(1) + _YOU_VERBS[mt.group(2)], tail)
    return head + sep + tail


def missions_at_end(m: Map, st: State, labels: Sequence[str], missions: bool
                    ) -> dict[str, object]:
    """Once the game is over: every seat's mission revealed, and the one completed, if any."""
    if not missions:
        return {}
    out = [mission_text(m, *st.mission(s), labels) for s in range(st.n_players)]
    done = [s for s in range(st.n_players)
            if st.alive(s) and mission_done(m.kernel, st.kernel, s)]
    return {"missions": out,
            "mission_done": ({"seat": done[0], "text": out[done[0]]} if done else None)}


__all__ = [
    "held_continents",
    "mission_progress",
    "missions_at_end",
    "odds_json",
    "reinforce_parts",
    "second_person",
    "since_last_turn",
]
