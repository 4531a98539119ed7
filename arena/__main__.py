"""`python -m arena`."""

from arena.cli import main

raise SystemExit(main())
