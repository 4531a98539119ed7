"""What the test files share: a test file imports these, never another test file
(tests/test_test_layout.py checks it). pytest puts the checkout on the path (`pythonpath` in
pyproject.toml), so a test imports `from tests.helpers.positions import position`; a
subprocess that loads a helper by name (`--set game.plugin=tests.helpers.fake_run:fake_plugin`,
the class path `tests.helpers.hostile_bots:Hang`) runs in the checkout."""
