"""The bot protocol's wire (docs/protocol.md): its messages, checked field by field (protocol),
and the engine's side of it, a player whose decisions come from another process
(subprocess_player). Both the server (`arena.serve`) and the sandbox (`arena.isolation`) use it."""
