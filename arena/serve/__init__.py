"""The bot protocol's server side (docs/protocol.md): the server a bot answers through (server,
command, tcp; child, the sandboxed process that serves one untrusted bot), the checks of its
answers (answers) and the record of a served game (recorder writes, records reads). The wire
itself, messages and the engine's player, is `arena.wire`."""
