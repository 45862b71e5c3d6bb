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
    "npuzzle.analysis": 5, "npuzzle.dataset": 5, "npuzzle.verifier": 5, "npuzzle.grid": 5,
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
