"""Which champion `arena web` offers first: the newest run's, else the bundled `champion` when
this install resolves that name; with neither, the page says in one line how to make one."""

from __future__ import annotations

from pathlib import Path

from arena.bots import BotSpecError, check_bot

BUNDLED_CHAMPION = "champion"
HOW_TO = ("No champion yet: `make evolve` makes one, then `make play` uses "
          "runs/<name>/champion.json.")


def newest_champion(root: Path = Path("runs")) -> Path | None:
    """The champion.json of the most recently changed run folder, if any."""
    found = [p for p in root.glob("*/champion.json") if p.is_file()]
    return max(found, key=lambda p: p.stat().st_mtime) if found else None


def bundled_champion() -> str | None:
    """`champion` when the bot registry resolves that name (a bot shipped in the package)."""
    try:
        check_bot(BUNDLED_CHAMPION)
    except BotSpecError:
        return None
    return BUNDLED_CHAMPION


def default_champion(root: Path = Path("runs")) -> str | None:
    """The champion the page offers first: the newest run's, else the bundled one."""
    champ = newest_champion(root)
    return str(champ) if champ else bundled_champion()


def default_bots(root: Path = Path("runs")) -> list[str]:
    """The page's opponents when `arena web` names none: the champion offered first (if any),
    strategist and continent."""
    champ = default_champion(root)
    return ([champ] if champ else []) + ["strategist", "continent"]


__all__ = ["BUNDLED_CHAMPION", "HOW_TO", "bundled_champion", "default_bots", "default_champion",
           "newest_champion"]
