"""Where an experiment's rows came from: the sidecar ``FILE.meta.json`` of a grid's output file
(``npuzzle bench ... --out FILE``), a ``grid-provenance`` record (``docs/json.md``).

It names the npuzzle version and, when npuzzle runs from a git checkout, its commit; the Python,
numba and numpy versions, the CPU model and the host name (left out on request), the date, the
command line, the limits, the axes' values, and each set with a hash of its positions. Every run
that adds rows to the file appends its own ``commands`` entry; a run whose version, commit, time
limit or sets (a set of the same name holding other positions) differ from the file's first is
refused unless mixing is allowed (``check``).

>>> s = set_entry("random:2x3:2:7", "standard", [(1, (1, 2, 3, 4, 0, 5)), (2, (1, 2, 3, 4, 5, 0))])
>>> s["name"], s["count"], len(s["sha256"])
('random:2x3:2:7', 2, 64)
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import platform
import socket
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from .errors import InvalidOptionError, NPuzzleError, quote_input

#: The sidecar's name: the output file's, with this appended.
SUFFIX = ".meta.json"
#: The record kind of a sidecar.
KIND = "grid-provenance"


def sidecar(path: str | Path) -> Path:
    """The sidecar of the output file ``path``: ``runs.csv`` -> ``runs.csv.meta.json``."""
    return Path(f"{path}{SUFFIX}")


def set_entry(name: str, goal: str, positions: Iterable[tuple[int, Sequence[int]]]) -> dict[str, Any]:
    """A set as the sidecar names it: its name, goal, number of positions, and the SHA-256 of its
    positions (each ``number:goal:tiles`` on a line), which differs if any position differs."""
    digest = hashlib.sha256()
    count = 0
    for number, tiles in positions:
        digest.update(f"{number}:{goal}:{','.join(map(str, tiles))}\n".encode())
        count += 1
    return {"name": name, "goal": goal, "count": count, "sha256": digest.hexdigest()}


def environment(argv: Sequence[str], version: str, *, host: bool = True) -> dict[str, Any]:
    """This run's environment: the npuzzle ``version`` (and commit, from a checkout), Python, numba,
    numpy, the CPU model, the host name (unless ``host`` is false), the date (UTC) and the
    command line."""
    out: dict[str, Any] = {"npuzzle": version}
    commit = git_commit()
    if commit is not None:
        out["commit"] = commit
    out.update(python=platform.python_version(), numba=_version("numba"), numpy=_version("numpy"), cpu=cpu_model())
    if host:
        out["host"] = socket.gethostname()
    out.update(date=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
               command=list(argv))
    return out


def _version(package: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return None


def git_commit() -> str | None:
    """The commit of the git checkout npuzzle runs from (``+dirty`` appended when tracked files
    are changed); None when it is installed, not run from a checkout, or git is missing."""
    root = Path(__file__).resolve().parents[2]  # src/npuzzle/provenance.py -> the checkout
    if not (root / ".git").exists():
        return None
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=10, check=True).stdout.strip()
        changed = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                                 capture_output=True, text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return f"{head}+dirty" if changed else head or None


def cpu_model() -> str | None:
    """The CPU's model name (Linux's ``/proc/cpuinfo``, else what ``platform`` says), None if unknown."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            name, _, value = line.partition(":")
            if name.strip() in ("model name", "Model", "Hardware") and value.strip():
                return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or None


def record(this: dict[str, Any], limits: dict[str, Any], axes: dict[str, list[Any]],
           sets: list[dict[str, Any]]) -> dict[str, Any]:
    """A new sidecar: the run's version, commit, limits, axes and sets, and its entry."""
    from .present.common import record_head

    head: dict[str, Any] = {k: this[k] for k in ("npuzzle", "commit") if k in this}
    return {**record_head(KIND), **head, "limits": limits, "axes": axes, "sets": sets, "commands": [this]}


def read(path: str | Path) -> dict[str, Any] | None:
    """The sidecar of the output file ``path``, None if there is none."""
    meta = sidecar(path)
    if not meta.exists():
        return None
    try:
        data = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise InvalidOptionError(f"cannot read {quote_input(str(meta))}: {e}") from None
    if not isinstance(data, dict) or data.get("record") != KIND:
        raise InvalidOptionError(f"{quote_input(str(meta))} is not a grid's provenance record")
    return data


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """How the new run's provenance ``new`` differs from the file's ``old`` in what would make
    their rows not comparable: the npuzzle version, the commit, the limits, or a set of the same
    name and goal holding other positions. Another host, Python or numba version, more axis
    values or more sets are no difference: their rows are still one experiment's."""
    out = []
    for name in ("npuzzle", "commit"):
        if old.get(name) != new.get(name):
            out.append(f"{'npuzzle version' if name == 'npuzzle' else name} {old.get(name) or 'none'}, "
                       f"now {new.get(name) or 'none'}")
    if old.get("limits") != new.get("limits"):
        out.append(f"limits {_limits_text(old.get('limits'))}, now {_limits_text(new.get('limits'))}")
    before = {(s["name"], s["goal"]): s for s in old.get("sets", [])}
    for s in new.get("sets", []):
        was = before.get((s["name"], s["goal"]))
        if was is not None and was["sha256"] != s["sha256"]:
            out.append(f"the set {s['name']} holds other positions ({was['count']}, now {s['count']})")
    return out


def _limits_text(limits: dict[str, Any] | None) -> str:
    shown = {k: v for k, v in (limits or {}).items() if v is not None}
    return ", ".join(f"{k} {v:g}" if isinstance(v, float) else f"{k} {v}" for k, v in shown.items()) or "none"


def merged(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The file's sidecar after a resumed run: its first run's facts, the new sets and axis values
    added, and the new entry appended."""
    sets = list(old.get("sets", []))
    known = {(s["name"], s["goal"], s["sha256"]) for s in sets}
    sets += [s for s in new["sets"] if (s["name"], s["goal"], s["sha256"]) not in known]
    axes = {name: list(values) for name, values in old.get("axes", {}).items()}
    for name, values in new["axes"].items():
        axes.setdefault(name, [])
        axes[name] += [v for v in values if v not in axes[name]]
    return {**old, "axes": axes, "sets": sets, "commands": [*old.get("commands", []), *new["commands"]]}


def write(path: str | Path, data: dict[str, Any]) -> None:
    """Write the sidecar of ``path`` whole (a temporary file renamed over it)."""
    from .present.common import write_error_text

    meta = sidecar(path)
    temporary = meta.with_name(f".{meta.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        os.replace(temporary, meta)
    except OSError as e:
        temporary.unlink(missing_ok=True)
        raise NPuzzleError(write_error_text(e, str(meta))) from None

