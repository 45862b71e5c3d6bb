"""The prepared problem: what every search takes, made once from a board and a request.

``prepare`` does every check and every ``auto`` choice exactly once: the goal, the method (a saved
distance table, IDA*, the beam or real time, by the board's size), the heuristic (parsed into its
``Spec``, never read by name again below this point), the pruning, the options the method takes
(anything else is refused, see ``registry.REGISTRY``), the frame that maps the position onto the
goal whose tables exist, and the tables themselves. ``finish`` maps a search's moves back into
the caller's tiles and replays them against the caller's goal, once. ``solve`` is the two around
the search::

    Request ──prepare──> Problem ──solver(problem)──> Solution (framed) ──finish──> Solution

>>> from npuzzle import Board
>>> p = prepare(Board(2, 3, (1, 2, 3, 4, 0, 5)), Request(heuristic="lc"), "idastar")
>>> p.method, p.heuristic.name, p.pruning, p.target, p.frame is None
('idastar', 'lc', 'parent', 'standard', True)
>>> run(p).letters
'L'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..arguments import exact_weight
from ..board import Board, Goal, check_goal
from ..errors import InvalidOptionError, TableBuildStopped
from .limits import Limit, Solution, Stats, VerificationError, unfinished
from .registry import (
    KERNEL_REPLAY,
    REGISTRY,
    SPLIT,
    TABLE,
    TABLE_AT_HAND,
    TABLE_CELL,
    TABLE_SAVED,
    UNDER_WAY,
    Method,
    Request,
    check_pruning,
    check_realtime_method,
    load,
    resolved_pruning,
)
from .registry import method as registered
from .relabel import Frame, cancelled, corner_path, frame_for, turned

if TYPE_CHECKING:
    from ..heuristics.registry import Spec

#: ``method="auto"`` solves boards of up to this many cells optimally (IDA*), ...
AUTO_OPTIMAL_CELLS = 16
#: ... boards of up to this many by the beam search within its budget (and, when a budget is
#: given, up to the beam's own limit, 32x32), larger ones in real time.
AUTO_BEAM_CELLS = 576
#: Boards of at most this many cells are replayed in Python; larger ones by a kernel.
PY_REPLAY_CELLS = 1024


@dataclass(frozen=True)
class Problem:
    """A board and a request, checked and resolved: the search solves ``start`` for ``target``
    (a named goal) and ``finish`` maps its moves back through ``frame`` onto ``board`` and
    ``goal``, after the ``prefix`` moves (a blank first taken to a corner)."""

    board: Board
    goal: Goal | Board
    start: Board
    target: Goal
    frame: Frame | None
    method: str
    heuristic: Spec | None
    pruning: str
    limit: Limit
    request: Request
    prefix: tuple[int, ...] = ()

    @property
    def heuristic_name(self) -> str:
        return self.heuristic.name if self.heuristic is not None else "none"

    def first_bound(self) -> tuple[str, int] | tuple[()]:
        """The heuristic the search starts from and its value for the start (the first bound
        of IDA* and A*); empty for the searches that take no heuristic (the beam, real time,
        the distance tables) and under a cost model (whose bounds are costs, not moves)."""
        if self.heuristic is None or self.request.cost != "unit":  # a cost search reports its own thresholds
            return ()
        from ..heuristics.registry import evaluate

        return self.heuristic.name, evaluate(self.start, self.target, self.heuristic)


def prepare(board: Board, request: Request, method: str = "auto") -> Problem:
    """``board`` and ``request`` checked and resolved for ``method`` (``auto``: the one the
    board's size calls for). Raises ``InvalidOptionError`` for an option the method does not take
    (naming the parameter), ``UnsolvableError`` before any search, ``MissingTableError`` for a
    heuristic whose tables are not built."""
    named = _checked_goal(board, request.goal)
    spec = _parsed(request.heuristic)
    _check_values(request)
    if method != "auto":
        registered(method)
    board.require_solvable(request.goal)
    chosen = _auto_method(board, named, request) if method == "auto" else method
    _refuse_unused(chosen, request, method == "auto", board)
    if request.cost != "unit":
        _check_priced(request, board, named, chosen)
    _check_size(chosen, board)
    if named is None and not _corner(board, request.goal) and _blank_table(board, request.goal):
        chosen = "table-cell"  # no frame: the distance table of the goal's blank cell answers at once
    frame, start, target, prefix = _framed(board, request.goal, named, chosen)
    goal = named if named is not None else request.goal  # a goal board of a convention is named
    if chosen in ("table", "table-cell"):
        return Problem(board, goal, start, target, frame, chosen, None, "parent", _limit(request), request, prefix)
    spec = _resolved(spec, start, target) if _takes(chosen, "heuristic") and request.cost == "unit" else spec
    if request.cost != "unit":
        takes = _takes(chosen, "heuristic")
        assert named is not None  # _check_priced refused the rest
        spec = _priced(spec if takes else None, request, takes, board, named) if chosen not in FOCAL \
            else _priced_focal(spec, request)
    if spec is not None and spec.pdb is not None and request.cost == "unit":
        frame, start, target = _toward_tables(spec, frame, start, target)
    elif _method(chosen).toward and load(_method(chosen).toward)(start.height, start.width, target) != target:
        frame, start, target = _turn(frame, start, target, "")  # the beam's tables, real time's goal
    pruning = resolved_pruning(request.pruning, spec, board.size)
    return Problem(board, goal, start, target, frame, chosen, spec, pruning, _limit(request), request, prefix)


#: The bounds admissible under every cost model: the Manhattan distance, each tile's distance
#: weighted by its cost (``search.costs``); and ``pdb:PARTITION``, cost-aware (``heuristics.cost_pdb``).
COST_HEURISTICS = ("manhattan",)


#: Under a cost model, A* and uniform-cost search pack a board into one int64: at most 16 cells.
PRICED_STORED_CELLS = 16


def _check_priced(request: Request, board: Board, named: Goal | None, method: str) -> None:
    """A cost model is searched exactly on this board, and for a goal convention (a goal board of
    no convention would rename the tiles, and so their costs)."""
    from ..costs import check_cells

    check_cells(request.cost, board.size)
    if method in ("astar", "ucs") and board.size > PRICED_STORED_CELLS:
        raise InvalidOptionError(f"method={method!r} under cost={request.cost!r} takes boards of at most "
                                 f"{PRICED_STORED_CELLS} cells; a {board.height}x{board.width} board needs "
                                 "method='idastar'")
    if named is None:
        raise InvalidOptionError(f"cost={request.cost!r} takes the goals 'standard' and 'blank-first' (or their "
                                 "boards), not another goal board")


#: The bounded-suboptimal searches (``search.focal``): under a cost model they take the
#: Manhattan distance weighted by each tile's cost, computed in their kernel.
FOCAL = ("focal", "dps")


def _priced_focal(spec: Spec | None, request: Request) -> Spec:
    """Focal search's and DPS's heuristic under a non-unit cost model: the cost-weighted Manhattan
    distance (``auto`` too); pattern databases and conflicts are refused with the reason."""
    from ..heuristics.registry import MANHATTAN

    if spec is not None and spec.name != "manhattan":
        raise InvalidOptionError(
            f"heuristic={spec.name!r} under cost={request.cost!r}: focal search and DPS weigh each tile's "
            "Manhattan distance by its cost; use 'manhattan' or 'auto' (cost-aware pattern databases: "
            "method='astar' or method='idastar')")
    return MANHATTAN


def _priced(spec: Spec | None, request: Request, takes: bool, board: Board, named: Goal) -> Spec | None:
    """The heuristic under a non-unit cost model (``auto``: the cost-weighted Manhattan distance),
    and the refusal of what the cost searches do not honour."""
    from ..heuristics.registry import parse

    cost = request.cost
    if request.executor is not None and request.executor.workers > 1:
        raise InvalidOptionError(f"cost={cost!r}: IDA* under a cost model runs on one process; leave out the "
                                 "executor (--jobs)")
    for option, default in (("pruning", "auto"), ("order", "korf")):
        if getattr(request, option) not in (default, "parent"):
            raise InvalidOptionError(f"{option}={getattr(request, option)!r} does not apply under cost={cost!r}: "
                                     "IDA* under a cost model prunes only the move undoing the last one")
    if spec is None:
        if not (request.heuristic == "auto" and takes):
            return None
        from ..heuristics.cost_pdb import auto_partition

        name = auto_partition(board.height, board.width, named, cost)
        return parse(f"pdb:{name}" if name else "manhattan")
    if spec.name not in COST_HEURISTICS and not (spec.pdb is not None and spec.name == f"pdb:{spec.pdb}"):
        raise InvalidOptionError(
            f"heuristic={spec.name!r} is not admissible under cost={cost!r}: its unit-cost tables and "
            "conflicts count moves, not their costs; use 'manhattan' (weighted by each tile's cost), "
            "'pdb:PARTITION' (cost-aware tables, made on first use) or 'auto'")
    if spec.pdb is not None:
        from ..heuristics.cost_pdb import check_partition

        check_partition(spec.pdb, board.height, board.width, named)
    return spec


def _checked_goal(board: Board, goal: Goal | Board) -> Goal | None:
    """The goal's convention name (checked, once), or None for a goal board of no convention."""
    if isinstance(goal, Board):
        board.is_goal(goal)  # the shapes agree
        return next((name for name in ("standard", "blank-first") if goal.is_goal(name)), None)
    return check_goal(goal)


def _parsed(heuristic: str) -> Spec | None:
    if heuristic == "auto":
        return None
    from ..heuristics.registry import parse

    return parse(heuristic)


def _check_values(request: Request) -> None:
    from ..costs import check_cost

    check_cost(request.cost)
    check_pruning(request.pruning)
    check_realtime_method(request.realtime_method)
    if request.weight != 1:
        try:
            exact_weight(request.weight)
        except ValueError as e:
            raise InvalidOptionError(str(e)) from None


def _auto_method(board: Board, named: Goal | None, request: Request) -> str:
    """The method ``auto`` picks: a saved distance table (unless an option asks for a search),
    else by the board's size and options."""
    if named is not None and all(_takes("table", option) for option in request.given()):
        if load(TABLE_SAVED)(board, named):
            return "table"
    if request.weight != 1:
        return "astar"
    if request.cost != "unit":
        return "idastar"
    if board.size <= AUTO_OPTIMAL_CELLS and request.budget is None:
        return "idastar"
    beam_cells = REGISTRY["beam"].max_cells or 0
    if board.size <= AUTO_BEAM_CELLS or (request.budget is not None and board.size <= beam_cells):
        return "beam"
    if request.budget is not None:
        raise InvalidOptionError(
            f"budget= applies to the beam search, which takes boards of at most {beam_cells:,} cells; a "
            f"{board.height}x{board.width} board is solved in real time: leave out budget=")
    return "realtime"


def _blank_table(board: Board, goal: Goal | Board) -> bool:
    """Whether the distance table of the goal board's blank cell answers (``bfs.solve_goal_board``):
    one is saved, or the board is small enough to make one at once (``bfs.blank_table_at_hand``)."""
    assert isinstance(goal, Board)
    return bool(load(TABLE_AT_HAND)(board.height, board.width, goal.blank))


def _corner(board: Board, goal: Goal | Board) -> bool:
    return isinstance(goal, Board) and frame_for(board, goal) is not None


def _method(name: str) -> Method:
    """The registered search ``name``, or one of the distance tables' internal methods."""
    return {"table": TABLE, "table-cell": TABLE_CELL}.get(name) or registered(name)


def _takes(method: str, option: str) -> bool:
    return option in _method(method).options


def _refuse_unused(method: str, request: Request, auto: bool, board: Board) -> None:
    """Options the chosen method does not take are refused before a search starts."""
    for option in request.given():
        if not _takes(method, option):
            takers = [m for m in REGISTRY if _takes(m, option)]
            chosen = (f"the {_label(method)} chosen for a {board.height}x{board.width} board"
                      if auto else f"method={method!r}")
            raise InvalidOptionError(f"{option}= does not apply to {chosen}: it applies to "
                                     f"{', '.join(repr(m) for m in takers) or 'no method'}")


def _label(method: str) -> str:
    return _method(method).label


def _check_size(method: str, board: Board) -> None:
    """Boards larger than the method takes are refused, naming the one that takes them."""
    most = None if method in ("table", "table-cell") else _method(method).max_cells
    if most is not None and board.size > most:
        other = "'beam' or 'realtime'" if method != "beam" else "'realtime'"
        raise InvalidOptionError(f"method={method!r} takes boards of at most {most} cells; a "
                                 f"{board.height}x{board.width} board ({board.size} cells) needs method={other}")


def _limit(request: Request) -> Limit:
    return request.limit or Limit()


# -- frames: the position mapped onto the goal whose tables the search reads ----------------------


def _framed(board: Board, goal: Goal | Board, named: Goal | None,
            method: str) -> tuple[Frame | None, Board, Goal, tuple[int, ...]]:
    """The frame for a goal board (relabelled onto the standard goal, taking the blank to a corner
    first if neither blank is in one), and the start and target it gives."""
    if named is not None:
        return None, board, named, ()
    assert isinstance(goal, Board)
    if method == "table-cell":
        return None, board, "standard", ()
    prefix: tuple[int, ...] = ()
    frame = frame_for(board, goal)
    if frame is None:
        prefix = corner_path(board)
        frame = frame_for(board.apply(prefix), goal)
        assert frame is not None  # the position's blank is now in a corner
    return frame, frame.apply(goal if frame.reverse else board.apply(prefix)), "standard", prefix


def framed(board: Board, goal: Goal | Board) -> tuple[Frame | None, Board, Goal] | None:
    """The frame, start and target a search of ``board`` for ``goal`` begins from (before any
    turn toward the tables' convention); None for a goal board when neither blank is in a corner."""
    named = _checked_goal(board, goal)
    if named is not None:
        return None, board, named
    assert isinstance(goal, Board)
    frame = frame_for(board, goal)
    if frame is None:
        return None
    return frame, frame.apply(goal if frame.reverse else board), "standard"


def _other(goal: Goal) -> Goal:
    return "blank-first" if goal == "standard" else "standard"


def _turn(frame: Frame | None, start: Board, target: Goal, note: str) -> tuple[Frame, Board, Goal]:
    """The frame followed by the 180-degree turn onto the other convention."""
    turn = turned(start.size, _other(target), note)
    return (turn if frame is None else frame.then(turn)), start.converted(), _other(target)


def _toward_tables(spec: Spec, frame: Frame | None, start: Board, target: Goal) -> tuple[Frame | None, Board, Goal]:
    """Onto the other convention if the pattern databases are built only for that one."""
    from ..heuristics import pattern_db

    assert spec.pdb is not None
    h, w = start.shape
    names = [spec.pdb] + ([spec.pdb2] if spec.pdb2 is not None else [])
    if (all(pattern_db.is_built(x, h, w, target) for x in names)
            or not all(pattern_db.is_built(x, h, w, _other(target)) for x in names)):
        return frame, start, target
    return _turn(frame, start, target, f"tables of the {_other(target)} goal used on the board turned 180 degrees")


def _resolved(spec: Spec | None, start: Board, target: Goal) -> Spec:
    """``auto`` resolved to the strongest bound available for the start's shape and goal."""
    from ..heuristics.registry import auto_heuristic, parse

    return spec if spec is not None else parse(auto_heuristic(start.height, start.width, target)[0])


# -- running and finishing ---------------------------------------------------------------------


def run(problem: Problem, solver: Callable[[Problem], Solution] | None = None) -> Solution:
    """Run the problem's search (or ``solver``; tables made on the way, walking distance, held to
    its limits too) and ``finish`` its answer."""
    from .. import tables as store

    limit = problem.limit
    UNDER_WAY[0] = problem.method
    try:
        with store.build_allowance(limit.timeout, limit.max_memory):
            _load_tables(problem)
            framed = (solver or _solver(problem))(problem)
    except TableBuildStopped as stop:
        framed = unfinished(problem.start, problem.target, stop.status, problem.start.manhattan(problem.target),
                            stats=Stats(), method=problem.method, heuristic=problem.heuristic_name, note=str(stop))
    finally:
        UNDER_WAY[0] = ""
    return finish(problem, framed)


def _load_tables(problem: Problem) -> None:
    """The heuristic's tables, loaded (or, for the walking distance, made) before the search
    starts, within its limits: a missing pattern database fails here (``MissingTableError``)."""
    if problem.heuristic is not None and problem.request.cost == "unit":  # else search.costs reads its own
        from ..heuristics.registry import kernel_heuristic

        kernel_heuristic(problem.heuristic, problem.start.height, problem.start.width, problem.target)


def _solver(problem: Problem) -> Any:
    executor = problem.request.executor
    if problem.method == "idastar" and executor is not None and executor.workers > 1:
        return SPLIT.load()  # prepare refuses an executor under a cost model
    return _method(problem.method).load(problem.request.cost)


def finish(problem: Problem, framed: Solution) -> Solution:
    """The search's answer in the caller's tiles, replayed against the caller's goal (once)."""
    frame, moves = problem.frame, framed.moves
    note = framed.note
    if frame is not None:
        moves = frame.original_tiles(moves)
        note = "; ".join(n for n in (note, frame.note) if n)
    out = dataclasses.replace(framed, board=problem.board, goal=problem.goal, moves=moves, note=note)
    if problem.prefix:
        return _after_prefix(problem, out)
    if not out.solved:
        return out
    out = dataclasses.replace(out, letters=replayed(problem.board, moves, problem.goal), length=len(moves))
    return _costed(out) if out.cost != "unit" else dataclasses.replace(out, cost_total=float(len(moves)))


def _costed(out: Solution) -> Solution:
    """The answer's cost computed again from the tiles pushed (``costs.total``), which must agree with
    the search's own sum (to the fixed-point rounding of ``sqrt``): else a bug, ``VerificationError``."""
    from ..costs import SQRT_SCALE, total

    replayed_cost = total(out.moves, out.cost)
    slack = 1e-9 * max(1.0, replayed_cost) + (len(out.moves) / SQRT_SCALE if out.cost == "sqrt" else 0.0)
    if out.cost_total is None or abs(out.cost_total - replayed_cost) > slack:
        raise VerificationError(f"internal error: the search's cost {out.cost_total} is not the replayed "
                                f"cost {replayed_cost} of its moves")
    return dataclasses.replace(out, cost_total=replayed_cost)


def replayed(board: Board, moves: tuple[int, ...], goal: Goal | Board) -> str:
    """``moves`` replayed from ``board``: their letters if they reach ``goal``, else
    ``VerificationError`` (a bug, never a user's mistake). Large boards are replayed by a kernel."""
    if board.size <= PY_REPLAY_CELLS or not isinstance(goal, str):
        from .limits import replayed_letters

        return replayed_letters(board, moves, goal)
    letters: str = load(KERNEL_REPLAY)(board, moves, goal)
    return letters


def _after_prefix(problem: Problem, out: Solution) -> Solution:
    """Neither blank was in a corner: the position's blank was first taken to its nearest corner
    (``prefix``). The answer is short but optimal only if it meets the proven bound, the larger of
    the Manhattan distance and what the search proved, less the moves taken first."""
    board, goal, first = problem.board, problem.goal, problem.prefix
    bound = max(board.manhattan(goal), out.lower_bound - len(first))
    note = (f"the blank of neither board is in a corner: it was first taken to a corner ({len(first)} "
            "moves), so the length is not proven optimal")
    if not out.solved:
        return dataclasses.replace(out, lower_bound=bound, optimal=False, note=note)
    moves = cancelled(first + out.moves)
    proven = len(moves) <= bound  # the Manhattan distance (or the search's bound) is met
    return dataclasses.replace(out, moves=moves, letters=replayed(board, moves, goal), length=len(moves),
                               optimal=proven, lower_bound=len(moves) if proven else bound,
                               note="" if proven else note)


__all__ = ["Problem", "prepare", "run", "finish", "replayed", "VerificationError"]
