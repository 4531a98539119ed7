"""The one reader of untrusted JSON: map files, bot files, protocol lines, run logs and the web
page's request bodies all parse through `parse_json`.

Every failure is an `UntrustedJSONError` of one line naming the source and what is wrong; a
size bound is checked before parsing, and nesting beyond the parser's recursion limit or an
integer beyond Python's digit limit is an error like any other, never a traceback.
"""

from __future__ import annotations

import json
from typing import Any, Literal

Kind = Literal["size", "utf8", "syntax", "depth", "number"]


class UntrustedJSONError(ValueError):
    """'<source>: <what> (<detail>)'; `kind` says which check failed, `what` and `detail` the
    parts, for callers that word it their own way (a syntax error also keeps the parser's
    `msg` and `column`)."""

    def __init__(self, source: str, kind: Kind, what: str, detail: str, msg: str = "",
                 column: int = 0) -> None:
        text = f"{what} ({detail})"
        super().__init__(f"{source}: {text}" if source else text)
        self.source, self.kind, self.what, self.detail = source, kind, what, detail
        self.msg, self.column = msg or detail, column


def parse_json(data: bytes | str, source: str = "", *, limit: int | None = None) -> Any:
    """The JSON value of `data` (UTF-8 when bytes); UntrustedJSONError naming `source` when it
    is larger than `limit` bytes (or characters), not UTF-8, or not valid JSON."""
    if limit is not None and len(data) > limit:
        raise UntrustedJSONError(source, "size", "too large", f"more than {limit} bytes")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise UntrustedJSONError(source, "utf8", "not UTF-8",
                                     f"{e.reason} at byte {e.start}") from None
    try:
        return json.loads(data)
    except json.JSONDecodeError as e:
        raise UntrustedJSONError(source, "syntax", "not valid JSON",
                                 f"line {e.lineno}: {e.msg} at column {e.colno}", e.msg,
                                 e.colno) from None
    except RecursionError:
        raise UntrustedJSONError(source, "depth", "not valid JSON", "nested too deep") from None
    except ValueError as e:  # an integer beyond Python's digit limit
        raise UntrustedJSONError(source, "number", "not valid JSON",
                                 " ".join(str(e).split())) from None


__all__ = ["UntrustedJSONError", "parse_json"]
