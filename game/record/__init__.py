"""A game on paper: the transcript written as it is played, its replay, the board its lines move
on, and the position in which a line was decided."""
