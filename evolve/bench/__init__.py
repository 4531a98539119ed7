"""Measures of the code itself: games/s, generation wall time and memory (`bench`), the
environments' speed (`benchenv`), the pinned reference (`benchref`) and the yardstick's readings."""
