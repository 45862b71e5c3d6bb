"""Slow, obviously right reference versions of what npuzzle computes fast.

Everything here works on plain tuples (row-major, 0 = blank) and shares no code with the package
beyond reading a ``Board``'s fields, so a test comparing the two compares independent work.

Goal conventions: ``"standard"`` is 1 2 ... N-1 then the blank; ``"blank-first"`` is 0 1 ... N-1.

Blank steps. The search helpers here name the direction the *blank* moves: ``"U"`` means the
blank moves up (the tile above it slides down). This is the opposite of ``npuzzle.Direction``,
whose letters name the direction the pushed tile slides; it matches how Korf states his move
order (blank up, left, right, down).
"""

from __future__ import annotations

import math
from collections import deque
from functools import cache

BLANK_STEPS: dict[str, tuple[int, int]] = {"U": (-1, 0), "L": (0, -1), "R": (0, 1), "D": (1, 0)}
OPPOSITE_STEP = {"U": "D", "D": "U", "L": "R", "R": "L"}


def goal_tuple(height: int, width: int, goal: str = "standard") -> tuple[int, ...]:
    n = height * width
    if goal == "standard":
        return tuple(range(1, n)) + (0,)
    if goal == "blank-first":
        return tuple(range(n))
    raise ValueError(f"unknown goal {goal!r}")


@cache
def goal_cells(height: int, width: int, goal: str = "standard") -> dict[int, int]:
    """The goal cell of each tile."""
    return {t: cell for cell, t in enumerate(goal_tuple(height, width, goal))}


def blank_neighbours(state: tuple[int, ...], height: int, width: int) -> list[tuple[int, ...]]:
    """Every state one move away: the blank swapped with each orthogonal neighbour."""
    blank = state.index(0)
    r, c = divmod(blank, width)
    out = []
    for dr, dc in BLANK_STEPS.values():
        rr, cc = r + dr, c + dc
        if 0 <= rr < height and 0 <= cc < width:
            cells = list(state)
            q = rr * width + cc
            cells[blank], cells[q] = cells[q], 0
            out.append(tuple(cells))
    return out


@cache
def bfs_distances(height: int, width: int, goal: str = "standard") -> dict[tuple[int, ...], int]:
    """Distance to the goal of every state that reaches it, by breadth-first search from the goal.

    Cached for the test session: callers must not modify the returned dict.
    """
    return distances_from(goal_tuple(height, width, goal), height, width)


def distances_from(tiles: tuple[int, ...], height: int, width: int) -> dict[tuple[int, ...], int]:
    """Distance from ``tiles`` of every state it reaches, by breadth-first search from it."""
    dist = {tiles: 0}
    queue = deque([tiles])
    while queue:
        state = queue.popleft()
        d = dist[state] + 1
        for nxt in blank_neighbours(state, height, width):
            if nxt not in dist:
                dist[nxt] = d
                queue.append(nxt)
    return dist


def pattern_values(height: int, width: int, goal: str, pattern: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """A pattern database by 0-1 breadth-first search from the goal over (cells of the pattern's
    tiles, blank cell): a pattern tile stepping into the blank costs 1, any other tile (they are
    not told apart) costs 0. Returns the fewest moves for every placement of the pattern's tiles
    that reaches the goal (the blank anywhere)."""
    values: dict[tuple[int, ...], int] = {}
    for (cells, _), d in pattern_state_values(height, width, goal, pattern).items():
        values[cells] = min(d, values.get(cells, d))
    return values


def pattern_state_values(height: int, width: int, goal: str,
                         pattern: tuple[int, ...]) -> dict[tuple[tuple[int, ...], int], int]:
    """``pattern_values`` before the minimum over the blank: the fewest moves of the pattern's
    tiles from every (placement, blank cell)."""
    home = goal_cells(height, width, goal)
    start = (tuple(home[t] for t in pattern), home[0])
    dist = {start: 0}
    queue = deque([(0, start)])
    while queue:
        d, state = queue.popleft()
        if d > dist[state]:
            continue
        cells, blank = state
        r, c = divmod(blank, width)
        for dr, dc in BLANK_STEPS.values():
            if not (0 <= r + dr < height and 0 <= c + dc < width):
                continue
            q = (r + dr) * width + c + dc
            if q in cells:
                nxt, cost = (tuple(blank if x == q else x for x in cells), q), 1
            else:
                nxt, cost = (cells, q), 0
            if d + cost < dist.get(nxt, d + cost + 1):
                dist[nxt] = d + cost
                if cost:
                    queue.append((d + 1, nxt))
                else:
                    queue.appendleft((d, nxt))
    return dist


def naive_manhattan(tiles: tuple[int, ...], width: int, goal: str = "standard") -> int:
    """Sum over the tiles (not the blank) of |row - goal row| + |column - goal column|."""
    home = goal_cells(len(tiles) // width, width, goal)
    total = 0
    for cell, t in enumerate(tiles):
        if t:
            total += abs(cell // width - home[t] // width) + abs(cell % width - home[t] % width)
    return total


def naive_linear_conflict(tiles: tuple[int, ...], width: int, goal: str = "standard") -> int:
    """Manhattan distance plus 2 for each tile that must leave its goal line: in every row and
    column, the tiles whose goal is that line, less the longest run of them in goal order (the
    quadratic longest-increasing-subsequence recurrence)."""
    height = len(tiles) // width
    home = goal_cells(height, width, goal)
    leave = 0
    lines = [[r * width + c for c in range(width)] for r in range(height)]
    lines += [[r * width + c for r in range(height)] for c in range(width)]
    for i, cells in enumerate(lines):
        is_row = i < height
        seq = []
        for cell in cells:
            t = tiles[cell]
            if t and (home[t] // width if is_row else home[t] % width) == (cell // width if is_row else cell % width):
                seq.append(home[t] % width if is_row else home[t] // width)
        best = [1] * len(seq)
        for a in range(len(seq)):
            for b in range(a):
                if seq[b] < seq[a]:
                    best[a] = max(best[a], best[b] + 1)
        leave += len(seq) - max(best, default=0)
    return naive_manhattan(tiles, width, goal) + 2 * leave


def inversions(tiles: tuple[int, ...], goal_order: tuple[int, ...]) -> int:
    """Pairs of tiles (blank left out) that appear in the opposite order to the goal's."""
    rank = {t: i for i, t in enumerate(goal_order)}
    seq = [rank[t] for t in tiles if t]
    return sum(1 for i in range(len(seq)) for j in range(i + 1, len(seq)) if seq[i] > seq[j])


def naive_solvable(tiles: tuple[int, ...], height: int, width: int, goal: str = "standard") -> bool:
    """The classic inversion rule, for either goal.

    Read the tiles row by row, leaving the blank out. A horizontal move keeps that sequence; a
    vertical move carries one tile past the width - 1 others of a row, changing the inversion
    count by an amount of the parity of width - 1, and moves the blank one row. So for odd width
    the inversion parity never changes; for even width the inversion parity plus the blank's row
    distance from its goal row never changes. At the goal both are 0.
    """
    target = goal_tuple(height, width, goal)
    count = inversions(tiles, target)
    if width % 2 == 1:
        return count % 2 == 0
    row_gap = abs(tiles.index(0) // width - target.index(0) // width)
    return (count + row_gap) % 2 == 0


def children(state: tuple[int, ...], height: int, width: int, last: str | None, order: tuple[str, ...]):
    """``(step, child)`` for every blank step in ``order`` that stays on the board and does not
    undo ``last``."""
    blank = state.index(0)
    r, c = divmod(blank, width)
    for step in order:
        if last is not None and step == OPPOSITE_STEP[last]:
            continue
        dr, dc = BLANK_STEPS[step]
        if not (0 <= r + dr < height and 0 <= c + dc < width):
            continue
        q = (r + dr) * width + (c + dc)
        cells = list(state)
        cells[blank], cells[q] = cells[q], 0
        yield step, tuple(cells)


def naive_idastar(
    board, goal: str = "standard", order: tuple[str, ...] = ("U", "L", "R", "D")
) -> tuple[int, int]:
    """IDA* with the Manhattan distance: ``(optimal length, nodes generated)``.

    ``board`` is anything with ``height``, ``width`` and ``tiles`` (a ``Board``). ``order`` gives
    the *blank* steps in the order they are tried (see the module docstring): Korf's is up, left,
    right, down.

    Counting, as Korf (1985) counts "nodes generated":

    * every child produced counts 1, in every iteration;
    * the child that would undo the move just made is never produced;
    * the goal test is made when a child is produced, and the search stops at once;
    * the root counts 1, once for the whole search (not once per iteration).

    So a position already at the goal gives ``(0, 1)``. The first threshold is the root's
    Manhattan distance; each next one is the smallest f = g + h that exceeded the last, rounded up
    to the parity of the solution length (the parity of the root's h, which a move keeps in f).
    """
    height, width, tiles = board.height, board.width, tuple(board.tiles)
    if not naive_solvable(tiles, height, width, goal):
        raise ValueError(f"{tiles} cannot reach the {goal} goal")
    target = goal_tuple(height, width, goal)
    if tiles == target:
        return 0, 1

    def h(state: tuple[int, ...]) -> int:
        return naive_manhattan(state, width, goal)

    generated = 1  # the root
    threshold = h(tiles)
    parity = threshold % 2

    def search(state: tuple[int, ...], g: int, last: str | None) -> int | None:
        """Length of a solution through ``state`` within the threshold, else None."""
        nonlocal generated, next_threshold
        for step, child in children(state, height, width, last, order):
            generated += 1
            if child == target:
                return g + 1
            f = g + 1 + h(child)
            if f > threshold:
                next_threshold = min(next_threshold, f)
                continue
            found = search(child, g + 1, step)
            if found is not None:
                return found
        return None

    while True:
        next_threshold = math.inf
        length = search(tiles, 0, None)
        if length is not None:
            return length, generated
        threshold = next_threshold + (next_threshold - parity) % 2


@cache
def naive_forbidden(height: int, width: int, max_len: int) -> frozenset[tuple[int, str]]:
    """Every ``(blank cell, blank steps)`` of at most ``max_len`` steps that some other string
    from that cell, shorter or as long and earlier in U, L, R, D order, matches in effect: the
    strings are tried in that order from each cell and a string is forbidden if the arrangement
    it reaches was reached before."""
    out = set()
    for start in range(height * width):
        first = tuple(range(1, height * width))
        first = first[:start] + (0,) + first[start:]
        seen = {first}
        level = [("", first)]
        for _ in range(max_len):
            nxt = []
            for s, arr in level:
                for step, child in children(arr, height, width, s[-1] if s else None, ("U", "L", "R", "D")):
                    if child in seen:
                        out.add((start, s + step))
                    else:
                        seen.add(child)
                        nxt.append((s + step, child))
            level = nxt
    return frozenset(out)


def naive_iteration(board, goal: str, h, threshold: int,
                    order: tuple[str, ...] = ("U", "L", "R", "D"),
                    forbidden: frozenset[tuple[int, str]] | None = None) -> tuple[int | None, int]:
    """One IDA* iteration with heuristic ``h(tiles)`` and ``threshold``: ``(length or None,
    children generated)``, counted as ``naive_idastar`` counts them (the root not included).
    With ``forbidden`` (see ``naive_forbidden``), a child whose path ends with a forbidden
    string is not generated."""
    height, width = board.height, board.width
    target = goal_tuple(height, width, goal)
    generated = 0
    steps: list[str] = []
    cells = [tuple(board.tiles).index(0)]

    def pruned(step: str) -> bool:
        path = "".join(steps) + step
        return any((cells[len(path) - k], path[-k:]) in forbidden for k in range(1, len(path) + 1))

    def search(state: tuple[int, ...], g: int, last: str | None) -> int | None:
        nonlocal generated
        for step, child in children(state, height, width, last, order):
            if forbidden is not None and pruned(step):
                continue
            generated += 1
            if child == target:
                return g + 1
            if g + 1 + h(child) <= threshold:
                steps.append(step)
                cells.append(child.index(0))
                found = search(child, g + 1, step)
                steps.pop()
                cells.pop()
                if found is not None:
                    return found
        return None

    return search(tuple(board.tiles), 0, None), generated


def check_pruning(solve, board, goal: str, h, forbidden: frozenset[tuple[int, str]] | None = None) -> None:
    """Solve ``board`` with ``solve(board)`` (an IDA* returning a ``Solution``) and assert that
    every iteration generated as many nodes as ``naive_iteration`` with heuristic ``h`` (and
    ``forbidden``) at the same threshold: then the solver's heuristic equals ``h`` (and its
    duplicate pruning the naive one) wherever it decides a prune."""
    s = solve(board)
    assert board.apply(s.moves).is_goal(goal)
    for it in s.stats.iterations:
        assert naive_iteration(board, goal, h, it.threshold, forbidden=forbidden)[1] == it.generated


#: The move-cost models as the papers state them (issue 34): the cost of pushing tile ``t``.
NAIVE_COSTS = {"unit": lambda t: 1.0, "heavy": lambda t: float(t), "inverse": lambda t: 1.0 / t,
               "sqrt": lambda t: math.sqrt(t)}


@cache
def dijkstra_costs(height: int, width: int, goal: str = "standard", cost: str = "unit") -> dict[tuple[int, ...], float]:
    """The least cost to the goal of every state that reaches it, under the cost model ``cost`` (the
    move pushing tile ``t`` costs ``NAIVE_COSTS[cost](t)``, either way), by one uniform-cost search
    (Dijkstra) backwards from the goal.

    Cached for the test session: callers must not modify the returned dict.
    """
    import heapq

    price = NAIVE_COSTS[cost]
    start = goal_tuple(height, width, goal)
    dist: dict[tuple[int, ...], float] = {start: 0.0}
    heap = [(0.0, start)]
    while heap:
        d, state = heapq.heappop(heap)
        if d > dist[state]:
            continue
        blank = state.index(0)
        for nxt in blank_neighbours(state, height, width):
            nd = d + price(nxt[blank])  # the tile that slid into the blank's cell
            if nd < dist.get(nxt, math.inf):
                dist[nxt] = nd
                heapq.heappush(heap, (nd, nxt))
    return dist


def pattern_distance(height: int, width: int, goal: str, pattern: tuple[int, ...], cells: tuple[int, ...]) -> int:
    """The fewest moves of the pattern's tiles that take them from ``cells`` home and the blank
    to its goal cell, the blank anywhere at the start (``pattern_values``'s value of ``cells``),
    by A* over (cells, blank)
    from every blank cell at once: a pattern tile stepping into the blank costs 1, any other tile
    0; the bound is the pattern tiles' Manhattan distance. For patterns too large for
    ``pattern_values``' whole-space search."""
    import heapq

    home = goal_cells(height, width, goal)
    target = tuple(home[t] for t in pattern)

    def bound(cs: tuple[int, ...]) -> int:
        return sum(abs(c // width - h // width) + abs(c % width - h % width) for c, h in zip(cs, target, strict=True))

    best: dict[tuple[tuple[int, ...], int], int] = {}
    heap = []
    for blank in range(height * width):
        if blank not in cells:
            best[(cells, blank)] = 0
            heap.append((bound(cells), 0, cells, blank))
    heapq.heapify(heap)
    while heap:
        _, d, cs, blank = heapq.heappop(heap)
        if cs == target and blank == home[0]:
            return d
        if d > best[(cs, blank)]:
            continue
        r, c = divmod(blank, width)
        for dr, dc in BLANK_STEPS.values():
            if not (0 <= r + dr < height and 0 <= c + dc < width):
                continue
            q = (r + dr) * width + c + dc
            nxt, cost = ((tuple(blank if x == q else x for x in cs), 1) if q in cs else (cs, 0))
            if d + cost < best.get((nxt, q), d + cost + 1):
                best[(nxt, q)] = d + cost
                heapq.heappush(heap, (d + cost + bound(nxt), d + cost, nxt, q))
    raise ValueError(f"the pattern {pattern} cannot reach home from {cells}")
