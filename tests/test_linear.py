"""``verify`` and ``analyze`` in time linear in moves plus cells: the boards they build are
counted, and do not grow with the number of moves."""

from __future__ import annotations

import pytest

from npuzzle import Board, analyze
from npuzzle.analysis import Detour


def boards_built(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A counter of the boards built, checked or derived from another (each costs time linear in
    its cells)."""
    count = [0]
    check, derived = Board.__post_init__, Board._derived

    def counted(self: Board) -> None:
        count[0] += 1
        check(self)

    def counted_derived(self: Board, tiles: tuple[int, ...]) -> Board:
        count[0] += 1
        return derived(self, tiles)

    monkeypatch.setattr(Board, "__post_init__", counted)
    monkeypatch.setattr(Board, "_derived", counted_derived)
    return count


@pytest.mark.parametrize("what", ["verify", "analyze"])
def test_verify_and_analyze_build_no_board_per_move(monkeypatch, what):
    """On a 30x30 board, 20 or 20,000 moves build the same number of boards: the moves are replayed
    in place (a board a move would make the work quadratic: moves times cells)."""
    from npuzzle import verify

    start = Board.goal(30, 30).push("R")
    built = []
    for pairs in (10, 10_000):
        moves = "LR" * pairs + "L"
        count = boards_built(monkeypatch)
        if what == "verify":
            assert verify(start, moves).solved
        else:
            a = analyze(start, moves)
            assert a.solved and a.detours == (Detour(0, 2 * pairs),)
        built.append(count[0])
        monkeypatch.undo()
    assert built[0] == built[1]
