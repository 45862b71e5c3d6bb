"""Hostile inputs for the fuzz tests (tests/test_fuzz.py, under hypothesis) and the longer run
(bench/fuzz.py): generators driven by a ``random.Random`` and checks that return the kind of a
failure (None when the behaviour is the documented one).

Promises checked: the position parsers return boards or raise ``NPuzzleError``; the command line
ends with a documented exit status and never a traceback; a damaged table file is refused with a
message naming the file, or loads exactly as written; a forged BFS table (its checksum valid) is
reported and never gives an answer (issue 33); ``--moves-out FILE`` stopped by Ctrl-C or a full
disk leaves the previous FILE (or none) and nothing beside it, or a complete answer; a wrong
argument to the Python API is one of npuzzle's own errors, a ``TypeError`` or a ``ValueError``
naming the parameter.
"""

from __future__ import annotations

import collections
import os
import random
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from npuzzle import Board, tables
from npuzzle.errors import MissingTableError, NPuzzleError, TableFormatError, TableWarning
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


# -- forged distance tables (issue 33) ------------------------------------------------------------

#: Shapes of the forged BFS tables (3x3 less often: its check and its reference take longer).
FORGED_SHAPES = [(2, 3), (3, 2), (2, 4), (4, 2), (2, 3), (2, 4), (3, 3)]
#: Ways of forging a table while keeping a valid checksum: shuffle a fraction of its bytes, set
#: a few 2-bit entries, swap two entries, set a few bytes, add 1 or 2 (mod 3) to every reachable
#: entry (every move still changes d mod 3 by one), write the other goal's table in its place,
#: change the distribution in the header only, or write it again unchanged (the control).
FORGERIES = ("shuffle", "set", "swap", "bytes", "rotate", "other-goal", "distribution", "rewrite")


#: What the forged-table runs saw, by forgery: "reported" (a changed table, bypassed with a
#: warning) or "used" (an unchanged one, answering); the fuzz run prints it.
FORGED_OUTCOMES: collections.Counter[str] = collections.Counter()


@dataclass(frozen=True)
class Forgery:
    """A saved BFS table forged in one way (``kind``, drawn with ``seed``), then ``positions``
    random positions of its shape solved for its goal."""

    height: int
    width: int
    goal: str
    kind: str
    seed: int
    positions: int


def forgery(rnd: random.Random) -> Forgery:
    h, w = rnd.choice(FORGED_SHAPES)
    return Forgery(h, w, rnd.choice(["standard", "standard", "blank-first"]), rnd.choice(FORGERIES),
                   rnd.randrange(1 << 32), rnd.randrange(1, 9))


@cache
def _genuine(height: int, width: int, goal: str) -> tuple[np.ndarray, dict[str, Any]]:
    """The data and header meta of the BFS table this program saves for a shape and goal (saved
    once in the current store and read back; kept in memory afterwards)."""
    from npuzzle.search import bfs

    bfs.distance_table(height, width, goal, save=True, progress=False)
    table = tables.load_table(tables.TableKey("bfs", height, width, goal))
    return np.array(table.data), dict(table.meta)


@cache
def _positions(height: int, width: int, goal: str) -> list[tuple[int, ...]]:
    from naive import bfs_distances

    return sorted(bfs_distances(height, width, goal))


def _entry(data: np.ndarray, i: int) -> int:
    return (int(data[i >> 2]) >> ((i & 3) * 2)) & 3


def _set_entry(data: np.ndarray, i: int, value: int) -> None:
    shift = (i & 3) * 2
    data[i >> 2] = (int(data[i >> 2]) & ~(3 << shift) & 0xFF) | (value << shift)


def forge(f: Forgery, data: np.ndarray, meta: dict[str, Any]) -> tuple[np.ndarray, dict[str, Any]]:
    """A copy of a genuine table's ``data`` and ``meta`` forged as ``f`` says."""
    rnd = random.Random(f.seed)
    out, meta = data.copy(), {**meta, "distribution": list(meta["distribution"])}
    states = int(meta["states"])
    if f.kind == "shuffle":
        picked = np.array(rnd.sample(range(out.size), max(2, int(out.size * 10 ** rnd.uniform(-4, -0.3)))))
        out[picked] = out[np.random.default_rng(f.seed).permutation(picked)]
    elif f.kind == "set":
        for _ in range(rnd.randrange(1, 9)):
            _set_entry(out, rnd.randrange(states), rnd.randrange(4))
    elif f.kind == "swap":
        i, j = rnd.randrange(states), rnd.randrange(states)
        a, b = _entry(out, i), _entry(out, j)
        _set_entry(out, i, b)
        _set_entry(out, j, a)
    elif f.kind == "bytes":
        for _ in range(rnd.randrange(1, 5)):
            out[rnd.randrange(out.size)] = rnd.randrange(256)
    elif f.kind == "rotate":
        add = rnd.choice([1, 2])
        pairs = np.stack([(out >> s) & 3 for s in (0, 2, 4, 6)])
        pairs = np.where(pairs == 3, 3, (pairs + add) % 3)
        out = (pairs[0] | pairs[1] << 2 | pairs[2] << 4 | pairs[3] << 6).astype(np.uint8)
    elif f.kind == "other-goal":
        out = _genuine(f.height, f.width, "blank-first" if f.goal == "standard" else "standard")[0].copy()
    elif f.kind == "distribution":
        counts = meta["distribution"]
        i, j = rnd.randrange(1, len(counts)), rnd.randrange(1, len(counts))
        moved = rnd.randrange(0, counts[i])  # every level keeps at least one position
        counts[i] -= moved
        counts[j] += moved
    return out, meta


def check_forged(f: Forgery) -> str | None:
    """Forge the saved table as ``f`` says (written with a valid checksum) and solve random
    positions for its goal in this process: every answer optimal (against a naive BFS), none
    read off a changed table, a changed table reported once (a ``TableWarning`` naming its file),
    an unchanged one used and not reported."""
    from naive import bfs_distances

    import npuzzle
    from npuzzle.search import bfs

    key = tables.TableKey("bfs", f.height, f.width, f.goal)
    data, meta = _genuine(f.height, f.width, f.goal)
    forged, forged_meta = forge(f, data, meta)
    changed = not np.array_equal(forged, data) or forged_meta != meta
    path = tables.save_table(key, forged, forged_meta)
    bfs._loaded.clear()  # a new process would see the file for the first time
    tables._warned.clear()
    dist = bfs_distances(f.height, f.width, f.goal)
    picks = random.Random(f.seed).sample(_positions(f.height, f.width, f.goal), f.positions)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for tiles in picks:
            try:
                s = npuzzle.solve(Board(f.height, f.width, tiles), goal=f.goal)  # type: ignore[arg-type]
            except Exception as e:  # noqa: BLE001 - the point: any exception is a failure
                return f"solve raised {type(e).__name__}: {str(e)[:80]}"
            if s.length != dist[tiles] or not s.optimal:
                return f"{'changed' if changed else 'genuine'} table: {s.length} moves for {dist[tiles]}"
            if changed and s.method == "bfs-table":
                return "an answer read off a forged table"
            if not changed and s.method != "bfs-table":
                return "the genuine table not used"
    reported = [str(w.message) for w in caught if issubclass(w.category, TableWarning)]
    FORGED_OUTCOMES[f"{f.kind}: {'reported' if reported else 'used'}"] += 1
    if changed and not reported:
        return "a forged table not reported"
    if changed and not all(str(path) in m for m in reported):
        return "a warning without the file name"
    if not changed and reported:
        return "a genuine table reported"
    return None


# -- interrupted output (issue 33) ----------------------------------------------------------------


@dataclass(frozen=True)
class Interruption:
    """``npuzzle solve --moves-out FILE`` on a random ``side`` x ``side`` board (real time): stopped
    by Ctrl-C ``after`` seconds (counted from the moment its temporary file appears when
    ``from_tmp``, else from the start, past Python's own start-up), or run under a file-size
    limit of ``fsize`` bytes (SIGXFSZ ignored: writes fail with EFBIG, as on a full disk), or
    neither; FILE holds ``previous`` beforehand (None: FILE does not exist)."""

    side: int
    seed: int
    stop: str  # "sigint", "fsize" or "none"
    after: float
    from_tmp: bool
    fsize: int
    previous: bytes | None
    method: str


#: How the interrupted-output runs ended (exit status and what FILE held); the fuzz run prints it.
INTERRUPTED_OUTCOMES: collections.Counter[str] = collections.Counter()

#: A Ctrl-C this early lands while Python itself starts and imports the package, before npuzzle
#: runs; Python prints its own KeyboardInterrupt traceback then (FILE is not touched yet).
STARTUP_SECONDS = 1.0


def interruption(rnd: random.Random) -> Interruption:
    side = rnd.randrange(40, 260)
    stop = rnd.choice(["sigint", "sigint", "fsize", "fsize", "none"])
    moves = 2 * side ** 3  # about 1.95 n^3 moves, one letter each
    previous = None if rnd.random() < 0.3 else rnd.choice([
        b"", b"precious\n", bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 300))),
        b"LRUD" * rnd.randrange(1, 1000), b"\n" * rnd.randrange(1, 10)])
    # the run takes about 1.3e-7 s a move here; a quarter of the size limits let the answer through
    fsize = int(moves * (rnd.uniform(1.0, 1.5) if rnd.random() < 0.25 else 10 ** rnd.uniform(-4, 0)))
    return Interruption(side, rnd.randrange(1 << 32), stop, rnd.uniform(0, 1.3e-7 * moves + 0.3),
                        rnd.random() < 0.5, fsize, previous, rnd.choice(["greedy", "greedy", "parberry"]))


def check_interrupted(case: Interruption, tmp: Path, data_dir: Path) -> str | None:
    """Run the case in a fresh process in an empty folder: FILE afterwards is exactly what it
    was (absent if it was) with exit status 130 (Ctrl-C) or 1 (a write failed, one line naming
    it), or a complete answer (letters that replay to the goal) with exit status 0; no
    temporary file is left, and stderr holds no traceback."""
    import resource
    import shutil

    from npuzzle import format as format_board
    from npuzzle.instances import random_board

    folder = tmp / "interrupted"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    board = random_board(case.side, case.side, case.seed)
    (folder / "board.txt").write_text(format_board(board) + "\n")
    target = folder / "moves.txt"
    if case.previous is not None:
        target.write_bytes(case.previous)

    def child() -> None:
        # Ctrl-C as at a terminal, even when this process was started in the background (which
        # ignores SIGINT, and a child inherits that: it would never be interrupted)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if case.stop == "fsize":
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (case.fsize, case.fsize))

    argv = [sys.executable, "-m", "npuzzle", "solve", "--file", str(folder / "board.txt"), "--shape",
            f"{case.side}x{case.side}", "--moves-out", str(target), "--realtime-method", case.method]
    env = {**os.environ, "NPUZZLE_DATA_DIR": str(data_dir)}
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            preexec_fn=child)
    try:
        if case.stop == "sigint":
            start = time.monotonic()
            if case.from_tmp:  # wait for the temporary file (or the end), then some more
                while proc.poll() is None and not _temporary(folder) and time.monotonic() - start < 120:
                    time.sleep(0.005)
            else:
                time.sleep(STARTUP_SECONDS)
            time.sleep(case.after)
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
        out, err_bytes = proc.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return "no exit within 300 s"
    err = err_bytes.decode("utf-8", "replace")
    if "Traceback" in err:
        return "traceback: " + err.strip().splitlines()[-1][:120]
    if _temporary(folder):
        return f"temporary file left (exit status {proc.returncode})"
    after = target.read_bytes() if target.exists() else None
    code = proc.returncode
    kept = "FILE as it was" if after == case.previous else "FILE replaced"
    INTERRUPTED_OUTCOMES[f"{case.stop}: exit {code if code >= 0 else 'by signal ' + str(-code)}, {kept}"] += 1
    if code == -signal.SIGINT and case.stop == "sigint" and not err:
        # Ctrl-C after the command has ended (FILE written, its line printed), while Python shuts
        # down: the process ends by the signal (status 130 to a shell). FILE is what it was or
        # the complete answer.
        return None if after == case.previous else _complete(after, board)
    if code in (1, 130):
        if after != case.previous:
            return f"exit status {code} but FILE changed"
        if code == 130 and case.stop != "sigint":
            return "exit status 130 without Ctrl-C"
        if code == 1 and not (case.stop == "fsize" and len(err.splitlines()) == 1 and "cannot write" in err):
            return "exit status 1 without one line saying the output cannot be written"
        return None
    if code != 0:
        return f"exit status {code}"
    return _complete(after, board)


def _complete(after: bytes | None, board: Board) -> str | None:
    """None if ``after`` (FILE's bytes) is a complete answer: U D L R letters and a newline, which
    replay from ``board`` to the goal."""
    from npuzzle.search.realtime import replay_directions

    if after is None or not after.endswith(b"\n"):
        return "FILE replaced but not a complete answer"
    letters = np.frombuffer(after[:-1], dtype=np.uint8)
    codes = np.full(256, 255, dtype=np.uint8)
    for i, letter in enumerate(b"DRLU"):  # the blank's step when a tile slides this way
        codes[letter] = i
    steps = codes[letters]
    if (steps == 255).any():
        return "FILE holds other characters than U D L R"
    try:
        replay_directions(board, steps)
    except NPuzzleError:
        return "FILE does not lead to the goal"
    return None


def _temporary(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if p.name.endswith(".tmp")]


# -- misuse of the Python API (issue 33) ----------------------------------------------------------

_P = "1 2 3/4 5 6/7 0 8"
_NAN, _INF = float("nan"), float("inf")
_HUGE = 10 ** 400  # no float holds it
#: Values of the wrong type for any parameter that takes a number or a name.
_ANY = [b"1", [1], {}, (), object(), 1 + 2j, bytearray(b"x"), {1}]
_SECONDS = [True, False, "10", 0, -1, -0.5, _NAN, _INF, -_INF, 1e13, _HUGE, -_HUGE, *_ANY]
_COUNTS = [True, False, 1.5, 1.0, "5", 0, -1, 2 ** 63, _HUGE, -_HUGE, _NAN, _INF, *_ANY]
_NAMES = [None, 3, 1.5, True, b"auto", ["auto"], "bogus", "", " ", "auto\x00", "x" * 5000, *_ANY]
_HEURISTICS = [*_NAMES, "lc+", "+", "pdb:", "pdb:x", "wd++id", "manhattan+lc+wd+id+x"]
_GOALS = [None, 7, 3.5, True, b"standard", ["standard"], "nope", "", "Standard ", "x" * 5000, *_ANY]
_SHAPES = ["x", "3x", "0x3", "3x3x3", (2,), (0, 6), (-1, 3), (True, 3), 2.5, 9, ("2", "3"), [2, "3"], (2, 3, 4),
           (10 ** 9, 10 ** 9), (_HUGE, 2), b"3x3", {}, object(), (2.0, 3.0), (2, 2), (3, 4), "2x2", "99999x99999"]
_CALLBACKS = [5, "print", b"", [print], True, 1.5, object()]


@dataclass(frozen=True)
class Misuse:
    """One parameter of a public function and values that are wrong for it whatever the other
    arguments are; ``names``: how a message may name it (the parameter's name first)."""

    function: str
    parameter: str
    values: list[Any]
    names: tuple[str, ...] = ()


def _misuses() -> list[Misuse]:
    solve_kw = {"timeout": _SECONDS, "max_nodes": [*_COUNTS], "max_memory": [*_COUNTS, 2 ** 60 + 1],
                "weight": [None, True, "2", 0.5, 0, -1, _NAN, _INF, 1001, 1e308, _HUGE, *_ANY],
                "method": _NAMES, "heuristic": _HEURISTICS, "pruning": _NAMES, "realtime_method": _NAMES,
                "goal": [*_GOALS, "1 2 3", "1 2 3/4 5 6/8 7 0"], "on_iteration": _CALLBACKS,
                "on_progress": _CALLBACKS, "shape": _SHAPES,
                "jobs": [True, 1.5, "2", None, -1, 4097, _HUGE, _NAN, *_ANY],
                "scheduler": [8786, True, b"tcp://127.0.0.1:1", ["tcp://127.0.0.1:1"], 1.5, *_ANY[1:]],
                "budget": ["1", True, 0, -1, 3601, _NAN, _INF, _HUGE, *_ANY],
                "limit": [10, "x", {"timeout": 1}, True, 1.5, *_ANY],
                "board": [None, 123, [1, 2, 3, 0], b"1 2 3 0", 1.5, True, {}, object(), ("1 2 3 0",)]}
    #: a shape's bad numbers are named as rows, columns or cells (as ``Board`` names them)
    names = {"shape": ("shape", "rows", "columns", "cells"), "realtime_method": ("realtime_method", "real-time method"),
             "heuristic": ("heuristic", "partition")}
    out = [Misuse("solve", name, values, names.get(name, ())) for name, values in solve_kw.items()]
    for name in ("timeout", "max_nodes", "method", "heuristic", "pruning", "goal", "shape", "jobs", "scheduler"):
        out.append(Misuse("solve_many", name, solve_kw[name], names.get(name, ())))
    out.append(Misuse("solve_many", "boards", [_P, 5, None, Board.goal(3, 3), b"", 1.5, True, object(),
                                               [None], [5], [_P, b"1"]], ("boards", "board")))
    for name in ("heuristic", "goal", "shape", "board"):  # (an unsolvable goal has a bound: not wrong)
        values = [v for v in solve_kw[name] if v != "1 2 3/4 5 6/8 7 0"]
        out.append(Misuse("lower_bound", name, values, names.get(name, ())))
    out.append(Misuse("parse", "text", [None, 5, b"1 2 3/4 5 6/7 0 8", ["1 2 3 0"], 1.5, True, object()]))
    out.append(Misuse("parse", "shape", [s for s in _SHAPES if s not in ((3, 4), "2x2", (2, 2))] + [(2, 2), "2x2"],
                      ("shape", "rows", "columns", "cells")))
    out.append(Misuse("format", "board", [_P, None, 5, [1, 2, 3, 0], b"", object()]))
    out.append(Misuse("format", "notation", [None, 5, "bogus", "", b"rows", ["rows"], "ROWS", 1.5, True]))
    sides = [True, False, 1, 0, -2, 2.5, "2", None, 10 ** 9, _HUGE, b"2", [2], _NAN]
    out.append(Misuse("Board", "height", sides, ("height", "rows", "cells")))
    out.append(Misuse("Board", "width", sides, ("width", "columns", "cells")))
    out.append(Misuse("Board", "tiles", [None, True, 5, "1230", b"\x01\x02\x03\x00", (1, 2, 3), (1, 2, 3, 0, 4),
                                         (1, 1, 2, 0), (1, 2, 3, -1), (1, 2, 3, 4), (1.5, 2, 3, 0), (True, 2, 3, 0),
                                         (1, 2, 3, _HUGE), ("1", 2, 3, 0), (None, 1, 2, 3), {1: 1}, 1.5],
                      ("tiles", "tile", "cells")))
    out.append(Misuse("Board.goal", "height", sides, ("height", "rows", "cells")))
    out.append(Misuse("Board.goal", "goal", _GOALS, ("goal",)))
    for name in ("timeout", "max_nodes", "max_memory"):
        out.append(Misuse("Limit", name, solve_kw[name]))
    return out


MISUSES = _misuses()


def misuse(rnd: random.Random) -> tuple[Misuse, int]:
    """A parameter and the index of one of its wrong values."""
    m = rnd.choice(MISUSES)
    return m, rnd.randrange(len(m.values))


def _call(function: str, parameter: str, value: Any) -> Callable[[], object]:
    import npuzzle
    from npuzzle import Limit

    if function == "solve":
        if parameter == "board":
            return lambda: npuzzle.solve(value)
        return lambda: npuzzle.solve(_P, **{parameter: value})
    if function == "solve_many":
        if parameter == "boards":
            return lambda: npuzzle.solve_many(value, jobs=1)
        kw = {"jobs": 1, parameter: value}
        return lambda: npuzzle.solve_many([_P], **kw)
    if function == "lower_bound":
        if parameter == "board":
            return lambda: npuzzle.lower_bound(value)
        return lambda: npuzzle.lower_bound(_P, **{parameter: value})
    if function == "parse":
        return (lambda: npuzzle.parse(value)) if parameter == "text" else (lambda: npuzzle.parse(_P, shape=value))
    if function == "format":
        if parameter == "board":
            return lambda: npuzzle.format(value)
        return lambda: npuzzle.format(Board.goal(2, 2), value)
    if function == "Board":
        kw = {"height": 2, "width": 2, "tiles": (1, 2, 3, 0), parameter: value}
        return lambda: Board(**kw)
    if function == "Board.goal":
        kw = {"height": 2, "width": 2, parameter: value}
        return lambda: Board.goal(**kw)
    if function == "Limit":
        return lambda: Limit(**{parameter: value})
    raise AssertionError(function)


def check_misuse(m: Misuse, index: int) -> str | None:
    """Call ``m.function`` with ``m.parameter`` given its wrong value number ``index`` (the other
    arguments valid): an ``NPuzzleError`` that is a ``TypeError`` or a ``ValueError``, whose
    message names the parameter; anything else (success, a built-in error) is a failure."""
    value = m.values[index]
    where = f"{m.function}({m.parameter}=)"
    try:
        _call(m.function, m.parameter, value)()
    except NPuzzleError as e:
        if not isinstance(e, TypeError | ValueError):
            return f"{where}: {type(e).__name__}, neither a TypeError nor a ValueError"
        text = str(e)
        if not any(name in text for name in (m.names or (m.parameter,))):
            return f"{where}: message not naming the parameter"
        if len(text) > 1000:
            return f"{where}: message of {len(text)} characters"
        return None
    except Exception as e:  # noqa: BLE001 - the point: any other exception is a failure
        return f"{where}: {type(e).__name__}"
    return f"{where}: accepted"


def shown(value: Any) -> str:
    """A short text for a fuzz value (a huge int has no repr)."""
    return f"<int of {value.bit_length()} bits>" if isinstance(value, int) and value.bit_length() > 128 else (
        repr(value)[:80])
