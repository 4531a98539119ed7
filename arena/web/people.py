"""Friends at the table: a game with several people's seats (issue 64).

The person who starts a game names the seats of the other people (`people`); each person's seat
gets a secret (`keys`), and a request about the game acts and sees as the seat whose secret it
carries (`?seat=S&key=K`, from the link the starter passes on): nobody acts for another seat or
sees its cards and mission. In hot-seat mode (`hotseat`) one screen holds every person's secret
and the page hides the hand between turns. A game with one person needs no secret, as before.
The secrets are saved with the game's request, so a restarted server takes the same links."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from http import HTTPStatus
from typing import Any

from arena.web.httpd import RequestError

MAX_SEATS = 6  # a game seats 2..6 players, people and bots together
KEY_BYTES = 16  # a seat's secret: 22 URL-safe characters


def friend_label(k: int) -> str:
    """The label of the k-th other person (0-based) at the table."""
    return f"friend {k + 1}"


def parse_people(body: Mapping[str, Any], bots: int, seat: int | None) -> tuple[list[int], bool]:
    """(the other people's seats, hot-seat) of a new game's request; RequestError for bad ones."""
    people, hot = body.get("people", []), body.get("hotseat", False)
    if type(hot) is not bool:
        raise RequestError("hotseat must be true or false")
    if not isinstance(people, list) or not all(type(s) is int for s in people):
        raise RequestError("people must be a list of seat numbers")
    n = bots + 1 + len(people)
    if n > MAX_SEATS:
        raise RequestError(f"a game seats at most {MAX_SEATS} players, people and bots "
                           f"together; got {n}")
    if people and seat is None:
        raise RequestError("with other people at the table, choose your own seat too")
    if any(not 0 <= s < n for s in people) or len(set(people)) != len(people) or seat in people:
        raise RequestError(f"people must be distinct seats 0..{n - 1} other than yours "
                           f"({seat}), got {people}")
    if hot and not people:
        raise RequestError("hotseat is for a game with other people at the table")
    return people, hot


def new_keys(seats: Sequence[int]) -> dict[str, str]:
    """A fresh secret per person's seat (by seat number as text, as JSON keeps it); none for
    a game with a single person."""
    if len(seats) < 2:
        return {}
    return {str(s): secrets.token_urlsafe(KEY_BYTES) for s in seats}


def saved_keys(raw: Any, seats: Sequence[int]) -> dict[str, str]:
    """The secrets a saved request holds, checked against the game's people."""
    if not isinstance(raw, dict) or sorted(raw) != sorted(str(s) for s in seats) or not all(
            isinstance(v, str) and 16 <= len(v) <= 64 for v in raw.values()):
        raise RequestError("the saved game's seat secrets do not match its people")
    return dict(raw)


def viewer(keys: Mapping[str, str], default: int | None, query: Mapping[str, str]) -> int | None:
    """The seat a request acts and sees as: `default` (the only person) in a game without
    secrets, else the seat whose secret the query carries (403 otherwise)."""
    if not keys:
        return default
    seat, key = query.get("seat", ""), query.get("key", "")
    want = keys.get(seat[:3])
    if want is None or not secrets.compare_digest(want.encode(), key[:64].encode()):
        raise RequestError("this game has several people: open it by your seat's link (its "
                           "seat and secret); ask the person who started it for yours",
                           HTTPStatus.FORBIDDEN)
    return int(seat)


def links(keys: Mapping[str, str], labels: Sequence[str], first: int | None
          ) -> list[dict[str, Any]]:
    """What the starter passes on: each other person's seat, label and secret."""
    return [{"seat": int(s), "label": labels[int(s)], "key": k}
            for s, k in sorted(keys.items(), key=lambda x: int(x[0])) if int(s) != first]


def seat_friends(order: list[int], seats: Sequence[int], bots: Sequence[object],
                 first: int | None, more: Sequence[int]) -> None:
    """Seat the people after the first (`bots` None, in order) at seats `more` by swapping them
    into `order` (session player -> index among the players), as the first was; ValueError
    when the seats are not distinct seats of the game besides the first's."""
    people = [i for i, b in enumerate(bots) if b is None][1:]
    if not people and not more:
        return
    n = len(bots)
    if (first is None or len(more) != len(people) or len(set(more)) != len(more)
            or first in more or not all(0 <= s < n for s in more)):
        raise ValueError(f"each of the {len(people) + 1} people needs a seat of their own, "
                         f"0..{n - 1}")
    for person, s in zip(people, more, strict=True):
        there, here = seats[s], order.index(person)
        order[there], order[here] = order[here], order[there]


__all__ = ["friend_label", "links", "new_keys", "parse_people", "saved_keys", "seat_friends",
           "viewer"]
