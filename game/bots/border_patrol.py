"""Border patrol: stacks its borders where the threat is greatest and attacks only sure things."""

from __future__ import annotations

from game.actions import Attack, Place
from game.bots.common import BaselineBot
from game.view import GameView

SURE = 0.9  # exact P(conquest) it normally needs
FOR_CARD = 0.8  # enough to earn the turn's card when nothing was conquered yet


class BorderPatrolBot(BaselineBot):
    """Stacks its most threatened borders and attacks only near-sure conquests (p >= 0.9).

    The turn's first conquest, which earns a card, needs p >= 0.8; move-ins split by threat.
    """

    name = "border_patrol"

    def reinforce(self, view: GameView, armies: int) -> Place:
        """A share on the border with the largest threat relative to its own armies."""
        s = self.snap(view)
        a = s.armies
        front = s.borders()
        if not front:
            return Place(s.mine()[0], armies)
        gaps = sorted(((s.threat(t) - a[t], -t) for t in front), reverse=True)
        t = -gaps[0][1]
        if len(gaps) == 1:
            return Place(t, armies)
        # Fill the worst gap up to the next worst, at least one army at a time.
        need = gaps[0][0] - gaps[1][0] + 1
        return Place(t, max(1, min(armies, need)))

    def attack(self, view: GameView) -> Attack | None:
        """A near-sure conquest, or None."""
        s = self.snap(view)
        bar = SURE if view.conquered_this_turn else FOR_CARD
        best, best_p = None, bar
        for src, dst in s.attacks():
            p = s.odds(src, dst)
            if p >= best_p:
                best, best_p = (src, dst), p
        return None if best is None else Attack(*best)

    def move_in(self, view: GameView, lo: int, hi: int) -> int:
        """Split to match each side's threat; everything when the source is safe."""
        src, dst = view.occupy
        s = self.snap(view)
        if not s.enemies_of(src):
            return hi
        total = hi + 1
        t_src, t_dst = s.threat(src), s.threat(dst)
        share = total * t_dst // max(1, t_src + t_dst)
        return max(lo, min(hi, share))
