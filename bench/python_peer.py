"""Benchmark: npuzzle beside a pure-Python solver from PyPI, ``slidingpuzzle`` (its IDA* and A*),
on the same boards, in alternating rounds.

The other solver is installed in a Python of its own (it pins an old numpy), named by
``--peer-python``; this script sends it the boards and reads back, per board, its moves, node
counts and CPU seconds (``time.process_time`` around its ``search`` call). Every answer it gives is
replayed here and its length compared with npuzzle's optimal one (the last column counts the
boards where it is longer). npuzzle runs in this process,
its kernels loaded first, timed the same way around ``npuzzle.solve``.

    python -m venv /tmp/peer && /tmp/peer/bin/pip install slidingpuzzle==0.1.5
    PYTHONPATH=src python bench/python_peer.py --peer-python /tmp/peer/bin/python --rounds 2

Sets: ``--random3 N`` random 8-puzzles (``instances.scramble(3, 3, N, seed=1)``) and ``--korf IDS``,
Korf's 15-puzzles turned onto the standard goal (``Board.converted``: the other solver knows only
that goal), both with the Manhattan distance and with linear conflict.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import time
from typing import Any

from npuzzle import Board, solve
from npuzzle.instances import benchmark_set, scramble

#: The other solver's side: boards in on standard input (one JSON list of rows a line), one JSON
#: record a board out.
PEER = r"""
import json, sys, time
import slidingpuzzle as sp
alg = {"idastar": sp.Algorithm.IDA_STAR, "astar": sp.Algorithm.A_STAR}[sys.argv[1]]
h = {"manhattan": sp.manhattan_distance, "lc": sp.linear_conflict_distance}[sys.argv[2]]
for line in sys.stdin:
    rows = json.loads(line)
    board = sp.from_rows(*rows)
    t = time.process_time()
    r = sp.search(board, alg, heuristic=h)
    cpu = time.process_time() - t
    print(json.dumps({"cells": [int(y) * len(rows[0]) + int(x) for y, x in r.solution],
                      "generated": int(r.generated), "expanded": int(r.expanded), "cpu": cpu}), flush=True)
"""


def peer_round(python: str, boards: list[Board], method: str, heuristic: str) -> list[dict[str, Any]]:
    text = "".join(json.dumps([list(b.tiles[r * b.width:(r + 1) * b.width]) for r in range(b.height)]) + "\n"
                   for b in boards)
    done = subprocess.run([python, "-c", PEER, method, heuristic], input=text, capture_output=True, text=True,
                          check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


def replayed_length(board: Board, cells: list[int]) -> int:
    """The other solver's answer (the cells the blank moves to) replayed: its length, if it
    reaches the standard goal (else an error)."""
    tiles = list(board.tiles)
    for cell in cells:
        blank = tiles.index(0)
        tiles[blank], tiles[cell] = tiles[cell], 0
    if not Board(board.height, board.width, tuple(tiles)).is_goal("standard"):
        raise AssertionError(f"the other solver's answer does not reach the goal from {board.tiles}")
    return len(cells)


def ours_round(boards: list[Board], method: str, heuristic: str) -> list[tuple[int, int, float]]:
    out = []
    for b in boards:
        t = time.process_time()
        s = solve(b, method=method, heuristic=heuristic)
        out.append((s.length or 0, s.stats.generated, time.process_time() - t))
    return out


def compare(name: str, boards: list[Board], python: str, method: str, heuristic: str, rounds: int) -> None:
    solve(boards[0], method=method, heuristic=heuristic)  # npuzzle's kernels loaded
    peer_cpu: list[float] = []
    ours_cpu: list[float] = []
    longer = 0
    for _ in range(rounds):
        theirs = peer_round(python, boards, method, heuristic)
        ours = ours_round(boards, method, heuristic)
        longer = sum(1 for b, t, o in zip(boards, theirs, ours, strict=True)
                     if replayed_length(b, t["cells"]) > o[0])
        peer_cpu.append(sum(float(t["cpu"]) for t in theirs))
        ours_cpu.append(sum(o[2] for o in ours))
    nodes_theirs = sum(int(t["generated"]) for t in theirs)
    nodes_ours = sum(o[1] for o in ours)
    print(f"| {name} | {method} | {heuristic} | {len(boards)} | {nodes_theirs:,} | "
          f"{', '.join(f'{c:.3f}' for c in peer_cpu)} | {nodes_ours:,} | {', '.join(f'{c:.4f}' for c in ours_cpu)} | "
          f"{min(ours_cpu) / min(peer_cpu):.4f} | {longer} |")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--peer-python", required=True, help="the Python that has slidingpuzzle installed")
    p.add_argument("--rounds", type=int, default=2, help="alternating rounds (the other solver, then npuzzle)")
    p.add_argument("--random3", type=int, default=50, help="random 8-puzzles (seed 1)")
    p.add_argument("--korf", default="79", help="Korf's instances, e.g. 79,12 (empty: none)")
    p.add_argument("--methods", default="idastar,astar", help="idastar, astar or both")
    p.add_argument("--heuristics", default="manhattan,lc", help="manhattan, lc or both")
    args = p.parse_args()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}; {time.strftime('%Y-%m-%d %H:%M')}\n")
    print("| set | method | heuristic | boards | its nodes generated | its CPU s (rounds) | npuzzle nodes "
          "generated | npuzzle CPU s (rounds) | ratio (min) | its answers longer than the optimum |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    sets = [(f"random 3x3 (seed 1) x {args.random3}", scramble(3, 3, args.random3, seed=1))] if args.random3 else []
    if args.korf:
        ids = [int(i) for i in args.korf.split(",")]
        turned = [i.board.converted() for i in benchmark_set("korf100", ids)]
        sets.append((f"Korf's {args.korf}, standard goal", turned))
    for method in args.methods.split(","):
        for heuristic in args.heuristics.split(","):
            for name, boards in sets:
                compare(name, boards, args.peer_python, method, heuristic, args.rounds)


if __name__ == "__main__":
    main()
