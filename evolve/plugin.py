"""The game side of a run: genome layout, batch game function, rules, map and champion eval.

`default_plugin` wires the real packages (features, game). Tests inject a plug-in built from a
tiny fake game through the `game.plugin` config field (`module:function`), so the evolution
code never branches on fakes.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from evolve.config import Config, ConfigError

# play_games(weights f64[n, k, G], seeds, rules, map) -> (placements i32[n, k], rounds, capped)
PlayGames = Callable[[np.ndarray, list[np.random.SeedSequence], Any, Any],
                     tuple[np.ndarray, np.ndarray, np.ndarray]]
# play_mixed(weights f64[n, k, G], policies i32[n, k], seeds, rules, map): play_games with some
# seats played by bots (policy code > 0, see Plugin.compiled_bots) instead of their weights row.
PlayMixed = Callable[[np.ndarray, np.ndarray, list[np.random.SeedSequence], Any, Any],
                     tuple[np.ndarray, np.ndarray, np.ndarray]]
# play_eval(weights f64[G], opponents per game, seeds, rules, map) -> winner i32[n] (player
# index, -1 when no winner, e.g. capped); the champion is player 0 of every game.
PlayEval = Callable[[np.ndarray, list[tuple[str, ...]], list[np.random.SeedSequence], Any, Any],
                    np.ndarray]


@dataclass(frozen=True)
class Plugin:
    """Everything the evolution needs from the game and the linear player."""

    names: tuple[str, ...]
    low: np.ndarray  # f64[G] documented range: where genes start (never clipped to it)
    high: np.ndarray  # f64[G]
    sigma: np.ndarray  # f64[G] mutation step per gene
    scale: np.ndarray  # bool[G] scale genes: start at +-1, may flip sign
    play_games: PlayGames  # module-level function (pickled by reference to workers)
    play_eval: PlayEval
    save_genome: Callable[[Path, np.ndarray, dict[str, Any]], None]
    rules: Any
    map: Any
    bots: tuple[str, ...]  # baseline opponent names available for eval
    strong: tuple[str, ...] = ()  # the strongest of them: default eval and playoff opponents
    play_mixed: PlayMixed | None = None  # league games with bots seated (league.bots)
    compiled_bots: Mapping[str, int] = field(default_factory=dict)  # bots play_mixed can seat
    # Reads a bot file's genes f64[G] for league.genomes (None: this plug-in has no bot files);
    # raises ValueError with a one-line reason.
    load_genome: Callable[[str], np.ndarray] | None = None

    @property
    def n_genes(self) -> int:
        """Number of genes G."""
        return len(self.names)


def load_plugin(cfg: Config) -> Plugin:
    """Import and call the `game.plugin` factory (`module:function`) with the config."""
    spec = cfg.game.plugin
    mod_name, sep, fn_name = spec.partition(":")
    if not sep or not mod_name or not fn_name:
        raise ConfigError(f"config field game.plugin: expected 'module:function', got {spec!r}")
    try:
        factory = getattr(importlib.import_module(mod_name), fn_name)
    except (ImportError, AttributeError) as e:
        raise ConfigError(f"config field game.plugin: cannot load {spec!r} ({e})") from None
    # Only a plug-in factory is called: a function of that module declared `-> Plugin`
    # (not any importable callable, e.g. shutil:rmtree or os:system, with the config).
    returns = getattr(inspect.signature(factory), "return_annotation", None) \
        if inspect.isfunction(factory) else None
    if (getattr(factory, "__module__", None) != mod_name or factory is load_plugin
            or not (returns is Plugin or (isinstance(returns, str)
                                          and returns.rsplit(".", 1)[-1] == "Plugin"))):
        raise ConfigError(f"config field game.plugin: {spec!r} is not a plug-in factory (a "
                          f"function of {mod_name!r} declared `def {fn_name}(cfg) -> Plugin`)")
    plugin = factory(cfg)
    if not isinstance(plugin, Plugin):
        raise ConfigError(f"config field game.plugin: {spec!r} did not return a Plugin")
    # Checked here, before a run folder exists, even while eval is off: a later resume may
    # turn it on.
    if cfg.eval.every or cfg.eval.opponents:
        check_opponents(cfg.eval.opponents, plugin.bots, plugin.strong)
    check_league_bots(cfg.league.bots, plugin.compiled_bots)
    if cfg.champion.every or cfg.champion.opponents:
        check_opponents(cfg.champion.opponents, plugin.bots, plugin.strong,
                        "champion.opponents")
    return plugin


def eval_games(weights: np.ndarray, opponents: list[tuple[str, ...]],
               seeds: list[np.random.SeedSequence], rules: Any, map: Any, *,
               compiled: bool = True) -> np.ndarray:
    """Play the champion (player 0, a LinearPlayer) against bundled bots: in the compiled loop
    when every opponent has a compiled implementation (a compiled bot or a packaged bot file
    played greedily: the same games), else the Python engine."""
    from features.compiled import play_mixed_game
    from features.linear import LinearPlayer
    from game.bots import BOT_FILES, BOTS, COMPILED_BOTS
    from game.engine import play_game

    out = np.full(len(seeds), -1, dtype=np.int32)
    for i, (names, seed) in enumerate(zip(opponents, seeds, strict=True)):
        if compiled and all(n in COMPILED_BOTS or n in BOT_FILES for n in names):
            w = np.zeros((1 + len(names), len(weights)))
            w[0] = weights
            for j, n in enumerate(names):
                if n in BOT_FILES:
                    w[1 + j] = _bundled_weights(n)
            pol = np.array([0, *(COMPILED_BOTS.get(n, 0) for n in names)], dtype=np.int32)
            out[i] = play_mixed_game(w, pol, seed, rules, map).winner
            continue
        players: list[Any] = [LinearPlayer(weights)] + [
            LinearPlayer(_bundled_weights(n)) if n in BOT_FILES else BOTS[n]() for n in names]
        outcome = play_game(players, map=map, rules=rules, seed=seed)
        out[i] = -1 if outcome.winner is None else outcome.winner
    return out


@functools.cache
def _bundled_weights(name: str) -> np.ndarray:
    """A packaged bot file's genes (`game.bots.BOT_FILES`), read once per process."""
    from game.bots import bot_file

    return _load_genome(str(bot_file(name)))


def _save_genome(path: Path, values: np.ndarray, meta: dict[str, Any]) -> None:
    from features.botfile import BotFile

    BotFile(values, meta).write(path)


def _load_genome(path: str) -> np.ndarray:
    from features.botfile import BotFile
    from features.genome import GenomeError

    try:
        return BotFile.read(path).weights
    except GenomeError as e:
        raise ValueError(str(e)) from None


def league_genomes(paths: Sequence[str], plugin: Plugin) -> list[tuple[str, np.ndarray]]:
    """The fixed genome anchors of `league.genomes`: (label, genes) per file; a ConfigError
    naming the field and the file when one cannot be read or repeats a label."""
    load = plugin.load_genome
    if load is None:
        if paths:
            raise ConfigError("config field league.genomes: this game plug-in reads no bot "
                              "files (allowed: [])")
        return []
    out: list[tuple[str, np.ndarray]] = []
    for p in paths:
        try:
            genes = load(p)
        except ValueError as e:
            raise ConfigError(f"config field league.genomes: {e}") from None
        if genes.shape != (plugin.n_genes,):
            raise ConfigError(f"config field league.genomes: {p}: {genes.shape[0]} genes, this "
                              f"game plug-in has {plugin.n_genes}")
        label = Path(p).stem
        if label in (name for name, _ in out):
            raise ConfigError(f"config field league.genomes: two files named {label!r}")
        out.append((label, genes))
    return out


def default_plugin(cfg: Config) -> Plugin:
    """The real game: features.compiled batch games, game.engine eval against game.bots."""
    from features.compiled import play_linear_games, play_mixed_games
    from features.genome import LAYOUT
    from game.bots import BOT_FILES, BOTS, COMPILED_BOTS, GAUNTLET
    from game.map import MapError, classic_map, load_map
    from game.state import RulesError

    rules = cfg.rules  # a game.state.Rules: every option reaches the games
    try:
        board = classic_map() if cfg.game.map == "classic" else load_map(cfg.game.map)
    except MapError as e:
        raise ConfigError(f"config field game.map: {e}") from None
    try:
        rules.check(board, cfg.run.group_size)
    except RulesError as e:
        # The rules' message names the option; add the board and seat count it was checked on.
        raise ConfigError(f"config: {e} (game.map = {cfg.game.map!r}, "
                          f"run.group_size = {cfg.run.group_size})") from None
    return Plugin(
        names=tuple(LAYOUT.names), low=np.asarray(LAYOUT.low, dtype=np.float64),
        high=np.asarray(LAYOUT.high, dtype=np.float64),
        sigma=np.asarray(LAYOUT.sigma, dtype=np.float64),
        scale=np.asarray(LAYOUT.scale, dtype=np.bool_),
        play_games=play_linear_games, play_eval=eval_games, save_genome=_save_genome,
        rules=rules, map=board, bots=tuple(sorted((*BOTS, *BOT_FILES))), strong=GAUNTLET,
        play_mixed=play_mixed_games, compiled_bots=dict(COMPILED_BOTS),
        load_genome=_load_genome,
    )


def warm_up(plugin: Plugin, group_size: int, opponents: Sequence[str]) -> float:
    """Play one game of each kind a run plays, in this process; returns the seconds it took.

    The first call on a machine compiles the numba game (tens of seconds) and caches it, so the
    workers then load it instead of each compiling it while the progress bar stands still.
    """
    t0 = time.perf_counter()
    mid = np.where(plugin.scale, 1.0, (plugin.low + plugin.high) / 2)
    seeds = [np.random.SeedSequence(0)]
    plugin.play_games(np.tile(mid, (1, group_size, 1)), seeds, plugin.rules, plugin.map)
    if opponents:
        table = tuple(opponents[i % len(opponents)] for i in range(group_size - 1))
        plugin.play_eval(mid, [table], seeds, plugin.rules, plugin.map)
    return time.perf_counter() - t0


def check_league_bots(names: Sequence[str], codes: Mapping[str, int]) -> tuple[str, ...]:
    """The league's anchor bots; ConfigError naming one the game cannot seat in its
    compiled league games, or a repeat."""
    for n in names:
        if n not in codes:
            allowed = ", ".join(codes) or "none: this game plug-in seats no bots"
            raise ConfigError(f"config field league.bots: {n!r} cannot be seated in league "
                              f"games (allowed: {allowed})")
    if len(set(names)) != len(names):
        raise ConfigError(f"config field league.bots: a bot is named twice ({', '.join(names)})")
    return tuple(names)


def check_opponents(names: Sequence[str], available: Sequence[str],
                    strong: Sequence[str] = (), field: str = "eval.opponents"
                    ) -> tuple[str, ...]:
    """The opponents named (when empty: the strongest baselines, else all); ConfigError
    naming unknown ones."""
    if not names:
        if not available:
            raise ConfigError(f"config field {field}: no baseline bots available")
        return tuple(strong) or tuple(available)
    for n in names:
        if n not in available:
            raise ConfigError(f"config field {field}: unknown bot {n!r} "
                              f"(allowed: {', '.join(available)})")
    return tuple(names)
