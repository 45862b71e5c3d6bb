"""What every front end shows: the text and JSON forms of npuzzle's results, one module per kind.

``common`` (status, count, time and size texts, the head of every record, warnings and errors),
``solution`` (a solution or a stopped search, verbose lines, steps), ``positions`` (checks and
scrambles), ``batch`` (invalid and unsolvable inputs, batch summaries, benchmark rows),
``statistics`` (distributions, happy moves, samples), ``tables`` (the table store, builds and
their progress bar), ``jobs`` (the web API's records and the server's lines), ``analysis``
(a played solution's analysis) and ``methods`` (which options each search method takes).

Each ``*_text`` function returns the lines a front end prints, joined by newlines with no final
newline; each ``*_record`` function returns the dict a front end sends as JSON. Nothing here
writes, reads options or decides exit statuses: the command line prints these strings, and a web
front end can send the very same ones. Importing this package (or any of its modules) loads
neither numpy nor numba.

>>> from npuzzle import Board
>>> from npuzzle.present import positions
>>> positions.check_record(Board(2, 2, (1, 2, 0, 3)), "standard")["schema_version"] == SCHEMA_VERSION
True
"""

from __future__ import annotations

#: ``schema_version`` of every JSON record (``docs/json.md``, ``data/schema.json``): raised when a
#: field changes its meaning or type or goes away, never for a new field.
SCHEMA_VERSION = 2
