"""npuzzle: optimal and real-time solvers for sliding-tile puzzles of every m x n shape.

>>> import npuzzle
>>> solution = npuzzle.solve("1 2 3/4 5 6/0 7 8", method="idastar", heuristic="lc")
>>> solution
<Solution 3x3 standard: 2 moves, optimal, idastar/lc>
>>> solution.moves, solution.letters
((7, 8), 'LL')
>>> print(npuzzle.format(solution.board, "grid"))
1 2 3
4 5 6
0 7 8

(With the defaults, ``solve`` also consults the table store, and may save the move automaton
there; the examples name a method and heuristic that need no table.)

The public names are in ``__all__``; each has an example. Importing npuzzle loads neither numpy
nor numba; the solvers load them when first used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

from .arguments import board_or_text, check_options, shape_of
from .board import GOALS, Board, Direction, Goal
from .errors import (
    IllegalMoveError,
    InvalidBoardError,
    InvalidOptionError,
    InvalidTypeError,
    MissingTableError,
    NPuzzleError,
    TableFormatError,
    UnsolvableError,
    quote_input,
)
from .notation import NOTATIONS, format_position, parse_position
from .search.limits import Iteration, Limit, Progress, Solution

if TYPE_CHECKING:
    from .analysis import Analysis
    from .search.split import Executor
    from .verifier import Move, Verdict

__version__ = "0.1.0"

#: A shape: ``(height, width)`` or text such as ``"3x4"``.
Shape = tuple[int, int] | str


def parse(text: str, shape: Shape | None = None) -> Board:
    """Read a position in any notation the command line reads: rows (``"1 2 3/4 5 6/7 8 0"``),
    numbers with ``shape``, or hex digits (``"159d26ae37bf48c0"``, Knuth's 4x4 notation).

    >>> parse("1 2 3/4 5 6/7 8 0")
    Board(height=3, width=3, tiles=(1, 2, 3, 4, 5, 6, 7, 8, 0))
    >>> parse("1 2 3 4 5 0", shape="2x3").rows()
    [(1, 2, 3), (4, 5, 0)]
    """
    check_options({"shape": shape})
    if not isinstance(text, str):
        raise InvalidTypeError(f"text={quote_input(text)}: give a position as text")
    return parse_position(text, _shape(shape))


def format(board: Board, notation: str = "rows") -> str:  # noqa: A001 - the natural name
    """Write a board in a notation that ``parse`` reads back: ``rows`` (default), ``list``,
    ``hex`` (boards of at most 16 cells) or ``grid`` (one line a row).

    >>> b = parse("8 6 7/2 5 4/3 0 1")
    >>> format(b), format(b, "hex"), format(b, "list")
    ('8 6 7/2 5 4/3 0 1', '867254301', '8 6 7 2 5 4 3 0 1')
    >>> parse(format(b, "grid")) == b
    True
    """
    if not isinstance(board, Board):
        raise InvalidTypeError(f"board={quote_input(board)}: give a Board")
    if notation not in NOTATIONS:
        raise InvalidOptionError(f"unknown notation {notation!r}: use one of {', '.join(NOTATIONS)}")
    return format_position(board, notation)


def solve(
    board: Board | str,
    *,
    method: str = "auto",
    heuristic: str = "auto",
    goal: Goal | Board | str = "standard",
    timeout: float | None = None,
    max_nodes: int | None = None,
    max_memory: int | None = None,
    weight: float = 1.0,
    pruning: str = "auto",
    realtime_method: str = "greedy",
    limit: Limit | None = None,
    on_iteration: Callable[[Iteration, bool], None] | None = None,
    shape: Shape | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
    budget: float | None = None,
    **options: Any,
) -> Solution:
    """Solve ``board`` (a ``Board``, or a position as text, read with ``shape`` if given) for
    ``goal`` and return the ``Solution``, its moves replayed and checked.

    - ``method``: ``auto`` (a BFS table, else IDA* to 16 cells, else the beam search to 576 cells
      with ``max_nodes`` nodes, default 8,000,000: the same answer everywhere; or ``budget`` CPU s,
      to 1,024 cells; else real time), ``idastar``, ``astar``, ``astar+idastar``, ``beam`` or
      ``realtime`` or ``ucs``; answers not proven optimal carry a proven ``lower_bound`` and its ``ratio``;
    - ``heuristic``: ``auto`` (the strongest bound ready), ``manhattan``, ``lc``, ``wd``, ``id``,
      ``pdb:PARTITION`` or several joined by ``+`` (``wd+id``, ``pdb:6-6-3+wd``);
    - ``goal``: ``"standard"``, ``"blank-first"``, or a goal ``Board`` (or its text);
    - ``timeout`` (wall seconds), ``max_nodes``, ``max_memory`` (bytes), over ``limit``'s: a search
      that reaches one returns a ``Solution`` with that ``status`` and the bound it proved;
    - ``weight`` > 1: weighted A*; ``pruning``: IDA*'s ``auto``, ``parent`` or ``fsm``; ``realtime_method``:
      ``greedy`` or ``parberry``; ``on_iteration(iteration, final)`` after each IDA* threshold, A* bound
      or beam round; ``on_progress(progress)`` a few times a second (a live status);
    - ``cost`` (an option): ``unit``, ``heavy`` (tile t costs t), ``inverse`` (1/t), ``sqrt`` (docs/costs.md);
    - ``jobs``: IDA* split over this many processes (0 = every core), or over the workers of the
      Dask ``scheduler`` (``"tcp://HOST:PORT"``, needs ``npuzzle[cluster]``);
    - ``options``: any other ``search.Request`` field (``order``, ``top_nodes``); an option the
      method does not take is refused (the table: ``npuzzle solve --help``).

    Raises ``UnsolvableError`` (with the reason), ``InvalidBoardError``, ``InvalidOptionError``, ``InvalidTypeError``.

    >>> solve("1 2 3/4 5 6/0 7 8", method="idastar", heuristic="lc", timeout=10).letters
    'LL'
    >>> solve("0 1 2/3 4 5/6 7 8", goal=parse("1 0 2/3 4 5/6 7 8"), method="idastar").moves  # a goal board
    (1,)
    """
    from .search import prepare, registry, run

    check_options({"method": method, "goal": goal, "timeout": timeout, "max_nodes": max_nodes, "jobs": jobs,
                   "max_memory": max_memory, "shape": shape, "scheduler": scheduler})  # Request checks the rest
    board = _board(board, shape, limit)
    with _workers(jobs, scheduler) as executor:
        return run(prepare(board, registry.Request(
            goal=_goal(goal, board), heuristic=heuristic, weight=weight, pruning=pruning,
            realtime_method=realtime_method, limit=_limit(limit, timeout, max_nodes, max_memory),
            on_iteration=on_iteration, on_progress=on_progress, executor=executor, budget=budget,
            **registry.check_fields(options, "solve")), method))


def _workers(jobs: int, scheduler: str | None) -> AbstractContextManager[Executor | None]:
    """``cluster.workers(jobs, scheduler)``; a serial solve (one job, no scheduler) imports neither
    ``cluster`` nor ``search.split``."""
    if jobs == 1 and scheduler is None:
        return nullcontext()
    from .cluster import workers

    return workers(jobs, scheduler)


def solve_many(
    boards: Iterable[Board | str],
    *,
    jobs: int = 0,
    scheduler: str | None = None,
    goal: Goal | Board | str = "standard",
    shape: Shape | None = None,
    method: str = "auto",
    heuristic: str = "auto",
    timeout: float | None = None,
    max_nodes: int | None = None,
    pruning: str = "auto",
) -> list[Solution]:
    """``solve`` for many positions, one per process (``jobs``; 0, the default, = every core) or
    per worker of a Dask ``scheduler``; the solutions in the positions' order, each the same as
    ``solve`` gives (but for its times).

    >>> [s.length for s in solve_many(["1 2 3/4 5 6/0 7 8", "1 2 3/4 5 6/7 0 8"], jobs=2,
    ...                               method="idastar", heuristic="lc")]
    [2, 1]
    """
    from dataclasses import replace

    from .cluster import solve_many as _solve_many
    from .cluster import workers
    from .search import Request, prepare, run

    check_options({"jobs": jobs, "scheduler": scheduler, "goal": goal, "shape": shape, "method": method,
                   "heuristic": heuristic, "timeout": timeout, "max_nodes": max_nodes, "pruning": pruning})
    if isinstance(boards, str | bytes | bytearray | Board) or not isinstance(boards, Iterable):
        raise InvalidTypeError(f"boards={quote_input(boards)}: give a list (or any iterable) of positions")
    read = [_board(b, shape) for b in boards]
    request = Request(heuristic=heuristic, limit=_limit(None, timeout, max_nodes, None), pruning=pruning)
    with workers(jobs, scheduler) as executor:
        problems = [prepare(b, replace(request, goal=_goal(goal, b)), method) for b in read]
        if executor is None:
            return [run(p) for p in problems]
        return list(_solve_many(problems, executor))


def lower_bound(board: Board | str, heuristic: str = "manhattan", *, goal: Goal | Board | str = "standard",
                shape: Shape | None = None) -> int:
    """The value of a lower bound (a heuristic, as ``solve`` names them) for ``board``: every
    solution has at least that many moves. Tables it needs must be built
    (``npuzzle tables build``); ``MissingTableError`` names the command otherwise.

    >>> b = parse("8 6 7/2 5 4/3 0 1")
    >>> lower_bound(b), lower_bound(b, "lc"), lower_bound(b, "wd+id")
    (21, 23, 25)
    """
    check_options({"heuristic": heuristic, "goal": goal, "shape": shape})
    board = _board(board, shape)
    from .search import lower_bound as _lower_bound

    return _lower_bound(board, heuristic, _goal(goal, board))


def analyze(
    board: Board | str,
    moves: str | Sequence[int | Direction | str],
    *,
    goal: Goal | Board | str = "standard",
    convention: str = "tile",
    all_optimal: int = 0,
    optimal_from: int = 0,
    timeout: float | None = None,
    shape: Shape | None = None,
) -> Analysis:
    """Analyse a solve: replay ``moves`` from ``board`` and return an ``Analysis``: the optimal
    distance of every position on the way (``distances``, the start first; optimal on boards of
    at most 16 cells, else lower bounds and ``exact`` false), ``length``, ``moves_per_md``,
    each ``Mistake`` (a move after which the distance did not fall, with the ``better`` moves),
    an ``optimal`` solution from step ``optimal_from``, and with ``all_optimal`` N the count of
    the start's optimal solutions and the first N.

    ``moves``: tile numbers, letters (``"URDL2UR2"``: a letter with a repeat count), hex digits
    (boards of at most 16 cells), or a list of tiles or letters. ``convention``: what a letter
    names: ``"tile"`` (the default) the direction the pushed tile slides, ``"blank"`` the
    direction the blank moves. ``timeout``: wall seconds (``SearchStopped`` when reached).
    Raises ``IllegalMoveError`` naming the first illegal move, ``UnsolvableError``,
    ``InvalidBoardError``, ``InvalidOptionError``.

    >>> a = analyze("1 2 3 4/5 6 7 8/9 10 11 12/13 0 14 15", "LRLL")
    >>> a.distances, a.length, [(m.index + 1, m.move, m.better) for m in a.mistakes], a.optimal
    ((2, 1, 2, 1, 0), 4, [(2, 'R', ('L',))], 'LL')
    >>> analyze("1 2 3 4/5 6 7 8/9 10 11 12/13 0 14 15", "RR", convention="blank").solved
    True
    """
    from .analysis import analyze as _analyze
    from .arguments import seconds

    check_options({"goal": goal, "shape": shape})
    if not isinstance(convention, str):
        raise InvalidTypeError(f"convention={quote_input(convention)}: give 'tile' or 'blank'")
    if timeout is not None:
        seconds(timeout, "timeout")
    start = _board(board, shape)
    return _analyze(start, moves, goal=_goal(goal, start), convention=convention, all_optimal=all_optimal,
                    optimal_from=optimal_from, timeout=timeout)


def verify(position: Board | str, moves: str | Sequence[Move], *, goal: Goal = "standard",
           shape: Shape | None = None) -> Verdict:
    """Replay ``moves`` (text in any notation ``npuzzle solve`` prints or reads: letters, tile
    numbers, hex digits; or a list of tiles, letters or ``Direction`` values) from ``position``:
    ``status`` is ``"solved"``, ``"illegal"`` (``illegal_index``, from 0, is the first illegal
    move and ``reason`` says why) or ``"not-solved"`` (``reached`` is the position after the
    moves); ``optimum`` and ``excess`` (moves beyond it) where the optimum is known or cheap
    (3x3 from its table, 4x4 by IDA* within ``verifier.OPTIMUM_NODES`` nodes).

    >>> v = verify("1 2 3/4 5 6/0 7 8", "L L")
    >>> v.status, v.excess
    ('solved', 0)
    >>> verify("1 2 3/4 5 6/0 7 8", "L D").reached.tiles
    (1, 2, 3, 4, 0, 6, 7, 5, 8)
    >>> verify("1 2 3/4 5 6/0 7 8", [7, 4]).illegal_index
    1
    """
    from .verifier import verify_moves

    check_options({"goal": goal, "shape": shape})
    board = _board(position, shape)
    return verify_moves(board, moves, goal)


def _board(board: object, shape: Shape | None, limit: object = None) -> Board:
    """A ``Board`` argument, or a position as text read with ``shape``; ``limit`` a ``Limit``."""
    if limit is not None and not isinstance(limit, Limit):
        raise InvalidTypeError(f"limit={quote_input(limit)}: give a Limit (or None)")
    given = board_or_text(board)
    return parse(given, shape) if isinstance(given, str) else given


def _goal(goal: Goal | Board | str, board: Board) -> Goal | Board:
    """A goal's name, or a goal board (a position as text is read in the board's shape)."""
    if isinstance(goal, str) and goal not in GOALS and any(ch.isdigit() for ch in goal):
        try:
            return parse(goal, board.shape)
        except InvalidBoardError as e:
            raise InvalidBoardError(f"goal={quote_input(goal)}: {e}") from None
    return goal  # type: ignore[return-value]  # a wrong name is refused by the search


def _shape(shape: Shape | None) -> tuple[int, int] | None:
    return None if shape is None else shape_of(shape)


def _limit(limit: Limit | None, timeout: float | None, max_nodes: int | None, max_memory: int | None) -> Limit | None:
    if timeout is None and max_nodes is None and max_memory is None:
        return limit
    base = limit or Limit()
    return Limit(timeout=base.timeout if timeout is None else timeout,
                 max_nodes=base.max_nodes if max_nodes is None else max_nodes,
                 max_memory=base.max_memory if max_memory is None else max_memory)


__all__ = [
    "Board",
    "Direction",
    "Solution",
    "Limit",
    "solve",
    "solve_many",
    "lower_bound",
    "analyze",
    "verify",
    "parse",
    "format",
    "NPuzzleError",
    "InvalidBoardError",
    "InvalidOptionError",
    "InvalidTypeError",
    "UnsolvableError",
    "IllegalMoveError",
    "MissingTableError",
    "TableFormatError",
]
