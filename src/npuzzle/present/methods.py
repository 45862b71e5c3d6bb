"""The table of which options each search method takes (``search.registry.REGISTRY``), as the
command line's help and the documentation show it.

>>> print(options_table_text(("idastar", "beam"), [("--timeout", (True, True)), ("--weight", (False, False))]))
option      idastar  beam
--timeout      x      x
--weight       -      -
"""

from __future__ import annotations

from collections.abc import Sequence


def options_table_text(methods: Sequence[str], rows: Sequence[tuple[str, Sequence[bool]]]) -> str:
    """One line per option, an ``x`` under each method that takes it and ``-`` under the others."""
    first = max(len("option"), *(len(name) for name, _ in rows)) + 2
    widths = [len(m) + 2 for m in methods]
    lines = ["option".ljust(first) + "".join(m.center(w) for m, w in zip(methods, widths, strict=True)).rstrip()]
    for name, takes in rows:
        cells = "".join(("x" if t else "-").center(w) for t, w in zip(takes, widths, strict=True))
        lines.append((name.ljust(first) + cells).rstrip())
    return "\n".join(lines)
