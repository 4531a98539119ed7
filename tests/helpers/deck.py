"""The classic board's JSON and a board with its territory cards' kinds shuffled."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import numpy as np

from game.map import Map, build_map, classic_map
from game.rules.cards import classic_card_kinds
from game.rules.layout import (
    KIND_NAMES,
)


def classic_data() -> dict[str, Any]:
    """The classic board's JSON description."""
    text = (resources.files("game") / "maps" / "classic.json").read_text(encoding="utf-8")
    return dict(json.loads(text))


def shuffled_deck(seed: int = 5) -> Map:
    """The classic board with its territory cards' kinds permuted (still 14 of each kind)."""
    data = classic_data()
    m = classic_map()
    kinds = np.random.default_rng(seed).permutation(classic_card_kinds(m.n_territories)[:-2])
    data["card_kinds"] = {t: KIND_NAMES[k] for t, k in zip(m.territories, kinds, strict=True)}
    return build_map(data, "shuffled")


SHUFFLED = shuffled_deck()


