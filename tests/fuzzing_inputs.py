"""Hostile inputs for the newer surfaces (tests/test_fuzz_inputs.py with a fixed seed, bench/fuzz.py
for longer): several real processes on one output file, random arguments to the batched stepper
and the Gymnasium environment, and proposed answers given to the verifier. Each check returns the
kind of a failure, or None when the behaviour is the documented one.

Promises checked: of several writers started together on one ``--out`` (or ``--moves-out``),
every one ends with status 0 or 5 (5 naming another's pid in one line), none with a traceback,
and the file is whole afterwards (every row once, in order; the moves solve the position), with
no lock file left; a stale lock is taken over. The stepper and the environment either do what
was asked (every board a permutation, its Manhattan distance kept) or raise an ``NPuzzleError``
before any work, quickly. The verifier's verdict matches a naive replay of the moves, or the
input is refused with an ``NPuzzleError``.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from npuzzle import Board
from npuzzle.errors import NPuzzleError

#: Seconds a refused call may take (a check before work is far quicker).
QUICK = 2.0
SRC = str(Path(__file__).resolve().parents[1] / "src")


# -- several writers on one output -----------------------------------------------------------------


@dataclass(frozen=True)
class Writers:
    kind: str  # dataset, bench or moves-out
    count: int  # processes
    delays: tuple[float, ...]  # seconds before each starts
    stale: str  # "", "dead", "garbage": a lock file there before they start
    rows: int


def writers(rnd: random.Random) -> Writers:
    count = rnd.choice([2, 2, 3])
    delays = tuple(rnd.choice([0.0, 0.0, 0.2, 1.0]) for _ in range(count))
    return Writers(rnd.choice(["dataset", "bench", "moves-out"]), count, delays,
                   rnd.choice(["", "", "dead", "garbage"]), rnd.choice([200, 2000, 20000]))


def _argv(case: Writers, out: Path) -> list[str]:
    if case.kind == "dataset":
        return ["dataset", "--shape", "3x3", "--count", str(case.rows), "--seed", "3", "--out", str(out), "--quiet"]
    if case.kind == "bench":
        return ["bench", f"random:2x4:{case.rows // 100}:1", "--method", "idastar,astar", "--out", str(out)]
    return ["solve", "--method", "realtime", "--moves-out", str(out), "8 6 7/2 5 4/3 0 1"]


def _dead_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


def check_writers(case: Writers, tmp: Path) -> str | None:
    """Start ``case.count`` processes on one output file; see the module's promises."""
    folder = tmp / f"writers-{time.monotonic_ns()}"
    folder.mkdir()
    out = folder / {"dataset": "rows.jsonl", "bench": "runs.csv", "moves-out": "moves.txt"}[case.kind]
    lock = out.with_name(out.name + ".lock")
    if case.stale:
        lock.write_text(f"{_dead_pid()}\n" if case.stale == "dead" else "\x00garbage")
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "NPUZZLE_STATUS_AFTER": "1000"}
    procs = []
    for delay in case.delays:
        time.sleep(delay)
        procs.append(subprocess.Popen([sys.executable, "-m", "npuzzle", *_argv(case, out)], stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, env=env))
    pids = {p.pid for p in procs}
    finished = 0
    for p in procs:
        try:
            _, err = p.communicate(timeout=600)
        except subprocess.TimeoutExpired:
            p.kill()
            return "no exit within 600 s"
        if "Traceback" in err:
            return "traceback: " + err.strip().splitlines()[-1][:120]
        if p.returncode == 5:
            lines = err.strip().splitlines()
            named = [q for q in pids - {p.pid} if f"pid {q})" in err]
            if len(lines) != 1 or not named:
                return f"a refusal that names no other writer: {err.strip()[:120]!r}"
        elif p.returncode != 0:
            return f"exit status {p.returncode}: {err.strip()[-120:]!r}"
        else:
            finished += 1
    if not finished:
        return "every writer refused"
    if lock.exists():
        return "a lock file left behind"
    return _whole(case, out)


def _whole(case: Writers, out: Path) -> str | None:
    text = out.read_text()
    if case.kind == "dataset":
        indices = [json.loads(line)["index"] for line in text.splitlines()]
        return None if indices == list(range(case.rows)) else f"rows {indices[:5]}... ({len(indices)}), not 0..n-1"
    if case.kind == "bench":
        lines = text.splitlines()
        runs = 2 * (case.rows // 100)
        if len(lines) != 1 + runs or len(set(lines)) != len(lines):
            return f"{len(lines)} lines ({len(set(lines))} distinct), not a header and {runs} runs"
        return None
    board = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1))
    try:
        for letter in text.strip():
            board = board.push(letter)
    except NPuzzleError as e:
        return f"moves that do not replay: {e}"
    return None if board.is_goal() else "moves that do not reach the goal"


# -- the stepper and the environment ----------------------------------------------------------------


_NUMBERS: list[Any] = [0, 1, 2, 3, 4, -1, -2, 7, 2**31, 2**63, 2**64 - 1, 2**64, -(2**63), 10**10, 10**6, 10**6 + 1,
                       1.5, float("nan"), True, None, "3", b"1", [1], np.int64(3), np.uint64(2**64 - 1),
                       np.float32(2)]


def _array(rnd: random.Random, n: int) -> Any:
    values = [rnd.choice(_NUMBERS) if rnd.random() < 0.3 else rnd.randrange(-2, 6) for _ in range(n)]
    form = rnd.choice(["list", "int64", "uint64", "object", "float", "2d"])
    try:
        if form == "list":
            return values
        if form == "2d":
            return np.array([values, values], dtype=object)
        return np.array(values, dtype={"int64": np.int64, "uint64": np.uint64, "object": object,
                                       "float": np.float64}[form])
    except (OverflowError, TypeError, ValueError):
        return values


@dataclass(frozen=True)
class StepperCall:
    shape: tuple[int, int]
    count: int
    call: str
    args: tuple[Any, ...]


def stepper_call(rnd: random.Random) -> StepperCall:
    shape = rnd.choice([(2, 3), (3, 2), (2, 4), (4, 3), (3, 5), (3, 3)])
    count = rnd.choice([1, 2, 5])
    call = rnd.choice(["scramble", "scramble", "set", "step", "apply", "new"])
    n = rnd.choice([count, count, count + 1, 0])
    if call == "scramble":
        length = rnd.choice(_NUMBERS) if rnd.random() < 0.5 else rnd.randrange(0, 50)
        args: tuple[Any, ...] = (length, _array(rnd, n), None if rnd.random() < 0.7 else _array(rnd, n))
    elif call == "set":
        boards = [Board.goal(*shape) if rnd.random() < 0.8 else rnd.choice(["1 2/3 0", Board.goal(2, 2), 3])
                  for _ in range(rnd.choice([n, 1]))]
        args = (_array(rnd, n), boards)
    elif call == "step":
        args = (_array(rnd, n),)
    elif call == "apply":
        args = ([_array(rnd, rnd.randrange(0, 6)) for _ in range(n)] if rnd.random() < 0.5 else
                np.array([[rnd.randrange(-1, 5) for _ in range(4)] for _ in range(n)]),)
    else:
        args = (rnd.choice(_NUMBERS), rnd.choice(["standard", "blank-first", "other", 1]))
    return StepperCall(shape, count, call, args)


def check_stepper(c: StepperCall) -> str | None:
    from npuzzle.search.stepper import Boards

    boards = Boards(*c.shape, count=c.count)
    boards.scramble(7, np.arange(c.count, dtype=np.uint64))
    start = time.perf_counter()
    try:
        if c.call == "new":
            boards = Boards(*c.shape, count=c.args[0], goal=c.args[1])
        else:
            getattr(boards, c.call)(*c.args)
    except NPuzzleError:
        return None if time.perf_counter() - start < QUICK else "a refusal after the work"
    except Exception as e:  # noqa: BLE001 - any other exception is the failure this looks for
        return f"{type(e).__name__} from {c.call}"
    for i in range(min(len(boards), 20)):
        b = boards.board(i)
        if sorted(b.tiles) != list(range(b.size)):
            return f"board {i} is no permutation after {c.call}"
        if int(boards.manhattan[i]) != b.manhattan(boards.goal):
            return f"board {i}'s Manhattan distance is wrong after {c.call}"
    return None


@dataclass(frozen=True)
class EnvCall:
    kwargs: dict[str, Any]
    seed: Any
    options: dict[str, Any] | None
    actions: tuple[Any, ...]


def env_call(rnd: random.Random) -> EnvCall:
    kwargs: dict[str, Any] = {"shape": rnd.choice([(2, 3), (3, 2), "2x4", (3, 3), "3x5", (0, 3), "x"])}
    if rnd.random() < 0.5:
        kwargs["scramble"] = rnd.choice(["uniform", 5, 0, *_NUMBERS])
    if rnd.random() < 0.3:
        kwargs["max_steps"] = rnd.choice([1, 10, 0, -1, 10**12, 1.5])
    if rnd.random() < 0.2:
        kwargs["reward"] = rnd.choice(["step", "distance", "other"])
    options = None if rnd.random() < 0.6 else rnd.choice([{"walk": rnd.choice(_NUMBERS)},
                                                         {"position": rnd.choice(["1 2 3/4 5 0", "1 2/3 0", 7])}])
    return EnvCall(kwargs, rnd.choice([None, 0, 1, 2**64 + 5, -1, 2**70]), options,
                   tuple(rnd.choice([0, 1, 2, 3, 3, 2, 4, -1, np.int64(1), 1.0]) for _ in range(rnd.randrange(0, 8))))


def check_env(c: EnvCall) -> str | None:
    import gymnasium

    import npuzzle.env  # noqa: F401

    start = time.perf_counter()
    stage = "make"
    try:
        env = gymnasium.make("npuzzle/SlidingPuzzle-v0", disable_env_checker=True, **c.kwargs)
        stage = "reset"
        observation, _ = env.reset(seed=c.seed, options=c.options)
        for action in c.actions:
            stage = f"step({action!r})"
            observation, *_ = env.step(action)
    except (NPuzzleError, gymnasium.error.Error):
        return None if time.perf_counter() - start < QUICK + 10 else f"a refusal after the work ({stage})"
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__} at {stage}"
    if sorted(observation.flatten().tolist()) != list(range(observation.size)):
        return "an observation that is no board"
    return None


# -- the verifier ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    board: Board
    moves: Any  # text or a list
    optimum: bool


def answer(rnd: random.Random) -> Answer:
    from npuzzle.instances import random_walk

    shape = rnd.choice([(2, 3), (3, 2), (2, 4), (4, 3), (3, 5), (3, 3)])
    board = random_walk(*shape, rnd.randrange(0, 30), rnd.randrange(1 << 30))
    letters = [rnd.choice("UDLR") for _ in range(rnd.randrange(0, 60))]
    form = rnd.choice(["letters", "tiles", "list", "junk", "counts", "long"])
    moves: Any
    if form == "letters":
        moves = "".join(letters)
    elif form == "tiles":
        moves = " ".join(str(rnd.randrange(0, board.size + 1)) for _ in range(rnd.randrange(0, 30)))
    elif form == "list":
        moves = [rnd.choice([*letters[:3], 1, 2, 0, -1, "x", 2.5, None, True]) if rnd.random() < 0.2 else
                 rnd.randrange(1, board.size) for _ in range(rnd.randrange(0, 30))]
    elif form == "junk":
        moves = "".join(rnd.choice("UDLR 12,x#\u00e9\x00\n-") for _ in range(rnd.randrange(0, 30)))
    elif form == "counts":
        moves = "".join(f"{rnd.choice('UDLR')}{rnd.choice(['', '2', '9', '99999', '100001'])}" for _ in range(4))
    else:
        moves = "LR" * rnd.choice([10, 50_001]) if rnd.random() < 0.5 else ["L", "R"] * rnd.choice([10, 5_000_001])
    return Answer(board, moves, rnd.random() < 0.3)


def _naive_replay(board: Board, moves: list[Any]) -> tuple[int, Board, bool]:
    """Moves played before the first illegal one, the board reached, whether one was illegal."""
    tiles, w = list(board.tiles), board.width
    for i, m in enumerate(moves):
        b = tiles.index(0)
        if isinstance(m, str):
            if m.upper() not in ("U", "D", "L", "R"):
                return i, Board(board.height, w, tuple(tiles)), True
            dr, dc = {"U": (1, 0), "D": (-1, 0), "L": (0, 1), "R": (0, -1)}[m.upper()]
            r, c = b // w + dr, b % w + dc
            if not (0 <= r < board.height and 0 <= c < w):
                return i, Board(board.height, w, tuple(tiles)), True
            q = r * w + c
        else:
            q = tiles.index(m) if 0 < m < len(tiles) else -1
            if q < 0 or abs(q // w - b // w) + abs(q % w - b % w) != 1:
                return i, Board(board.height, w, tuple(tiles)), True
        tiles[b], tiles[q] = tiles[q], 0
    return len(moves), Board(board.height, w, tuple(tiles)), False


def check_answer(a: Answer) -> str | None:
    from npuzzle.verifier import verify_moves

    start = time.perf_counter()
    try:
        verdict = verify_moves(a.board, a.moves, optimum=a.optimum)
    except (NPuzzleError, TypeError, ValueError) as e:
        if not isinstance(e, NPuzzleError):
            return f"{type(e).__name__} is not npuzzle's own"
        return None
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {str(e)[:80]}"
    if isinstance(a.moves, list) and len(a.moves) > 10_000_000:
        return "a list above the limit accepted"
    played, reached, illegal = _naive_replay(a.board, [m.value if hasattr(m, "value") else m for m in verdict.moves])
    if (verdict.illegal_index is not None) != illegal or verdict.played != played or verdict.reached != reached:
        return "a verdict that differs from a naive replay"
    if verdict.solved != (not illegal and reached.is_goal()):
        return "solved when it is not (or the other way)"
    if verdict.optimum is not None and verdict.solved and verdict.played < verdict.optimum:
        return "shorter than the optimum"
    if time.perf_counter() - start > 60:
        return "slow"
    return None
