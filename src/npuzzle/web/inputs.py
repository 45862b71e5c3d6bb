"""Reading the web API's requests: every field checked and bounded, every refusal a ``RequestError``
that the app turns into a JSON error record (``present.jobs.error_record``) with its HTTP status.

>>> read_board({"position": "8 6 7/2 5 4/3 0 1"}, Bounds()).tiles
(8, 6, 7, 2, 5, 4, 3, 0, 1)
>>> read_board({"position": "1 2 3 4 5 0", "shape": "2x3"}, Bounds()).shape
(2, 3)
>>> read_board({"position": 12}, Bounds())
Traceback (most recent call last):
...
npuzzle.web.inputs.RequestError: 'position' must be text (a position in any notation)
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from ..arguments import MAX_WEIGHT
from ..board import GOALS, Board, Goal
from ..costs import COSTS
from ..errors import NPuzzleError
from ..notation import parse_shape, read_entry
from .jobs import AnalyzeRequest, SolveJob

#: The methods and lower bounds the page may ask for.
METHODS = ("auto", "idastar", "astar", "beam", "realtime")
HEURISTICS = ("auto", "manhattan", "lc", "wd", "id", "wd+id")
#: The lower bounds a check reports.
CHECK_BOUNDS = ("manhattan", "lc")


@dataclass(frozen=True)
class Bounds:
    """What a request may ask: body size (bytes), position text (characters), board sides, and
    the time limit of a solve (seconds)."""

    max_body: int = 64 * 1024
    max_text: int = 4096
    min_side: int = 2
    max_side: int = 10
    time_limit: float = 30.0


class RequestError(Exception):
    """A request refused: the HTTP status, the record's ``status``, the reason, and the input."""

    def __init__(self, reason: str, http: int = 400, status: str = "invalid", text: str | None = None) -> None:
        super().__init__(reason)
        self.reason, self.http, self.status, self.text = reason, http, status, text


def read_json(body: bytes) -> dict[str, Any]:
    """A request body: a JSON object."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise RequestError("the request body is not JSON: send an object such as "
                           '{"position": "8 6 7/2 5 4/3 0 1"}') from None
    if not isinstance(data, dict):
        raise RequestError("the request body must be a JSON object")
    return data


def _text(data: Mapping[str, Any], name: str, bounds: Bounds, default: str | None = None, what: str = "") -> str:
    value = data.get(name, default)
    if not isinstance(value, str):
        raise RequestError(f"{name!r} must be text" + (f" ({what})" if what else ""))
    if len(value) > bounds.max_text:
        raise RequestError(f"{name!r} is too long: at most {bounds.max_text:,} characters", 413, "too-large")
    return value


def _choice(data: Mapping[str, Any], name: str, choices: tuple[str, ...], default: str) -> str:
    value = data.get(name, default)
    if value not in choices:
        raise RequestError(f"{name!r} must be one of {', '.join(choices)}")
    return str(value)


def read_shape(text: str, bounds: Bounds) -> tuple[int, int]:
    """A shape ``HxW`` within the bounds."""
    try:
        shape = parse_shape(text)
    except NPuzzleError as e:
        raise RequestError(str(e)) from None
    check_sides(*shape, bounds)
    return shape


def check_sides(height: int, width: int, bounds: Bounds) -> None:
    lo, hi = bounds.min_side, bounds.max_side
    if not (lo <= height <= hi and lo <= width <= hi):
        raise RequestError(f"the web page takes boards of {lo}x{lo} to {hi}x{hi}, not {height}x{width}",
                           413, "too-large")


def read_goal(data: Mapping[str, Any]) -> Goal:
    return cast(Goal, _choice(data, "goal", GOALS, "standard"))


def read_board(data: Mapping[str, Any], bounds: Bounds) -> Board:
    """The ``position`` of a request (any notation), read in ``shape`` if given."""
    text = _text(data, "position", bounds, what="a position in any notation")
    shape = None
    if data.get("shape") not in (None, ""):
        shape = read_shape(_text(data, "shape", bounds), bounds)
    entry = read_entry("request", 1, text, shape)
    if entry.board is None:
        raise RequestError(entry.error or "no position", text=text)
    check_sides(entry.board.height, entry.board.width, bounds)
    return entry.board


def _number(data: Mapping[str, Any], name: str, default: float, low: float, high: float) -> float:
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RequestError(f"{name!r} must be a number")
    if (isinstance(value, float) and not math.isfinite(value)) or not low <= value <= high:
        raise RequestError(f"{name!r} must be from {low:g} to {high:g}")
    return float(value)


def read_solve(data: Mapping[str, Any], board: Board, bounds: Bounds) -> SolveJob:
    """A solve request's job: the position (read already as ``board``) and its options."""
    timeout = _number(data, "timeout", bounds.time_limit, 0.001, bounds.time_limit)
    return SolveJob.of(board, _choice(data, "method", METHODS, "auto"), timeout, goal=read_goal(data),
                       heuristic=_choice(data, "heuristic", HEURISTICS, "auto"),
                       weight=_number(data, "weight", 1.0, 1.0, MAX_WEIGHT), cost=_choice(data, "cost", COSTS, "unit"))


def read_scramble(query: Mapping[str, str], bounds: Bounds) -> tuple[tuple[int, int], int | None, int | None, Goal]:
    """A scramble's query: ``shape`` (default 4x4), ``seed``, ``walk`` (random moves from the
    goal; else uniform) and ``goal``."""
    shape = read_shape(query.get("shape", "4x4")[:40], bounds)
    seed = _whole(query, "seed", 0, (1 << 63) - 1)
    walk = _whole(query, "walk", 1, 100_000)
    return shape, seed, walk, read_goal(query)


def _whole(query: Mapping[str, str], name: str, low: int, high: int) -> int | None:
    text = query.get(name, "")
    if text == "":
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 19) or not low <= int(text) <= high:
        raise RequestError(f"{name!r} must be a whole number from {low} to {high:,}")
    return int(text)


#: The most moves an analysis request may hold (once repeat counts are expanded), and the most
#: optimal solutions it may list.
MAX_ANALYZED_MOVES = 10_000
MAX_LISTED = 100


def read_analyze(data: Mapping[str, Any], board: Board, bounds: Bounds) -> AnalyzeRequest:
    """An analysis request's moves (replayed here: an illegal one is refused at once, by its
    number) and options (the position already read as ``board``)."""
    from ..analysis import moves_of
    from ..notation import format_position

    text = _text(data, "moves", bounds, "", "the moves: letters with repeat counts, tile numbers or hex digits")
    convention = _choice(data, "convention", ("tile", "blank"), "tile")
    try:
        tiles = moves_of(board, text, convention)
    except NPuzzleError as e:
        raise RequestError(str(e), text=text) from None
    if len(tiles) > MAX_ANALYZED_MOVES:
        raise RequestError(f"too many moves: the web page analyses at most {MAX_ANALYZED_MOVES:,}", 413, "too-large")
    return AnalyzeRequest(position=format_position(board), moves=tiles, goal=read_goal(data),
                          all_optimal=_count(data, "all_optimal", MAX_LISTED),
                          optimal_from=_count(data, "optimal_from", len(tiles)),
                          timeout=bounds.time_limit, cells=board.size)


def _count(data: Mapping[str, Any], name: str, high: int) -> int:
    """A whole number from 0 to ``high`` (default 0)."""
    value = data.get(name, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise RequestError(f"{name!r} must be a whole number from 0 to {high:,}")
    return value
