"""The board a transcript's lines move on: one line's recorded effects applied, checked, in words.

`game.record.replay` reads a transcript's shape (the header, the deal, missions, the end, its
bounds) and hands each action line to `Board.apply`; this module is what one line does to the
position: the recorded placements, trades, dice and losses, conquests, move-ins,
fortifications, cards drawn and eliminations applied to the board, each held to what the rules
can produce (a line that cannot happen is a ValueError), the line put in words (`card_text`)
and the `Frame` that shows the board after it. Its own module because it knows every action's
effects, where the reader knows only how a transcript is laid out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from game.actions import Attack, Fortify, MoveIn, Pass, Place, Trade, parse_action
from game.map import Map
from game.rules import layout as L


@dataclass
class Frame:
    """The board after one transcript line, and that line in words."""

    owner: list[int]
    armies: list[int]
    hands: list[list[int]]  # card ids per seat
    alive: list[bool]
    round: int
    seat: int  # who acted, -1 for the deal and the end
    text: str
    line: str
    index: int = 0  # the line's index in the transcript (0-based)
    event: dict[str, object] = field(default_factory=dict)  # the line as data (`Board.apply`)

    def to_json(self) -> dict[str, object]:
        """The frame as the web page reads it."""
        return {"owner": self.owner, "armies": self.armies, "hands": self.hands,
                "alive": self.alive, "round": self.round, "seat": self.seat,
                "text": self.text, "line": self.line, "index": self.index, "event": self.event}


def card_text(m: Map, card: int) -> str:
    """'Alaska (infantry)' or 'wild'."""
    kind = int(m.card_kind[card])
    if kind == L.WILD or card >= m.n_territories:
        return "wild"
    return f"{m.territories[card]} ({L.KIND_NAMES[kind]})"


class Board:
    """The position a transcript describes, moved on by its recorded effects."""

    def __init__(self, m: Map, owner: list[int], n_seats: int, labels: Sequence[str],
                 rules: dict[str, bool] | None = None) -> None:
        self.m, self.owner, self.labels = m, owner, labels
        # The options a trade's value and bonus depend on (the header's rules line).
        self.fixed_cards = bool((rules or {}).get("fixed_cards"))
        self.bonus_every_set = bool((rules or {}).get("bonus_every_set"))
        self.trades = 0  # sets traded in the game so far (the escalating values)
        self.bonus_taken = False  # the +2 territory bonus given this turn
        self.armies = [1] * m.n_territories  # the deal puts one army on every territory
        self.hands: list[list[int]] = [[] for _ in range(n_seats)]
        self.alive = [True] * n_seats
        self.occupy = (-1, -1)
        # Armies each seat may still place: 1 a line during the setup (round 0); from round 1
        # its income when its turn starts (`begin`), plus what its trades bring.
        self.to_place = [0] * n_seats
        self.turn = (0, -1)  # (round, seat) of the turn being replayed
        # The last line as data for drawing it: kind (deal, place, trade, end-trade, attack,
        # stop, move, fortify, skip, card, eliminate, end), seat and the kind's fields; a
        # card's id is left out (the page names it only to its holder).
        self.event: dict[str, object] = {"kind": "deal", "seat": -1}

    def name(self, t: int) -> str:
        return self.m.territories[t]

    def who(self, seat: int) -> str:
        return self.labels[seat] if 0 <= seat < len(self.labels) else f"seat {seat}"

    def frame(self, round_: int, seat: int, text: str, line: str, index: int) -> Frame:
        return Frame(list(self.owner), list(self.armies), [list(h) for h in self.hands],
                     list(self.alive), round_, seat, text, line, index, self.event)

    def begin(self, round_: int, seat: int) -> None:
        """A line of `seat` in `round_`: a new turn gives it its income to place."""
        if round_ >= 1 and (round_, seat) != self.turn and 0 <= seat < len(self.hands):
            self.turn = (round_, seat)
            self.to_place[seat] = self.income(seat)
            self.bonus_taken = False
        elif round_ == 0 and 0 <= seat < len(self.hands):
            self.to_place[seat] = 1  # the setup places one army a decision

    def income(self, seat: int) -> int:
        """`game.rules.queries.reinforcements` on this board: max(3, territories // 3) plus the
        bonus of every continent `seat` holds whole."""
        held = [t for t, o in enumerate(self.owner) if o == seat]
        whole = {int(self.m.continent_of[t]) for t in held}
        for t, o in enumerate(self.owner):
            if o != seat:
                whole.discard(int(self.m.continent_of[t]))
        return (max(L.MIN_REINFORCEMENTS, len(held) // L.TERRITORIES_PER_ARMY)
                + sum(int(self.m.bonus[c]) for c in whole))

    def apply(self, seat: int, rest: str, show_cards: bool) -> str:
        """Apply one line's action and effects (text after 'r<round> s<seat> '); its words."""
        head, _, effects = rest.partition(" = ")
        words = head.split()
        who = self.who(seat)
        ev: dict[str, object] = {"kind": words[0], "seat": seat}
        self.event = ev
        if not 0 <= seat < len(self.hands):
            raise ValueError(f"seat s{seat} does not play (s0..s{len(self.hands) - 1})")
        if words[0] == "eliminates":
            q = int(words[1].removeprefix("s"))
            if not 0 <= q < len(self.hands) or q == seat:
                raise ValueError(f"s{q} is not another seat of the game")
            ev.update(kind="eliminate", victim=q, cards=len(self.hands[q]))
            taken = self.hands[q]
            self.hands[seat].extend(taken)
            self.hands[q], self.alive[q] = [], False
            return f"{who} eliminates {self.who(q)} and takes {len(taken)} cards"
        if words[0] == "card":
            card = int(words[1])
            if not 0 <= card < len(self.m.card_kind) or any(card in h for h in self.hands):
                # A real deck holds each card once: this also bounds every frame's hands.
                raise ValueError(f"card {card} is not in the deck (0..{len(self.m.card_kind) - 1}, "
                                 "each card once)")
            self.hands[seat].append(card)
            return f"{who} draws {card_text(self.m, card) if show_cards else 'a card'}"
        act = parse_action(head, self.m)
        if isinstance(act, Place):
            self._mine(seat, act.territory)
            if not 1 <= act.count <= self.to_place[seat]:
                raise ValueError(f"places {act.count}: s{seat} has {self.to_place[seat]} "
                                 "armies left to place (its income this turn and its trades)")
            self.to_place[seat] -= act.count
            ev.update(dst=act.territory, count=act.count)
            self.armies[act.territory] += act.count
            s = "y" if act.count == 1 else "ies"
            return f"{who} places {act.count} arm{s} on {self.name(act.territory)}"
        if isinstance(act, Trade):
            return self._trade(seat, act, effects)
        if isinstance(act, Attack):
            return self._attack(seat, act, effects)
        if isinstance(act, MoveIn):
            src, dst = self.occupy
            if src < 0 or not 1 <= act.count < self.armies[src]:
                raise ValueError("a move-in needs a conquest to move into and leaves at least "
                                 "1 army behind")
            self.occupy = (-1, -1)
            ev.update(src=src, dst=dst, count=act.count)
            self.armies[src] -= act.count
            self.armies[dst] += act.count
            return f"{who} moves {act.count} into {self.name(dst)}"
        if isinstance(act, Fortify):
            self._mine(seat, act.src)
            self._mine(seat, act.dst)
            if not 1 <= act.count < self.armies[act.src]:
                raise ValueError(f"fortifying {act.count} from {self.name(act.src)} would leave "
                                 "it without an army")
            ev.update(src=act.src, dst=act.dst, count=act.count)
            self.armies[act.src] -= act.count
            self.armies[act.dst] += act.count
            return (f"{who} fortifies {self.name(act.dst)} with {act.count} from "
                    f"{self.name(act.src)}")
        assert isinstance(act, Pass)
        return {L.A_END_TRADE: f"{who} ends trading", L.A_STOP: f"{who} stops attacking",
                L.A_SKIP: f"{who} does not fortify"}[act.kind]

    def _mine(self, seat: int, t: int) -> None:
        if self.owner[t] != seat:
            raise ValueError(f"{self.name(t)} is seat s{self.owner[t]}'s, not s{seat}'s")

    def set_value(self, cards: Sequence[int]) -> int:
        """`game.rules.cards.set_value` of `cards` traded now (ValueError if they are no set)."""
        kinds = [int(self.m.card_kind[c]) for c in cards]
        wilds = kinds.count(L.WILD)
        if wilds == 0 and len(set(kinds)) == 2:
            raise ValueError("these cards are no set (three of a kind, one of each, or a wild)")
        if not self.fixed_cards:
            n = len(L.ESCALATING)
            return (L.ESCALATING[self.trades] if self.trades < n
                    else L.ESCALATING[-1] + L.ESCALATING_STEP * (self.trades - n + 1))
        real = [k for k in kinds if k != L.WILD]
        if wilds >= 2 or len(set(real)) > 1:
            return L.FIXED_VALUES[3]  # one of each
        return L.FIXED_VALUES[real[0]]  # three of a kind (a wild reads as the other two)

    def _trade(self, seat: int, act: Trade, effects: str) -> str:
        parts = effects.split()
        worth = self.set_value(act.cards)
        if not parts or parts[0] != str(worth):
            raise ValueError(f"this set is worth {worth} armies now, not {' '.join(parts[:1])}")
        self.trades += 1
        for c in act.cards:
            self.hands[seat].remove(c)
        text = (f"{self.who(seat)} trades " + ", ".join(card_text(self.m, c) for c in act.cards)
                + f" for {parts[0]} armies")
        self.event.update(cards=list(act.cards), armies=int(parts[0]), bonus=-1)
        self.to_place[seat] += int(parts[0])
        if len(parts) >= 3 and parts[1] == "bonus":
            t = self.m.territory(parts[2].replace("_", " "))
            self._mine(seat, t)
            if t not in act.cards:
                raise ValueError(f"the +{L.CARD_BONUS} goes on a territory a traded card shows, "
                                 f"not {self.name(t)}")
            if self.bonus_taken and not self.bonus_every_set:
                raise ValueError(f"the +{L.CARD_BONUS} territory bonus comes once a turn")
            self.bonus_taken = True
            self.event["bonus"] = t
            self.armies[t] += L.CARD_BONUS
            text += f" (+{L.CARD_BONUS} on {self.name(t)})"
        return text

    def _attack(self, seat: int, act: Attack, effects: str) -> str:
        att, _, rest = effects.partition(" v ")
        parts = rest.split()
        first_loss = next((i for i, p in enumerate(parts) if p.startswith("-")), len(parts))
        dfn = parts[:first_loss]  # the dice, not the count after "moves"
        losses = [int(p[1:]) for p in parts if p.startswith("-")]
        la, ld = losses[0], losses[1]
        victim = self.owner[act.dst]
        a_dice, d_dice = [int(d) for d in att.split()], [int(d) for d in dfn]
        self._possible_attack(seat, act, a_dice, d_dice, la, ld, "conquers" in parts)
        self.event.update(src=act.src, dst=act.dst, defender=victim, att=a_dice, dfn=d_dice,
                          lost=la, killed=ld, conquered="conquers" in parts, moved=0)
        self.armies[act.src] -= la
        self.armies[act.dst] -= ld
        text = (f"{self.who(seat)} attacks {self.name(act.dst)} ({self.who(victim)}) from "
                f"{self.name(act.src)}: {att} vs {' '.join(dfn)}, loses {la}, kills {ld}")
        if "conquers" in parts:
            self.owner[act.dst] = seat
            self.occupy = (act.src, act.dst)
            text += f"; conquers {self.name(act.dst)}"
            if "moves" in parts:
                n = int(parts[parts.index("moves") + 1])
                if not 1 <= n < self.armies[act.src]:
                    raise ValueError(f"moves {n}: 1..{self.armies[act.src] - 1} can move in")
                self.occupy = (-1, -1)
                self.event["moved"] = n
                self.armies[act.src] -= n
                self.armies[act.dst] = n
                text += f", moves {n}"
        return text


    def _possible_attack(self, seat: int, act: Attack, att: list[int], dfn: list[int],
                         la: int, ld: int, conquers: bool) -> None:
        """ValueError unless the attack's record is one the rules can produce: the attacker's
        territory, a neighbour's target, as many dice as the armies allow, each 1..6 and high
        to low, the losses the dice give (ties to the defender), a conquest exactly when the
        target is emptied; every territory keeps an army."""
        self._mine(seat, act.src)
        if self.owner[act.dst] == seat or not self.m.adjacency[act.src, act.dst]:
            raise ValueError(f"{self.name(act.dst)} is not a neighbour to attack from "
                             f"{self.name(act.src)}")
        most = min(L.ATTACK_DICE, self.armies[act.src] - 1)
        if not 1 <= len(att) <= most or (act.dice and len(att) != act.dice):
            raise ValueError(f"the attacker rolls 1..{most} dice (as named), not {len(att)}")
        if len(dfn) != min(L.DEFEND_DICE, self.armies[act.dst]):
            raise ValueError(f"the defender rolls {min(L.DEFEND_DICE, self.armies[act.dst])} "
                             f"dice, not {len(dfn)}")
        for dice in (att, dfn):
            if not all(1 <= d <= 6 for d in dice) or dice != sorted(dice, reverse=True):
                raise ValueError("dice must be 1..6, highest first")
        wins = sum(a > d for a, d in zip(att, dfn, strict=False))
        if (la, ld) != (min(len(att), len(dfn)) - wins, wins):
            raise ValueError(f"these dice cost the attacker {min(len(att), len(dfn)) - wins} "
                             f"and the defender {wins}, not {la} and {ld}")
        if conquers != (self.armies[act.dst] == ld):
            raise ValueError("a conquest is recorded exactly when the target has no army left")


__all__ = ["Board", "Frame", "card_text"]
