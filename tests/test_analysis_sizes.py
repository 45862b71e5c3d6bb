"""The analysis at every size: detours and phases against hand-made solves on 3x3, 4x4, 5x5 and
3x5 (and a naive reference that compares whole boards), proven mistakes on 5x5 against exact
distances (a naive IDA* near the goal; Korf & Felner's published optimum of a 24-puzzle start)."""

from __future__ import annotations

import json
import random

import pytest
from naive import naive_idastar
from records import record as valid_record

from npuzzle import Board, analyze, solve
from npuzzle.analysis import Detour
from npuzzle.instances import benchmark_set
from npuzzle.present.analysis import analysis_record, analysis_text

#: The phases of each shape (standard goal) as a speedsolver names them, written out by hand.
PHASES = {
    (3, 3): [("row 1", (1, 2, 3)), ("last 2x3", (4, 5, 6, 7, 8))],
    (4, 4): [("row 1", (1, 2, 3, 4)), ("column 1", (5, 9, 13)), ("row 2", (6, 7, 8)),
             ("last 2x3", (10, 11, 12, 14, 15))],
    (5, 5): [("row 1", (1, 2, 3, 4, 5)), ("column 1", (6, 11, 16, 21)), ("row 2", (7, 8, 9, 10)),
             ("column 2", (12, 17, 22)), ("row 3", (13, 14, 15)), ("last 2x3", (18, 19, 20, 23, 24))],
    (3, 5): [("column 1", (1, 6, 11)), ("column 2", (2, 7, 12)), ("row 1", (3, 4, 5)),
             ("last 2x3", (8, 9, 10, 13, 14))],
}


pytestmark = pytest.mark.usefixtures("module_store")


def positions_of(board: Board, tiles) -> list[Board]:
    out = [board]
    for t in tiles:
        out.append(out[-1].move(t))
    return out


def naive_detours(positions: list[Board]) -> list[tuple[int, int]]:
    """Shortest paths from the start over the steps, where a step may go back to any earlier one
    of the same position for free (whole boards compared; quadratic), read back from the end."""
    least = [0]
    came = [-1]
    for k in range(1, len(positions)):
        options = [(least[i], i) for i in range(k) if positions[i] == positions[k]]
        best = min(options, default=(1 << 30, -1))
        if best[0] < least[k - 1] + 1:
            least.append(best[0])
            came.append(best[1])
        else:
            least.append(least[k - 1] + 1)
            came.append(-1)
    out, k = [], len(positions) - 1
    while k > 0:
        if came[k] < 0:
            k -= 1
        else:
            out.append((came[k], k))
            k = came[k]
    return out[::-1]


def naive_finished(positions: list[Board], tiles: tuple[int, ...]) -> int | None:
    """The first step from which every one of ``tiles`` stays home to the end."""
    goal = Board.goal(positions[0].height, positions[0].width)

    def home(p: Board) -> bool:
        return all(p.tiles[goal.tiles.index(t)] == t for t in tiles)

    if not home(positions[-1]):
        return None
    s = len(positions) - 1
    while s > 0 and home(positions[s - 1]):
        s -= 1
    return s


def hand_solve(board: Board, rng: random.Random, undo_at: int, loop_at: int) -> list[int]:
    """An optimal solution with an undo pair inserted after ``undo_at`` moves and a 4-move loop
    played three times (12 moves, back where it started) after ``loop_at``."""
    moves = list(solve(board).moves)
    out: list[int] = []
    here = board
    for k, t in enumerate(moves):
        if k == undo_at:
            u = rng.choice([x for x in here.movable_tiles() if x != out[-1]])
            out += [u, u]
        if k == loop_at:
            r, c = divmod(here.blank, here.width)
            low = r < here.height - 1
            loop = "DRUL" if r and c else "URDL" if c and low else "ULDR" if low else "DLUR"
            for _ in range(3):
                for letter in loop:
                    t2 = here.tile_in_direction(letter)
                    out.append(t2)
                    here = here.move(t2)
        out.append(t)
        here = here.move(t)
    return out


@pytest.mark.parametrize("shape", sorted(PHASES))
def test_detours_and_phases_of_hand_made_solves(shape):
    h, w = shape
    rng = random.Random(h * 7 + w)
    board = Board.goal(h, w)
    for _ in range(60 if h * w < 20 else 30):
        board = board.move(rng.choice(board.movable_tiles()))
    moves = hand_solve(board, rng, undo_at=2, loop_at=6)
    positions = positions_of(board, moves)
    times = [0.25 * (k + 1) for k in range(len(moves))]
    a = analyze(board, moves, times=times)
    got = [(d.start, d.end) for d in a.detours]
    assert got == naive_detours(positions)
    assert (2, 4) in got  # the undo pair: the shortest detour, named once
    assert any(d.wasted >= 12 for d in a.detours)  # the loop three times: one detour, not six mistakes
    assert sum(d.wasted for d in a.detours) == len(moves) - solve(board).length  # every wasted move, once
    assert [(p.name, p.tiles) for p in a.phases] == PHASES[shape]
    done, before = 0, 0
    for p, (_, tiles) in zip(a.phases, PHASES[shape], strict=True):
        done = max(done, naive_finished(positions, tiles))
        assert (p.move, p.moves) == (done, done - before)
        assert p.time == (times[done - 1] if done else 0.0)
        before = done
    record = analysis_record(a)
    valid_record(json.dumps(record))
    assert record["detours"][0] == {"from": got[0][0], "to": got[0][1], "wasted": got[0][1] - got[0][0]}
    assert "an undo pair" in analysis_text(a)


def test_hand_made_detours_by_hand():
    board = Board.goal(4, 4).push("R")  # one move from the goal: L solves it
    a = analyze(board, "DRUL" * 3 + "L")  # the 12-move loop (the blank circles a 2x2 square 3 times)
    assert a.detours == (Detour(0, 12),) and a.detours[0].wasted == 12
    b = analyze(Board.goal(5, 5).push("R"), "LR" + "LR" + "L")  # undo pairs on a 5x5 board: no table needed
    assert b.detours == (Detour(0, 4),)  # away, goal, away, goal, away, goal: the last return to the start
    c = analyze(Board.goal(5, 5).push("R"), "DL")  # nothing returns
    assert c.detours == ()


def test_proven_mistakes_on_5x5_agree_with_exact_distances_near_the_goal():
    """Near the goal every distance is known (a naive IDA*); no proven mistake contradicts it,
    every interval holds it, and the mistakes the tail's exact distances prove are named."""
    rng = random.Random(5)
    board = Board.goal(5, 5)
    for _ in range(14):
        board = board.move(rng.choice(board.movable_tiles()))
    wander: list[int] = []
    here, deviations = board, 4
    while not here.is_goal():  # a wandering solve: now and then a move away, then on by an optimal path
        best = solve(here, method="idastar").moves[0]
        t = best
        if deviations and rng.random() < 0.4:
            deviations -= 1
            t = rng.choice([x for x in here.movable_tiles() if x != best])
        wander.append(t)
        here = here.move(t)
    positions = positions_of(board, wander)
    truth = [naive_idastar(p)[0] for p in positions]
    a = analyze(board, wander)
    assert not a.exact and a.solved
    for k, d in enumerate(truth):
        assert a.distances[k] <= d and (a.upper[k] < 0 or d <= a.upper[k])
    for m in a.mistakes:
        assert truth[m.index + 1] > truth[m.index] and m.proof
    assert [m.index for m in a.mistakes] == [k for k in range(len(wander)) if truth[k + 1] > truth[k]]


def test_proven_mistakes_on_a_24_puzzle_start_of_known_optimum():
    """Korf & Felner's instance 1 (optimum published): moves away and back; every interval at the
    start's returns holds the optimum, and every proven mistake is a rise that the optimum allows."""
    inst = benchmark_set("korf50", [1])[0]
    start, optimum = inst.board, inst.optimal_length
    rng = random.Random(1)
    out, here = [], start
    for _ in range(6):
        t = rng.choice([x for x in here.movable_tiles() if not out or x != out[-1]])
        out.append(t)
        here = here.move(t)
    moves = [out[0], out[0]] + out + out[::-1]  # an undo pair, then six moves out and back
    positions = positions_of(start, moves)
    a = analyze(start, moves, goal="blank-first")
    known = [k for k, p in enumerate(positions) if p == start]
    assert known == [0, 2, len(moves)]
    for k in known:
        assert a.distances[k] <= optimum and (a.upper[k] < 0 or optimum <= a.upper[k])
    for m in a.mistakes:
        if m.index in known:
            assert m.distance_before >= optimum
        if m.index + 1 in known:
            assert m.distance_after <= optimum
    assert (0, len(moves)) == (a.detours[0].start, a.detours[0].end)



def test_timed_phases_through_the_web_request():
    """``"times"`` of ``POST /api/analyze`` reach the analysis (the phases' time and TPS); a list
    of the wrong length or going back in time is refused with the reason."""
    pytest.importorskip("starlette")
    from npuzzle.web.inputs import Bounds, RequestError, read_analyze
    from npuzzle.web.jobs import _analyze

    board = Board(3, 3, (1, 2, 3, 4, 5, 6, 0, 7, 8))
    request = read_analyze({"moves": "LL", "times": [0.5, 1.5]}, board, Bounds())
    state, _, record = _analyze("j", request)
    assert state == "done" and record["phases"][-1] == {"name": "last 2x3", "tiles": [4, 5, 6, 7, 8], "at_move": 2,
                                                        "phase_moves": 2, "at_time": 1.5, "tps": round(2 / 1.5, 6)}
    for bad in ([0.5], [1.0, 0.5], ["x", 1]):
        with pytest.raises(RequestError, match="times"):
            read_analyze({"moves": "LL", "times": bad}, board, Bounds())
