"""Notation: every parse_* against its format_*, every rejection, Knuth's hex and Korf's set."""

from __future__ import annotations

import pytest
from conftest import read_tsv
from hypothesis import given
from hypothesis import strategies as st
from strategies import boards, checked, walks

from npuzzle import Board, Direction, IllegalMoveError, InvalidBoardError, UnsolvableError
from npuzzle.errors import quote_input
from npuzzle.notation import (
    format_knuth,
    format_lines,
    format_moves,
    format_position,
    format_shape,
    parse_knuth,
    parse_lines,
    parse_moves,
    parse_numbers,
    parse_position,
    parse_shape,
    read_positions,
)


def quoted(text: str) -> str:
    """The input as error messages quote it: repr, cut to ``QUOTE_LIMIT`` (40) characters."""
    return quote_input(text)


# -- round trips ------------------------------------------------------------------------------


@checked
@given(boards(max_side=8))
def test_rows_and_grid_read_back_without_a_shape(board):
    for notation in ("rows", "grid"):
        assert parse_position(format_position(board, notation)) == board


@checked
@given(boards(max_side=8))
def test_list_reads_back_with_the_shape(board):
    text = format_position(board, "list")
    assert parse_position(text, board.shape) == board
    assert parse_numbers(text.replace(" ", ","), board.shape) == board
    assert parse_shape(format_shape(board.shape)) == board.shape
    if board.height == board.width:
        assert parse_position(text) == board


@checked
@given(boards(max_side=8, max_cells=16))
def test_hex_reads_back_with_the_shape(board):
    text = format_position(board, "hex")
    assert len(text) == board.size
    assert parse_position(text, board.shape) == board
    assert parse_position(text.upper(), board.shape) == board
    if board.shape == (4, 4):
        assert format_knuth(board) == text
        assert parse_knuth(text) == board


@checked
@given(boards(max_side=6), st.sampled_from(["rows", "list", "hex"]))
def test_files_read_back(board, notation):
    if notation == "hex" and board.size > 16:
        notation = "rows"
    boards_ = [board, board.move(board.movable_tiles()[0])]
    assert parse_lines(format_lines(boards_, notation), board.shape) == boards_


@checked
@given(walks(max_side=4))
def test_move_strings_read_back(walk):
    board, moves = walk
    assert parse_moves(format_moves(moves)) == moves
    if len(moves) != 1:  # one unseparated token reads as hex digits on a board of <= 16 cells
        assert parse_moves(format_moves(moves), board) == moves
        assert parse_moves(format_moves(moves).replace(" ", ","), board) == moves
    if board.size <= 16:
        assert parse_moves(format_moves(moves, "hex"), board) == moves
    letters = board.letters(moves)
    assert parse_moves(letters) == [Direction(ch) for ch in letters]
    if len(moves) != 1:  # a lone lower-case "d" is tile 13 on a 4x4 board
        assert board.tiles_for(parse_moves(" ".join(letters.lower()), board)) == tuple(moves)


# -- accepted forms ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "1 2 3/4 5 6/7 8 0",
        "1,2,3;4,5,6;7,8,0",
        "1 2 3\n4 5 6\n7 8 0",
        "  1, 2, 3 / 4 5 6 ;7 8 0\n",
        "1 2 3 4 5 6 7 8 0",
        "123456780",
    ],
)
def test_separators_and_inferred_square_shape(text):
    assert parse_position(text) == Board.goal(3, 3)


def test_shape_from_rows_or_given():
    assert parse_position("1 2 3/4 5 0").shape == (2, 3)
    assert parse_position("1 2/3 4/5 0").shape == (3, 2)
    assert parse_position("1 2 3 4 5 0", (3, 2)).shape == (3, 2)
    assert parse_position("1 2 3 4 5 0", parse_shape("2x3")) == Board.goal(2, 3)
    assert parse_position("123450", (2, 3)) == Board.goal(2, 3)
    assert parse_position(" ".join(map(str, Board.goal(3, 5).tiles)), (3, 5)) == Board.goal(3, 5)
    assert parse_shape(" 4 X 3 ") == (4, 3)


def test_knuth_notation():
    board = parse_knuth("159d26ae37bf48c0")
    assert board.rows()[0] == (1, 5, 9, 13)
    assert parse_knuth(" 159D26AE37BF48C0\n") == board
    assert format_knuth(board) == "159d26ae37bf48c0"
    with pytest.raises(InvalidBoardError, match="Knuth's notation is for 4x4 boards, not 3x3"):
        format_knuth(Board.goal(3, 3))
    with pytest.raises(InvalidBoardError, match="at most 16 cells"):
        format_position(Board.goal(3, 6), "hex")


def test_korf100_knuth_hex_is_the_converted_korf_position(korf100):
    assert len(korf100) == 100
    for row in korf100:
        korf = Board(4, 4, tuple(int(t) for t in row["tiles"].split()))
        knuth = parse_knuth(row["knuth_hex"])
        assert knuth == korf.converted()
        assert format_knuth(korf.converted()) == row["knuth_hex"]
        assert korf.manhattan("blank-first") == int(row["manhattan_h0"])
        assert knuth.manhattan("standard") == int(row["manhattan_h0"])
        assert korf.is_solvable("blank-first") and knuth.is_solvable("standard")


def test_korf100_is_read_by_conftest():
    assert read_tsv("korf100.tsv")[0]["knuth_hex"] == "d68cfe0ab7459132"


def test_position_files(tmp_path):
    path = tmp_path / "positions.txt"
    path.write_text("# Korf's #1\nd68cfe0ab7459132  # trailing comment\n\n1 2 3/4 5 6/7 0 8\n")
    assert read_positions(path) == [parse_knuth("d68cfe0ab7459132"), Board(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8))]
    path.write_text("1 2 3 4 5 0\n  # only comments\n1 2 3 4 0 5\n")
    assert [b.tiles for b in read_positions(path, (2, 3))] == [(1, 2, 3, 4, 5, 0), (1, 2, 3, 4, 0, 5)]


# -- rejections -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shape", "problem"),
    [
        ("1 2 3/4 x 6/7 8 0", None, "bad character 'x'"),
        ("1 2 3 4 5 6 7 8 -1", None, "bad character '-'"),
        ("1.5 2 3 0", None, "bad character '.'"),
        ("1 2 ３ 0", None, "bad character '３'"),
        ("12g4", None, "bad character 'g' at position 3"),
        ("1 2 3/4 5 5/7 8 0", None, "duplicate tile 5"),
        ("11345670", (2, 4), "duplicate tile 1"),
        ("1 2 3/4 5 6/7 8 9", None, "tile 9 is out of range for a 3x3 board"),
        pytest.param("1 2 3 4 5 6 7 8 " + "9" * 5000, None, "tile '999", id="5000-digit tile"),
        ("1 2 3 4 5 0 7", (2, 3), "wrong count: a 2x3 board needs 6 numbers, got 7"),
        ("1 2 3 4 5 0", (3, 3), "wrong count: a 3x3 board needs 9 numbers, got 6"),
        ("12345", (2, 3), "wrong count: a 2x3 board needs 6 numbers, got 1"),
        ("159d26ae37bf48c", None, "hex notation needs one digit per cell (16 for the 4x4 board"),
        ("159d26ae37bf48c01", None, "hex notation needs one digit per cell (16 for the 4x4 board, as in"),
        ("12345b", (2, 4), "hex notation needs one digit per cell (8 for a 2x4 board), got 6"),
        ("1 2 3 4 5 0", None, "cannot tell the shape of 6 numbers"),
        ("1 2 3", None, "3 numbers are no board: the smallest, 2x2, has 4 cells"),
        ("7", None, "1 number is no board"),
        ("1 2 3/4 5/6 7 0", None, "ragged rows: row 1 has 3 numbers but row 2 has 2"),
        ("1 2 3/4 5 0", (3, 2), "the rows give a 2x3 board but the shape asked for is 3x2"),
        ("1 2/3 0/", None, "empty row"),
        ("0/1", None, "a 2x1 board is too small"),
        ("", None, "empty position"),
        (" \n ", None, "empty position"),
    ],
)
def test_bad_positions_name_the_problem_and_quote_the_input(text, shape, problem):
    with pytest.raises(InvalidBoardError) as caught:
        parse_position(text, shape)
    assert problem in str(caught.value)
    assert quoted(text) in str(caught.value)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("123456789abcdef", "wrong count: a 4x4 board needs 16 digits, got 15"),
        ("123456789abcdef00", "got 17"),
        ("123456789abcdefg", "bad character 'g' at position 16"),
        ("113456789abcdef0", "duplicate tile 1"),
        ("", "got 0"),
    ],
)
def test_bad_knuth_strings(text, problem):
    with pytest.raises(InvalidBoardError, match=problem) as caught:
        parse_knuth(text)
    assert quoted(text) in str(caught.value)


@pytest.mark.parametrize(
    "text", ["3", "3x", "1x4", "3x0", "axb", "3x4x5", pytest.param("9" * 5000 + "x3", id="5000 digits")]
)
def test_bad_shapes(text):
    with pytest.raises(InvalidBoardError, match="bad shape") as caught:
        parse_shape(text)
    assert quoted(text) in str(caught.value)


def test_errors_in_files_name_the_line(tmp_path):
    with pytest.raises(InvalidBoardError, match=r"^games\.txt:3: duplicate tile 2 in '1 2 2 0'$"):
        parse_lines("1 2 3 0\n# comment\n1 2 2 0\n", source="games.txt")
    path = tmp_path / "empty.txt"
    path.write_text("# nothing\n\n")
    with pytest.raises(InvalidBoardError, match="holds no position"):
        read_positions(path)
    with pytest.raises(InvalidBoardError, match="no such file"):
        read_positions(tmp_path / "absent.txt")
    path.write_bytes(b"\xff\xfe1 2 3 0\n")
    with pytest.raises(InvalidBoardError, match="cannot read"):
        read_positions(path)


@pytest.mark.parametrize(
    "text", ["1 2 x", "U L Q", "12 3.5", pytest.param("9" * 5000, id="5000 digits"), "U,-1"]
)
def test_bad_move_strings(text):
    with pytest.raises(IllegalMoveError, match="bad move") as caught:
        parse_moves(text, Board.goal(4, 5))
    assert quoted(text) in str(caught.value)


def test_move_string_forms():
    board = Board.goal(4, 4)
    assert parse_moves("") == []
    assert parse_moves("12 8, 4") == [12, 8, 4]
    assert parse_moves("ULDR") == parse_moves("u l d r") == [Direction.U, Direction.L, Direction.D, Direction.R]
    assert parse_moves("fb3", board) == [15, 11, 3]
    assert parse_moves("12", board) == [1, 2]  # unseparated digits are hex for a 4x4
    assert parse_moves("12") == [12]
    assert parse_moves("d", board) == [13]  # Knuth's hex: tile 13
    assert parse_moves("d", Board.goal(3, 3)) == [Direction.D]  # no tile 13
    assert parse_moves("10", board) == [10]  # no tile 0
    assert parse_moves("D", board) == [Direction.D]
    assert parse_moves("12", Board.goal(4, 5)) == [12]
    assert format_moves([15, 11, 3], "hex") == "fb3"
    with pytest.raises(ValueError, match="tiles below 16"):
        format_moves([16], "hex")


def test_unsolvable_positions_say_why_parity():
    board = parse_position("1 2 3/4 5 6/8 7 0")
    with pytest.raises(UnsolvableError) as caught:
        board.require_solvable()
    message = str(caught.value)
    assert "unsolvable" in message and "odd permutation" in message and "parities" in message
    # The width is odd, so only the one inversion (8 before 7) counts, for either goal.
    assert not board.is_solvable("blank-first")


def test_lone_numbers_given_as_arguments_are_one_position():
    from npuzzle.notation import position_texts

    assert position_texts(["1", "2", "3"]) == ["1 2 3"]  # one input, so one error: no board has 3 cells
    assert position_texts(["1", "2"]) == ["1 2"] and position_texts(["15"]) == ["15"]
    assert position_texts(["1230", "2130"]) == ["1230", "2130"]  # two positions in hex
