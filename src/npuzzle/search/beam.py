"""Short answers for boards too large to solve optimally: a beam search with a budget of work.

An answer is ready at once: the real-time solver's (``search.realtime``, greedy). Then rounds
of beam search (``_kernels.beam``) look for shorter ones, each wider than the last, while the
budget lasts; the best answer found is returned, replayed and checked.

A round on a board of at most ``FINAL_SIDE`` x ``FINAL_SIDE`` (5x5, 3x5, ...) is one beam over
the whole board, ranked by Manhattan distance plus ``LC_WEIGHT`` times the linear conflicts, and
pruned by the admissible bound against the best answer so far; where pattern databases are built
for the board's shape, by their bound instead (``_pattern_args``: on Korf & Felner's 24-puzzles,
1.04 times the optimum in a second rather than 1.08). A larger board is reduced first,
as Parberry's algorithm does, but each step is searched (``plan``): while the unsolved region is
larger than ``REDUCED_SIDE`` x ``REDUCED_SIDE``, its frame (first row and first column, while it
is square) or its first row or column (while it is taller or wider) is put in place by a beam
whose goal is that line's tiles, ranked by their distance times ``LINE_WEIGHT`` plus the other
tiles' distance and the conflicts (so a line is built without scattering the rest), and whose
boards count as one when the line's tiles and the blank are on the same cells (so the beam holds
different placements of the line, not the same one with the rest shuffled). The blank never
leaves the region, so the lines already built stay. The last region is solved as a small board.

The budget is an amount of work: ``DEFAULT_NODES`` children generated (about a second of CPU
on the machine of ``docs/benchmarks.md``), or ``limit.max_nodes``. Every decision is taken on
node counts, so the same board gives the same answer on any machine and under any load. A
budget of CPU seconds (``budget=``, ``--budget``) is the anytime mode instead: the answer then
depends on the machine's speed. The widths grow with the budget: each round is ``RAMP`` times
as wide as the last while the next fits (its cost estimated from the last round's, per unit of
width), and a last one as wide as the rest of the budget allows. So more budget gives a shorter
answer, and a round that would overrun the budget is stopped by a node cap (the nodes left, or
the time left times the speed measured so far). The kernels are loaded before the clock starts.

Every answer carries a proven lower bound (``search.quality.proven_bound``: linear conflict, or
the strongest bound whose tables are built) and is called optimal only when its length equals
that bound.
"""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING

import numpy as np

from ..board import Board, Goal
from ..geometry import geometry, tiles_from_directions
from .limits import Clock, Iteration, Limit, Progress, ProgressCallback, Solution, Stats, found_solution
from .problem import Problem, prepare
from .problem import run as run_problem
from .quality import proven_bound
from .registry import DEFAULT_NODES, REGISTRY, Request

if TYPE_CHECKING:
    from .._kernels.beam import Patterns

#: Boards of at most this side are solved as a whole (Korf & Felner's 24-puzzles: within 10% of
#: the optimum in a second, ``docs/benchmarks.md``) ...
FINAL_SIDE = 5
#: ... larger ones are reduced line by line to a region of at most this side (4 gives shorter
#: answers than 5 or 3 on 6x6 to 10x10 boards in the same time: the 4x4 is solved nearly
#: optimally by a narrow beam, so the budget goes to the lines).
REDUCED_SIDE = 4
#: The whole-board key's weight on linear conflict (the admissible bound's is 2).
LC_WEIGHT = 3
#: A line's tiles count this many times the others in the key of the beam that builds it.
LINE_WEIGHT = 3
#: The line beams' key weight on linear conflict.
LINE_LC_WEIGHT = 2
#: Beam width of the first round; a reduced board's last region gets a beam ``FINAL_FACTOR`` wider.
FIRST_WIDTH = 32
#: ... and on boards of more than ``WIDE_CELLS`` cells, where beams of 32 mostly die out on a line
#: or end longer than the real-time answer (three 22x22 and three 24x24 boards: width 32 improved
#: one of six, width 128 all six, from 3.2 to 2.3-2.5 times the Manhattan distance).
WIDE_FIRST_WIDTH = 128
WIDE_CELLS = 256
FINAL_FACTOR = 2
#: Each round is this many times as wide as the last, while it fits in the budget (4 gives
#: shorter answers than 2 in the same budget: the last round gets more of it).
RAMP = 4
#: The seen-tables hold this many times a line beam's width (lines need to remember the
#: placements of many layers, or the beam wanders back to them) ...
SEEN_FACTOR = 16
#: ... and a whole board's beam twice its width: one layer's boards, so that wide beams keep
#: their tables in the cache (on a 5x5 at width 20,000, 2.4 M children per second with tables of
#: 16 times the width, 7.4 M with twice, the same answers).
FINAL_SEEN_FACTOR = 2
#: Widest line beam.
MAX_WIDTH = 1 << 20
#: Memory a beam's arrays may take, in bytes.
MAX_MEMORY = 1536 << 20
#: Largest board the beam search takes.
MAX_CELLS: int = REGISTRY["beam"].max_cells or 0
#: A whole board's first beam keeps paths of at most this many moves per unit of Manhattan
#: distance, plus ``WHOLE_DEPTH`` (real-time answers on 5x5 are about 2.5 times it, beams'
#: 1.3-1.6 times it): it has no answer to bound it yet.
WHOLE_DEPTH_PER_MD = 4
WHOLE_DEPTH = 100
#: Longest line beam, per cell of the board: a line's tiles are placed in far fewer moves (a
#: guard, not a limit; a frame of a 30x30 board takes some 8,000).
LINE_DEPTH_PER_CELL = 40
#: ... and at least this long.
LINE_DEPTH = 4000
#: ``_round``'s outcomes: an answer (kept if shorter), out of budget, or a line's beam that died
#: out (every child a board it had seen: narrow beams on boards above 20x20; a wider one may not).
DONE, OUT_OF_BUDGET, LINE_FAILED = range(3)
#: A round's cost is estimated this many times the last one's per unit of width (a wider round
#: costs more per unit: its arrays fit the caches less, and its lines run longer).
COST_MARGIN = 1.3


@dataclasses.dataclass(frozen=True)
class Allowance:
    """What a beam search may spend: children generated (``nodes``) and CPU seconds
    (``seconds``), either unbounded (None); the search stops at whichever runs out first."""

    clock: Clock
    nodes: int | None
    seconds: float | None
    memory: int = 1536 << 20

    def nodes_left(self, run: _Run) -> int:
        """The children the next beam may generate (its node cap): the nodes left, and the CPU
        seconds left at the speed measured so far; 0 when either has run out."""
        caps = [1 << 62]
        if self.nodes is not None:
            caps.append(self.nodes - run.generated)
        if self.seconds is not None:
            left = self.seconds - self.clock.cpu()
            caps.append(int(0.9 * left * run.rate) if run.rate and left > 0 else (1 << 62 if left > 0 else 0))
        return max(0, min(caps))

    def next_width(self, run: _Run, width: int, nodes: int, seconds: float) -> int:
        """The width of the round after one of ``width`` that cost ``nodes`` and ``seconds``:
        ``RAMP`` times wider if that fits what is left, else the widest that does, else 0."""
        room = float(RAMP * width)
        if self.nodes is not None:
            room = min(room, (self.nodes - run.generated) / (COST_MARGIN * max(nodes, 1) / width))
        if self.seconds is not None:
            room = min(room, (self.seconds - self.clock.cpu()) / (COST_MARGIN * max(seconds, 1e-6) / width))
        wider = int(room)
        return wider if wider > width else 0


@dataclasses.dataclass
class _Run:
    """The rounds so far: the best answer (blank steps toward the search's goal) and the counts.
    A whole board's search starts with no answer (``found`` false, paths up to ``cap`` moves):
    the real-time one is made only if no beam finds one, so its kernels are not compiled or run
    for nothing."""

    directions: np.ndarray
    found: bool = True
    cap: int = 0
    generated: int = 0
    expanded: int = 0
    seconds: float = 0.0  # CPU time in the kernel
    widths: list[int] = dataclasses.field(default_factory=list)

    last_rate: float = 0.0  # children per CPU second of the last beam

    @property
    def length(self) -> int:
        """The best answer's length, or, before there is one, one more than the longest path kept."""
        return len(self.directions) if self.found else self.cap + 1

    def improve(self, directions: np.ndarray) -> None:
        """Keep ``directions`` if shorter than the best answer."""
        if len(directions) < self.length:
            self.directions, self.found = directions, True

    @property
    def rate(self) -> float:
        """Children generated per CPU second: the slower of the last beam's and the average (the
        speed falls as beams widen), 0 before the first beam."""
        average = self.generated / self.seconds if self.seconds > 0 else 0.0
        return min(average, self.last_rate) if self.last_rate else average

    def measure(self, generated: int, expanded: int, seconds: float) -> None:
        self.generated += generated
        self.expanded += expanded
        self.seconds += seconds
        if seconds > 1e-3:
            self.last_rate = generated / seconds


def solve_problem(problem: Problem) -> Solution:
    """The beam search on a prepared problem (see ``search.problem``): the shortest answer found
    within the budget, with a proven lower bound, ``optimal`` only when the length equals it.

    The budget is ``limit.max_nodes`` children generated, or ``DEFAULT_NODES`` when neither it
    nor ``budget`` is given: the answer is then the same on every machine. ``budget`` is CPU
    seconds instead (the anytime mode; with ``limit.max_nodes`` too, whichever runs out first);
    ``limit.timeout``, if given, bounds the CPU seconds as well, and ``limit.max_memory`` the
    widest beam. ``on_iteration`` is called after each round (``Iteration.kind`` "beam width")."""
    from .realtime import realtime_array

    _load_kernel()
    work, goal, request = problem.start, problem.target, problem.request
    allowance = _allowance(Clock(problem.limit), request.budget, problem.limit)
    clock = allowance.clock
    bound = proven_bound(work, goal)
    if plan(*work.shape)[0]:  # reduced line by line: the real-time answer bounds the last region
        run = _Run(realtime_array(work, goal=goal, method="greedy"))
    else:
        run = _Run(np.zeros(0, np.uint8), found=False, cap=WHOLE_DEPTH_PER_MD * work.manhattan(goal) + WHOLE_DEPTH)
    width = WIDE_FIRST_WIDTH if work.size > WIDE_CELLS else FIRST_WIDTH
    while run.length > bound and width <= MAX_WIDTH:
        started, generated, expanded = clock.cpu(), run.generated, run.expanded
        outcome = _round(work, width, run, allowance, goal)
        if request.on_progress is not None:
            request.on_progress(Progress(bound, run.generated, clock.wall(), clock.cpu()))
        following = allowance.next_width(run, width, run.generated - generated, clock.cpu() - started)
        if request.on_iteration is not None:
            request.on_iteration(Iteration(width, run.generated - generated, run.expanded - expanded,
                                           clock.cpu() - started, "beam width", run.length if run.found else None),
                                 outcome == OUT_OF_BUDGET or not following or run.length <= bound)
        if outcome == OUT_OF_BUDGET or not following:
            break
        width = following
    beam_answered = run.found and bool(run.widths)
    if not run.found:
        run.improve(realtime_array(work, goal=goal, method="greedy"))
    stats = Stats(expanded=run.expanded, generated=run.generated)
    clock.stamp(stats)
    moves = tiles_from_directions(work, run.directions.tolist())
    note = _note(run, beam_answered or bool(plan(*work.shape)[0]), len(moves) == bound)
    solution = found_solution(work, goal, moves, optimal=len(moves) == bound, stats=stats, method="beam",
                              heuristic=_ranking(work, goal), note=note)
    return dataclasses.replace(solution, lower_bound=bound)


def beam_solve(board: Board, *, goal: Goal = "standard", budget: float | None = None, limit: Limit | None = None,
               on_progress: ProgressCallback | None = None) -> Solution:
    """The beam search (``solve_problem``) on ``board``, replayed and checked.

    >>> s = beam_solve(Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1)), budget=0.5)
    >>> s.length >= 31 and s.board.apply(s.moves).is_goal()
    True
    >>> t = beam_solve(Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1)))
    >>> t.moves == beam_solve(Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))).moves   # a budget of nodes
    True
    """
    request = Request(goal=goal, limit=limit, budget=budget, on_progress=on_progress)
    return run_problem(prepare(board, request, "beam"))


def _note(run: _Run, beams_answered: bool, at_bound: bool) -> str:
    """What the answer says of itself: the beams' widths, or why it is the real-time answer."""
    if run.widths and beams_answered:
        return "beam widths " + ", ".join(f"{w:,}" for w in run.widths)
    if at_bound:
        return "the real-time answer is as short as the proven bound"
    return "the real-time answer: no beam fitted in the budget"


def _allowance(clock: Clock, budget: float | None, limit: Limit | None) -> Allowance:
    """The budget: ``limit.max_nodes`` or, without it or ``budget``, ``DEFAULT_NODES``; the CPU
    seconds of ``budget`` and ``limit.timeout``, the smaller."""
    max_nodes = limit.max_nodes if limit is not None else None
    nodes = max_nodes if max_nodes is not None else (DEFAULT_NODES if budget is None else None)
    times = [t for t in (budget, limit.timeout if limit is not None else None) if t is not None]
    memory = MAX_MEMORY if limit is None or limit.max_memory is None else min(MAX_MEMORY, limit.max_memory)
    return Allowance(clock, nodes, min(times) if times else None, memory)


def plan(height: int, width: int) -> tuple[list[list[int]], tuple[int, int]]:
    """The lines a board is reduced by (each the goal cells of its tiles, in order: a frame is a
    row and a column together) and the top-left corner of the region left, solved as a whole.

    >>> plan(7, 6)
    ([[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11, 12, 18, 24, 30, 36], [13, 14, 15, 16, 17, 19, 25, 31, 37]], (3, 2))
    >>> plan(5, 5), plan(3, 5)
    (([], (0, 0)), ([], (0, 0)))
    """
    lines = []
    top = left = 0
    side = FINAL_SIDE if height <= FINAL_SIDE and width <= FINAL_SIDE else REDUCED_SIDE
    while height - top > side or width - left > side:
        if height - top == width - left:
            row = [top * width + c for c in range(left, width)]
            lines.append(row + [r * width + left for r in range(top + 1, height)])
            top += 1
            left += 1
        elif height - top >= width - left:
            lines.append([top * width + c for c in range(left, width)])
            top += 1
        else:
            lines.append([r * width + left for r in range(top, height)])
            left += 1
    return lines, (top, left)


def _round(work: Board, width: int, run: _Run, allowance: Allowance, frame: Goal = "standard") -> int:
    """One round with line beams of ``width`` (the last region's beam ``FINAL_FACTOR`` wider);
    the answer replaces ``run``'s if shorter. ``DONE``, or where it stopped short: ``OUT_OF_BUDGET``
    (each beam's node cap is ``allowance.nodes_left``) or ``LINE_FAILED`` (a line's beam that
    found nothing). ``work`` is searched toward ``frame``'s goal (lines only toward the standard one)."""
    from .._kernels.beam import FOUND, NODE_CAP, Aim, Size, beam_search
    from .._kernels.bounds import Grid

    h, w, n = work.height, work.width, work.size
    g = geometry(h, w, frame)
    grid = Grid(g.home, g.md, g.nbr, w, h)
    zobrist = np.random.default_rng(n).integers(1, 1 << 63, size=n * n, dtype=np.int64).astype(np.uint64)
    tiles = np.array(work.tiles, np.int64)
    lines, _ = plan(h, w)
    active = np.ones(n, np.uint8)
    steps: list[np.ndarray] = []
    for k, line in enumerate([*lines, []]):
        final = k == len(lines)
        target = np.ones(n, np.uint8)
        weights = np.ones(n, np.int64)
        keys = zobrist
        if final:
            beam, lc_weight = min(MAX_WIDTH * FINAL_FACTOR, width * (FINAL_FACTOR if lines else 1)), LC_WEIGHT
            max_depth = run.length - 1 - sum(len(s) for s in steps)
        else:
            beam, lc_weight, max_depth = width, LINE_LC_WEIGHT, max(LINE_DEPTH, LINE_DEPTH_PER_CELL * n)
            target[:] = 0
            target[np.asarray(line) + 1] = 1  # the tiles whose goal cells the line holds
            weights[target == 1] = LINE_WEIGHT
            keys = zobrist.reshape(n, n) * (target | (np.arange(n) == 0)).astype(np.uint64)[:, None]
            keys = keys.reshape(-1)
        if max_depth <= 0:  # the lines alone are as long as the best answer
            run.widths.append(width)
            return DONE
        beam = min(beam, _widest(n, max_depth, allowance.memory))
        path, stats = np.zeros(max_depth + 1, np.int8), np.zeros(3, np.int64)
        bits = max(12, ((FINAL_SEEN_FACTOR if final else SEEN_FACTOR) * beam - 1).bit_length())
        cap = allowance.nodes_left(run)
        if cap <= 0:
            return OUT_OF_BUDGET
        started = time.process_time()
        status, length = beam_search(tiles, grid, Aim(active, weights, target, keys, lc_weight, final),
                                     Size(beam, max_depth, bits, cap), path, stats,
                                     _pattern_args(work, frame) if final and not lines else _no_patterns(h, w, frame))
        run.measure(int(stats[0]), int(stats[1]), time.process_time() - started)
        if status == NODE_CAP:
            return OUT_OF_BUDGET
        if status != FOUND:  # the last region: nothing shorter through these lines; a line: stop
            if final:
                run.widths.append(width)
            return DONE if final else LINE_FAILED
        steps.append(path[:length].astype(np.uint8))
        tiles = _played(tiles, w, steps[-1])
        if not final:
            for c in line:
                active[c] = 0
    run.widths.append(width)
    found = np.concatenate(steps) if steps else np.zeros(0, np.uint8)
    run.improve(found)
    return DONE


def _no_patterns(height: int, width: int, frame: Goal = "standard") -> Patterns:
    """``beam_search``'s ``Patterns`` for a search ranked by the Manhattan distance and conflicts:
    the Manhattan distance's ``Bounds`` (the goal's rows and columns, and placeholders of the
    types the pattern databases' have, so that one compiled kernel serves both)."""
    from .._kernels.beam import Patterns
    from ..heuristics.registry import MANHATTAN, kernel_heuristic

    return Patterns(0, np.zeros(0, np.int64), kernel_heuristic(MANHATTAN, height, width, frame).bounds)


def beam_goal(height: int, width: int, goal: Goal) -> Goal:
    """The goal convention a beam searches toward: the standard one (lines are planned for it),
    unless the board is searched whole and pattern databases are built for the other convention
    only (then the board turned 180 degrees is searched toward it, as IDA* does)."""
    if plan(height, width)[0]:
        return "standard"
    frames: tuple[Goal, ...] = ("standard", "blank-first") if goal == "standard" else ("blank-first", "standard")
    return next((frame for frame in frames if _built(height, width, frame)), "standard")


def _built(height: int, width: int, frame: Goal) -> list[str]:
    """The usable pattern databases built for ``frame`` itself, strongest first."""
    from ..heuristics import pattern_db

    return [name for name in pattern_db.usable(height, width, frame)
            if pattern_db.is_built(name, height, width, frame)]


def _ranking(board: Board, frame: Goal = "standard") -> str:
    """The bound the beam ranks ``board`` by toward ``frame``'s goal: ``pdb:NAME``, the strongest
    pattern databases built for it when the board is searched whole (``plan`` has no lines),
    else ``lc``."""
    h, w = board.shape
    if plan(h, w)[0]:
        return "lc"
    names = _built(h, w, frame)
    return f"pdb:{names[0]}" if names else "lc"


def _pattern_args(board: Board, frame: Goal = "standard") -> Patterns:
    """``beam_search``'s ``Patterns`` for a whole board ranked by pattern databases
    (``_ranking``), with ``board``'s components; else ``_no_patterns``."""
    from .._kernels.beam import Patterns
    from .._kernels.bounds import H_SUM, MIRROR, PDB, ZA
    from ..heuristics.registry import kernel_heuristic, parse

    name = _ranking(board, frame)
    if name == "lc":
        return _no_patterns(*board.shape, frame)
    kh = kernel_heuristic(parse(name), *board.shape, frame)
    row, _ = kh.start(board)
    return Patterns(kh.mode & (PDB | ZA | MIRROR), row[H_SUM:].copy(), kh.bounds)


def _played(tiles: np.ndarray, width: int, steps: np.ndarray) -> np.ndarray:
    """``tiles`` after the blank's ``steps``."""
    tiles = tiles.copy()
    blank = int(np.flatnonzero(tiles == 0)[0])
    offsets = (-width, -1, 1, width)
    for d in steps.tolist():
        q = blank + offsets[d]
        tiles[blank], tiles[q] = tiles[q], 0
        blank = q
    return tiles


def _widest(cells: int, depth: int, memory: int = MAX_MEMORY) -> int:
    """The widest beam whose arrays fit ``memory`` bytes for ``cells`` cells and ``depth`` layers:
    5 bytes per board per layer for the path, two layers of boards, the children and the
    seen-tables."""
    per_width = 5 * (depth + 1) + 4 * cells + 3 * 72 + 2 * 8 * 16 + 64
    return max(16, memory // per_width)


def _load_kernel() -> None:
    """Compile the beam's kernels, or load them from numba's cache, before the budget's clock
    starts: the budget is spent searching, and the first round measures the search's speed, not
    the loading. The real-time kernels load when an answer of theirs is first needed (a board
    reduced line by line, or a whole board no beam solved): a 5x5 board's first use then
    compiles only the beam's (``docs/benchmarks.md``, "Compilation")."""
    from .._kernels.beam import Aim, Size, beam_search
    from .._kernels.bounds import Grid

    tiny = Board(2, 2, (3, 1, 2, 0))
    proven_bound(tiny)
    g = geometry(2, 2, "standard")
    ones = np.ones(4, np.uint8)
    beam_search(np.array([1, 2, 0, 3]), Grid(g.home, g.md, g.nbr, 2, 2),
                Aim(ones, np.ones(4, np.int64), ones, np.arange(1, 17, dtype=np.uint64), 3, True),
                Size(4, 2, 12, 1 << 20), np.zeros(3, np.int8), np.zeros(3, np.int64), _no_patterns(2, 2))


def warmup() -> None:
    """Compile (or load from the cache) the beam kernel."""
    beam_solve(Board(2, 3, (4, 1, 2, 5, 0, 3)), limit=Limit(max_nodes=1000))
