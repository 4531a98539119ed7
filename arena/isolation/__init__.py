"""Third-party bots in their own processes: the bot processes the engine starts and keeps
(sandbox) and the bubblewrap jail they run in where the machine has it (bubblewrap); the
process a bot runs in is `arena.serve.child`. See docs/trust.md."""
