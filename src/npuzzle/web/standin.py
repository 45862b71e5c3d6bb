"""TEMPORARY stand-in for ``POST /api/analyze`` while the page is built (branch ``page``): the
analysis branch's route (``npuzzle.analyze``, one implementation for the library, the command
line and the HTTP API) replaces this module and its route at merge. It answers the agreed record
(``record`` "analysis": shape, tiles, position, moves (the tiles pushed), letters, solved,
start_distance, length, distances, exact, mistakes, moves_per_md, all_optimal) naively: one
optimal solve per position, boards of at most 9 cells only, so the page's tests and screenshots
can run.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..board import Board, Goal
from .inputs import Bounds, RequestError, read_board, read_goal

#: The largest board the stand-in analyses (one optimal search per position and per better move).
MAX_CELLS = 9
OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}


def _letters(data: Mapping[str, Any]) -> str:
    text = data.get("moves", "")
    if not isinstance(text, str) or len(text) > 4096:
        raise RequestError("'moves' must be text of at most 4,096 characters")
    compact = re.sub(r"[\s,]+", "", text).upper()
    if not re.fullmatch(r"([UDLR]\d{0,3})*", compact):
        raise RequestError("'moves' must be letters U D L R, each with an optional repeat count")
    letters = "".join(a * int(n or 1) for a, n in re.findall(r"([UDLR])(\d*)", compact))
    convention = data.get("convention", "tile")
    if convention not in ("tile", "blank"):
        raise RequestError("'convention' must be one of tile, blank")
    return "".join(OPPOSITE[x] for x in letters) if convention == "blank" else letters


def analyze_record(data: Mapping[str, Any], bounds: Bounds) -> dict[str, Any]:
    """The analysis record of a request's position and moves (see the module's note)."""
    from .. import solve

    board, goal, letters = read_board(data, bounds), read_goal(data), _letters(data)
    if board.size > MAX_CELLS:
        raise RequestError(f"the stand-in analysis takes boards of at most {MAX_CELLS} cells", 413, "too-large")
    if not board.is_solvable(goal):
        raise RequestError(board.unsolvable_reason(goal) or "unsolvable", 422, "unsolvable")
    cache: dict[Board, int] = {}

    def distance(b: Board) -> int:
        if b not in cache:
            cache[b] = solve(b, goal=goal, method="idastar", heuristic="manhattan").length or 0
        return cache[b]

    boards = [board]
    for i, letter in enumerate(letters):
        try:
            boards.append(boards[-1].push(letter))
        except Exception:
            raise RequestError(f"move {i + 1} ({letter}) has no tile to slide") from None
    distances = [distance(b) for b in boards]
    mistakes = [{"index": i, "move": letters[i], "distance_before": distances[i], "distance_after": distances[i + 1],
                 "better": _better(boards[i], distances[i], distance)}
                for i in range(len(letters)) if distances[i + 1] >= distances[i]]
    record: dict[str, Any] = {
        "record": "analysis", "shape": f"{board.height}x{board.width}", "position": _rows(board),
        "tiles": list(board.tiles),
        "moves": _tiles(board, letters), "letters": letters, "solved": boards[-1].is_goal(goal),
        "start_distance": distances[0],
        "length": len(letters), "distances": distances, "exact": True, "mistakes": mistakes,
        "moves_per_md": round(len(letters) / board.manhattan(goal), 3) if board.manhattan(goal) else None}
    wanted = data.get("all_optimal", 0)
    if isinstance(wanted, int) and wanted > 0:
        record["all_optimal"] = _all_optimal(board, distance, min(wanted, 100), goal)
    return record


def _tiles(board: Board, letters: str) -> list[int]:
    out = []
    for letter in letters:
        out.append(board.tile_in_direction(letter))
        board = board.push(letter)
    return out


def _rows(board: Board) -> str:
    return "/".join(" ".join(map(str, row)) for row in board.rows())


def _better(board: Board, d: int, distance: Any) -> list[str]:
    out = []
    for letter in "UDLR":
        try:
            after = board.push(letter)
        except Exception:
            continue
        if distance(after) < d:
            out.append(letter)
    return out


def _all_optimal(board: Board, distance: Any, cap: int, goal: Goal) -> dict[str, Any]:
    found: list[str] = []

    def walk(b: Board, path: str) -> None:
        if len(found) >= cap:
            return
        if b.is_goal(goal):
            found.append(path)
            return
        for letter in _better(b, distance(b), distance):
            walk(b.push(letter), path + letter)

    walk(board, "")
    return {"count": len(found), "solutions": found}
