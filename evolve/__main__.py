"""`python -m evolve`."""

from evolve.cli import main

raise SystemExit(main())
