"""The numba warm-up before `make test`'s workers seats every compiled bot."""

from __future__ import annotations

import warmup

from game.bots import COMPILED_BOTS


def test_warm_up_lineups_seat_every_compiled_bot_in_at_most_six_seats() -> None:
    seated = {name for lineup in warmup.LINEUPS for name in lineup}
    assert seated == set(COMPILED_BOTS)
    assert all(len(lineup) + 1 <= 6 for lineup in warmup.LINEUPS)  # + the linear bot file



def test_the_stages_run_every_part_two_at_a_time() -> None:
    staged = [part for stage in warmup.STAGES for part in stage]
    assert sorted(staged) == sorted(warmup.PARTS) and all(len(s) == 2 for s in warmup.STAGES)
