"""The layers of the package (see docs/architecture.md), read from the source: every import,
function-level ones included, goes down the layers, never in a cycle; heuristics never import
searches; only heuristics, searches and the geometry drive kernels."""

from __future__ import annotations

from pathlib import Path

import pytest

import npuzzle

SRC = Path(npuzzle.__file__).parent

#: Each module's layer (the longest matching prefix decides): a module imports only modules of
#: its own layer or below, and never in a cycle. See docs/architecture.md.
LAYERS = {
    "npuzzle.errors": 0, "npuzzle.config": 0, "npuzzle.meters": 0, "npuzzle.locks": 0,
    "npuzzle.board": 1, "npuzzle.tables": 1,
    "npuzzle.notation": 2, "npuzzle.arguments": 2, "npuzzle.geometry": 2, "npuzzle.instances": 2, "npuzzle._kernels": 2,
    "npuzzle.costs": 2,
    "npuzzle.heuristics": 3,
    "npuzzle.search": 4,
    "npuzzle.knuth": 5, "npuzzle.stats": 5, "npuzzle.benchmark": 5, "npuzzle.present": 5, "npuzzle.cluster": 5,
    "npuzzle.analysis": 5, "npuzzle.dataset": 5, "npuzzle.verifier": 5, "npuzzle.grid": 5, "npuzzle.provenance": 5,
    "npuzzle.learning": 5,
    "npuzzle.cli": 6, "npuzzle.env": 6, "npuzzle": 6,
}
#: The modules that may call kernels (the kernels themselves aside).
KERNEL_DRIVERS = ("npuzzle.heuristics", "npuzzle.search", "npuzzle.geometry")


def _module_names() -> dict[str, Path]:
    out = {}
    for path in SRC.rglob("*.py"):
        parts = ["npuzzle", *path.relative_to(SRC).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, modules: set[str]) -> set[str]:
    """Every npuzzle module that ``name`` imports, at any depth of its code (function-level
    imports included). ``from X import y`` counts as importing ``X.y`` if that is a module."""
    import ast

    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        else:
            continue
        found |= {t for t in targets if t in modules and t != name}
    return found


def _layer(name: str) -> int:
    best = max((p for p in LAYERS if name == p or name.startswith(p + ".")), key=len)
    return LAYERS[best]


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    paths = _module_names()
    return {name: _imports(name, path, set(paths)) for name, path in paths.items()}


def test_imports_go_down_the_layers(graph):
    upward = sorted(f"{a} -> {b}" for a, deps in graph.items() for b in deps if _layer(b) > _layer(a))
    assert upward == []


def test_no_import_cycles(graph):
    cycles = []
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(path[path.index(nxt):] + [node, nxt]) if nxt in path else f"{node}->{nxt}")
            elif nxt not in state:
                visit(nxt, path + [node])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    assert cycles == []


def test_heuristics_never_import_searches(graph):
    assert [(a, b) for a, deps in graph.items() for b in deps
            if a.startswith("npuzzle.heuristics") and b.startswith("npuzzle.search")] == []


def test_kernels_are_driven_only_by_heuristics_and_searches(graph):
    assert sorted((a, b) for a, deps in graph.items() for b in deps
                  if b.startswith("npuzzle._kernels") and not a.startswith(("npuzzle._kernels", *KERNEL_DRIVERS))) == []


def test_the_import_reader_sees_function_level_imports(graph):
    assert "npuzzle.search" in graph["npuzzle"]  # ``solve`` imports it inside the function


def test_functions_outside_the_kernels_are_short():
    import ast

    long = []
    for name, path in _module_names().items():
        if "._kernels" in name:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > 60:
                    long.append(f"{name}.{node.name}: {lines} lines")
    assert long == []


# -- kernel ceilings ----------------------------------------------------------------------------

#: The ceilings of a numba kernel: its lines (from ``def`` to its last line) and its parameters
#: (a named tuple passed whole counts as one: that is how a kernel keeps under the second).
KERNEL_LINES, KERNEL_PARAMETERS = 150, 12
_SPLIT_COSTS = ("docs/benchmarks.md, 'The beam in one function' (bench/near_optimal.py --sizes: the beam split "
                "into functions 0.62-0.68 CPU s a board, in one function 0.56-0.60; cold compile 8.0/7.4 s against "
                "6.9/6.7 s, bench/compile_times.py) and 'Named kernel interfaces for A* and the beam' (each numba "
                "function of a kernel costs a fixed share of its compile: A*'s expansion went back into astar_slice)")
#: Kernels allowed above a ceiling: (file stem, kernel) -> (the most lines, the most parameters,
#: the measurement that justifies it). The numbers are today's: an exempt kernel cannot grow.
KERNEL_EXEMPT: dict[tuple[str, str], tuple[int, int, str]] = {
    ("beam", "beam_search"): (274, KERNEL_PARAMETERS, _SPLIT_COSTS),
    ("idastar", "ida_iteration"): (250, KERNEL_PARAMETERS, "the hot loop of every optimal 4x4 and 5x5 solve; "
                                   "the same cost of splitting as the beam's and A*'s, " + _SPLIT_COSTS
                                   + "; bench/korf100.py and bench/iteration_profile.py measure it"),
    ("focal", "focal_slice"): (151, KERNEL_PARAMETERS, "A*'s slice loop with FOCAL's heaps (one function for "
                               "focal search and DPS, docs/benchmarks.md 'Bounded-suboptimal searches', "
                               "bench/focal.py); " + _SPLIT_COSTS),
    ("pdb", "level_compact"): (KERNEL_LINES, 15, "no measurement: the compact build's arrays are to become a "
                               "named tuple (bench/pdb_build.py measures it)"),
    ("realtime", "repeat_steps"): (KERNEL_LINES, 14, "no measurement: the zone's scalars are to become a named "
                                   "tuple (bench/realtime.py measures it)"),
}


def _kernels() -> dict[tuple[str, str], tuple[int, int]]:
    """Every numba kernel of ``_kernels/`` (decorated by the project's ``njit``, passed to it by
    name, or made by a mode factory: a function defined inside another) -> (lines, parameters)."""
    import ast

    found = {}
    for path in sorted((SRC / "_kernels").glob("*.py")):
        if path.name == "jit.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        passed = {n.args[0].id for n in ast.walk(tree) if isinstance(n, ast.Call) and n.args
                  and isinstance(n.args[0], ast.Name) and ast.unparse(n.func).split(".")[-1] == "njit"}

        def visit(node: ast.AST, nested: bool, stem: str = path.stem, names: set[str] = passed) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.FunctionDef):
                    jitted = any(ast.unparse(d).split("(")[0].split(".")[-1] == "njit" for d in child.decorator_list)
                    if jitted or nested or child.name in names:
                        a = child.args
                        count = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + (a.vararg is not None) + (
                            a.kwarg is not None)
                        found[(stem, child.name)] = (child.end_lineno - child.lineno + 1, count)
                    visit(child, True)
                elif isinstance(child, ast.ClassDef):
                    visit(child, nested)

        visit(tree, False)
    return found


def test_kernels_stay_under_their_ceilings():
    """Every kernel at most ``KERNEL_LINES`` lines and ``KERNEL_PARAMETERS`` parameters, but the
    exempt ones, each at most its own numbers (which cite what justifies them)."""
    kernels = _kernels()
    assert {("idastar", "ida_iteration"), ("beam", "beam_search"), ("astar", "astar_slice"),
            ("bounds", "lc_child"), ("idastar", "up_to_parity")} <= set(kernels)  # the reader finds them
    over = []
    for key, (lines, parameters) in sorted(kernels.items()):
        most_lines, most_parameters, why = KERNEL_EXEMPT.get(key, (KERNEL_LINES, KERNEL_PARAMETERS, ""))
        if lines > most_lines or parameters > most_parameters:
            over.append(f"{key[0]}.{key[1]}: {lines} lines (at most {most_lines}), {parameters} parameters "
                        f"(at most {most_parameters})")
    assert over == []
    for key, (most_lines, most_parameters, why) in KERNEL_EXEMPT.items():
        assert key in kernels, f"{key} is exempt but is no kernel: take it off KERNEL_EXEMPT"
        assert (most_lines, most_parameters) != (KERNEL_LINES, KERNEL_PARAMETERS) and why
        lines, parameters = kernels[key]
        assert lines > KERNEL_LINES or parameters > KERNEL_PARAMETERS, f"{key} is under the ceilings now: take it off"
