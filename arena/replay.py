"""Replays for the arena's pages and commands: the transcript's reader lives beside its writer,
in `game.replay`; this module keeps the arena's name for it."""

from __future__ import annotations

from game.replay import (
    Frame,
    Replay,
    Replayer,
    ReplayError,
    card_text,
    mission_text,
    read_transcript,
    replay,
)

__all__ = ["Frame", "Replay", "ReplayError", "Replayer", "card_text", "mission_text",
           "read_transcript", "replay"]
