"""Fuzz run: the position parsers, the command line and the table loader on hostile input, forged
distance tables, interrupted output, misuse of the Python API, several writers on one output
file, the batched stepper's and the environment's arguments and proposed answers to the verifier,
for longer than the test suite does (tests/test_fuzz.py and tests/test_fuzz_inputs.py run the same
generators and checks with a fixed seed and a small budget).

    python bench/fuzz.py [--seed 1] [--parser 20000] [--cli 150] [--tables 20000] [--forged 300]
                         [--interrupted 40] [--api 2000] [--writers 12] [--stepper 3000]
                         [--env 300] [--verifier 3000]

Prints, for each target, the number of runs and the failures by kind (with the first input of
each kind), and exits with status 1 if anything failed. Runs in a temporary table store.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fuzzing import (  # noqa: E402
    FORGED_OUTCOMES,
    INTERRUPTED_OUTCOMES,
    check_cli,
    check_forged,
    check_interrupted,
    check_misuse,
    check_parse,
    check_table,
    cli_argv,
    forgery,
    interruption,
    misuse,
    mutate,
    position_text,
    shape,
    shown,
)
from fuzzing_inputs import (  # noqa: E402
    answer,
    check_answer,
    check_env,
    check_stepper,
    check_writers,
    env_call,
    stepper_call,
    writers,
)

Failures = dict[str, tuple[int, str]]
TARGETS = ("parser", "cli", "tables", "forged", "interrupted", "api", "writers", "stepper", "env", "verifier")


def run(name: str, count: int, one: Callable[[random.Random], tuple[str | None, str]], seed: int) -> Failures:
    """``count`` runs of ``one`` (the failure kind or None, and the input), counted by kind."""
    rnd = random.Random(seed)
    found: Failures = {}
    kinds: collections.Counter[str] = collections.Counter()
    start = time.perf_counter()
    for _ in range(count):
        kind, shown = one(rnd)
        if kind is not None:
            kinds[kind] += 1
            found.setdefault(kind, (0, shown))
    seconds = time.perf_counter() - start
    print(f"{name}: {count:,} runs, {sum(kinds.values()):,} failures, {seconds:.1f} s")
    for kind, n in kinds.most_common():
        print(f"  {n:6,}  {kind}   first input: {found[kind][1][:160]!r}")
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--parser", type=int, default=20_000, help="parser inputs (each parsed three ways)")
    ap.add_argument("--cli", type=int, default=150, help="command lines (one process each)")
    ap.add_argument("--tables", type=int, default=20_000, help="damaged table loads")
    ap.add_argument("--forged", type=int, default=300, help="forged BFS tables (each solved on a few positions)")
    ap.add_argument("--interrupted", type=int, default=40,
                    help="--moves-out runs stopped by Ctrl-C or a file-size limit (one process each)")
    ap.add_argument("--api", type=int, default=2_000, help="calls of the Python API with a wrong argument")
    ap.add_argument("--writers", type=int, default=12,
                    help="groups of 2-3 processes started together on one output file")
    ap.add_argument("--stepper", type=int, default=3_000, help="calls of the batched stepper")
    ap.add_argument("--env", type=int, default=300, help="environments made, reset and stepped")
    ap.add_argument("--verifier", type=int, default=3_000, help="proposed answers verified")
    ap.add_argument("--only", help="run only these targets (comma-separated: parser, cli, tables, forged, "
                    "interrupted, api, writers, stepper, env, verifier)")
    args = ap.parse_args()
    if args.only:
        keep = set(args.only.split(","))
        for name in TARGETS:
            if name not in keep:
                setattr(args, name, 0)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        os.environ["NPUZZLE_DATA_DIR"] = str(tmp / "store")
        failed = run("parser", args.parser, lambda r: _parse(r, tmp), args.seed)
        failed |= run("command line", args.cli, lambda r: _cli(r, tmp), args.seed)
        failed |= run("table loader", args.tables, _table_runner(), args.seed)
        failed |= run("forged tables", args.forged, _forged, args.seed)
        _outcomes(FORGED_OUTCOMES)
        failed |= run("interrupted output", args.interrupted, lambda r: _interrupted(r, tmp), args.seed)
        _outcomes(INTERRUPTED_OUTCOMES)
        failed |= run("API misuse", args.api, _api, args.seed)
        failed |= run("writers on one output", args.writers, lambda r: _writers(r, tmp), args.seed)
        failed |= run("stepper", args.stepper, _stepper, args.seed)
        failed |= run("environment", args.env, _env, args.seed)
        failed |= run("verifier", args.verifier, _verifier, args.seed)
    print(f"total: {time.perf_counter() - start:.0f} s")
    return 1 if failed else 0


def _outcomes(counts: collections.Counter[str]) -> None:
    print("  outcomes: " + "; ".join(f"{kind} {n}" for kind, n in sorted(counts.items())))


def _forged(rnd: random.Random) -> tuple[str | None, str]:
    f = forgery(rnd)
    return check_forged(f), repr(f)


def _interrupted(rnd: random.Random, tmp: Path) -> tuple[str | None, str]:
    case = interruption(rnd)
    previous = None if case.previous is None else len(case.previous)
    described = (f"{case.side}x{case.side} seed {case.seed} {case.method}: {case.stop} after={case.after:.2f} "
                 f"from_tmp={case.from_tmp} fsize={case.fsize} previous={previous} bytes")
    return check_interrupted(case, tmp, tmp / "cli-store"), described


def _api(rnd: random.Random) -> tuple[str | None, str]:
    m, index = misuse(rnd)
    return check_misuse(m, index), f"{m.function}({m.parameter}={shown(m.values[index])})"


def _writers(rnd: random.Random, tmp: Path) -> tuple[str | None, str]:
    case = writers(rnd)
    return check_writers(case, tmp), repr(case)


def _stepper(rnd: random.Random) -> tuple[str | None, str]:
    c = stepper_call(rnd)
    return check_stepper(c), repr(c)


def _env(rnd: random.Random) -> tuple[str | None, str]:
    c = env_call(rnd)
    return check_env(c), repr(c)


def _verifier(rnd: random.Random) -> tuple[str | None, str]:
    a = answer(rnd)
    return check_answer(a), f"{a.board!r} {str(a.moves)[:100]!r} optimum={a.optimum}"


def _parse(rnd: random.Random, tmp: Path) -> tuple[str | None, str]:
    text = position_text(rnd)
    return check_parse(text, shape(rnd), tmp), text


def _cli(rnd: random.Random, tmp: Path) -> tuple[str | None, str]:
    argv = cli_argv(rnd)
    stdin = position_text(rnd).encode("utf-8", "replace")
    return check_cli(argv, tmp / "cli-store", stdin), " ".join(argv)


def _table_runner() -> Callable[[random.Random], tuple[str | None, str]]:
    """Damaged copies of a small pattern database and a BFS table, loaded one at a time."""
    from npuzzle import tables
    from npuzzle.heuristics import pattern_db
    from npuzzle.search import bfs

    pattern_db.build("3-2", 2, 3, "standard", progress=False)
    bfs.distance_table(2, 3, save=True, progress=False)
    keys = [pattern_db.table_key("3-2", 2, 3, "standard"), tables.TableKey("bfs", 2, 3, "standard")]
    saved = [(key, tables.table_path(key).read_bytes(), tables.load_table(key)) for key in keys]

    def one(rnd: random.Random) -> tuple[str | None, str]:
        key, raw, reference = rnd.choice(saved)
        damaged = mutate(rnd, raw)
        try:
            return check_table(tables.table_path(key), key, damaged, reference), f"{key.filename}: {len(damaged)} bytes"
        finally:
            tables.table_path(key).write_bytes(raw)

    return one


if __name__ == "__main__":
    sys.exit(main())
