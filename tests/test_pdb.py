"""Additive pattern databases: the breadth-first build, admissibility on every state of small
boards, the kernel's incremental ranks (direct and mirrored) against the plain values, the table
store and the ``tables build`` command. Every table is built in a temporary directory."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_kernel_heuristic
from naive import bfs_distances, pattern_distance, pattern_values

from npuzzle import Board, MissingTableError, NPuzzleError, tables
from npuzzle.board import goal_cell
from npuzzle.cli import main
from npuzzle.errors import InvalidOptionError
from npuzzle.heuristics import pattern_db
from npuzzle.heuristics.registry import auto_heuristic, evaluate
from npuzzle.instances import benchmark_set, random_board, random_walk
from npuzzle.search import solve
from npuzzle.search.idastar import idastar, optimal_lengths

GOALS = ["standard", "blank-first"]
SMALL = [((2, 3), "3-2"), ((3, 2), "2-3"), ((2, 4), "4-3"), ((3, 3), "4-4"), ((3, 3), "3-3-2")]


@pytest.fixture(autouse=True)
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("NPUZZLE_DATA_DIR", str(tmp_path))
    pattern_db._load.cache_clear()
    yield tmp_path
    pattern_db._load.cache_clear()


def test_rank_is_a_bijection_onto_the_placements():
    n, k = 6, 3
    import itertools

    ranks = sorted(pattern_db.rank(list(cells), n) for cells in itertools.permutations(range(n), k))
    assert ranks == list(range(pattern_db.placements(n, k)))


def test_one_pattern_of_every_tile_is_the_exact_distance():
    """With every tile in the pattern, every move counts: the table is the BFS distance."""
    for goal in GOALS:
        pattern_db.build("5", 2, 3, goal)
        for tiles, d in bfs_distances(2, 3, goal).items():
            assert evaluate(Board(2, 3, tiles), goal, "pdb:5") == d


@pytest.mark.parametrize("shape, name, checked", [
    ((2, 3), "3-2", 2), ((3, 2), "2-3", 2), ((2, 4), "4-3", 2), ((3, 3), "4-4", 2), ((4, 3), "3-4-4", 2),
    ((3, 5), "3-3-4-4", 1), ((4, 5), "3-4-4-4-4", 1)])
def test_tables_equal_a_naive_search(shape, name, checked):
    """Every placement's value in the first ``checked`` patterns' tables, for both goals, equals a
    plain 0-1 breadth-first search (255 where it never gets); 4x5 uses 64-bit words in the build."""
    h, w = shape
    n = h * w
    for goal in GOALS:
        pattern_db.build(name, h, w, goal)
        part = pattern_db.load_partition(name, h, w, goal)
        for p, g in enumerate(part.groups[:checked]):
            values = pattern_values(h, w, goal, g)
            assert all(part.value(p, list(cells)) == d for cells, d in values.items())
            assert len(values) > pattern_db.placements(n, len(g)) // 2


#: Every shipped partition's tables against the naive abstract search, each pattern's: every
#: placement on the small shapes (``pattern_values``' whole-space search), else the placements of
#: ``SAMPLES`` positions a random walk of ``WALK`` moves reaches (``pattern_distance``'s A*).
SHIPPED_CHECKED = {((2, 3), "3-2"): "every", ((3, 2), "3-2"): "every", ((2, 4), "4-3"): "every",
                   ((4, 2), "4-3"): "every", ((3, 3), "4-4"): "every", ((3, 4), "6-5"): "sampled",
                   ((4, 3), "6-5"): "sampled", ((4, 4), "5-5-5"): "sampled", ((4, 4), "6-6-3"): "sampled"}
#: Shipped partitions whose tables take too long to build for a test, and why.
SHIPPED_NOT_CHECKED = {((4, 4), "7-8"): "288 MB; even its 7-tile pattern alone is 57.7 million entries",
                       ((5, 5), "6-6-6-6"): "four tables of 127.5 million entries"}
SAMPLES, WALK = 12, 24


def test_every_shipped_partition_is_checked_or_says_why_not():
    shipped = {(shape, name) for shape, names in pattern_db.SHIPPED.items() for name in names}
    assert shipped == set(SHIPPED_CHECKED) | set(SHIPPED_NOT_CHECKED)


@pytest.mark.parametrize(("shape", "name"), [pytest.param(*key, marks=[pytest.mark.slow] if key[1] == "6-6-3" else [])
                                             for key in sorted(SHIPPED_CHECKED)])
def test_shipped_partitions_equal_a_naive_abstract_search(shape, name):
    """Each pattern's entries equal the fewest moves of its tiles (so they are admissible), from a
    plain-Python search of the pattern's abstract space; standard goal."""
    h, w = shape
    pattern_db.build(name, h, w, "standard", progress=False)
    part = pattern_db.load_partition(name, h, w, "standard")
    boards = [random_walk(h, w, WALK, seed=seed) for seed in range(SAMPLES)]
    for p, g in enumerate(part.groups):
        if SHIPPED_CHECKED[(shape, name)] == "every":
            values = pattern_values(h, w, "standard", g)
            assert len(values) == pattern_db.placements(h * w, len(g))
        else:
            placements = {tuple(b.tiles.index(t) for t in g) for b in boards}
            values = {cells: pattern_distance(h, w, "standard", g, cells) for cells in placements}
            assert max(values.values()) > 0
        entries = {cells: part.value(p, list(cells)) for cells in values}
        wrong = [(cells, entries[cells], d) for cells, d in values.items() if entries[cells] != d]
        assert wrong == [], (name, g, wrong[:5])


@pytest.mark.parametrize("shape, name", [
    ((2, 3), "3-2"), ((3, 2), "2-3"), ((2, 4), "4-3"), ((3, 3), "4-4"), ((4, 3), "3-4-4"), ((3, 5), "3-3-4-4"),
    ((4, 4), "5-5-5"), ((4, 5), "3-4-4-4-4")])
def test_compact_search_writes_the_same_tables(monkeypatch, store, shape, name):
    """The search with two bits for each free cell (used for patterns too large for a word of
    fields by cell) stores exactly the bytes and figures of the usual one, for both goals."""
    h, w = shape
    usual_limit = pattern_db.COMPACT_ABOVE
    for goal in GOALS:
        key = pattern_db.table_key(name, h, w, goal)
        monkeypatch.setattr(pattern_db, "COMPACT_ABOVE", usual_limit)
        assert not any(pattern_db.compact_build(h * w, len(g)) for g in pattern_db.groups_for(name, h, w, goal))
        pattern_db.build(name, h, w, goal, progress=False)
        usual = tables.load_table(key)
        usual_data, usual_meta = np.array(usual.data), dict(usual.meta)
        monkeypatch.setattr(pattern_db, "COMPACT_ABOVE", -1)
        assert all(pattern_db.compact_build(h * w, len(g)) for g in pattern_db.groups_for(name, h, w, goal))
        pattern_db.build(name, h, w, goal, progress=False)
        compact = tables.load_table(key)
        assert np.array_equal(np.array(compact.data), usual_data)
        for field in ("max_values", "max_entries", "clamped", "sizes"):
            assert compact.meta[field] == usual_meta[field]


def test_7_tile_patterns_are_searched_compact():
    """Korf & Felner-sized 7-tile patterns on 5x5 take 4.5 bytes a placement in the build, not 8."""
    groups = pattern_db.groups_for("7-7-5-5", 5, 5)
    assert sorted(len(g) for g in groups) == [5, 5, 7, 7]
    assert [pattern_db.compact_build(25, len(g)) for g in groups] == [True, True, False, False]
    assert pattern_db.build_bytes(groups, 25) < 14 * 10**9 < 8 * pattern_db.placements(25, 7)


def table_values(tiles: np.ndarray, name: str, h: int, w: int, goal: str, mirrored: bool) -> np.ndarray:
    """The summed pattern values of every row of ``tiles`` (numpy, independent of the kernel's
    and the registry's ranking code), looked up directly or on the transposed board."""
    n = h * w
    part = pattern_db.load_partition(name, h, w, goal)
    if mirrored:
        home = [goal_cell(t, n, goal) for t in range(n)]
        tile_at = {c: t for t, c in enumerate(home)}
        transpose = np.array([(c % w) * w + c // w for c in range(n)])
        relabel = np.array([tile_at[int(transpose[home[t]])] for t in range(n)])
        out = np.empty_like(tiles)
        out[:, transpose] = relabel[tiles]
        tiles = out
    where = np.argsort(tiles, axis=1)  # where[s, tile] = cell
    total = np.zeros(len(tiles), dtype=np.int64)
    data = np.asarray(part.data).astype(np.int64)
    for p, g in enumerate(part.groups):
        rank = np.zeros(len(tiles), dtype=np.int64)
        for i, t in enumerate(g):
            cell = where[:, t]
            below = sum((where[:, e] < cell).astype(np.int64) for e in g[:i])
            rank = rank * (n - i) + cell - below
            home = goal_cell(t, n, goal)
            total += abs(cell // w - home // w) + abs(cell % w - home % w)  # value = distance + 2 entry
        at = int(part.offsets[p]) + rank
        total += 2 * ((data[at >> 1] >> (4 * (at & 1))) & 15)
    return total


def test_inverse_lookup_is_a_lower_bound_only_with_the_blank_home():
    """Why there are no dual lookups: the tables' value of a position's inverse permutation
    (blank-first goal: tile x's home is cell x) never exceeds the distance when the blank is on
    its goal cell, and does for thousands of 3x3 positions when it is not."""
    pattern_db.build("4-4", 3, 3, "blank-first")
    distances = bfs_distances(3, 3, "blank-first")
    states = np.array(list(distances), dtype=np.int64)
    exact = np.array(list(distances.values()))
    inverse = table_values(np.argsort(states, axis=1), "4-4", 3, 3, "blank-first", False)
    over = inverse > exact
    home = states[:, 0] == 0
    assert not over[home].any()
    # The same count from the naive 0-1 searches of each pattern: in the inverse permutation, the
    # tiles x of a pattern stand on the cells state[x] (the tiles at cells x of the position).
    groups = pattern_db.groups_for("4-4", 3, 3, "blank-first")
    naive = [pattern_values(3, 3, "blank-first", tuple(g)) for g in groups]
    naive_over = [sum(v[tuple(state[x] for x in g)] for v, g in zip(naive, groups, strict=True)) > d
                  for state, d in distances.items()]
    assert over.tolist() == naive_over
    assert over[~home].sum() > 1000  # thousands: 17,105 of the 161,280 with the blank away


@pytest.mark.parametrize("shape, name", SMALL)
@pytest.mark.parametrize("goal", GOALS)
def test_every_state_pdb_is_admissible_and_kernel_lengths_are_optimal(shape, name, goal):
    h, w = shape
    pattern_db.build(name, h, w, goal)
    distances = bfs_distances(h, w, goal)
    states = np.array(list(distances), dtype=np.int64)
    exact = np.array(list(distances.values()))
    direct = table_values(states, name, h, w, goal, False)
    assert (direct <= exact).all() and direct.sum() > 0.6 * exact.sum()  # admissible, not weak
    if h == w:
        assert (table_values(states, name, h, w, goal, True) <= exact).all()
    step = max(1, len(states) // 2000)
    sample = [Board(h, w, tuple(int(x) for x in t)) for t in states[::step]]
    for i in range(0, len(states), len(states) // 40):
        assert direct[i] <= evaluate(Board(h, w, tuple(int(x) for x in states[i])), goal, f"pdb:{name}") <= exact[i]
    lengths, _ = optimal_lengths(sample, goal=goal, heuristic=f"pdb:{name}+wd+id")
    assert lengths == [distances[b.tiles] for b in sample]


@pytest.mark.parametrize("shape, name", [((3, 3), "4-4"), ((3, 3), "3-3-2"), ((2, 4), "4-3"), ((4, 4), "5-5-5")])
def test_kernel_prunes_exactly_as_the_python_heuristic(shape, name):
    """Per iteration, as many nodes as a naive search using the plain value (mirrored lookups
    included on square boards): the kernel's ranks and sums are right at every node."""
    pattern_db.build(name, *shape, "blank-first")
    check_kernel_heuristic(shape, "blank-first", f"pdb:{name}", 30)


def test_mirrored_lookup_is_used_on_square_boards():
    pattern_db.build("4-4", 3, 3, "standard")
    boards = [Board(3, 3, t) for t in list(bfs_distances(3, 3))[::50]]
    part = pattern_db.load_partition("4-4", 3, 3, "standard")
    direct = []
    for b in boards:
        where = {t: c for c, t in enumerate(b.tiles)}
        direct.append(sum(part.value(p, [where[t] for t in g]) for p, g in enumerate(part.groups)))
    values = [evaluate(b, "standard", "pdb:4-4") for b in boards]
    assert all(v >= d for v, d in zip(values, direct, strict=True))
    assert sum(values) > sum(direct)


@pytest.mark.slow
def test_korf_instances_with_5_5_5(korf100):
    pattern_db.build("5-5-5", 4, 4, "blank-first")
    for inst in benchmark_set("korf100", [1, 2, 12, 40]):
        assert evaluate(inst.board, inst.goal, "pdb:5-5-5") <= inst.optimal_length
        s = idastar(inst.board, goal=inst.goal, heuristic="pdb:5-5-5+wd")
        assert s.optimal and s.length == inst.optimal_length


def test_partitions_by_name():
    assert pattern_db.groups_for("7-8", 4, 4, "blank-first") == (tuple(range(1, 8)), tuple(range(8, 16)))
    # the same blocks on the standard goal: the two rows with the blank's cell, then the others
    assert pattern_db.groups_for("7-8", 4, 4, "standard") == (tuple(range(9, 16)), tuple(range(1, 9)))
    assert pattern_db.groups_for("6-6-3", 4, 4, "blank-first")[0] == (1, 2, 3)
    assert pattern_db.groups_for("6-6-3", 4, 4, "standard")[0] == (13, 14, 15)
    with pytest.raises(InvalidOptionError, match="'4-4'"):
        pattern_db.groups_for("4-4", 4, 4)
    with pytest.raises(InvalidOptionError, match="'x-y'"):
        pattern_db.groups_for("x-y", 3, 3)


def test_missing_table_names_the_build_command():
    with pytest.raises(MissingTableError, match="npuzzle tables build pdb:6-6-3 --shape 4x4 --goal standard"):
        idastar(Board(4, 4, (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15)), heuristic="pdb:6-6-3")


def test_build_refuses_without_memory(monkeypatch):
    monkeypatch.setattr(pattern_db, "available_memory", lambda: 10**6)
    with pytest.raises(NPuzzleError, match="needs about .* GiB"):
        pattern_db.build("5-5-5", 4, 4)


def test_auto_uses_the_strongest_built_table_and_names_the_build():
    name, hint = auto_heuristic(4, 4, "standard")
    assert name == "wd+id" and "npuzzle tables build pdb:7-8 --shape 4x4 --goal standard" in hint
    pattern_db.build("5-5-5", 4, 4, "standard")
    assert auto_heuristic(4, 4, "standard")[0] == "pdb:5-5-5+wd"
    b = Board(4, 4, (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15))
    s = solve(b)
    assert s.heuristic == "pdb:5-5-5+wd" and s.length == 1 and "pdb:7-8" not in s.note  # no advice on a quick solve


def test_cli_build_list_remove(store, capsys):
    assert main(["tables", "build", "pdb:3-2", "--shape", "2x3", "--goal", "blank-first"]) == 0
    out = capsys.readouterr().out
    assert "{1 2 3}, {4 5}" in out and "stored" in out
    assert main(["tables", "build", "pdb:3-2", "--shape", "2x3", "--goal", "blank-first"]) == 0
    assert "already built" in capsys.readouterr().out
    assert main(["tables", "list"]) == 0
    listing = capsys.readouterr().out
    assert "pdb:3-2 --shape 2x3 --goal blank-first" in listing and "pdb_2x3_blank-first_1.2.3-4.5" in listing
    assert main(["solve", "1 2 0/3 4 5", "--goal", "blank-first", "--heuristic", "pdb:3-2", "--json"]) == 0
    assert '"heuristic": "pdb:3-2"' in capsys.readouterr().out
    name = listing.split("\n")[1].split()[-1]  # the file name
    assert main(["tables", "remove", name]) == 0
    assert main(["tables", "build", "pdb:9-9", "--shape", "2x3"]) == 1
    assert "has 18 tiles" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["solve", "1 2 0/3 4 5", "--heuristic", "lc+wd"])
    assert exit_info.value.code == 2 and "lc does not combine" in capsys.readouterr().err


def test_partition_name_takes_the_heuristic_prefix_or_not():
    assert pattern_db.partition_name("pdb:7-8") == pattern_db.partition_name("7-8") == "7-8"
    key = pattern_db.table_key("4-4", 3, 3, "standard")
    assert pattern_db.table_key(pattern_db.partition_name("pdb:4-4"), 3, 3, "standard") == key


@pytest.mark.parametrize("shape, name", [((2, 3), "3-2"), ((3, 2), "3-2"), ((2, 4), "4-3")])
def test_module_value_is_the_registrys_bound_before_rounding(store, shape, name):
    """Non-square boards have no mirrored lookup: the registry's bound is the module's sum,
    rounded up to the Manhattan distance's parity, or the Manhattan distance if larger."""
    h, w = shape
    pattern_db.build(name, h, w, "standard", progress=False)
    for seed in range(40):
        board = random_board(h, w, seed)
        direct, md = pattern_db.value(board, "standard", f"pdb:{name}"), board.manhattan()
        assert evaluate(board, "standard", f"pdb:{name}") == max(md, direct + ((direct ^ md) & 1))


# -- blank-aware tables ---------------------------------------------------------------------------


@pytest.fixture()
def blank_aware(monkeypatch):
    """Make the small partitions blank-aware (two entries a placement), as 5x5 6-6-6-6 is."""
    shapes = {(3, 3, "4-4"), (3, 3, "3-3-2"), (2, 4, "4-3"), (3, 2, "2-3"), (4, 4, "5-5-5"), (4, 3, "3-4-4")}
    monkeypatch.setattr(pattern_db, "BLANK_AWARE", pattern_db.BLANK_AWARE | shapes)


def region_size(taken: set[int], blank: int, h: int, w: int) -> int:
    seen, todo = {blank}, [blank]
    while todo:
        r, c = divmod(todo.pop(), w)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            d = rr * w + cc
            if 0 <= rr < h and 0 <= cc < w and d not in taken and d not in seen:
                seen.add(d)
                todo.append(d)
    return len(seen)


@pytest.mark.parametrize("shape, name", [((3, 3), "4-4"), ((2, 4), "4-3"), ((3, 2), "2-3"), ((4, 3), "3-4-4")])
def test_blank_aware_tables_equal_a_naive_search(blank_aware, shape, name):
    """Each entry is the fewest moves over the blank's regions of its class (at most 2 cells, or
    more) in a plain 0-1 search; never below the table without the blank, and above it often."""
    from naive import pattern_state_values

    h, w = shape
    pattern_db.build(name, h, w, "standard")
    part = pattern_db.load_partition(name, h, w, "standard")
    assert part.per == 2
    stronger = 0
    for p, g in enumerate(part.groups[:2]):
        states = pattern_state_values(h, w, "standard", g)
        best: dict[tuple[tuple[int, ...], int], int] = {}
        for (cells, blank), d in states.items():
            key = (cells, int(region_size(set(cells), blank, h, w) <= 2))
            best[key] = min(d, best.get(key, d))
        plain = pattern_values(h, w, "standard", g)
        for (cells, blank), d in states.items():
            pocket = pattern_db.pocket_class(set(cells), blank, h, w)
            assert pocket == int(region_size(set(cells), blank, h, w) <= 2)
            v = part.value(p, list(cells), blank)
            assert v == best[(cells, pocket)] and plain[cells] <= v <= d
            stronger += v > plain[cells]
    assert stronger > 0


@pytest.mark.parametrize("shape, name", [((3, 3), "4-4"), ((2, 4), "4-3"), ((3, 2), "2-3")])
@pytest.mark.parametrize("goal", GOALS)
def test_blank_aware_pdb_is_admissible_and_lengths_optimal(blank_aware, shape, name, goal):
    """On every state: the blank-aware bound (mirrored too) never exceeds the distance and is at
    least the plain one; IDA* and A* with it find the BFS lengths."""
    from npuzzle.search.astar import astar

    h, w = shape
    pattern_db.build(name, h, w, goal)
    distances = bfs_distances(h, w, goal)
    boards = [Board(h, w, t) for t in distances]
    values = [evaluate(b, goal, f"pdb:{name}") for b in boards]
    assert all(v <= distances[b.tiles] for v, b in zip(values, boards, strict=True))
    step = max(1, len(boards) // 300)
    sample = boards[::step]
    lengths, _ = optimal_lengths(sample, goal=goal, heuristic=f"pdb:{name}")
    assert lengths == [distances[b.tiles] for b in sample]
    for b in sample[::10]:
        s = astar(b, goal=goal, heuristic=f"pdb:{name}")
        assert s.length == distances[b.tiles] and b.apply(s.moves).is_goal(goal)


@pytest.mark.parametrize("shape, name", [((3, 3), "4-4"), ((3, 3), "3-3-2"), ((4, 4), "5-5-5")])
def test_kernel_prunes_exactly_as_the_python_blank_aware_heuristic(blank_aware, shape, name):
    """The kernel's blank-aware entries (direct and mirrored, with the blank's region told from
    its neighbours) equal the plain flood fill's at every node."""
    pattern_db.build(name, *shape, "blank-first")
    assert pattern_db.load_partition(name, *shape, "blank-first").per == 2
    check_kernel_heuristic(shape, "blank-first", f"pdb:{name}", 30)


@pytest.mark.slow
def test_korf_felner_blocks_on_5x5():
    """The 24-puzzle's 6-6-6-6: four compact blocks of 2x3 (the first with the centre tile), every
    tile once; the standard goal's are the blank-first ones turned 180 degrees, and its tables
    are blank-aware."""
    blocks = pattern_db.groups_for("6-6-6-6", 5, 5, "blank-first")
    assert sorted(t for g in blocks for t in g) == list(range(1, 25))
    assert blocks[0] == (1, 2, 5, 6, 7, 12)
    for g in blocks[1:]:
        rows = {t // 5 for t in g}
        cols = {t % 5 for t in g}
        assert len(rows) * len(cols) == 6  # a full 2x3 or 3x2 rectangle
    standard = pattern_db.groups_for("6-6-6-6", 5, 5, "standard")
    assert standard == tuple(tuple(sorted(25 - t for t in g)) for g in blocks)
    assert pattern_db.per_placement("6-6-6-6", 5, 5) == 2
    assert pattern_db.per_placement("6-6-6-6", 5, 5) * pattern_db.table_bytes(25, blocks) == \
        pattern_db.table_bytes(25, blocks, 2)


def test_bench_korf50_says_how_to_build_the_tables(capsys):
    """Without 5x5 tables the 24-puzzle benchmark stops at once with the build command for the
    set's own goal (IDA* with a weak bound would run for days), and names the heuristic option."""
    assert main(["bench", "korf50", "--ids", "38"]) != 0
    err = capsys.readouterr().err
    assert "npuzzle tables build pdb:6-6-6-6 --shape 5x5 --goal blank-first" in err and "--heuristic" in err
    assert "Traceback" not in err


def test_a_table_without_the_blank_aware_entries_is_refused_with_the_rebuild(monkeypatch):
    """A partition's tables stored in the other encoding (built by an npuzzle that did not keep
    the blank's pockets, or the other way round) are refused by name, with the command that
    rebuilds them; the rebuilt tables load."""
    pattern_db.build("4-4", 3, 3, "standard")
    monkeypatch.setattr(pattern_db, "BLANK_AWARE", pattern_db.BLANK_AWARE | {(3, 3, "4-4")})
    pattern_db._load.cache_clear()
    with pytest.raises(NPuzzleError, match="blank-aware.*rebuild it: npuzzle tables build pdb:4-4 --shape 3x3"):
        pattern_db.load_partition("4-4", 3, 3, "standard")
    assert not pattern_db.is_sound("4-4", 3, 3, "standard")
    pattern_db.build("4-4", 3, 3, "standard")
    assert pattern_db.load_partition("4-4", 3, 3, "standard").per == 2
