"""The bot protocol (docs/protocol.md): the server a bot answers through (server, command, tcp),
the engine's side of it (subprocess_player), its messages (protocol, answers) and the record
of a served game (recorder writes, records reads)."""
