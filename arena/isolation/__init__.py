"""Third-party bots in their own processes: the sandbox the engine starts and keeps
(sandbox) and the process a bot runs in (child). See docs/trust.md."""
