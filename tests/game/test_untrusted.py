"""`game.untrusted.parse_json`, the one reader of untrusted JSON: every failure one line naming
the source and what is wrong."""

from __future__ import annotations

import pytest

from game.untrusted import UntrustedJSONError, parse_json

DEEP = "[" * 200_000 + "]" * 200_000
HUGE = "1" * 5_000  # beyond Python's integer digit limit


@pytest.mark.parametrize(("data", "limit", "kind", "needle"), [
    (b"{}" + b" " * 100, 10, "size", "src: too large (more than 10 bytes)"),
    (b'{"a": "\xff"}', None, "utf8", "src: not UTF-8 (invalid start byte at byte 7)"),
    ('{"a": ', None, "syntax", "src: not valid JSON (line 1: Expecting value at column 7)"),
    (DEEP, None, "depth", "src: not valid JSON (nested too deep)"),
    ('{"a": ' + HUGE + "}", None, "number", "src: not valid JSON (Exceeds the limit"),
])
def test_each_fault_is_one_line_naming_the_source(data: bytes | str, limit: int | None,
                                                   kind: str, needle: str) -> None:
    with pytest.raises(UntrustedJSONError) as e:
        parse_json(data, "src", limit=limit)
    assert e.value.kind == kind and str(e.value).startswith(needle)
    assert "\n" not in str(e.value) and e.value.source == "src"


def test_good_json_is_read_from_bytes_or_text() -> None:
    assert parse_json(b'{"a": [1, 2.5, "\xc3\xa9"]}', limit=100) == {"a": [1, 2.5, "é"]}
    assert parse_json("[true, null]") == [True, None]
    with pytest.raises(UntrustedJSONError, match=r"^not valid JSON \(line 1"):
        parse_json("nope")  # no source: the reason alone
