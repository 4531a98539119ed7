"""Third-party bots in their own processes: the bot processes the engine starts and keeps
(sandbox), the bubblewrap jail they run in where the machine has it (bubblewrap) and the
process a bot runs in (child). See docs/trust.md."""
