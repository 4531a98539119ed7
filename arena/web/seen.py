"""What one seat of a live game sees (`SeatView`, a part of `arena.web.live.LiveGame`): the
log in words as that seat reads it, its hand, mission and question, the last roll and what the
others did since its last turn, as the JSON the page polls (`public`). The game loop itself,
bots and people's actions, is `arena.web.live`."""

from __future__ import annotations

import bisect
import itertools
from dataclasses import dataclass, field

from arena.web.story import (
    mission_progress,
    missions_at_end,
    reinforce_parts,
    second_person,
    since_last_turn,
)
from game.decision import Decision, DecisionKind
from game.map import Map
from game.record.replay import Replayer, mission_text
from game.record.replay_board import card_text
from game.rules import kernel
from game.rules import layout as L
from game.rules.cards import set_value
from game.rules.queries import standing
from game.state import Rules, State
from game.view import GameView


@dataclass
class _Log:
    """The transcript lines put in words so far: entries and their line indices, in order."""

    replayer: Replayer
    entries: list[dict[str, object]] = field(default_factory=list)
    index: list[int] = field(default_factory=list)
    last_attack: dict[str, object] = field(default_factory=dict)  # its event, for "last roll"
    # The owners after the person's last action before the others played, and the entries up
    # to it: "since your last turn" starts there, and stays the same all through the person's
    # turn (a reload mid-turn shows it again). `mine` is the person's latest action.
    mark: list[int] | None = None
    mark_at: int = 0
    mine: tuple[list[int], int] | None = None


class SeatView:
    """What each seat of a game sees, read from the game's transcript and state; mixed into
    `LiveGame`, which provides the fields and the game's questions below."""

    m: Map
    rules: Rules
    state: State
    labels: list[str]
    people: list[int]
    human: int | None
    views: list[GameView]
    notes: list[tuple[int, str]]
    _logs: dict[int | None, _Log]  # the log in words so far, by seat seeing it

    @property
    def over(self) -> bool:
        raise NotImplementedError

    @property
    def to_move(self) -> int:
        raise NotImplementedError

    def decision(self) -> Decision | None:
        raise NotImplementedError

    def waiting_for_human(self) -> bool:
        raise NotImplementedError

    def transcript(self) -> tuple[str, ...]:
        raise NotImplementedError

    def you_labels(self, viewer: int | None = None) -> list[str]:
        """The labels as a person (`viewer`, default the first) reads them: "you" at theirs."""
        me = self.human if viewer is None else viewer
        return ["you" if s == me else x for s, x in enumerate(self.labels)]

    def log_texts(self, since: int, viewer: int | None = None) -> list[dict[str, object]]:
        """Readable log entries from transcript line `since` on, as seat `viewer` (default the
        first person) reads them: cards hidden but its own. Each line is put in words once per
        seat that reads it (`_logs`): a request costs its new lines."""
        me = self.human if viewer is None else viewer
        lines = self.transcript()
        log = self._logs.get(me)
        if log is None:
            log = self._logs[me] = _Log(Replayer(m=self.m, labels=self.you_labels(me),
                                                 show_cards=False, by_seat=True, keep=False))
        for raw in lines[log.replayer.lines:]:
            f = log.replayer.feed(raw)
            if f is None:
                continue
            text = f.text
            if me is not None and f.seat == me and text.endswith("draws a card"):
                card = int(f.line.split()[-1])
                text = text.removesuffix("a card") + card_text(self.m, card)
            text = second_person(text)
            log.index.append(f.index)
            log.entries.append({"i": f.index, "seat": f.seat, "text": text, "round": f.round,
                                "ev": f.event})
            if f.event.get("kind") == "attack":
                log.last_attack = f.event
            if f.seat == me and f.seat >= 0:
                log.mine = (f.owner, len(log.entries))
            elif f.seat >= 0 and log.mine is not None:  # another seat plays after the person
                (log.mark, log.mark_at), log.mine = log.mine, None
        out: list[dict[str, object]] = []
        notes = dict(self.notes)
        start = bisect.bisect_left(log.index, since)
        for i, entry in zip(log.index[start:], log.entries[start:], strict=True):
            out.append(entry)
            if i in notes:
                out.append({"i": i, "seat": -1, "text": notes[i], "round": entry["round"],
                            "note": True})
        return out

    def public(self, since: int = 0, viewer: int | None = None) -> dict[str, object]:
        """The game as a person's seat (`viewer`, default the first) may see it: no other
        seat's cards or mission."""
        me = self.human if viewer is None else viewer
        st, m = self.state, self.m
        n = st.n_players
        hands = [int((st.cards == q).sum()) for q in range(n)]
        players = []
        mk = m.kernel
        for s in range(n):
            mine = st.owner == s
            players.append({
                "seat": s, "label": self.labels[s], "human": s == me, "person": s in self.people,
                "alive": st.alive(s), "territories": int(mine.sum()),
                "armies": int(st.armies[mine].sum()), "cards": hands[s],
                "income": int(kernel.reinforcements(mk, st.kernel, s)) if st.alive(s) else 0})
        out: dict[str, object] = {
            "owner": st.owner.tolist(), "armies": st.armies.tolist(), "players": players,
            "round": st.round, "to_move": self.to_move, "phase": L.PHASE_LABELS[st.phase],
            "over": self.over, "human": me, "people": self.people,
            "log": self.log_texts(since, me),
            "log_next": len(self.transcript()), "rules": self.rules.words(),
            "next_set_value": _next_set(st, self.rules), "cap": self.rules.cap}
        out["dice"] = self._last_roll(me)
        out["since_last_turn"] = self._since_last_turn(me)
        if self.over:
            end = standing(st.kernel, range(n), self.rules.cap)
            out["placements"] = [int(p) for p in end.placements]
            out["capped"] = bool(end.capped)
            out.update(missions_at_end(m, st, self.you_labels(me), self.rules.missions))
        if me is not None:
            out.update(self._seat_view(self.views[me]))
        return out

    def _seat_view(self, view: GameView) -> dict[str, object]:
        m = self.m
        mid, target = view.mission
        out: dict[str, object] = {
            "hand": [{"id": c, "kind": int(m.card_kind[c]), "text": card_text(m, c)}
                     for c in view.hand],
            "mission": (mission_text(m, mid, target, self.you_labels(view.seat))
                        if self.rules.missions else ""),
            "mission_progress": (mission_progress(m, self.state, view.seat, mid, target)
                                 if self.rules.missions else "")}
        d = self.decision() if self.waiting_for_human() and self.to_move == view.seat else None
        if d is None:
            out["decision"] = None
            return out
        q: dict[str, object] = {"kind": d.kind.value, "text": d.text(), "armies": d.armies,
                                "compulsory": d.compulsory, "lo": d.lo, "hi": d.hi}
        if d.kind is DecisionKind.PLACE_INITIAL:
            q["left"] = int(self.state.pl[view.seat, L.P_SETUP_LEFT])
        if d.kind is DecisionKind.REINFORCE:
            q["income"] = reinforce_parts(m, self.state, view.seat,
                                          self._traded_this_turn(view.seat))
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

    def _last_roll(self, me: int | None) -> dict[str, object]:
        """The dice of the last attack with who rolled them (empty before any attack)."""
        log = self._logs.get(me)
        if not (ev := log.last_attack if log else {}):
            return {"attack": [], "defend": []}
        seat = int(str(ev["seat"]))
        return {"attack": ev["att"], "defend": ev["dfn"], "seat": seat,
                "label": "you" if seat == me else self.labels[seat],
                "src": ev["src"], "dst": ev["dst"]}

    def _since_last_turn(self, me: int | None) -> dict[str, object] | None:
        """At the start of person `me`'s turn: what the others did since their last action."""
        log = self._logs.get(me)
        if (log is None or log.mark is None or me is None
                or not self.waiting_for_human() or self.to_move != me):
            return None
        others = list(itertools.takewhile(lambda e: e["seat"] != me, log.entries[log.mark_at:]))
        if not (events := [e["ev"] for e in others if isinstance(e["ev"], dict)]):
            return None
        return since_last_turn(self.m, self.labels, me, events, log.mark,
                               self.state.owner.tolist())

    def _traded_this_turn(self, me: int) -> int:
        """Armies person `me`'s trades gave this turn (the log's trade events since others')."""
        log, total = self._logs.get(me), 0
        for e in reversed(log.entries if log else []):
            ev = e["ev"]
            if e["seat"] != me or not isinstance(ev, dict):
                break
            if ev.get("kind") == "trade":
                total += int(str(ev["armies"]))
        return total


def _next_set(st: State, rules: Rules) -> int:
    """What a set of one of each kind would give if traded now (escalating or fixed)."""
    return int(set_value(rules.vector(), int(st.sc[L.S_TRADES]), L.INFANTRY, L.CAVALRY,
                         L.ARTILLERY))


__all__ = ["SeatView"]
