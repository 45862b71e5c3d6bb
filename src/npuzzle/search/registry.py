"""The searches by name, and the options they share. Importing it loads no numpy or numba: a
search's module is imported when the search is first used.

A search is one ``Method`` entry: its name, its solver (``"module:function"``, a function
``(problem) -> Solution`` over a ``problem.Problem``) and the options it takes.
Adding a search means writing its module (and kernel) and adding one entry to ``REGISTRY``.

>>> sorted(REGISTRY)
['astar', 'astar+idastar', 'beam', 'dps', 'focal', 'idastar', 'realtime', 'ucs']
>>> METHODS
('auto', 'idastar', 'astar', 'focal', 'dps', 'astar+idastar', 'beam', 'realtime', 'ucs')
>>> check_pruning("fsm")
'fsm'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

from .. import arguments
from ..board import Board, Goal
from ..errors import InvalidOptionError, InvalidTypeError, quote_input
from .limits import Iteration, Limit, ProgressCallback, Solution

if TYPE_CHECKING:
    from ..heuristics.registry import Spec
    Solver = Callable[[Any], Solution]  # (problem.Problem) -> Solution

#: ``on_iteration(iteration, final)``: called after every IDA* iteration or A* bound.
IterationCallback = Callable[[Iteration, bool], None]

#: IDA*'s duplicate pruning: ``parent`` never generates the move that undoes the last one (Korf
#: 1985, whose node counts it reproduces); ``fsm`` also skips every move string that
#: ``search.fsm``'s automaton knows a shorter or earlier equivalent of. ``auto``: fsm with the
#: strong bounds (walking and inversion distance, pattern databases) on boards of up to 36
#: cells, else parent (always with manhattan and lc).
PRUNING: tuple[str, ...] = ("auto", "parent", "fsm")
#: The beam search's default budget: children generated (about 1 s of CPU on the machine of
#: ``docs/benchmarks.md``, 8-11 M children a second from 5x5 to 24x24), so that its answer does
#: not depend on the machine or its load (``arguments.MAX_BUDGET`` bounds its anytime mode).
DEFAULT_NODES = 8_000_000
#: ``auto`` pruning uses the automaton on boards of up to this many cells (6x6: built in 1.4 s).
AUTO_FSM_CELLS = 36
#: The real-time methods, the default first: ``greedy`` (fewer moves) and ``parberry``.
REALTIME_METHODS: tuple[str, ...] = ("greedy", "parberry")


def _option(default: Any, check: Callable[[object, str], object]) -> Any:
    """A ``Request`` field whose value ``check(value, name)`` accepts (else it raises
    ``InvalidTypeError`` or ``InvalidOptionError`` naming the parameter)."""
    return field(default=default, metadata={"check": check})


@dataclass(frozen=True, kw_only=True)
class Request:
    """What a caller asks of a search, as given: the goal, the bound to use, the limits and the
    method's options (each checked for its type and range when the request is made, by its
    field's ``check``; ``problem.prepare`` then resolves them and refuses those the method does
    not take, see ``Method.options``). Every field is given by name. Without its callbacks and
    executor (``portable``) it is a plain value that crosses to other processes: the batch
    pool's and Dask's workers, the web's and the experiment grids' runs.

    >>> Request(heuristic="lc", weight=2).given()
    ['heuristic', 'weight']
    """

    goal: Goal | Board = "standard"
    heuristic: str = _option("auto", arguments.text)
    limit: Limit | None = None
    weight: float = _option(1.0, lambda v, n: arguments.real(v, n, 1, arguments.MAX_WEIGHT))
    realtime_method: str = _option("greedy", arguments.text)
    pruning: str = _option("auto", arguments.text)
    on_iteration: IterationCallback | None = _option(None, arguments.callback)
    on_progress: ProgressCallback | None = _option(None, arguments.callback)
    #: A ``split.Executor`` with more than one worker: IDA* then runs its subtrees there.
    executor: Any = None
    #: The beam search's budget in CPU seconds (None: a budget of nodes, ``limit.max_nodes`` or
    #: ``DEFAULT_NODES``).
    budget: float | None = _option(None, lambda v, n: v is None or arguments.seconds(v, n, arguments.MAX_BUDGET))
    #: IDA*'s move order (``idastar.ORDERS``).
    order: str = _option("korf", arguments.text)
    #: Nodes A*+IDA*'s A* generates before IDA* takes over (None: ``hybrid.TOP_NODES``).
    top_nodes: int | None = _option(None, lambda v, n: v is None or arguments.count(v, n))
    #: The move-cost model (``npuzzle.costs.COSTS``): ``unit``, ``heavy``, ``inverse`` or ``sqrt``.
    cost: str = _option("unit", arguments.text)

    def __post_init__(self) -> None:
        for f in fields(self):
            check = f.metadata.get("check")
            if check is not None:
                check(getattr(self, f.name), f.name)

    def given(self) -> list[str]:
        """The options given a value other than their default, the limits' among them."""
        out = [f.name for f in fields(self) if f.name not in ("goal", "limit") and getattr(self, f.name) != f.default]
        if self.executor is not None and self.executor.workers <= 1:
            out.remove("executor")  # one worker: the serial search, as if none were given
        limit = self.limit or Limit()
        return out + [name for name in ("timeout", "max_nodes", "max_memory") if getattr(limit, name) is not None]

    def portable(self) -> Request:
        """This request without what belongs to this process (the callbacks and the executor):
        what another process is sent."""
        return replace(self, on_iteration=None, on_progress=None, executor=None)


def check_fields(options: dict[str, Any], where: str) -> dict[str, Any]:
    """``options`` if each is a ``Request`` field, else ``InvalidTypeError`` for the first that is
    not (``where``: the function given it)."""
    known = [f.name for f in fields(Request)]
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise InvalidTypeError(f"{where}() got an unknown option {unknown[0]}=: the options are {', '.join(known)}")
    return options


@dataclass(frozen=True)
class Method:
    """One search: its name, its solver and the ``Request`` options it takes."""

    name: str
    solver: str  # "module:function", imported on first use
    summary: str
    options: frozenset[str] = frozenset()
    label: str = ""  # how messages name it ("the beam search chosen for a 5x5 board")
    max_cells: int | None = None  # the largest board it takes (None: any)
    #: ``"module:function"`` ``(height, width, goal) -> Goal``: the goal convention it searches
    #: toward (where its tables are); "" for the goal given, turned only toward a heuristic's tables.
    toward: str = ""
    #: Whether every answer it finds is proven optimal (at any weight it takes, the bound is the weight).
    optimal: bool = False
    #: ``"module:function"``: its solver under a move-cost model other than ``unit`` ("": ``solver``
    #: takes every cost model it is given).
    priced: str = ""

    def load(self, cost: str = "unit") -> Solver:
        """Its solver, for the move-cost model ``cost``."""
        solver: Solver = load(self.priced if self.priced and cost != "unit" else self.solver)
        return solver


def load(name: str) -> Any:
    """The function ``"module:function"`` names, its module imported now (on first use)."""
    module, function = name.split(":")
    return getattr(importlib.import_module(module), function)


#: What every search honours: a time limit, and the two callbacks (``on_iteration`` after each
#: IDA* threshold, A* bound, beam round or real-time pass; ``on_progress`` a few times a second).
_EVERY = frozenset({"timeout", "on_iteration", "on_progress"})
#: The options each search takes beyond those (the method x option table of ``docs/architecture.md``
#: and ``npuzzle solve --help``); ``search.problem.prepare`` refuses any other it is given.
REGISTRY: dict[str, Method] = {m.name: m for m in (
    Method("idastar", "npuzzle.search.idastar:solve_problem", "optimal, memory-light (Korf 1985)",
           _EVERY | {"heuristic", "pruning", "order", "max_nodes", "max_memory", "executor", "cost"}, "IDA*", 256,
           optimal=True, priced="npuzzle.search.costs:solve_idastar"),
    Method("astar", "npuzzle.search.astar:solve_problem", "optimal, or weighted with a proven bound",
           _EVERY | {"heuristic", "weight", "max_nodes", "max_memory", "cost"}, "A*", 64,
           priced="npuzzle.search.costs:solve_astar"),
    Method("focal", "npuzzle.search.focal:solve_problem",
           "at most W times the optimum (--weight W), with the lower bound it proved (focal search, "
           "Pearl & Kim 1982)", _EVERY | {"heuristic", "weight", "max_nodes", "max_memory", "cost"},
           "focal search", 64),
    Method("dps", "npuzzle.search.focal:solve_problem",
           "at most W times the optimum (--weight W), with the lower bound it proved (dynamic potential "
           "search, Gilon, Felner & Stern 2016)",
           _EVERY | {"heuristic", "weight", "max_nodes", "max_memory", "cost"},
           "dynamic potential search", 64),
    Method("astar+idastar", "npuzzle.search.hybrid:solve_problem",
           "optimal: A* stores the top of the tree, IDA* searches below it (Bu & Korf 2019)",
           _EVERY | {"heuristic", "pruning", "max_nodes", "max_memory", "executor", "top_nodes"}, "A*+IDA*", 64,
           optimal=True),
    Method("beam", "npuzzle.search.beam:solve_problem",
           "short answers within a budget of nodes (or CPU seconds), with a proven lower bound (boards beyond 4x4)",
           _EVERY | {"budget", "max_nodes", "max_memory"}, "beam search", 1024, "npuzzle.search.beam:beam_goal"),
    Method("realtime", "npuzzle.search.realtime:solve_problem",
           "any size at once, not optimal (Parberry's algorithm or a greedy refinement)",
           _EVERY | {"realtime_method", "max_memory"}, "real-time method", None,
           "npuzzle.search.realtime:realtime_goal"),
    Method("ucs", "npuzzle.search.costs:solve_ucs",
           "optimal under any move-cost model: uniform-cost search (Dijkstra), no bound (small boards)",
           _EVERY | {"cost", "max_nodes", "max_memory"}, "uniform-cost search", 16, optimal=True),
)}
#: IDA* with its tree split over an executor's workers (``Request.executor``): not a name of its own.
SPLIT = Method("idastar", "npuzzle.search.split:solve_problem", "IDA* split over workers",
               REGISTRY["idastar"].options, "IDA*", REGISTRY["idastar"].max_cells)
#: A saved distance table (``bfs``), which ``auto`` picks when one is saved (``TABLE_SAVED``), and
#: the distance table of a goal board's blank cell, for a goal board when neither blank is in a
#: corner: not names of their own.
TABLE = Method("table", "npuzzle.search.bfs:solve_problem", "a saved distance table", _EVERY,
               "saved distance table")
TABLE_CELL = Method("table-cell", "npuzzle.search.bfs:solve_goal_board", "a blank cell's distance table", _EVERY,
                    "distance table")  # where one is at hand: ``search.bfs.blank_table_at_hand``
#: ``(board, goal) -> bool``: whether a distance table is saved for the board's shape and goal.
TABLE_SAVED = "npuzzle.search.bfs:has_table"
#: ``(height, width, blank) -> bool``: whether the distance table of a goal blank cell answers.
TABLE_AT_HAND = "npuzzle.search.bfs:blank_table_at_hand"
#: ``(board, moves, goal) -> letters``: the kernels' replay, for boards too large to replay in Python.
KERNEL_REPLAY = "npuzzle.search.realtime:replayed_directions_letters"
#: The method a solve is running (after ``auto`` is resolved), for the compile notice to name.
UNDER_WAY = [""]
#: The names ``solve`` takes: ``auto`` and every registered search.
METHODS: tuple[str, ...] = ("auto", *REGISTRY)


def method(name: str) -> Method:
    """The registered search ``name``; ``InvalidOptionError`` naming the choices otherwise."""
    if name not in REGISTRY:
        raise InvalidOptionError(f"unknown method {quote_input(name)}: use one of {', '.join(METHODS)}")
    return REGISTRY[name]


def quality_bound(name: str, weight: float | None = None) -> float | None:
    """At most how many times the optimum the answers of method ``name`` are guaranteed to be: the
    weight for a method that takes one (weighted A*, focal search, DPS: bounded-suboptimal), 1 for
    an optimal method, None for one with no bound (the beam, real time) or a name not registered.

    >>> quality_bound("idastar"), quality_bound("dps", 1.5), quality_bound("beam")
    (1.0, 1.5, None)
    """
    entry = REGISTRY.get(name)
    if entry is None:
        return None
    if "weight" in entry.options:
        return float(weight or 1.0)
    return 1.0 if entry.optimal else None


def check_pruning(pruning: str) -> str:
    """``pruning`` if it is one of ``PRUNING``, else ``InvalidOptionError`` naming them."""
    if pruning not in PRUNING:
        raise InvalidOptionError(f"unknown pruning {quote_input(pruning)}: use one of {', '.join(PRUNING)}")
    return pruning


def resolved_pruning(pruning: str, heuristic: Spec | None, cells: int) -> str:
    """``pruning`` with ``auto`` resolved: the move automaton with the strong bounds (walking and
    inversion distance, pattern databases) on boards of up to ``AUTO_FSM_CELLS`` cells, else
    parent pruning (see ``PRUNING``)."""
    if check_pruning(pruning) != "auto":
        return pruning
    return "fsm" if heuristic is not None and heuristic.extended and cells <= AUTO_FSM_CELLS else "parent"


def check_realtime_method(name: str) -> str:
    """``name`` if it is one of ``REALTIME_METHODS``, else ``InvalidOptionError`` naming them."""
    if name not in REALTIME_METHODS:
        raise InvalidOptionError(f"unknown real-time method {quote_input(name)}: use one of "
                                f"{', '.join(REALTIME_METHODS)}")
    return name
