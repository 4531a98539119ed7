"""The environments' `render()`: the session's text, returned ("ansi") or printed ("human")."""

from __future__ import annotations

from game.session import Session


def render_text(session: Session, mode: str | None) -> str | None:
    """The position as text for render mode `mode` (None: nothing to render)."""
    if mode is None:
        return None
    text = session.render()
    if mode == "human":
        print(text)
        return None
    return text


__all__ = ["render_text"]
