"""The web game: `python -m arena web` serves a page where a person plays bots or replays a
transcript (app: the server and its routes; httpd: the bounded HTTP layer; live: a game in
progress; insight, views, story: what the page shows; saves: games kept across restarts)."""
