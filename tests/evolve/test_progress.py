"""The ticker says what a long wait is, only while it is long."""

from __future__ import annotations

import io
import time

from evolve.progress import Ticker


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_short_wait_says_nothing() -> None:
    out = io.StringIO()
    with Ticker("compiling", after=5.0, stream=out) as tick:
        pass
    assert out.getvalue() == "" and tick.seconds < 5.0


def test_a_long_wait_says_what_it_is_once_off_a_terminal() -> None:
    out = io.StringIO()
    with Ticker("compiling the game loop", after=0.05, stream=out) as tick:
        time.sleep(0.3)
    assert out.getvalue() == "compiling the game loop ...\n" and tick.seconds >= 0.3


def test_on_a_terminal_it_counts_the_seconds_and_erases_its_line() -> None:
    out = _Tty()
    with Ticker("compiling", after=0.0, stream=out):
        time.sleep(1.3)
    text = out.getvalue()
    assert "\rcompiling ... 1 s " in text and text.endswith("\r\033[K")
