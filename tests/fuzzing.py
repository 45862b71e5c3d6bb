"""Hostile inputs for the fuzz tests (tests/test_fuzz.py, under hypothesis) and the longer run
(bench/fuzz.py): generators driven by a ``random.Random`` and checks that return the kind of a
failure (None when the behaviour is the documented one).

Promises checked: the position parsers return boards or raise ``NPuzzleError``; the command line
ends with a documented exit status and never a traceback; a damaged table file is refused with a
message naming the file, or loads exactly as written.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np

from npuzzle import Board, tables
from npuzzle.errors import MissingTableError, NPuzzleError, TableFormatError
from npuzzle.notation import parse_lines, parse_position, read_positions

#: Exit statuses the command line documents for these runs (130, an interrupt, is never sent).
EXIT_STATUSES = {0, 1, 2, 3}

_PIECES = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "15", "_", ".", "/", " ", "  ", ",", "\n",
           "\t", "-", "+", "x", "a", "f", "F", "#", "0x1", "1e9", "9" * 30, "\u00e9", "\u0663", "\ufeff",
           "\x00", "1 2 3/4 5 6/7 8 0", "8 6 7/2 5 4/3 0 1", "123456780", "bc9e80df3412a756", "[", "]",
           "1 2/3 0", "0 1 2 3", "nan", "inf", "\r", "\\"]


def position_text(rnd: random.Random) -> str:
    """Text that looks more or less like a position (or like anything at all)."""
    kind = rnd.random()
    if kind < 0.1:
        return "".join(chr(rnd.randrange(0x20, 0x2FF)) for _ in range(rnd.randrange(0, 40)))
    if kind < 0.15:
        return rnd.choice(_PIECES) * rnd.randrange(1, 5000)
    if kind < 0.3:  # a real board, damaged
        h, w = rnd.randrange(1, 6), rnd.randrange(1, 6)
        tiles = list(range(h * w))
        rnd.shuffle(tiles)
        text = "/".join(" ".join(map(str, tiles[r * w : (r + 1) * w])) for r in range(h))
        if text and rnd.random() < 0.7:
            i = rnd.randrange(len(text))
            text = text[:i] + rnd.choice(_PIECES) + text[i + rnd.randrange(0, 3) :]
        return text
    return "".join(rnd.choice(_PIECES) for _ in range(rnd.randrange(0, 20)))


def shape(rnd: random.Random) -> tuple[int, int] | None:
    return None if rnd.random() < 0.6 else (rnd.randrange(1, 6), rnd.randrange(1, 6))


def check_parse(text: str, shape: tuple[int, int] | None, tmp: Path) -> str | None:
    """Parse ``text`` as a position, as lines, and as a file: boards or ``NPuzzleError`` only."""
    for what, call in (("parse_position", lambda: [parse_position(text, shape)]),
                       ("parse_lines", lambda: parse_lines(text, shape)),
                       ("read_positions", lambda: _read_file(text, shape, tmp))):
        try:
            result = call()
        except NPuzzleError as e:
            if len(str(e)) > 1000:
                return f"{what}: message of {len(str(e))} characters"
            continue
        except Exception as e:  # noqa: BLE001 - the point: any other exception is a failure
            return f"{what}: {type(e).__name__}"
        if not all(isinstance(b, Board) for b in result):
            return f"{what}: returned {type(result).__name__}"
    return None


def _read_file(text: str, shape: tuple[int, int] | None, tmp: Path) -> list[Board]:
    path = tmp / "positions.txt"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return read_positions(path, shape)


_SHAPES = ["3x3", "2x3", "3x2", "2x4", "4x4", "0x3", "3x", "99999x99999", "1x1", "x"]
_GOALS = ["standard", "blank-first", "nope"]
#: Per command: the words it starts with (one list picked), options with values (good and bad),
#: and flags.
_COMMANDS: dict[str, tuple[list[list[str]], dict[str, list[str]], list[str]]] = {
    "solve": ([[]], {
        "--method": ["auto", "idastar", "astar", "realtime", "bogus"],
        "--heuristic": ["auto", "manhattan", "lc", "wd", "wd+id", "pdb:3-2", "pdb:x", "lc+wd", "pdb:4-4+wd"],
        "--weight": ["1.5", "nan", "-1", "1e400", "3"], "--shape": _SHAPES, "--goal": _GOALS,
        "--pruning": ["fsm", "parent", "auto", "x"], "--max-memory": ["1M", "64K", "1e30", "inf", "x"],
        "--realtime-method": ["greedy", "parberry", "x"], "--file": ["-", "/dev/null", "/nonexistent", "/"],
        "--moves-out": ["/dev/null", "/nonexistent/x", "/"]},
        ["--json", "--verbose", "--count-only"]),
    "check": ([[]], {"--shape": _SHAPES, "--goal": _GOALS, "--file": ["-", "/dev/null", "/nonexistent", "/"]},
              ["--json"]),
    "scramble": ([[]], {"--shape": _SHAPES, "--seed": ["1", "-1", "x", str(1 << 64)], "--walk": ["5", "x", "0"],
                        "--count": ["3", "0", "-2"], "--goal": _GOALS,
                        "--notation": ["hex", "rows", "grid", "list", "bogus"]}, ["--worst"]),
    "stats": ([["bfs", "2x3"], ["bfs", "3x2"], ["bfs", "9x9"], ["bfs", "x"], ["happy", "--shape", "2x3"],
               ["sample", "--shape", "3x3", "--count", "2"], ["sample"]],
              {"--goal": _GOALS, "--blank-cell": ["0,1", "9,9", "x"], "--seed": ["4", "-3"]},
              ["--save", "--table"]),
    "tables": ([["list"], ["remove", "pdb:3-2"], ["remove", "bfs"], ["remove", "automaton"], ["remove", "x.npt"],
                ["remove", "../x.npt"], ["build", "pdb:3-2"], ["build", "pdb:9-9"], ["build", "pdb:x"],
                ["build", "pdb:1-1-1-1-1"], ["build"]],
               {"--shape": ["2x3", "3x2", "x", "2x2"], "--goal": _GOALS}, ["--force"]),
    "knuth": ([["zz"], ["123"], ["--program", "korf0", "x"]], {}, []),
    "bench": ([["korf100", "--ids", ids] for ids in ("5-1", ",", "x", "0", "101", "1-999999999999")], {}, []),
}
_LIMITS = ["--timeout", "2", "--max-nodes", "200000"]


def cli_argv(rnd: random.Random) -> list[str]:
    """A command line: a command and its first words, a few of its options with good or bad
    values (sometimes a stray word), positions for ``solve`` and ``check``, and for ``solve``
    limits that keep every run short."""
    command = rnd.choice(list(_COMMANDS))
    starts, options, flags = _COMMANDS[command]
    words = list(rnd.choice(starts))
    for _ in range(rnd.randrange(0, 4)):
        if options and rnd.random() < 0.7:
            name = rnd.choice(list(options))
            words += [name, rnd.choice(options[name])]
        elif flags and rnd.random() < 0.8:
            words.append(rnd.choice(flags))
        else:
            words.append(rnd.choice(_PIECES[:12]))
    if command in ("solve", "check"):
        words += [position_text(rnd)[:200] for _ in range(rnd.randrange(0, 3))]
    if command == "tables" and words[:1] == ["build"] and "--shape" not in words:
        words += ["--shape", "2x3"]  # no 4x4 build: minutes
    if command == "solve":
        words += _LIMITS
    return [command, *(w.replace("\x00", "") for w in words)]  # a command line holds no NUL


def check_cli(argv: list[str], data_dir: Path, stdin: bytes = b"") -> str | None:
    """Run ``npuzzle ARGV`` in a fresh process: a documented exit status and no traceback."""
    env = {**os.environ, "NPUZZLE_DATA_DIR": str(data_dir)}
    try:
        done = subprocess.run([sys.executable, "-m", "npuzzle", *argv], input=stdin, capture_output=True,
                              env=env, timeout=120)
    except subprocess.TimeoutExpired:
        return "no exit within 120 s"
    err = done.stderr.decode("utf-8", "replace")
    if "Traceback" in err:
        return "traceback: " + err.strip().splitlines()[-1][:120]
    allowed = EXIT_STATUSES | ({252, 253, 254, 255} if argv[:1] == ["knuth"] else set())  # its own
    if done.returncode not in allowed:
        return f"exit status {done.returncode}"
    return None


def mutate(rnd: random.Random, raw: bytes) -> bytes:
    """``raw`` with a few bytes changed, or cut short, or with bytes added."""
    data = bytearray(raw)
    kind = rnd.random()
    if kind < 0.25:
        return bytes(data[: rnd.randrange(len(data))])
    if kind < 0.3:
        return bytes(data) + bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 9)))
    for _ in range(rnd.randrange(1, 4)):
        # half the changes in the header, where the structure is
        at = rnd.randrange(min(len(data), 400)) if rnd.random() < 0.5 else rnd.randrange(len(data))
        data[at] = rnd.choice([data[at] ^ (1 << rnd.randrange(8)), rnd.randrange(256)])
    return bytes(data)


def check_table(path: Path, key: tables.TableKey, raw: bytes, reference: tables.Table) -> str | None:
    """Write ``raw`` (a damaged copy of ``reference``'s file) at ``path`` and load it: refused
    with a ``TableFormatError`` naming the file, or loaded with the same data and meta."""
    path.write_bytes(raw)
    try:
        table = tables.load_table(key)
    except TableFormatError as e:
        return None if str(path) in str(e) else "message without the file name"
    except MissingTableError:
        return "reported missing"
    except Exception as e:  # noqa: BLE001 - the point: any other exception is a failure
        return f"{type(e).__name__}: {str(e)[:80]}"
    if not (np.array_equal(table.data, reference.data) and table.data.dtype == reference.data.dtype
            and table.meta == reference.meta):
        return "loaded different contents"
    return None
